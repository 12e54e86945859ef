// English and Arabic. Every string the client shows comes from here; the
// page is laid out right to left (dir="rtl") in Arabic. The browser's
// language decides the first choice; the switch in the header remembers the
// player's. tests/web checks that both dictionaries have the same keys and
// placeholders, and the browser tests that an Arabic page shows no English.
//
// A value is a string with {placeholders}, or for counts an object of
// plural forms chosen by Intl.PluralRules ({one, other} in English; zero,
// one, two, few, many, other in Arabic).

import { en } from "./lang/en.js";
import { ar } from "./lang/ar.js";

export const DICTS = { en, ar };
export const LANGS = ["en", "ar"];
const STORE_KEY = "fh.lang";

let current = "en";
const listeners = [];
const missing = new Set();

/** The current language code ("en" or "ar"). */
export const lang = () => current;

/** Choose the first language: ?lang=, then the saved choice, then the browser's. */
export function initLang(fromUrl) {
  let choice = LANGS.includes(fromUrl) ? fromUrl : null;
  if (!choice) {
    try {
      const saved = localStorage.getItem(STORE_KEY);
      if (LANGS.includes(saved)) choice = saved;
    } catch {
      // storage may be blocked; fall through to the browser's language
    }
  }
  if (!choice) {
    // The first of the browser's languages that we speak; English otherwise.
    const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
    const spoken = prefs.map((l) => String(l).toLowerCase().split("-")[0]).find((l) => LANGS.includes(l));
    choice = spoken || "en";
  }
  current = choice;
  applyDocument();
  return current;
}

function applyDocument() {
  document.documentElement.lang = current;
  document.documentElement.dir = current === "ar" ? "rtl" : "ltr";
}

/** Switch language, remember it and redraw (through the listeners). */
export function setLang(code) {
  if (!LANGS.includes(code) || code === current) return;
  current = code;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // not remembered: fine
  }
  applyDocument();
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

function lookup(key) {
  const dict = DICTS[current];
  if (Object.hasOwn(dict, key)) return dict[key];
  if (!missing.has(key)) {
    missing.add(key);
    console.warn(`i18n: no ${current} text for "${key}"`);
  }
  return Object.hasOwn(en, key) ? en[key] : key;
}

/** The text for `key` in the current language, with {placeholders} filled. */
export function t(key, vars = {}) {
  let value = lookup(key);
  if (typeof value === "object" && value !== null) {
    const n = Number(vars.n ?? 0);
    const form = new Intl.PluralRules(current).select(n);
    value = value[form] ?? value.other;
  }
  return String(value).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Whether the current language has a text for `key`. */
t.has = (key) => Object.hasOwn(DICTS[current], key);

// ---------------------------------------------------------- game words

const RANK_KEYS = { 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };

/** "Queen of diamonds" / "بنت ديناري". */
export function cardName(card) {
  return t("card_name", { rank: t(`rank.${RANK_KEYS[card[0]]}`), suit: t(`suit.${card[1]}`) });
}

/** "clubs" / "السباتي". */
export const suitName = (suit) => t(`suit_plural.${suit}`);

/** A seat with nobody named in it: "Seat 2". */
export const seatLabel = (seat) => t("seat_n", { n: seat + 1 });

/** A change of score with its sign: "+4", "−4", "0" (use inside dir="ltr"). */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** A fraction as a percentage in the current language. */
export const pct = (x) => new Intl.NumberFormat(current === "ar" ? "ar-u-nu-latn" : "en", { style: "percent", maximumFractionDigits: 0 }).format(x);

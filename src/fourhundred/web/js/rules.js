// The table settings of rules.md as data: ranges, presets and bid values.
// The server validates every setting; this copy drives the forms and the
// replay viewer. tests/web checks it against the engine's own presets.

import { t } from "./i18n.js";

export const STANDARD = Object.freeze({
  target: 41,
  min_bid: 2,
  escalating_min_bid: true,
  min_total: 11,
  escalating_total: false,
  scoring: "lebanese",
  five_six_face_at_30: false,
  big_bids: "none",
  thirteen_bid: false,
  partner_rule: "positive",
  five_to_run: false,
  no_face_card_redeal: false,
});

export const PRESETS = Object.freeze({
  standard: STANDARD,
  traditional: { ...STANDARD, five_six_face_at_30: true, thirteen_bid: true },
  jawaker: {
    ...STANDARD,
    five_six_face_at_30: true,
    thirteen_bid: true,
    escalating_total: true,
    big_bids: "ten_40",
  },
  classic: { ...STANDARD, scoring: "classic" },
  syrian: { ...STANDARD, min_bid: 1, scoring: "classic", escalating_min_bid: false },
  quick: { ...STANDARD, target: 31 },
});

export const PRESET_NAMES = Object.keys(PRESETS);
export const TURN_TIMERS = [15, 30, 45, 60, 90];
export const TARGETS_OFFERED = [31, 41, 44, 51, 61];
export const TABLE_KINDS = ["private", "casual"];

/** Every setting with the form control it takes, in the order shown. */
export const SETTINGS = [
  { name: "target", type: "int", min: 11, max: 200, offered: TARGETS_OFFERED },
  { name: "min_bid", type: "int", min: 1, max: 4 },
  { name: "escalating_min_bid", type: "bool" },
  { name: "min_total", type: "int", min: 9, max: 13 },
  { name: "escalating_total", type: "bool" },
  { name: "scoring", type: "choice", choices: ["lebanese", "classic"] },
  { name: "five_six_face_at_30", type: "bool" },
  { name: "big_bids", type: "choice", choices: ["none", "ten_40", "eleven_50"] },
  { name: "thirteen_bid", type: "bool" },
  { name: "partner_rule", type: "choice", choices: ["positive", "non_negative"] },
  { name: "five_to_run", type: "bool" },
  { name: "no_face_card_redeal", type: "bool" },
];

/** Settings from a record's or a form's short form ({preset, ...changes}). */
export function resolveSettings(rules) {
  const { preset = "standard", ...changes } = rules || {};
  const base = PRESETS[preset];
  if (!base) throw new Error(`unknown preset ${preset}`);
  return { ...base, ...changes };
}

/** The preset these settings equal, or null. */
export function presetOf(settings) {
  for (const [name, p] of Object.entries(PRESETS)) {
    if (SETTINGS.every(({ name: k }) => p[k] === settings[k])) return name;
  }
  return null;
}

const LEBANESE = [0, 1, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36];
const CLASSIC = [0, 1, 2, 3, 4, 5, 6, 14, 16, 18, 20, 22, 24];

/** Points a bid of 1..12 wins or loses for a player with this score (rules.md). */
export function bidValue(settings, bid, ownScore) {
  if (settings.big_bids === "ten_40" && bid >= 10) return 40;
  if (settings.big_bids === "eleven_50" && bid >= 11) return 50;
  if (settings.scoring === "classic") return CLASSIC[bid];
  if (settings.five_six_face_at_30 && ownScore >= 30 && (bid === 5 || bid === 6)) return bid;
  return LEBANESE[bid];
}

/** The total the four bids must reach (escalating_total included). */
export function requiredTotal(settings, scores) {
  let need = settings.min_total;
  if (settings.escalating_total) {
    const top = Math.max(...scores);
    if (top >= 50) need = Math.max(need, 14);
    else if (top >= 40) need = Math.max(need, 13);
    else if (top >= 30) need = Math.max(need, 12);
  }
  return need;
}

function qualifies(settings, scores, team) {
  const a = scores[team];
  const b = scores[team + 2];
  const floor = settings.partner_rule === "positive" ? 1 : 0;
  return (a >= settings.target && b >= floor) || (b >= settings.target && a >= floor);
}

/** The team that has won after a played hand, or null to play on. */
export function winningTeam(settings, scores) {
  const q0 = qualifies(settings, scores, 0);
  const q1 = qualifies(settings, scores, 1);
  if (q0 && q1) {
    const t0 = scores[0] + scores[2];
    const t1 = scores[1] + scores[3];
    if (t0 === t1) return null;
    return t0 > t1 ? 0 : 1;
  }
  if (q0) return 0;
  if (q1) return 1;
  return null;
}

// ------------------------------------------------------------ plain words

/** A setting's value in words ("41 points", "On", "Lebanese"). */
export function valueText(name, value) {
  if (typeof value === "boolean") return value ? t("on") : t("off");
  if (name === "target") return t("points", { n: value });
  if (name === "min_bid" || name === "min_total") return t("tricks_n", { n: value });
  return t(`set.${name}.${value}`);
}

/** One line that explains what a setting does with its current value. */
export function settingExplained(name, value) {
  if (typeof value === "boolean") return t(`set.${name}.help`);
  if (name === "target") return t("set.target.help", { n: value });
  if (name === "min_bid") return t("set.min_bid.help", { n: value });
  if (name === "min_total") return t("set.min_total.help", { n: value });
  return t(`set.${name}.${value}.help`);
}

/** [{name, label, value, help}] describing every setting, for the waiting room. */
export function describeSettings(settings) {
  return SETTINGS.map(({ name }) => ({
    name,
    label: t(`set.${name}`),
    value: valueText(name, settings[name]),
    help: settingExplained(name, settings[name]),
    on: settings[name] !== false,
  }));
}

/** A one-line summary for lobby lists: "Standard · 41 points · Lebanese".
 * `preset` and `changes` are the server's (the preset the host started from
 * and what was changed); without them the preset is recognised if equal. */
export function summary(settings, preset = null, changes = null) {
  const base = preset && PRESETS[preset] ? preset : presetOf(settings);
  const changed = preset ? Object.keys(changes || {}).length > 0 : base === null;
  let name = base ? t(`preset.${base}`) : t("preset.custom");
  if (base && changed) name = t("preset.changed", { name });
  const parts = [name, t("points", { n: settings.target })];
  parts.push(t(`set.scoring.${settings.scoring}`));
  if (settings.thirteen_bid) parts.push(t("set.thirteen_bid.short"));
  if (settings.big_bids !== "none") parts.push(t(`set.big_bids.${settings.big_bids}`));
  return parts.join(" · ");
}

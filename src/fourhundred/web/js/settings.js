// The table settings in words, and the server's catalogue of them
// (GET /api/presets: the presets, each setting's range, choices or switch,
// the targets offered and the turn timers). Nothing about the rules is
// written here: the server validates every setting, and the forms are built
// from its catalogue.

import { api } from "./net.js";
import { t } from "./i18n.js";

/**
 * @typedef {Record<string, number | string | boolean>} Settings
 * @typedef {{name: string, note: string, settings: Settings}} Preset
 * @typedef {{presets: Preset[], timers: number[], targets_offered: number[],
 *   ranges: Record<string, [number, number]>, choices: Record<string, string[]>,
 *   switches: string[], bots: string[]}} Catalog
 */

/** @type {Promise<Catalog> | null} */
let loading = null;

/** The server's catalogue of presets and settings (asked for once). */
export function loadCatalog() {
  if (!loading) {
    loading = api.presets().catch((err) => {
      loading = null; // ask again next time
      throw err;
    });
  }
  return loading;
}

/** The settings of a preset in the catalogue (a copy), or null. */
export function presetSettings(catalog, name) {
  const p = catalog.presets.find((x) => x.name === name);
  return p ? { ...p.settings } : null;
}

/**
 * Every setting with the control it takes, in the order the server lists
 * them: [{name, type: "int" | "choice" | "bool", min, max, choices, offered}].
 * @param {Catalog} catalog
 */
export function settingSpecs(catalog) {
  return Object.keys(catalog.presets[0].settings).map((name) => {
    if (catalog.ranges[name]) {
      const [min, max] = catalog.ranges[name];
      return { name, type: "int", min, max, offered: name === "target" ? catalog.targets_offered : null };
    }
    if (catalog.choices[name]) return { name, type: "choice", choices: catalog.choices[name] };
    return { name, type: "bool" };
  });
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

/** [{name, label, value, help, on}] for every setting (as the server lists them). */
export function describeSettings(settings) {
  return Object.keys(settings).map((name) => ({
    name,
    label: t(`set.${name}`),
    value: valueText(name, settings[name]),
    help: settingExplained(name, settings[name]),
    on: settings[name] !== false,
  }));
}

/** The rules' name: the preset's ("Standard"), or custom rules (with the
 * preset they came from). `preset` and `changes` are the server's: the
 * preset the host started from and what was changed from it. */
export function presetLabel(preset, changes) {
  if (!preset) return t("preset.custom");
  const name = t.has(`preset.${preset}`) ? t(`preset.${preset}`) : preset;
  return Object.keys(changes || {}).length > 0 ? t("preset.changed", { name }) : name;
}

/** A one-line summary for lobby lists: "Standard · 41 points · Lebanese". */
export function summary(settings, preset, changes) {
  const parts = [presetLabel(preset, changes), t("points", { n: settings.target })];
  parts.push(t(`set.scoring.${settings.scoring}`));
  if (settings.thirteen_bid) parts.push(t("set.thirteen_bid.short"));
  if (settings.big_bids !== "none") parts.push(t(`set.big_bids.${settings.big_bids}`));
  return parts.join(" · ");
}

// The settings form (create a table or a tournament, the host's changes)
// and the list of a table's rules, both drawn from the server's catalogue
// (GET /api/presets): the client checks no rule itself.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { describeSettings, presetSettings, settingExplained, settingSpecs, valueText } from "./settings.js";
import { formMessage, showError } from "./ui.js";

/** The kinds of table a person may create (Ranked tables come from the queue). */
const TABLE_KINDS = ["private", "casual"];

function field(label, control, helpId, help) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: control.id }, label),
    control,
    h("p", { class: "help", id: helpId }, help),
  );
}

/**
 * The form for a table's settings (create a table, or the host's changes),
 * built from the server's catalogue (settings.js, GET /api/presets).
 * initial: {kind, preset, settings, timer}; withKind: show Private / Casual.
 * onSubmit({kind, preset, settings (changes from the preset), timer}).
 * lead: more fields shown first (a tournament's name, format...), read by
 * the caller's onSubmit; fieldError(field): a sentence for a refusal that
 * names one of them (null: the usual error text).
 * @param {{catalog: import("./settings.js").Catalog, initial?: {kind?: string, preset?: string,
 *   settings?: Record<string, any>, timer?: number}, withKind?: boolean, submitLabel: string,
 *   onSubmit: (choice: any) => Promise<void>, idPrefix?: string, lead?: HTMLElement | null,
 *   fieldError?: (field: string) => string | null}} opts
 */
export function settingsForm({ catalog, initial = {}, withKind = false, submitLabel, onSubmit, idPrefix = "s", lead = null, fieldError = () => null }) {
  const first = presetSettings(catalog, initial.preset) ? initial.preset : catalog.presets[0].name;
  const SETTINGS = settingSpecs(catalog);
  const state = {
    kind: initial.kind || "private",
    preset: first,
    settings: { ...presetSettings(catalog, first), ...(initial.settings || {}) },
    timer: initial.timer && catalog.timers.includes(initial.timer) ? initial.timer : catalog.timers.includes(30) ? 30 : catalog.timers[0],
  };
  const msg = formMessage();
  const form = h("form", { class: "settings-form", novalidate: true });
  const controls = {};
  const helps = {};
  // The setting an error message is about ("" for the whole form): the
  // message goes once that value is put right (any change, for the form).
  let wrong = null;
  const inRange = (name) => {
    const spec = SETTINGS.find((x) => x.name === name);
    const v = state.settings[name];
    return !spec || spec.type !== "int" || (Number.isInteger(v) && v >= spec.min && v <= spec.max);
  };
  const fixed = (name) => {
    if (wrong === null || (wrong !== "" && (name !== wrong || !inRange(name)))) return;
    wrong = null;
    msg.textContent = "";
    msg.classList.remove("error");
  };

  const refresh = () => {
    for (const { name } of SETTINGS) {
      const c = controls[name];
      const v = state.settings[name];
      if (c.type === "checkbox") c.checked = v;
      else c.value = String(v);
      helps[name].textContent = settingExplained(name, v);
    }
    for (const r of form.querySelectorAll("input[name=preset]")) r.checked = r.value === state.preset;
  };

  const kindBox = withKind
    ? h(
        "fieldset",
        { class: "choice-cards kinds" },
        h("legend", {}, t("table_kind")),
        TABLE_KINDS.map((k) =>
          h(
            "label",
            { class: "choice-card" },
            h("input", {
              type: "radio",
              name: "kind",
              value: k,
              checked: state.kind === k,
              onchange: () => {
                state.kind = k;
                fixed("kind");
              },
            }),
            h("span", { class: "choice-title" }, t(`kind.${k}`)),
            h("span", { class: "choice-help" }, t(`kind.${k}.help`)),
          ),
        ),
      )
    : null;

  const presetBox = h(
    "fieldset",
    { class: "choice-cards presets" },
    h("legend", {}, t("preset")),
    catalog.presets.map(({ name: p, note }) =>
      h(
        "label",
        { class: "choice-card" },
        h("input", {
          type: "radio",
          name: "preset",
          value: p,
          checked: state.preset === p,
          onchange: () => {
            state.preset = p;
            state.settings = presetSettings(catalog, p);
            refresh();
            if (wrong !== "timer") fixed(wrong); // every setting is the preset's again
          },
        }),
        h("span", { class: "choice-title" }, t.has(`preset.${p}`) ? t(`preset.${p}`) : p),
        h("span", { class: "choice-help" }, t.has(`preset.${p}.note`) ? t(`preset.${p}.note`) : note),
      ),
    ),
  );

  const rows = SETTINGS.map((spec) => {
    const { name } = spec;
    const id = `${idPrefix}-${name}`;
    const helpId = `${id}-help`;
    let control;
    const set = (value) => {
      state.settings[name] = value;
      helps[name].textContent = settingExplained(name, value);
      fixed(name);
    };
    if (spec.type === "bool") {
      control = h("input", {
        type: "checkbox",
        id,
        name,
        "aria-describedby": helpId,
        onchange: (e) => set(e.target.checked),
      });
      const help = h("p", { class: "help", id: helpId });
      helps[name] = help;
      controls[name] = control;
      return h("div", { class: "field switch" }, h("label", { for: id }, control, h("span", {}, t(`set.${name}`))), help);
    }
    if (name === "target") {
      control = h("input", {
        type: "number",
        id,
        name,
        min: spec.min,
        max: spec.max,
        step: 1,
        inputmode: "numeric",
        list: `${id}-list`,
        "aria-describedby": helpId,
        oninput: (e) => set(Number(e.target.value)),
      });
      const list = h("datalist", { id: `${id}-list` }, spec.offered.map((n) => h("option", { value: n })));
      const chips = h(
        "div",
        { class: "chips", role: "group", "aria-label": t("targets_offered") },
        spec.offered.map((n) =>
          h(
            "button",
            {
              type: "button",
              class: "chip-btn",
              onclick: () => {
                control.value = String(n);
                set(n);
              },
            },
            n,
          ),
        ),
      );
      controls[name] = control;
      helps[name] = h("p", { class: "help", id: helpId });
      return h("div", { class: "field" }, h("label", { for: id }, t(`set.${name}`)), h("div", { class: "inline" }, control, chips), list, helps[name]);
    }
    const options =
      spec.type === "int"
        ? Array.from({ length: spec.max - spec.min + 1 }, (_, i) => spec.min + i)
        : spec.choices;
    control = h(
      "select",
      {
        id,
        name,
        "aria-describedby": helpId,
        onchange: (e) => set(spec.type === "int" ? Number(e.target.value) : e.target.value),
      },
      options.map((o) => h("option", { value: o }, valueText(name, o))),
    );
    controls[name] = control;
    const f = field(t(`set.${name}`), control, helpId, "");
    helps[name] = f.querySelector(".help");
    return f;
  });

  const timerId = `${idPrefix}-timer`;
  const timer = h(
    "select",
    {
      id: timerId,
      name: "timer",
      "aria-describedby": `${timerId}-help`,
      onchange: (e) => {
        state.timer = Number(e.target.value);
        fixed("timer");
      },
    },
    catalog.timers.map((n) => h("option", { value: n, selected: n === state.timer }, t("seconds_n", { n }))),
  );

  form.append(
    lead || "",
    kindBox || "",
    presetBox,
    h(
      "details",
      { class: "all-settings", open: true },
      h("summary", {}, t("all_settings")),
      h("div", { class: "settings-grid" }, rows, field(t("turn_timer"), timer, `${timerId}-help`, t("turn_timer.help"))),
    ),
    msg,
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, submitLabel)),
  );
  refresh();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!inRange("target")) {
      const [lo, hi] = catalog.ranges.target;
      msg.textContent = t("err.target_range", { lo, hi });
      msg.classList.add("error");
      wrong = "target";
      controls.target.focus();
      return;
    }
    const base = presetSettings(catalog, state.preset);
    const changes = {};
    for (const { name } of SETTINGS) if (state.settings[name] !== base[name]) changes[name] = state.settings[name];
    msg.textContent = "";
    wrong = null;
    try {
      await onSubmit({ kind: state.kind, preset: state.preset, settings: changes, timer: state.timer });
    } catch (err) {
      const field = err && err.field ? String(err.field) : "";
      const name = field.startsWith("settings.") ? field.slice(9) : field === "timer" ? "timer" : "";
      showError(msg, err);
      const about = field ? fieldError(field) : null;
      if (about) msg.textContent = about;
      wrong = name;
      if (name === "timer") timer.focus();
      else if (name) controls[name]?.focus();
    }
  });
  return form;
}

/** Every setting in plain words (waiting room, rules dialog). */
export function settingsList(settings, timer) {
  return h(
    "dl",
    { class: "settings-list" },
    describeSettings(settings).map((d) =>
      h(
        "div",
        { class: ["setting", d.on ? "on" : "off"] },
        h("dt", {}, d.label, h("span", { class: "value" }, d.value)),
        h("dd", {}, d.help),
      ),
    ),
    timer
      ? h(
          "div",
          { class: "setting on" },
          h("dt", {}, t("turn_timer"), h("span", { class: "value" }, t("seconds_n", { n: timer }))),
          h("dd", {}, t("turn_timer.help")),
        )
      : null,
  );
}

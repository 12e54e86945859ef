// Shared pieces of the screens: dialogs, the settings form, chat, messages.

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { describeSettings, loadCatalog, presetSettings, settingExplained, settingSpecs, valueText } from "./settings.js";

/** The kinds of table a person may create (Ranked tables come from the queue). */
const TABLE_KINDS = ["private", "casual"];

let dialogSeq = 0;

/**
 * A modal <dialog> (Escape closes it; focus returns where it was).
 * @param {{title: string, body: any, actions?: any[], className?: string, onClose?: () => void}} opts
 */
export function openDialog({ title, body, actions = [], className = "", onClose }) {
  const back = document.activeElement;
  const id = `dlg-${++dialogSeq}`;
  const dialog = h(
    "dialog",
    { class: ["dialog", className], "aria-labelledby": id },
    h(
      "div",
      { class: "dialog-head" },
      h("h2", { id }, title),
      h("button", { type: "button", class: "icon-btn close", "aria-label": t("close"), onclick: () => dialog.close() }, "×"),
    ),
    h("div", { class: "dialog-body" }, body),
    actions.length ? h("div", { class: "dialog-actions" }, actions) : null,
  );
  dialog.addEventListener("close", () => {
    dialog.remove();
    onClose?.();
    if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true });
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  // Start on the dialog itself (its title is read out); Tab goes on to the
  // controls. Focusing the first control would flash a ring on "close".
  dialog.tabIndex = -1;
  dialog.focus();
  return dialog;
}

/** An error or info line under a form. */
export function formMessage() {
  return h("p", { class: "form-msg", role: "alert", "aria-live": "assertive" });
}

export function showError(el, err) {
  el.textContent = errorText(err);
  el.classList.add("error");
}

// Errors whose server message says which input or rule is to blame (a
// person can act on it). Others (a stale version, a lost connection) are
// said in the client's own words only: server internals such as version
// numbers never reach the screen.
const EXPLAINED = new Set(["bad_request", "bad_setting", "illegal", "not_allowed", "conflict"]);

/**
 * The server's catalogue of settings for a dialog, or null once `say` has
 * told the person why it could not be had.
 * @param {(text: string) => void} say
 */
export async function catalogOrSay(say) {
  try {
    return await loadCatalog();
  } catch (err) {
    say(errorText(err));
    return null;
  }
}

/** A player-facing sentence for an ApiError or a socket error. */
export function errorText(err) {
  if (!err) return "";
  const code = err.code || "unknown";
  const wait = Number(err.retryAfter);
  if (code === "rate_limited" && wait > 0) return t("err.rate_limited_in", { n: wait });
  // A wrong password on the account page is just that (not "not signed in").
  if (code === "unauthorized" && err.field) return t("err.wrong_password");
  // The login's own 401 says it all; its message would repeat it.
  if (code === "unauthorized") return t("err.unauthorized");
  const key = `err.${code}`;
  const known = t.has(key) ? t(key) : t("err.unknown");
  // The server's message is English only, so shown in English pages.
  if (err.message && lang() === "en" && EXPLAINED.has(code)) return `${known} (${err.message})`;
  return known;
}

// ----------------------------------------------------------- the settings

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

// ----------------------------------------------------------------- chat

// What the player typed and the last refusal of the chat being drawn. A
// screen is redrawn whole at every frame (a card played, a seat taken), so
// the panel keeps them here: a word half typed or a refusal just shown
// ("you are muted") survives the redraws until the next line is sent. A
// new `scope` (another table or tournament) starts afresh.
const kept = { scope: "", draft: "", error: "" };

/** The chat panel: messages and a form (none when `canSend` is false).
 * `send(text)` returns a promise; `scope` names the conversation (a table
 * or a tournament) whose draft and refusal are kept across redraws. */
export function chatPanel({ messages, send, me, scope = "", muted = new Set(), onMute, onBlock = null, onReport = null, spectator = false, unfiltered = false, onFilter = null, canSend = true, placeholder = "" }) {
  if (kept.scope !== scope) Object.assign(kept, { scope, draft: "", error: "" });
  const list = h(
    "ol",
    // New messages are announced once through the page's live region
    // (app.js); a live list redrawn whole would read everything again.
    { class: "chat-list", "aria-label": t("chat_messages") },
    messages
      .filter((m) => !muted.has(m.from?.id))
      .map((m) =>
        h(
          "li",
          { class: ["chat-msg", m.channel === "spectators" && "spect", m.from?.id === me?.id && "mine"] },
          h("bdi", { class: "who user", translate: "no" }, m.from?.name || "?"),
          m.channel === "spectators" ? h("span", { class: "badge" }, t("spectator")) : null,
          h("span", { class: "text user", translate: "no", dir: "auto" }, unfiltered && m.raw ? m.raw : m.text),
          onReport && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link report", "aria-label": t("report_name", { name: m.from?.name || "?" }), onclick: () => onReport(m) },
                t("report"),
              )
            : null,
          onMute && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link mute", "aria-label": t("mute_name", { name: m.from?.name || "?" }), onclick: () => onMute(m.from.id) },
                t("mute"),
              )
            : null,
          onBlock && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link mute", "aria-label": t("friends.block_name", { name: m.from?.name || "?" }), onclick: () => onBlock(m.from) },
                t("friends.block"),
              )
            : null,
        ),
      ),
  );
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "text",
      id: "chat-input",
      name: "chat",
      maxlength: 300,
      autocomplete: "off",
      value: kept.draft,
      dataset: { key: "chat-input" },
      placeholder: placeholder || (spectator ? t("chat_placeholder_spect") : t("chat_placeholder")),
      "aria-label": t("chat_message"),
      oninput: () => {
        kept.draft = input.value;
      },
    })
  );
  const msg = formMessage();
  if (kept.error) {
    msg.textContent = kept.error;
    msg.classList.add("error");
  }
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        // The panel on screen when the answer comes may be a later redraw.
        const now = () => /** @type {HTMLElement} */ (document.querySelector(".chat .form-msg")) || msg;
        try {
          await send(text);
          Object.assign(kept, { draft: "", error: "" });
          const field = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-input"));
          if (field && field.value === input.value) field.value = "";
          input.value = "";
          now().textContent = "";
        } catch (err) {
          kept.error = errorText(err);
          showError(now(), err);
        }
      },
    },
    input,
    h("button", { type: "submit", class: "secondary" }, t("send")),
  );
  setTimeout(() => {
    list.scrollTop = list.scrollHeight;
  }, 0);
  return h(
    "section",
    { class: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title", class: "panel-title" }, t("chat")),
    messages.length ? list : h("p", { class: "muted chat-empty" }, t("chat_empty")),
    canSend ? form : null,
    canSend ? msg : null,
    onFilter
      ? h(
          "div",
          { class: "field switch chat-filter" },
          h(
            "label",
            {},
            h("input", { type: "checkbox", id: "chat-unfiltered", checked: unfiltered, dataset: { key: "chat-unfiltered" }, onchange: (e) => onFilter(e.target.checked) }),
            t("chat_unfiltered"),
          ),
        )
      : null,
  );
}

/** A line of text saying how long ago a time (ms) was. */
export function when(ms) {
  const fmt = new Intl.DateTimeFormat(lang() === "ar" ? "ar-LB-u-nu-latn" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  return fmt.format(new Date(ms));
}

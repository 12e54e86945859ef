// The list of tournaments (upcoming, running, finished) and the dialog that
// creates one. Everything shown is the server's (GET /api/tournaments); the
// rules part of the dialog is the table dialog's form (ui.js settingsForm).

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { catalogOrSay, openDialog, when } from "../ui.js";
import { settingsForm } from "../settingsform.js";
import { formatLabel, rulesLine, statusChip } from "./tourparts.js";

/** The list's sections, in the order of their tabs. */
export const LIST_STATUSES = ["upcoming", "running", "finished"];

function row(ctx, x, catalog) {
  const href = `#/tournament/${encodeURIComponent(x.id)}`;
  return h(
    "li",
    { class: "table-row tour-row" },
    h(
      "div",
      { class: "table-row-main" },
      h("div", { class: "table-row-title" }, h("a", { href, class: "tour-name" }, h("bdi", { class: "user", translate: "no" }, x.name)), " ", statusChip(x)),
      h(
        "div",
        { class: "table-row-sub" },
        formatLabel(x),
        " · ",
        t("tour.teams_of", { n: x.teams_entered, max: x.max_teams }),
        " · ",
        h("time", { datetime: new Date(x.start_ms).toISOString() }, when(x.start_ms)),
      ),
      x.preset ? h("div", { class: "table-row-sub" }, rulesLine(x, catalog)) : null,
    ),
    h("a", { href, class: "button secondary small", "aria-label": t("tour.open_name", { name: x.name }) }, t("tour.open")),
  );
}

/**
 * The list page. data: {status, tournaments, error}.
 * @param {any} ctx @param {HTMLElement} root
 * @param {{status: string, tournaments: any[], error?: string | null, catalog?: any}} data
 */
export function renderTournaments(ctx, root, data) {
  const { status, tournaments, error = null, catalog = null } = data;
  const registered = ctx.me && !ctx.me.guest;
  mount(
    root,
    h(
      "div",
      { class: "tournaments" },
      h(
        "div",
        { class: "tour-head" },
        h("h1", { class: "page-title" }, t("tour.list_title")),
        registered
          ? h("button", { type: "button", class: "primary", dataset: { key: "tour-create" }, onclick: () => openCreateTournament(ctx) }, t("tour.create"))
          : h("p", { class: "muted tour-guest" }, ctx.me ? t("tour.guests") : t("tour.sign_in")),
      ),
      h("p", { class: "muted" }, t("tour.list_help")),
      h(
        "nav",
        { class: "tabs", "aria-label": t("tour.list_title") },
        LIST_STATUSES.map((s) =>
          h("a", { class: "tab", href: `#/tournaments?status=${s}`, "aria-current": s === status ? "page" : null }, t(`tour.list.${s}`)),
        ),
      ),
      error ? h("p", { class: "banner error", role: "alert" }, error) : null,
      h(
        "section",
        { class: "panel", "aria-label": t(`tour.list.${status}`) },
        tournaments.length
          ? h("ul", { class: "table-list tour-list" }, tournaments.map((x) => row(ctx, x, catalog)))
          : h("p", { class: "muted" }, t(`tour.none.${status}`)),
      ),
    ),
  );
}

// --------------------------------------------------------------- create

/** A datetime-local value ("2026-12-01T18:30") for a time in ms, local. */
function localInput(ms) {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

const FIELD_KEYS = { name: "tour.bad.name", start_ms: "tour.bad.start", max_teams: "tour.bad.max_teams", rounds: "tour.bad.rounds" };

/** The create dialog: name, format, rounds, teams, start, public; then the
 * table dialog's rules, settings and timer. On success: the new page. */
export async function openCreateTournament(ctx) {
  const catalog = await catalogOrSay((text) => ctx.say(text));
  if (!catalog) return;
  const inputs = {
    name: h("input", { id: "tour-name", name: "tour-name", required: true, maxlength: 80, autocomplete: "off", dataset: { key: "tour-name" } }),
    rounds: h("input", { id: "tour-rounds", name: "tour-rounds", type: "number", min: 1, max: 15, step: 1, value: 3, inputmode: "numeric" }),
    max: h("input", { id: "tour-max", name: "tour-max", type: "number", min: 2, max: 256, step: 1, value: 8, inputmode: "numeric" }),
    start: h("input", { id: "tour-start", name: "tour-start", type: "datetime-local", required: true, value: localInput(Date.now() + 30 * 60000) }),
  };
  let format = "knockout";
  let isPublic = true;
  const roundsField = h("div", { class: "field tour-rounds", hidden: true }, h("label", { for: "tour-rounds" }, t("tour.rounds")), inputs.rounds);
  const radio = (name, value, checked, label, help, onchange) =>
    h(
      "label",
      { class: "choice-card" },
      h("input", { type: "radio", name, value, checked, onchange }),
      h("span", { class: "choice-title" }, label),
      h("span", { class: "choice-help" }, help),
    );
  const lead = h(
    "div",
    { class: "tour-fields" },
    h("div", { class: "field" }, h("label", { for: "tour-name" }, t("tour.name")), inputs.name),
    h(
      "fieldset",
      { class: "choice-cards" },
      h("legend", {}, t("tour.format")),
      ["knockout", "swiss"].map((f) =>
        radio("tour-format", f, f === format, t(`tour.format.${f}`), t(`tour.format.${f}.help`), () => {
          format = f;
          roundsField.hidden = f !== "swiss";
        }),
      ),
    ),
    roundsField,
    h("div", { class: "field" }, h("label", { for: "tour-max" }, t("tour.max_teams")), inputs.max),
    h("div", { class: "field" }, h("label", { for: "tour-start" }, t("tour.start")), inputs.start, h("p", { class: "help" }, t("tour.start.help"))),
    h(
      "fieldset",
      { class: "choice-cards" },
      h("legend", {}, t("tour.visibility")),
      radio("tour-public", "public", true, t("tour.public"), t("tour.public.help"), () => (isPublic = true)),
      radio("tour-public", "private", false, t("tour.private"), t("tour.private.help"), () => (isPublic = false)),
    ),
  );
  const dlg = openDialog({
    title: t("tour.create"),
    className: "wide",
    body: settingsForm({
      catalog,
      idPrefix: "tour",
      lead,
      submitLabel: t("tour.create_submit"),
      onSubmit: async ({ preset, settings, timer }) => {
        const name = inputs.name.value.trim();
        const start = new Date(inputs.start.value).getTime();
        const bad = (field, el) => {
          el.focus();
          return Object.assign(new Error(field), { code: "bad_request", field });
        };
        if (!name) throw bad("name", inputs.name);
        if (!Number.isFinite(start)) throw bad("start_ms", inputs.start);
        const body = { name, format, max_teams: Number(inputs.max.value), start_ms: start, public: isPublic, preset, settings, timer };
        if (format === "swiss") body.rounds = Number(inputs.rounds.value);
        const res = await ctx.createTournament(body);
        dlg.close();
        const id = res.tournament.id;
        if (res.invite) rememberInvite(id, res.invite);
        ctx.go(`#/tournament/${encodeURIComponent(id)}`);
      },
      fieldError: (field) => (FIELD_KEYS[field] ? t(FIELD_KEYS[field]) : null),
    }),
  });
  inputs.name.focus();
}

// A private tournament's invite code, kept on this device for its page
// (the organiser's copy link, and the follow/GET of an invited visitor).
const inviteKey = (id) => `fh.tinvite.${id}`;

export function rememberInvite(id, code) {
  try {
    localStorage.setItem(inviteKey(id), code);
  } catch {
    // storage blocked: the link works this once
  }
}

export function knownInvite(id) {
  try {
    return localStorage.getItem(inviteKey(id));
  } catch {
    return null;
  }
}

// The tournament page's small parts (js/screens/tournament.js): names, the
// format and status as people read them, where this person stands in the
// DETAIL, and the page's buttons and confirmation. All read from the
// server's DETAIL (docs/protocol.md, "Tournaments").

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { presetLabel, presetSettings, summary } from "../settings.js";
import { openDialog } from "../ui.js";

export const user = (name) => h("bdi", { class: "user", translate: "no" }, name);

/** A translated sentence whose {placeholders} may be elements (names). */
export function rich(key, vars = {}) {
  const plain = {};
  for (const [k, v] of Object.entries(vars)) if (!(v instanceof Node)) plain[k] = v;
  return t(key, plain)
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m && vars[m[1]] instanceof Node ? vars[m[1]] : part;
    });
}

/** How many rounds a Swiss has: SUMMARY's `rounds`; in a DETAIL `rounds`
 * is the list of rounds played, and the count is in its `created` entry. */
function swissRounds(x) {
  if (!Array.isArray(x.rounds)) return x.rounds ?? 0;
  return (x.log || []).find((e) => e.kind === "created")?.rounds ?? 0;
}

/** "Knockout" or "Swiss, 5 rounds". */
export function formatLabel(x) {
  return x.format === "swiss" ? t("tour.swiss_n", { n: swissRounds(x) }) : t("tour.format.knockout");
}

export function statusChip(x) {
  return [
    h("span", { class: ["tour-status", `status-${x.status}`] }, t(`tour.status.${x.status}`)),
    x.paused ? h("span", { class: "tour-status status-paused" }, t("tour.paused")) : null,
  ];
}

/** The rules in one line: "Quick · 11 points · Lebanese · 30 s a turn". */
export function rulesLine(x, catalog) {
  const base = catalog ? presetSettings(catalog, x.preset) : null;
  const words = base ? summary({ ...base, ...(x.settings || {}) }, x.preset, x.settings) : presetLabel(x.preset, x.settings);
  return x.timer ? `${words} · ${t("seconds_turn", { n: x.timer })}` : words;
}

/** Player id -> name, for everyone the tournament names. */
export function names(d) {
  const out = new Map();
  if (d.organiser) out.set(d.organiser.id, d.organiser.name);
  for (const team of d.teams) for (const p of team.players) out.set(p.id, p.name);
  for (const p of d.solos) out.set(p.id, p.name);
  return out;
}

function teamOf(d, id) {
  return d.teams.find((x) => x.id === id) || null;
}

/** A team as its players' names ("Nour & Karim"); a narrow column breaks
 * the line between the two names, never inside one. */
export function teamName(d, id) {
  const team = teamOf(d, id);
  if (!team) return user(t("tour.unknown_team"));
  return h(
    "bdi",
    { class: "user", translate: "no" },
    team.players.map((p, i) => [i ? " & " : "", h("span", { class: "tour-player" }, p.name)]),
  );
}

/** Where this person stands: their team (and place in it), solo entry,
 * invitation, check-in; all read from the DETAIL. */
export function standing(d, me) {
  if (!me) return { team: null, index: -1, solo: false, invited: null, checkedIn: false, organiser: false, inIt: false };
  const team = d.teams.find((x) => !x.removed && x.players.some((p) => p.id === me.id)) || null;
  const index = team ? team.players.findIndex((p) => p.id === me.id) : -1;
  const invited = team && index === 1 && !team.confirmed ? team : null;
  const solo = d.solos.some((p) => p.id === me.id);
  const checkedIn = team ? Boolean(team.checked_in[index]) : solo && d.log.some((e) => e.kind === "checked_in" && e.player === me.id);
  const organiser = Boolean(d.organiser && d.organiser.id === me.id);
  return { team, index, solo, invited, checkedIn, organiser, inIt: Boolean(team || solo) };
}

/** This team's match in the latest round (or its bye), as the server paired it. */
export function currentMatch(d, teamId) {
  const r = d.rounds[d.rounds.length - 1];
  if (!r || !teamId) return null;
  const match = r.matches.find((m) => m.a === teamId || m.b === teamId);
  if (match) return { round: r, match, bye: false };
  return r.byes.includes(teamId) ? { round: r, match: null, bye: true } : null;
}


export function button(label, onclick, cls = "secondary", key = null) {
  return h("button", { type: "button", class: cls, dataset: key ? { key } : undefined, onclick }, label);
}

export function confirmAct(ctx, title, text, label, act) {
  const dlg = openDialog({
    title,
    body: h("p", {}, text),
    actions: [
      button(t("tour.keep"), () => dlg.close()),
      button(label, () => {
        dlg.close();
        act();
      }, "primary danger"),
    ],
  });
}

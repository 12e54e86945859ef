// One tournament's page: its terms, what this person may do now (enter,
// accept a partner, check in, the organiser's acts), the teams, the bracket
// (knockout) or the standings (Swiss) with every round's matches and their
// tables, the log, the chat and the results export.
//
// Everything here is laid out from the server's DETAIL (docs/protocol.md,
// "Tournaments"): pairings, standings, byes and winners are the server's;
// the page only finds this person in them. What is allowed is the server's
// to say too: a refused act shows its error and changes nothing.

import { copyText, h, mount, num } from "../dom.js";
import { signed, t } from "../i18n.js";
import { api } from "../net.js";
import { presetLabel, presetSettings, summary } from "../settings.js";
import { chatPanel, errorText, formMessage, openDialog, settingsList, when } from "../ui.js";

/**
 * What the page holds for one tournament.
 * @typedef {{id: string, detail: any, invite: string | null, chat: any[],
 *   error: string | null, partner: string, catalog: any}} TourView
 */

/** @returns {TourView} */
export function tourView(id, invite = null) {
  return { id, detail: null, invite, chat: [], error: null, partner: "", catalog: null };
}

/** A tournament's table ids are "{tournament}-r{round}-{slot}"
 * (docs/protocol.md, "Tournament tables"): the tournament of a table. */
export function tournamentOfTable(tableId) {
  const m = /^(.+)-r\d+-\d+$/.exec(String(tableId || ""));
  return m ? m[1] : null;
}

// ------------------------------------------------------------ small parts

const user = (name) => h("bdi", { class: "user", translate: "no" }, name);

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
function names(d) {
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
function teamName(d, id) {
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
function currentMatch(d, teamId) {
  const r = d.rounds[d.rounds.length - 1];
  if (!r || !teamId) return null;
  const match = r.matches.find((m) => m.a === teamId || m.b === teamId);
  if (match) return { round: r, match, bye: false };
  return r.byes.includes(teamId) ? { round: r, match: null, bye: true } : null;
}

// --------------------------------------------------------------- actions

function button(label, onclick, cls = "secondary", key = null) {
  return h("button", { type: "button", class: cls, dataset: key ? { key } : undefined, onclick }, label);
}

function confirmAct(ctx, title, text, label, act) {
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

function enterForm(ctx, tv) {
  const msg = formMessage();
  const input = h("input", {
    id: "tour-partner",
    name: "partner",
    required: true,
    autocomplete: "off",
    maxlength: 64,
    value: tv.partner,
    dataset: { key: "tour-partner" },
    oninput: (e) => (tv.partner = e.target.value),
  });
  return h(
    "div",
    { class: "tour-enter" },
    h(
      "form",
      {
        class: "inline-form",
        onsubmit: (e) => {
          e.preventDefault();
          const partner = input.value.trim();
          if (!partner) {
            msg.textContent = t("tour.partner_needed");
            msg.classList.add("error");
            input.focus();
            return;
          }
          ctx.tourAct("enter", { partner }).then((ok) => {
            if (ok) tv.partner = "";
          });
        },
      },
      h("label", { for: "tour-partner" }, t("tour.partner_label")),
      input,
      h("button", { type: "submit", class: "primary" }, t("tour.enter_team")),
    ),
    msg,
    h("p", { class: "muted" }, t("tour.or_alone")),
    button(t("tour.enter_solo"), () => ctx.tourAct("enter", { solo: true }), "secondary", "tour-solo"),
  );
}

function checkInPart(ctx, d, st) {
  if (st.checkedIn) return h("p", { class: "tour-ok" }, t("tour.checked_in"));
  if (Date.now() < d.check_in_ms) return h("p", { class: "muted" }, t("tour.check_in_at", { time: when(d.check_in_ms) }));
  return [h("p", {}, t("tour.check_in_open")), button(t("tour.check_in"), () => ctx.tourAct("check-in"), "primary", "tour-check-in")];
}

/** What this person may do now, and where they stand. */
function youPanel(ctx, tv) {
  const d = tv.detail;
  const st = standing(d, ctx.me);
  let body = [];
  if (!ctx.me) {
    body = [
      h("p", {}, t("tour.sign_in")),
      button(t("tour.sign_in_button"), () => ctx.signInFirst(), "primary"),
    ];
  } else if (ctx.me.guest) {
    body = [h("p", {}, t("tour.guests"))];
  } else if (d.status === "open") {
    if (st.invited) {
      const inviter = st.invited.players[0];
      body = [
        h("p", { class: "tour-invited" }, rich("tour.invited", { name: user(inviter.name) })),
        button(t("tour.accept"), () => ctx.tourAct("accept", { team: st.invited.id }), "primary", "tour-accept"),
      ];
    } else if (st.team) {
      const partner = st.team.players[1 - st.index];
      body = [
        h("p", {}, partner ? rich("tour.entered_with", { name: user(partner.name) }) : t("tour.entered")),
        !st.team.confirmed ? h("p", { class: "muted" }, rich("tour.waiting_partner", { name: user(partner?.name || "?") })) : null,
      ];
    } else if (st.solo) {
      body = [h("p", {}, t("tour.entered_solo"))];
    } else {
      body = [enterForm(ctx, tv)];
    }
    if (st.inIt && !st.invited) body.push(checkInPart(ctx, d, st));
    else if (st.invited) body.push(h("p", { class: "muted" }, t("tour.accept_first")));
  } else if (d.status === "running") {
    body = runningPart(d, st);
  } else if (d.status === "finished" && d.winner) {
    body = [h("p", { class: "tour-winner" }, rich(st.team && st.team.id === d.winner ? "tour.you_won" : "tour.won_by", { team: teamName(d, d.winner) }))];
  } else if (d.status === "cancelled") {
    const why = d.log.find((e) => e.kind === "cancelled");
    body = [h("p", {}, t(why && why.reason === "too_few_teams" ? "tour.cancelled_few" : "tour.cancelled"))];
  }
  return h(
    "section",
    { class: "panel tour-you", "aria-labelledby": "tour-you-title" },
    h("h2", { id: "tour-you-title" }, t("tour.you_title")),
    tv.error ? h("p", { class: "banner error", role: "alert" }, tv.error) : null,
    body,
  );
}

function runningPart(d, st) {
  if (!st.team) return [h("p", { class: "muted" }, t(d.winner ? "tour.not_in" : "tour.watching"))];
  if (st.team.removed) return [h("p", {}, t("tour.removed"))];
  if (st.team.out) return [h("p", {}, t("tour.out"))];
  const cur = currentMatch(d, st.team.id);
  if (!cur) return [h("p", {}, t("tour.waiting_round"))];
  if (cur.bye) return [h("p", {}, t("tour.bye_round", { n: cur.round.number }))];
  const m = cur.match;
  if (m.status === "playing") {
    const other = m.a === st.team.id ? m.b : m.a;
    return [
      h("p", { class: "tour-ready" }, rich("tour.match_ready_vs", { team: teamName(d, other) })),
      h("p", { class: "muted" }, t("tour.ready_by", { time: when(cur.round.deadline_ms) })),
      h("a", { class: "button primary", href: `#/table/${encodeURIComponent(m.table)}` }, t("tour.go_to_table")),
    ];
  }
  return [h("p", {}, t(m.winner === st.team.id ? "tour.won_match" : "tour.lost_match")), h("p", { class: "muted" }, t("tour.waiting_round"))];
}

function organiserPanel(ctx, d) {
  if (!ctx.me || !d.organiser || d.organiser.id !== ctx.me.id) return null;
  if (d.status !== "open" && d.status !== "running") return null;
  const tools = [];
  if (d.status === "open") tools.push(button(t("tour.start_now"), () => ctx.tourAct("start"), "primary", "tour-start"));
  if (d.status === "running") {
    tools.push(
      d.paused
        ? button(t("tour.resume"), () => ctx.tourAct("resume"), "primary", "tour-resume")
        : button(t("tour.pause"), () => ctx.tourAct("pause"), "secondary", "tour-pause"),
    );
  }
  tools.push(
    button(
      t("tour.cancel"),
      () => confirmAct(ctx, t("tour.cancel"), t("tour.cancel_confirm"), t("tour.cancel"), () => ctx.tourAct("cancel")),
      "ghost danger",
      "tour-cancel",
    ),
  );
  return h(
    "section",
    { class: "panel tour-organiser", "aria-labelledby": "tour-org-title" },
    h("h2", { id: "tour-org-title" }, t("tour.organiser_title")),
    h("p", { class: "muted" }, t(d.status === "open" ? "tour.organiser_help_open" : "tour.organiser_help_running")),
    h("div", { class: "tour-tools" }, tools),
  );
}

// ----------------------------------------------------------------- teams

function teamsPanel(ctx, d) {
  const organiser = ctx.me && d.organiser && d.organiser.id === ctx.me.id && (d.status === "open" || d.status === "running");
  const teams = [...d.teams].sort((x, y) => (x.seed ?? 1e9) - (y.seed ?? 1e9));
  return h(
    "section",
    { class: "panel tour-teams", "aria-labelledby": "tour-teams-title" },
    h("h2", { id: "tour-teams-title" }, t("tour.teams_title"), " ", h("span", { class: "muted" }, t("tour.teams_of", { n: d.teams_entered, max: d.max_teams }))),
    teams.length
      ? h(
          "ul",
          { class: "tour-team-list" },
          teams.map((team) =>
            h(
              "li",
              { class: ["tour-team", team.removed && "removed", team.out && "out", d.winner === team.id && "winner"], dataset: { team: team.id } },
              team.seed ? h("span", { class: "seed", "aria-label": t("tour.seed_n", { n: team.seed }) }, num(team.seed)) : null,
              h(
                "span",
                { class: "tour-team-names" },
                team.players.map((p, i) => [
                  i ? " & " : "",
                  h(
                    "span",
                    { class: "tour-player" },
                    user(p.name),
                    team.checked_in[i] ? h("span", { class: "tick", title: t("tour.checked_in_short"), "aria-label": t("tour.checked_in_short") }, "✓") : null,
                  ),
                ]),
              ),
              !team.confirmed ? h("span", { class: "badge" }, t("tour.awaiting_partner")) : null,
              team.removed ? h("span", { class: "badge away" }, t("tour.removed_badge")) : null,
              team.out ? h("span", { class: "badge" }, t("tour.out_badge")) : null,
              d.winner === team.id ? h("span", { class: "badge win" }, t("tour.winner_badge")) : null,
              organiser && !team.removed
                ? h(
                    "button",
                    {
                      type: "button",
                      class: "ghost small danger",
                      "aria-label": t("tour.remove_team_name", { name: team.players.map((p) => p.name).join(" & ") }),
                      onclick: () =>
                        confirmAct(ctx, t("tour.remove_team"), t("tour.remove_confirm"), t("tour.remove_team"), () => ctx.tourAct("remove", { team: team.id })),
                    },
                    t("tour.remove_team"),
                  )
                : null,
            ),
          ),
        )
      : h("p", { class: "muted" }, t("tour.no_teams")),
    d.solos.length
      ? h("p", { class: "tour-solos" }, t("tour.solos"), " ", d.solos.map((p, i) => [i ? ", " : "", user(p.name)]))
      : null,
  );
}

// ------------------------------------------------------ matches and rounds

function matchCard(ctx, d, m, mineId) {
  const side = (id, points) =>
    h(
      "div",
      { class: ["tour-side", m.winner === id && "won", m.forfeit === id && "forfeited"] },
      h("span", { class: "tour-side-name" }, teamName(d, id)),
      m.winner === id ? h("span", { class: "badge win" }, t("tour.won_badge")) : null,
      points !== null && points !== undefined && m.status === "done" && !m.forfeit ? num(points, "tour-points") : null,
    );
  const mine = mineId && (m.a === mineId || m.b === mineId);
  let link = null;
  if (m.status === "playing") {
    link = h(
      "a",
      { class: ["button", "small", mine ? "primary" : "secondary"], href: `#/table/${encodeURIComponent(m.table)}` },
      mine ? t("tour.go_to_table") : t("tour.watch"),
    );
  } else if (!m.forfeit) {
    link = h("a", { class: "button small secondary", href: `#/replay/${encodeURIComponent(m.table)}` }, t("tour.replay"));
  }
  return h(
    "li",
    { class: ["tour-match", `st-${m.status}`, mine && "mine"], dataset: { table: m.table } },
    side(m.a, m.points?.[0]),
    side(m.b, m.points?.[1]),
    h(
      "div",
      { class: "tour-match-foot" },
      h("span", { class: "muted" }, m.forfeit ? rich("tour.forfeit_by", { team: teamName(d, m.forfeit) }) : t(`tour.match.${m.status}`)),
      link,
    ),
  );
}

function byeCard(d, id) {
  return h("li", { class: "tour-match bye" }, h("div", { class: "tour-side won" }, h("span", { class: "tour-side-name" }, teamName(d, id)), h("span", { class: "badge" }, t("tour.bye"))));
}

function roundBlock(ctx, d, r, mineId) {
  return h(
    "section",
    { class: "tour-round", "aria-labelledby": `tour-round-${r.number}` },
    h("h3", { id: `tour-round-${r.number}` }, t("tour.round_n", { n: r.number })),
    h("ul", { class: "tour-matches" }, r.matches.map((m) => matchCard(ctx, d, m, mineId)), r.byes.map((id) => byeCard(d, id))),
  );
}

/** Knockout: the rounds as columns, left to right (right to left in Arabic). */
function bracketPanel(ctx, d, mineId) {
  return h(
    "section",
    { class: "panel tour-bracket-panel", "aria-labelledby": "tour-bracket-title" },
    h("h2", { id: "tour-bracket-title" }, t("tour.bracket")),
    d.rounds.length
      ? h("div", { class: "bracket", tabindex: 0, role: "group", "aria-label": t("tour.bracket") }, d.rounds.map((r) => roundBlock(ctx, d, r, mineId)))
      : h("p", { class: "muted" }, t("tour.bracket_later")),
  );
}

/** Swiss: the standings, then every round's pairings (latest first). */
function swissPanels(ctx, d, mineId) {
  const standings = h(
    "section",
    { class: "panel tour-standings", "aria-labelledby": "tour-standings-title" },
    h("h2", { id: "tour-standings-title" }, t("tour.standings")),
    d.standings.length
      ? h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "leaders standings" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, t("tour.col.rank")),
                h("th", { scope: "col" }, t("tour.col.team")),
                h("th", { scope: "col", title: t("tour.col.match_points.help") }, t("tour.col.match_points")),
                h("th", { scope: "col", title: t("tour.col.buchholz.help") }, t("tour.col.buchholz")),
                h("th", { scope: "col", title: t("tour.col.difference.help") }, t("tour.col.difference")),
              ),
            ),
            h(
              "tbody",
              {},
              d.standings.map((s) =>
                h(
                  "tr",
                  { class: s.team === mineId ? "me" : "" },
                  h("td", { class: "num" }, s.rank),
                  h("th", { scope: "row" }, teamName(d, s.team)),
                  h("td", { class: "num" }, s.match_points),
                  h("td", { class: "num" }, s.buchholz),
                  h("td", {}, h("span", { class: "num", dir: "ltr" }, signed(s.difference))),
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("tour.standings_later")),
  );
  const rounds = d.rounds.length
    ? h(
        "section",
        { class: "panel tour-rounds", "aria-labelledby": "tour-rounds-title" },
        h("h2", { id: "tour-rounds-title" }, t("tour.pairings")),
        [...d.rounds].reverse().map((r) => roundBlock(ctx, d, r, mineId)),
      )
    : null;
  return [standings, rounds];
}

// ------------------------------------------------------------ log, export

function logText(d, e, who) {
  const name = (id) => user(id ? who.get(id) || t("tour.deleted") : "?");
  switch (e.kind) {
    case "entered":
      return e.team ? rich("tour.log.entered", { name: name(e.player), partner: name(e.partner) }) : rich("tour.log.entered_solo", { name: name(e.player) });
    case "partner_accepted":
    case "checked_in":
      return rich(`tour.log.${e.kind}`, { name: name(e.player) });
    case "solo_paired":
      return rich("tour.log.solo_paired", { team: teamName(d, e.team) });
    case "dropped":
      return e.team
        ? rich(`tour.log.dropped_team.${e.reason}`, { team: teamName(d, e.team) })
        : rich(`tour.log.dropped.${e.reason}`, { name: name(e.player) });
    case "round_paired":
      return t("tour.log.round_paired", { n: e.round });
    case "match_result":
      return rich("tour.log.match_result", { n: e.round, team: teamName(d, e.winner) });
    case "forfeit":
      return rich("tour.log.forfeit", { n: e.round, team: teamName(d, e.team) });
    case "team_removed":
      return rich("tour.log.team_removed", { team: teamName(d, e.team) });
    case "cancelled":
      return t(e.reason === "too_few_teams" ? "tour.log.cancelled_few" : "tour.log.cancelled");
    case "finished":
      return rich("tour.log.finished", { team: teamName(d, e.winner) });
    case "created":
      return e.organiser ? rich("tour.log.created", { name: name(e.organiser) }) : t("tour.log.created_system");
    case "started":
    case "paused":
    case "resumed":
      return t(`tour.log.${e.kind}`);
    default:
      return t("tour.log.other");
  }
}

function logPanel(d) {
  const who = names(d);
  return h(
    "section",
    { class: "panel tour-log", "aria-labelledby": "tour-log-title" },
    h(
      "details",
      {},
      h("summary", {}, h("h2", { id: "tour-log-title", class: "inline-title" }, t("tour.log"))),
      h(
        "ol",
        { class: "tour-log-list", reversed: true },
        [...d.log].reverse().map((e) =>
          h("li", {}, h("time", { class: "muted", datetime: new Date(e.at_ms).toISOString() }, when(e.at_ms)), " ", h("span", {}, logText(d, e, who))),
        ),
      ),
    ),
  );
}

function exportPanel(tv) {
  const invite = tv.detail.public ? undefined : tv.invite || undefined;
  return h(
    "section",
    { class: "panel tour-export", "aria-labelledby": "tour-export-title" },
    h("h2", { id: "tour-export-title" }, t("tour.export")),
    h("p", { class: "muted" }, t("tour.export_help")),
    h(
      "div",
      { class: "tour-tools" },
      ["csv", "json"].map((fmt) =>
        h(
          "a",
          { class: "button secondary small", href: api.tournamentExport(tv.id, fmt, invite), download: `tournament-${tv.id}.${fmt}` },
          // The format's name is the same in every language.
          rich("tour.export_as", { fmt: h("span", { lang: "en", translate: "no", dir: "ltr" }, fmt.toUpperCase()) }),
        ),
      ),
    ),
  );
}

function invitePanel(tv) {
  if (tv.detail.public || !tv.invite) return null;
  const link = `${location.origin}/?tournament=${encodeURIComponent(tv.invite)}`;
  const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  return h(
    "section",
    { class: "panel invite", "aria-labelledby": "tour-invite-title" },
    h("h2", { id: "tour-invite-title" }, t("tour.invite_title")),
    h("p", { class: "muted" }, t("tour.invite_help")),
    h(
      "div",
      { class: "inline-form" },
      h("label", { for: "tour-invite-link", class: "sr-only" }, t("tour.invite_title")),
      h("input", { id: "tour-invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      button(t("room.copy"), async () => {
        const ok = await copyText(link);
        copied.textContent = ok ? t("room.copied") : t("room.copy_failed");
      }),
    ),
    copied,
  );
}

// ------------------------------------------------------------------ page

/** The whole page, drawn from `tv.detail`. */
export function renderTournament(ctx, root, tv) {
  const d = tv.detail;
  const st = standing(d, ctx.me);
  const mineId = st.team ? st.team.id : null;
  const canChat = Boolean(ctx.me && (st.inIt || st.organiser));
  const head = h(
    "section",
    { class: "tour-header" },
    h("h1", { class: "page-title" }, user(d.name), statusChip(d)),
    h(
      "dl",
      { class: "tour-facts" },
      fact(t("tour.format"), formatLabel(d)),
      fact(t("tour.start"), h("time", { datetime: new Date(d.start_ms).toISOString() }, when(d.start_ms))),
      d.status === "open" ? fact(t("tour.check_in_opens"), when(d.check_in_ms)) : null,
      fact(t("tour.teams"), t("tour.teams_of", { n: d.teams_entered, max: d.max_teams })),
      fact(t("tour.organiser"), d.organiser ? user(d.organiser.name) : t("tour.by_server")),
      fact(t("tour.rules"), rulesLine(d, tv.catalog)),
      d.round ? fact(t("tour.round"), String(d.round)) : null,
    ),
    tv.catalog
      ? h(
          "details",
          { class: "tour-rules" },
          h("summary", {}, t("tour.all_rules")),
          settingsList({ ...(presetSettings(tv.catalog, d.preset) || {}), ...(d.settings || {}) }, d.timer),
        )
      : null,
  );
  mount(
    root,
    h(
      "div",
      { class: "tournament" },
      h("p", { class: "crumbs" }, h("a", { href: "#/tournaments" }, t("tour.all"))),
      head,
      h(
        "div",
        { class: "tour-grid" },
        h(
          "div",
          { class: "tour-main" },
          youPanel(ctx, tv),
          organiserPanel(ctx, d),
          invitePanel(tv),
          d.format === "knockout" ? bracketPanel(ctx, d, mineId) : swissPanels(ctx, d, mineId),
          teamsPanel(ctx, d),
          logPanel(d),
          exportPanel(tv),
        ),
        h(
          "aside",
          { class: "tour-side-col panel" },
          chatPanel({
            messages: tv.chat,
            me: ctx.me,
            scope: `tournament:${tv.id}`,
            ...ctx.chatExtras(),
            canSend: canChat,
            placeholder: t("tour.chat_placeholder"),
            send: (text) => ctx.socket.send("tournament_chat", { tournament: tv.id, text }),
            muted: ctx.muted,
            onMute: (id) => {
              ctx.mute(id);
              renderTournament(ctx, root, tv);
            },
          }),
          canChat ? null : h("p", { class: "muted" }, t("tour.chat_who")),
        ),
      ),
    ),
  );
}

function fact(label, value) {
  return h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));
}

/** Take a DETAIL unless the page already has a later one (a `tournament`
 * frame may overtake an HTTP answer). */
export function newer(tv, detail) {
  if (!detail || (tv.detail && detail.version < tv.detail.version)) return false;
  tv.detail = detail;
  return true;
}

/** The act's errors shown on the page; the page redraws with the answer. */
export async function act(ctx, tv, action, body) {
  try {
    const res = await api.tournamentAct(tv.id, action, body, tv.detail && !tv.detail.public ? tv.invite || undefined : undefined);
    tv.error = null;
    newer(tv, res && res.tournament);
    return true;
  } catch (err) {
    tv.error = err && err.field === "partner" ? t("tour.no_such_player") : errorText(err);
    return false;
  }
}

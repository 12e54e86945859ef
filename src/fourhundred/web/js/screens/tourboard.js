// The tournament page's boards (js/screens/tournament.js): the teams, the
// bracket (knockout) or the standings and rounds (Swiss) with their
// matches and tables, the log, the results export and the invitation. The
// pairings, standings, byes and winners are the server's DETAIL's.

import { copyText, h, num } from "../dom.js";
import { signed, t } from "../i18n.js";
import { api } from "../net.js";
import { when } from "../ui.js";
import { button, confirmAct, names, rich, teamName, user } from "./tourparts.js";

// ----------------------------------------------------------------- teams

export function teamsPanel(ctx, d) {
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
      : h("p", { class: "muted" }, t(d.solos.length ? "tour.no_pairs_yet" : "tour.no_teams")),
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
export function bracketPanel(ctx, d, mineId) {
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
export function swissPanels(ctx, d, mineId) {
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

export function logPanel(d) {
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

export function exportPanel(tv) {
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

export function invitePanel(tv) {
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

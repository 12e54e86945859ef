// A player's profile (rating, games, wins, bid success, history with links
// to replays) and the leaderboard.

import { h, mount } from "../dom.js";
import { pct, signed, t } from "../i18n.js";
import { botLabel, when } from "../ui.js";
import { personActions } from "./friends.js";

/** A finished game's record names its bots; their levels for people
 * (docs/protocol.md, `add_bot`: the heuristic is the intermediate level). */
const LEVEL_OF = { beginner: "beginner", heuristic: "intermediate", expert: "expert" };

function stat(label, value, sub) {
  return h("div", { class: "stat" }, h("div", { class: "stat-value num" }, value), h("div", { class: "stat-label" }, label), sub ? h("div", { class: "stat-sub" }, sub) : null);
}

export function renderProfile(ctx, root, profile, games) {
  const u = profile.user;
  const seatOf = (g) => g.players.find((p) => p.user && p.user.id === u.id);
  mount(
    root,
    h(
      "div",
      { class: "profile" },
      h(
        "h1",
        { class: "page-title" },
        h("bdi", { class: "user", translate: "no" }, u.name),
        u.guest ? h("span", { class: "badge" }, t("guest")) : null,
        ctx.me && ctx.me.id !== u.id && !ctx.demo
          ? h("button", { type: "button", class: "ghost small", "aria-label": t("report_name", { name: u.name }), onclick: () => ctx.report([{ id: u.id, name: u.name }]) }, t("report"))
          : null,
      ),
      personActions(ctx, u, { small: false }),
      h(
        "section",
        { class: "panel stats", "aria-label": t("profile.stats") },
        stat(t("rating"), u.rating ?? "–", profile.rated_games ? t("profile.rated_games", { n: profile.rated_games }) : t("profile.unrated")),
        stat(t("profile.games"), profile.games),
        stat(t("profile.wins"), profile.wins, profile.games ? pct(profile.wins / profile.games) : null),
        stat(t("profile.bid_success"), profile.bids ? pct(profile.bids_made / profile.bids) : "–", t("profile.bids_made", { made: profile.bids_made, n: profile.bids })),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "history-title" },
        h("h2", { id: "history-title" }, t("profile.history")),
        games.length
          ? h(
              "ul",
              { class: "history" },
              games.map((g) => {
                const me = seatOf(g);
                const won = me ? me.won : null;
                const delta = me && g.rated && me.rating_after !== null && me.rating_before !== null ? me.rating_after - me.rating_before : null;
                return h(
                  "li",
                  { class: ["history-row", won ? "won" : "lost"] },
                  h("span", { class: ["result-chip", won ? "won" : "lost"] }, won ? t("profile.won") : t("profile.lost")),
                  h(
                    "span",
                    { class: "history-main" },
                    h("span", { class: `kind-chip kind-${g.kind}` }, t(`kind.${g.kind}`)),
                    " ",
                    g.players.map((p, i) => [i ? " · " : "", h("bdi", { class: "user", translate: "no" }, p.user ? p.user.name : botLabel(LEVEL_OF[p.bot])), " ", h("span", { class: "num" }, p.score)]),
                  ),
                  h("span", { class: "history-when" }, when(g.finished_ms)),
                  delta !== null ? h("span", { class: ["delta", delta >= 0 ? "up" : "down"], dir: "ltr" }, signed(delta)) : h("span", {}),
                  h("a", { href: `#/replay/${encodeURIComponent(g.id)}`, class: "button secondary small", "aria-label": t("profile.replay_of", { date: when(g.finished_ms) }) }, t("replay.open")),
                );
              }),
            )
          : h("p", { class: "muted" }, t("profile.no_games")),
      ),
    ),
  );
}

export function renderLeaderboard(ctx, root, players) {
  mount(
    root,
    h(
      "div",
      { class: "leaderboard" },
      h("h1", { class: "page-title" }, t("leaderboard.title")),
      h(
        "section",
        { class: "panel" },
        h("p", { class: "muted" }, t("leaderboard.help")),
        players.length
          ? h(
              "table",
              { class: "leaders" },
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("leaderboard.rank")), h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("rating")), h("th", { scope: "col" }, t("profile.rated_games_col")))),
              h(
                "tbody",
                {},
                players.map((p) =>
                  h(
                    "tr",
                    { class: ctx.me && p.user.id === ctx.me.id ? "me" : "" },
                    h("td", { class: "num" }, p.rank <= 3 ? h("span", { class: `medal medal-${p.rank}` }, p.rank) : p.rank),
                    h("th", { scope: "row" }, h("a", { href: `#/profile/${encodeURIComponent(p.user.id)}` }, h("bdi", { class: "user", translate: "no" }, p.user.name))),
                    h("td", { class: "num" }, p.user.rating),
                    h("td", { class: "num" }, p.rated_games),
                  ),
                ),
              ),
            )
          : h("p", { class: "muted" }, t("leaderboard.empty")),
      ),
    ),
  );
}

// The table screen around table.js: the score sheet and chat beside it, the
// dialogs (last trick, score sheet, rules, game over), and the messages for
// spectators, stand-in bots and lost connections.

import { h, mount, num } from "../dom.js";
import { cardName, pct, signed, t } from "../i18n.js";
import { scoreSheet } from "../scoresheet.js";
import { cardEl } from "../hand.js";
import { previousTrick, renderTable, seatName, teamLabel, teamNames, teamOf } from "../table.js";
import { chatPanel, openDialog } from "../ui.js";
import { settingsList } from "../settingsform.js";
import { blockPlayer, canBefriend } from "./friends.js";
import { rematchPanel } from "./rematch.js";
import { tournamentOfTable } from "./tournament.js";

export function tableModel(ctx) {
  return ctx.ts.model({ pending: ctx.pending, notice: ctx.notice });
}

function names(model) {
  return (seat) => seatName(model, seat);
}

export function openScores(model) {
  openDialog({
    title: t("score_sheet"),
    className: "wide",
    body: scoreSheet(model.history, names(model), model.you, model.view),
  });
}

export function openLastTrick(model) {
  const tr = previousTrick(model);
  if (!tr) return;
  openDialog({
    title: t("last_trick"),
    body: h(
      "div",
      { class: "last-trick" },
      h(
        "ol",
        { class: "last-trick-cards" },
        tr.cards.map((card, i) => {
          const seat = (tr.leader + i) % 4;
          return h(
            "li",
            { class: seat === tr.winner ? "win" : "" },
            cardEl(card),
            h("bdi", { class: "user", translate: "no" }, seatName(model, seat)),
            seat === tr.winner ? h("span", { class: "badge win" }, t("took_it")) : null,
          );
        }),
      ),
      h("p", {}, t("wins_trick", { name: seatName(model, tr.winner) })),
    ),
  });
}

export function openRules(view, timer) {
  openDialog({ title: t("table_rules"), className: "wide", body: settingsList(view.rules, timer) });
}

/** The end of the game: the winner, the scores and the rating changes. */
export function gameOverBody(model, game) {
  const v = model.view;
  const winner = v.winner;
  const youWon = model.you !== null && winner !== null && teamOf(model.you) === winner;
  const headline =
    winner === null ? t("game_over") : model.you === null ? t("team_won", { names: teamNames(model, winner) }) : youWon ? t("you_won") : t("you_lost");
  const ratings = {};
  const fromEvent = model.result?.ratings;
  if (fromEvent) for (const r of fromEvent) ratings[r.seat] = r;
  else if (game && game.rated) {
    for (const p of game.players) {
      if (p.rating_before !== null && p.rating_after !== null && p.rating_before !== undefined) {
        ratings[p.seat] = { before: p.rating_before, after: p.rating_after };
      }
    }
  }
  const rated = Object.keys(ratings).length > 0;
  const order = [0, 1, 2, 3].sort((a, b) => (teamOf(a) === winner ? -1 : 0) - (teamOf(b) === winner ? -1 : 0) || a - b);
  return h(
    "div",
    { class: ["game-over", youWon && "won"] },
    h("div", { class: "trophy", "aria-hidden": "true", html: youWon || model.you === null ? TROPHY : CARDS }),
    h("p", { class: "headline" }, headline),
    h(
      "table",
      { class: "final" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("player")),
          h("th", { scope: "col" }, t("score")),
          rated ? h("th", { scope: "col" }, t("rating")) : null,
        ),
      ),
      h(
        "tbody",
        {},
        order.map((s) => {
          const r = ratings[s];
          return h(
            "tr",
            { class: [`team-${teamOf(s)}`, teamOf(s) === winner && "winner"] },
            h("th", { scope: "row" }, h("bdi", { class: "user", translate: "no" }, seatName(model, s))),
            h("td", { class: "num" }, num(v.scores[s])),
            rated
              ? h(
                  "td",
                  { class: "num" },
                  r ? [String(r.after), " ", h("span", { class: ["delta", r.after >= r.before ? "up" : "down"], dir: "ltr" }, `(${signed(r.after - r.before)})`)] : "–",
                )
              : null,
          );
        }),
      ),
      // The teams' totals, as the score sheet gives them.
      h(
        "tfoot",
        {},
        [...new Set(order.map(teamOf))].map((team) =>
          h(
            "tr",
            { class: ["team-total", `team-${team}`, team === winner && "winner"], dataset: { team } },
            h("th", { scope: "row" }, teamLabel(model, team)),
            h("td", { class: "num" }, num(v.scores[team] + v.scores[team + 2])),
            rated ? h("td", {}) : null,
          ),
        ),
      ),
    ),
    rated ? null : h("p", { class: "muted" }, t("not_rated")),
  );
}

const TROPHY =
  '<svg viewBox="0 0 64 64" width="64" height="64"><path d="M18 8h28v10c0 10-6 18-14 18S18 28 18 18z" fill="#e0a526"/>' +
  '<path d="M18 12H8c0 10 5 15 12 15M46 12h10c0 10-5 15-12 15" fill="none" stroke="#e0a526" stroke-width="4"/>' +
  '<rect x="28" y="36" width="8" height="10" fill="#c98d12"/><rect x="20" y="46" width="24" height="8" rx="2" fill="#13505b"/></svg>';

const CARDS =
  '<svg viewBox="0 0 64 64" width="64" height="64"><rect x="12" y="10" width="26" height="38" rx="4" fill="#fff" stroke="#0e3d45" stroke-width="2" transform="rotate(-12 25 29)"/>' +
  '<rect x="26" y="12" width="26" height="38" rx="4" fill="#fff" stroke="#0e3d45" stroke-width="2" transform="rotate(10 39 31)"/>' +
  '<path d="M39 40c-1.2-1-9-6-9-12 0-3.3 2.4-5 4.6-5 2 0 3.3 1.1 4.4 2.4 1.1-1.3 2.4-2.4 4.4-2.4 2.2 0 4.6 1.7 4.6 5 0 6-7.8 11-9 12z" fill="#c3202f" transform="rotate(10 39 31)"/></svg>';

export function openGameOver(ctx, model, game) {
  return openDialog({
    title: t("game_over_title"),
    className: "game-over-dialog",
    body: [gameOverBody(model, game), ctx.demo ? null : h("div", { class: "rematch" }, rematchPanel(ctx))],
    actions: [
      // The sheet as it is when asked for (the table's state, not the dialog's).
      h("button", { type: "button", class: "secondary", onclick: () => openScores(ctx.ts.room ? tableModel(ctx) : model) }, t("score_sheet")),
      ctx.ts?.table
        ? h("button", { type: "button", class: "secondary", onclick: () => ctx.go(`#/replay/${encodeURIComponent(ctx.ts.table)}`) }, t("watch_replay"))
        : null,
      ctx.ts?.room?.kind === "tournament" && tournamentOfTable(ctx.ts.table)
        ? h("a", { class: "button primary", href: `#/tournament/${encodeURIComponent(tournamentOfTable(ctx.ts.table))}` }, t("tour.back"))
        : h("button", { type: "button", class: "primary", onclick: () => ctx.backToLobby() }, t("back_to_lobby")),
    ].filter(Boolean),
  });
}

/** The whole table page. */
export function renderGame(ctx, root) {
  const model = tableModel(ctx);
  const ts = ctx.ts;
  let tableRoot = root.querySelector(":scope > .game > .game-main > .table-root");
  if (!tableRoot) {
    tableRoot = h("div", { class: "table-root" });
    mount(
      root,
      h(
        "div",
        { class: "game" },
        h("div", { class: "game-main" }, h("div", { class: "game-banner" }), tableRoot),
        h("aside", { class: "game-side" }),
      ),
    );
  }
  const banner = root.querySelector(".game-banner");
  const side = root.querySelector(".game-side");
  const mySeat = ts.you.seat !== null ? ts.room.seats[ts.you.seat] : null;
  const banners = [];
  if (ctx.connection !== "open" && !ctx.demo) {
    banners.push(h("p", { class: "banner warn", role: "status" }, t(`conn.${ctx.connection}`)));
  }
  if (ts.you.seat === null) banners.push(h("p", { class: "banner info" }, t("watching")));
  if (mySeat && mySeat.substitute) {
    banners.push(
      h(
        "p",
        { class: "banner warn" },
        t("substituted"),
        " ",
        h("button", { type: "button", class: "primary small", onclick: () => ctx.cmd("reclaim") }, t("reclaim")),
      ),
    );
  }
  const hint = hintBanner(ctx, model);
  if (hint) banners.push(hint);
  mount(banner, banners);
  renderTable(tableRoot, model, {
    bid: (n) => ctx.act("bid", { bid: n }),
    play: (card) => ctx.act("play", { card }),
    redeal: () => ctx.act("redeal", {}),
    notice: (text) => ctx.say(text),
    openScores: () => openScores(model),
    openLastTrick: () => openLastTrick(model),
    openRules: () => openRules(model.view, ts.room?.timer),
    extraTools: () => [
      ts.you.seat !== null && model.view.phase !== "over"
        ? h("button", { type: "button", class: "tool danger", dataset: { key: "leave" }, onclick: () => confirmLeave(ctx) }, t("leave_game"))
        : model.view.phase === "over"
          ? h("button", { type: "button", class: "tool", dataset: { key: "result" }, onclick: () => ctx.showResult(true) }, t("result"))
          : null,
      reportTool(ctx),
    ],
  });
  // The sheet scrolls inside the side column on a desktop: it stays at the
  // latest hand unless the player has scrolled back to an earlier one.
  const was = side.querySelector(".sheet-wrap");
  const latest = !was || was.scrollTop + was.clientHeight >= was.scrollHeight - 4;
  const at = was ? was.scrollTop : 0;
  mount(
    side,
    h(
      "section",
      { class: "panel sheet-card", "aria-labelledby": "sheet-title" },
      h("h2", { id: "sheet-title", class: "panel-title" }, t("score_sheet")),
      scoreSheet(model.history, names(model), model.you, model.view),
    ),
    h(
      "div",
      { class: "panel" },
      chatPanel({
        messages: ts.chat,
        me: ctx.me,
        scope: `table:${ts.table}`,
        spectator: ts.you.seat === null,
        send: (text) => ctx.cmd("chat", { text }),
        muted: ctx.muted,
        onMute: (id) => ctx.mute(id),
        onBlock: canBefriend(ctx) ? (from) => blockPlayer(ctx, from) : null,
        ...ctx.chatExtras(),
      }),
    ),
  );
  const wrap = side.querySelector(".sheet-wrap");
  if (wrap) wrap.scrollTop = latest ? wrap.scrollHeight : at;
}

/** The server's hint (protocol.md, `hint`) in words: its fields, put in this language. */
export function hintText(hint) {
  const pts = (x) => signed(Math.round(x * 10) / 10);
  if (hint.action === "redeal") return t("hint.redeal");
  if (hint.action.startsWith("bid ")) {
    const bid = hint.action.slice(4);
    return hint.chance === null ? t("hint.bid_only", { bid }) : t("hint.bid", { bid, chance: pct(hint.chance) });
  }
  const [best, next] = hint.values;
  if (!best || !next) return t("hint.card_only", { card: cardName(hint.action) });
  return t("hint.card", { card: cardName(best[0]), pts: pts(best[1]), next: cardName(next[0]), next_pts: pts(next[1]) });
}

/** On the player's turn at a table with hints on: the "Hint" button, then the suggestion. */
function hintBanner(ctx, model) {
  const v = model.view;
  if (!model.hints || model.you === null || !v || v.turn !== model.you || (v.phase !== "bid" && v.phase !== "play")) return null;
  if (model.hint) return h("p", { class: "banner info hint", role: "status", dataset: { key: "hint" } }, t("hint.suggests"), " ", hintText(model.hint));
  const asked = ctx.hintAsked === ctx.ts.version;
  return h(
    "p",
    { class: "banner info hint" },
    h(
      "button",
      {
        type: "button",
        class: "secondary small",
        dataset: { key: "ask-hint" },
        disabled: asked,
        onclick: () => {
          ctx.hintAsked = ctx.ts.version;
          renderGame(ctx, ctx.main);
          ctx.cmd("hint").catch(() => {
            ctx.hintAsked = null;
          });
        },
      },
      asked ? t("hint.thinking") : t("hint.ask"),
    ),
    " ",
    h("span", { class: "muted" }, t("hint.help")),
  );
}

function confirmLeave(ctx) {
  const dlg = openDialog({
    title: t("leave_game"),
    body: h("p", {}, ctx.ts.room?.kind === "ranked" ? t("leave_ranked_warning") : t("leave_warning")),
    actions: [
      h("button", { type: "button", class: "secondary", onclick: () => dlg.close() }, t("stay")),
      h(
        "button",
        {
          type: "button",
          class: "primary danger",
          onclick: () => {
            dlg.close();
            ctx.leaveTable();
          },
        },
        t("leave_game"),
      ),
    ],
  });
}

/** "Report a player": the other people seated (none in the demo). */
function reportTool(ctx) {
  const people = (ctx.ts.room?.seats || []).filter((x) => x.user && x.user.id !== ctx.me?.id).map((x) => ({ id: x.user.id, name: x.user.name }));
  if (ctx.demo || !people.length) return null;
  return h("button", { type: "button", class: "tool", dataset: { key: "report" }, onclick: () => ctx.report(people) }, t("report.pick"));
}

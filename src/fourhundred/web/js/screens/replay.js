// Replays: a finished game stepped through hand by hand and card by card,
// every hand face up, with the score sheet and the post-hand analysis beside.
// Every step is the server's (GET /api/games/{id}/replay: the engine's view
// after each action and every seat's unplayed cards); nothing is worked out
// here.

import { h, mount } from "../dom.js";
import { cardName, signed, t } from "../i18n.js";
import { scoreSheet } from "../scoresheet.js";
import { botName } from "../state.js";
import { renderTable, seatName } from "../table.js";

/** Replay state: the server's replay, the game, which hand, which step. */
export function replayState(replay, game, analysis = null) {
  return { replay, game, analysis, hand: 0, step: 0, timer: null };
}

/** The score sheet lines of the hands that have ended. */
const lines = (hands) => hands.map((x) => x.line).filter(Boolean);

function seatsOf(game) {
  return [0, 1, 2, 3].map((seat) => {
    const p = game?.players?.find((x) => x.seat === seat);
    if (!p) return null;
    const name = p.user ? p.user.name : botName(seat);
    return { name, bot: Boolean(p.bot && !p.user), connected: true };
  });
}

function describe(model, step) {
  const a = step.action;
  if (!a) return t("replay.dealt", { name: seatName(model, step.view.dealer) });
  const name = seatName(model, a.seat);
  if (a.kind === "bid") return t("replay.bid", { name, n: a.bid });
  if (a.kind === "redeal") return t("replay.redeal", { name });
  return t("replay.played", { name, card: cardName(a.card) });
}

/** The analysis of this hand (fourhundred analyse --json's format). */
function handAnalysis(rs) {
  return rs.analysis?.hands?.find((x) => x.hand === rs.hand) || null;
}

/** The analysis's remark on the action just shown, if it had one. */
function remarkOn(rs, frame) {
  const a = frame.action;
  const hand = handAnalysis(rs);
  if (!a || !hand || a.kind !== "play") return null;
  const entry = hand.seats.find((x) => x.seat === a.seat);
  const c = entry?.cards.find((x) => x.played === a.card);
  return c ? t("analysis.remark", { better: cardName(c.search), pts: t("points", { n: c.lost }) }) : null;
}

function remark(rs, frame) {
  const text = remarkOn(rs, frame);
  return text ? h("span", { class: "remark" }, " ", text) : null;
}

function analysisPanel(rs, model) {
  const hand = handAnalysis(rs);
  let body;
  // Hands arrive in order: one not reached yet is still being worked out.
  const reached = rs.hand < (rs.analysis?.hands_done ?? Infinity);
  if (!rs.analysis && rs.analysisPending) body = h("p", { class: "muted", role: "status" }, t("analysis.pending"));
  else if (!rs.analysis) body = h("p", { class: "muted" }, t("analysis.none"));
  else if (!hand && rs.analysisPending && !reached) body = h("p", { class: "muted", role: "status" }, t("analysis.hand_pending"));
  else if (!hand) body = h("p", { class: "muted" }, t("analysis.no_hand"));
  else {
    body = h(
      "ul",
      { class: "analysis" },
      hand.seats.map((s) =>
        h(
          "li",
          {},
          h("b", {}, h("bdi", { class: "user", translate: "no" }, seatName(model, s.seat))),
          " ",
          s.search_bid !== null && s.search_bid !== s.bid
            ? t("analysis.bid", { bid: s.bid, better: s.search_bid, pts: t("points", { n: s.bid_lost ?? 0 }) })
            : t("analysis.bid_ok", { bid: s.bid }),
          s.cards.length
            ? h(
                "ul",
                {},
                s.cards.map((c) =>
                  h("li", {}, t("analysis.card", { trick: c.trick + 1, card: cardName(c.played), better: cardName(c.search), pts: t("points", { n: c.lost }) })),
                ),
              )
            : h("div", { class: "muted" }, t("analysis.cards_ok")),
        ),
      ),
    );
  }
  return h(
    "section",
    { class: "panel", "aria-labelledby": "analysis-title" },
    h("h2", { id: "analysis-title", class: "panel-title" }, t("analysis.title")),
    rs.analysis ? h("p", { class: "muted small-print" }, t("analysis.help")) : null,
    rs.analysis && rs.analysisPending && rs.analysis.hands_total
      ? h("p", { class: "muted small-print", dataset: { key: "analysis-progress" } }, t("analysis.progress", { done: rs.analysis.hands_done, total: rs.analysis.hands_total }))
      : null,
    body,
  );
}

// Player controls drawn as SVG (icon fonts and emoji differ between systems).
// They point the way the steps run on the page: mirrored in Arabic, where
// the row itself runs right to left.
const ICONS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  // One step: a chevron, unlike "play" (a filled triangle).
  prev: "M15.5 4.5 17.6 6.6 12.2 12l5.4 5.4-2.1 2.1L8 12z",
  play: "M7 5v14l11-7z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  next: "M8.5 4.5 6.4 6.6 11.8 12l-5.4 5.4 2.1 2.1L16 12z",
  last: "M16 5h2v14h-2zM4 5v14l11-7z",
};

function iconButton(key, label, path, onclick) {
  return h("button", {
    type: "button",
    class: ["icon-btn", "flip-rtl"],
    dataset: { key },
    "aria-label": label,
    onclick,
    html: `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path d="${path}" fill="currentColor"/></svg>`,
  });
}

export function renderReplay(ctx, root, rs) {
  const hands = rs.replay.hands;
  const hand = hands[rs.hand];
  const frame = hand.steps[rs.step];
  const model = {
    view: frame.view,
    seats: seatsOf(rs.game),
    you: null,
    hands: frame.hands,
    history: lines(hands.slice(0, rs.hand)),
    lastTrick: null,
    deadline: null,
  };
  const last = hand.steps.length - 1;
  const go = (handIndex, step) => {
    rs.hand = Math.max(0, Math.min(hands.length - 1, handIndex));
    const n = hands[rs.hand].steps.length - 1;
    rs.step = step === "end" ? n : Math.max(0, Math.min(n, step));
    renderReplay(ctx, root, rs);
  };
  const next = () => (rs.step < last ? go(rs.hand, rs.step + 1) : rs.hand < hands.length - 1 ? go(rs.hand + 1, 0) : stop());
  const prev = () => (rs.step > 0 ? go(rs.hand, rs.step - 1) : rs.hand > 0 ? go(rs.hand - 1, "end") : null);
  const stop = () => {
    clearInterval(rs.timer);
    rs.timer = null;
    renderReplay(ctx, root, rs);
  };
  const play = () => {
    if (rs.timer) return stop();
    rs.timer = setInterval(() => {
      if (!root.isConnected) return clearInterval(rs.timer);
      next();
    }, 700);
    renderReplay(ctx, root, rs);
  };
  rs.keys = (e) => {
    if (e.target.closest("input, select, textarea")) return;
    const rtl = document.dir === "rtl";
    if (e.key === (rtl ? "ArrowLeft" : "ArrowRight")) next();
    else if (e.key === (rtl ? "ArrowRight" : "ArrowLeft")) prev();
    else return;
    e.preventDefault();
  };
  const result = hand.line;
  const controls = h(
    "div",
    { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    h(
      "label",
      { for: "replay-hand", class: "sr-only" },
      t("replay.choose_hand"),
    ),
    h(
      "select",
      { id: "replay-hand", onchange: (e) => go(Number(e.target.value), 0) },
      hands.map((_, i) => h("option", { value: i, selected: i === rs.hand }, t("hand_n", { n: i + 1 }))),
    ),
    iconButton("r-first", t("replay.first"), ICONS.first, () => go(rs.hand, 0)),
    iconButton("r-prev", t("replay.prev"), ICONS.prev, prev),
    iconButton("r-play", rs.timer ? t("replay.pause") : t("replay.play"), rs.timer ? ICONS.pause : ICONS.play, play),
    iconButton("r-next", t("replay.next"), ICONS.next, next),
    iconButton("r-last", t("replay.last"), ICONS.last, () => go(rs.hand, "end")),
    h("label", { for: "replay-step", class: "sr-only" }, t("replay.step")),
    h("input", { id: "replay-step", type: "range", min: 0, max: last, value: rs.step, dataset: { key: "r-step" }, oninput: (e) => go(rs.hand, Number(e.target.value)) }),
    h("span", { class: "replay-pos num" }, `${rs.step}/${last}`),
  );
  const done = rs.step === last && result;
  const handResult = done
    ? h(
        "p",
        { class: "replay-result" },
        result.thrown_in
          ? t("thrown_in_row")
          : [0, 1, 2, 3].map((s) => h("span", { class: "res" }, h("bdi", { class: "user", translate: "no" }, seatName(model, s)), " ", h("span", { dir: "ltr", class: result.deltas[s] >= 0 ? "up" : "down" }, signed(result.deltas[s])))),
      )
    : null;
  let main = root.querySelector(":scope > .replay");
  if (!main) {
    main = h("div", { class: "replay" });
    mount(root, main);
    rs.tableRoot = h("div", { class: "table-root" });
  }
  const tableRoot = rs.tableRoot;
  mount(
    main,
    h("div", { class: "replay-head" }, h("h1", { class: "page-title" }, t("replay.title")), controls, h("p", { class: "replay-action", role: "status" }, describe(model, frame), remark(rs, frame)), handResult),
    h(
      "div",
      { class: "game" },
      h("div", { class: "game-main" }, tableRoot),
      h(
        "aside",
        { class: "game-side" },
        analysisPanel(rs, model),
        h("section", { class: "panel sheet-card", "aria-labelledby": "rsheet" }, h("h2", { id: "rsheet", class: "panel-title" }, t("score_sheet")), scoreSheet(lines(hands), (s) => seatName(model, s), null, null)),
      ),
    ),
  );
  renderTable(tableRoot, model, {});
}

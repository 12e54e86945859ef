// Replays: a finished game stepped through hand by hand and card by card,
// every hand face up, with the score sheet and the post-hand analysis beside.

import { h, mount } from "../dom.js";
import { cardName, signed, t } from "../i18n.js";
import { replayRecord, scoreRows } from "../replayer.js";
import { scoreSheet } from "../scoresheet.js";
import { botName } from "../state.js";
import { renderTable, seatName } from "../table.js";

/** Replay state: the game, which hand, which step. */
export function replayState(record, game, analysis = null) {
  return { played: replayRecord(record), game, analysis, hand: 0, step: 0, timer: null };
}

function seatsOf(game) {
  return [0, 1, 2, 3].map((seat) => {
    const p = game?.players?.find((x) => x.seat === seat);
    if (!p) return null;
    const name = p.user ? p.user.name : botName(seat);
    return { name, bot: Boolean(p.bot && !p.user), connected: true };
  });
}

function describe(model, frame) {
  const a = frame.action;
  if (!a) return t("replay.dealt", { name: seatName(model, frame.dealer) });
  const name = seatName(model, a.seat);
  if (a.bid !== undefined) return t("replay.bid", { name, n: a.bid });
  return t("replay.played", { name, card: cardName(a.card) });
}

function analysisPanel(rs, model) {
  const a = rs.analysis;
  const hand = a?.hands?.find((x) => x.hand_index === rs.hand || x.hand === rs.hand);
  let body;
  if (!a) body = h("p", { class: "muted" }, t("analysis.none"));
  else if (!hand) body = h("p", { class: "muted" }, t("analysis.no_hand"));
  else {
    const seats = hand.seats || [];
    body = h(
      "ul",
      { class: "analysis" },
      seats.map((s) =>
        h(
          "li",
          {},
          h("b", {}, h("bdi", { class: "user", translate: "no" }, seatName(model, s.seat))),
          " ",
          s.suggested_bid !== undefined && s.suggested_bid !== s.bid
            ? t("analysis.bid", { bid: s.bid, better: s.suggested_bid })
            : t("analysis.bid_ok"),
          (s.mistakes || []).length
            ? h(
                "ul",
                {},
                s.mistakes.map((m) =>
                  h("li", {}, t("analysis.card", { card: cardName(m.played), better: cardName(m.suggested), loss: m.loss?.toFixed ? m.loss.toFixed(1) : m.loss })),
                ),
              )
            : null,
        ),
      ),
    );
  }
  return h("section", { class: "panel", "aria-labelledby": "analysis-title" }, h("h2", { id: "analysis-title", class: "panel-title" }, t("analysis.title")), body);
}

export function renderReplay(ctx, root, rs) {
  const hand = rs.played.hands[rs.hand];
  const frame = hand.frames[rs.step];
  const rows = scoreRows(rs.played).slice(0, rs.hand);
  const model = {
    view: frame,
    seats: seatsOf(rs.game),
    you: null,
    hands: frame.hands,
    history: rows,
    lastTrick: null,
    deadline: null,
  };
  const last = hand.frames.length - 1;
  const go = (handIndex, step) => {
    rs.hand = Math.max(0, Math.min(rs.played.hands.length - 1, handIndex));
    const n = rs.played.hands[rs.hand].frames.length - 1;
    rs.step = step === "end" ? n : Math.max(0, Math.min(n, step));
    renderReplay(ctx, root, rs);
  };
  const next = () => (rs.step < last ? go(rs.hand, rs.step + 1) : rs.hand < rs.played.hands.length - 1 ? go(rs.hand + 1, 0) : stop());
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
  const result = hand.result;
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
      rs.played.hands.map((_, i) => h("option", { value: i, selected: i === rs.hand }, t("hand_n", { n: i + 1 }))),
    ),
    h("button", { type: "button", class: "icon-btn", dataset: { key: "r-first" }, "aria-label": t("replay.first"), onclick: () => go(rs.hand, 0) }, "⏮"),
    h("button", { type: "button", class: "icon-btn", dataset: { key: "r-prev" }, "aria-label": t("replay.prev"), onclick: prev }, "◀"),
    h("button", { type: "button", class: "icon-btn", dataset: { key: "r-play" }, "aria-label": rs.timer ? t("replay.pause") : t("replay.play"), onclick: play }, rs.timer ? "⏸" : "▶"),
    h("button", { type: "button", class: "icon-btn", dataset: { key: "r-next" }, "aria-label": t("replay.next"), onclick: next }, "▶|"),
    h("button", { type: "button", class: "icon-btn", dataset: { key: "r-last" }, "aria-label": t("replay.last"), onclick: () => go(rs.hand, "end") }, "⏭"),
    h("label", { for: "replay-step", class: "sr-only" }, t("replay.step")),
    h("input", { id: "replay-step", type: "range", min: 0, max: last, value: rs.step, dataset: { key: "r-step" }, oninput: (e) => go(rs.hand, Number(e.target.value)) }),
    h("span", { class: "replay-pos num" }, `${rs.step}/${last}`),
  );
  const done = rs.step === last;
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
    h("div", { class: "replay-head" }, h("h1", { class: "page-title" }, t("replay.title")), controls, h("p", { class: "replay-action", role: "status" }, describe(model, frame)), handResult),
    h(
      "div",
      { class: "game" },
      h("div", { class: "game-main" }, tableRoot),
      h(
        "aside",
        { class: "game-side" },
        analysisPanel(rs, model),
        h("section", { class: "panel sheet-card", "aria-labelledby": "rsheet" }, h("h2", { id: "rsheet", class: "panel-title" }, t("score_sheet")), scoreSheet(scoreRows(rs.played), (s) => seatName(model, s), null, null)),
      ),
    ),
  );
  renderTable(tableRoot, model, {});
}

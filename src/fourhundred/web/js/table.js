// The table: renders one docs/view.md object (plus who sits where, the timer and
// the score sheet) into the DOM. It decides nothing about the rules: the
// legal bids and cards are exactly `view.legal`, the values `view.values`.
//
// model = {
//   view,                    // docs/view.md JSON (required)
//   seats: [{name, bot, connected, rating} | null] x 4,
//   you,                     // the seat this browser plays, or null (spectator / replay)
//   deadline,                // Date.now() ms when the turn timer runs out, or null
//   timer,                   // the table's turn timer in seconds
//   history,                 // score sheet rows (scoresheet.js)
//   lastTrick,               // the previous hand's last trick, or null
//   result,                  // {winner, rating: [{seat, before, after}]} once the game is over
//   hands,                   // replays only: every seat's unplayed cards
//   pending,                 // an action is on its way to the server
//   notice,                  // a short message for the player (e.g. an error)
// }
// handlers = {bid(n), play(card), redeal(), openScores(), openLastTrick(), ...}

import { cardBack, groupBySuit, isTrump, parse, suitIcon } from "./cards.js";
import { announce, h, mount, num } from "./dom.js";
import { cardName, seatLabel, signed, suitName, t } from "./i18n.js";
import { bidPanel, cardEl, currentTrick, handRow, sumBids } from "./hand.js";

const POSITIONS = ["bottom", "right", "top", "left"];
// Where a card flies in from, by position (physical directions: the table is
// a picture of real seats, so it is not mirrored in right-to-left pages).
const FROM = { bottom: [0, 110], right: [130, 0], top: [0, -110], left: [-130, 0] };

/** Position of each seat on screen: you at the bottom, the next seat to act
 * (anticlockwise, "to the right") at the right, your partner at the top. */
export function positions(you) {
  const base = you ?? 0;
  const out = {};
  for (let i = 0; i < 4; i++) out[(base + i) % 4] = POSITIONS[i];
  return out;
}

export const teamOf = (seat) => seat % 2;

/** The name shown for a seat (a placeholder when empty). */
export function seatName(model, seat) {
  const info = model.seats?.[seat];
  return info?.name || seatLabel(seat);
}

/** The last complete trick before the one on the table, for "last trick". */
export function previousTrick(model) {
  const tricks = model.view.tricks;
  for (let i = tricks.length - 1; i >= 0; i--) {
    const tr = tricks[i];
    if (tr.winner === null) continue;
    const onTable = i === tricks.length - 1;
    if (!onTable) return tr;
  }
  return model.lastTrick || null;
}


// ------------------------------------------------------------------ seats

function seatPlate(model, seat, pos) {
  const v = model.view;
  const info = model.seats?.[seat] || null;
  const you = model.you === seat;
  const turn = v.turn === seat && v.phase !== "over";
  const bid = v.bids[seat];
  const name = seatName(model, seat);
  const badges = [];
  if (you) badges.push(h("span", { class: "badge you" }, t("you")));
  if (info?.substitute) badges.push(h("span", { class: "badge bot", title: t("stand_in_help") }, t("stand_in")));
  if (info?.bot && info.level) badges.push(h("span", { class: "badge level", dataset: { level: info.level } }, t(`level.${info.level}`)));

  if (info && info.connected === false && !info.bot) {
    badges.push(h("span", { class: "badge away", title: t("away_help") }, t("away")));
  }
  if (v.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("dealer") }, t("dealer_short")));
  let bidText;
  if (bid === null) bidText = turn && v.phase === "bid" ? t("bidding_now") : t("no_bid_yet");
  else bidText = t("bid_won", { bid, won: v.tricks_won[seat] });
  const hidden = model.hands ? null : handCount(v, seat, model);
  return h(
    "section",
    {
      class: ["seat", `pos-${pos}`, `team-${teamOf(seat)}`, turn && "turn", you && "me", info?.bot && "is-bot"],
      "aria-label": t("seat_aria", { name, team: t(`team_${teamOf(seat) === teamOf(model.you ?? 0) ? "us" : "them"}`) }),
      dataset: { seat },
    },
    h(
      "div",
      { class: "avatar", "aria-hidden": "true" },
      info?.bot && !info.substitute ? h("span", { class: "robot", html: ROBOT }) : h("span", {}, initials(name)),
      turn ? ring() : null,
    ),
    h(
      "div",
      { class: "seat-text" },
      h("div", { class: "seat-name" }, h("bdi", { translate: "no", class: "user" }, name), " ", badges),
      h(
        "div",
        { class: "seat-line" },
        h("span", { class: "score", title: t("score") }, t("score_short"), " ", h("b", {}, num(v.scores[seat]))),
        h("span", { class: "bid" }, bidText),
      ),
      turn && model.deadline ? h("div", { class: "countdown", role: "timer", dataset: { countdown: "seat" } }, "") : null,
    ),
    hidden !== null && pos !== "bottom" ? backs(hidden) : null,
  );
}

function handCount(view, seat, model) {
  if (view.phase === "over") return null;
  let played = 0;
  for (const tr of view.tricks) {
    for (let i = 0; i < tr.cards.length; i++) if ((tr.leader + i) % 4 === seat) played++;
  }
  return model.you === seat ? null : 13 - played;
}

function backs(n) {
  const shown = Math.min(n, 5);
  return h(
    "div",
    { class: "backs", "aria-label": t("cards_left", { n }), role: "img" },
    Array.from({ length: shown }, () => h("span", { class: "back", html: cardBack() })),
    h("span", { class: "backs-n", "aria-hidden": "true" }, n),
  );
}

function ring() {
  return h("span", { class: "ring", html: '<svg viewBox="0 0 44 44" aria-hidden="true"><circle cx="22" cy="22" r="20"/></svg>' });
}

function initials(name) {
  const letter = String(name).match(/\p{L}/u);
  return letter ? letter[0].toUpperCase() : "?";
}

const ROBOT =
  '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><rect x="4" y="7" width="16" height="12" rx="3" fill="#fff"/>' +
  '<circle cx="9" cy="13" r="1.8" fill="#3b2f7a"/><circle cx="15" cy="13" r="1.8" fill="#3b2f7a"/>' +
  '<rect x="11" y="3" width="2" height="4" fill="#fff"/><circle cx="12" cy="3" r="1.6" fill="#f3c75a"/></svg>';

// ----------------------------------------------------------------- middle

function trickArea(model, state) {
  const v = model.view;
  const pos = positions(model.you);
  const trick = currentTrick(v);
  const children = [];
  if (v.phase === "bid" || (v.phase === "deal" && !trick)) {
    children.push(bidMeter(model));
  } else if (trick) {
    const key = `${v.hand_index}:${v.tricks.length}`;
    const seen = state.trickKey === key ? state.trickCards : 0;
    trick.cards.forEach((card, i) => {
      const seat = (trick.leader + i) % 4;
      const p = pos[seat];
      const fresh = i >= seen;
      const [dx, dy] = FROM[p];
      children.push(
        cardEl(card, {
          extra: {
            class: ["card", "played", `at-${p}`, fresh && "enter", trick.winner === seat && "win", isTrump(card) && "trump"],
            style: { "--dx": `${dx}px`, "--dy": `${dy}px`, "--i": i },
            "aria-label": t("played_by", { card: cardName(card), name: seatName(model, seat) }),
          },
        }),
      );
    });
    state.trickKey = key;
    state.trickCards = trick.cards.length;
    if (trick.winner !== null) {
      children.push(
        h("div", { class: "trick-note" }, t("wins_trick", { name: seatName(model, trick.winner) })),
      );
    }
  }
  return h("div", { class: "trick", "aria-label": t("the_trick"), role: "group" }, children);
}

function bidMeter(model) {
  const v = model.view;
  const total = sumBids(v.bids);
  const need = v.required_total;
  const pct = Math.min(100, Math.round((100 * total) / need));
  const n = v.bids.filter((b) => b !== null).length;
  const last = model.history?.length ? model.history[model.history.length - 1] : null;
  return h(
    "div",
    { class: "bid-meter" },
    h("div", { class: "meter-title" }, t("bids_total", { total, need })),
    h(
      "div",
      { class: "meter", role: "meter", "aria-valuemin": 0, "aria-valuemax": need, "aria-valuenow": total, "aria-label": t("bids_total", { total, need }) },
      h("span", { style: { width: `${pct}%` }, class: total >= need ? "full" : "" }),
    ),
    h("div", { class: "meter-sub" }, n < 4 ? t("bids_to_come", { n: 4 - n }) : ""),
    last && n === 0 ? lastHandSummary(model, last) : null,
  );
}

function lastHandSummary(model, row) {
  if (row.thrown_in) return h("div", { class: "last-hand" }, t("last_hand_thrown"));
  return h(
    "div",
    { class: "last-hand" },
    h("div", { class: "last-hand-title" }, t("last_hand")),
    h(
      "ul",
      {},
      [0, 1, 2, 3].map((s) =>
        h(
          "li",
          { class: row.deltas[s] >= 0 ? "up" : "down" },
          h("bdi", { class: "user", translate: "no" }, seatName(model, s)),
          " ",
          h("span", { class: "num", dir: "ltr" }, signed(row.deltas[s])),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------- status bar

/** One sentence: whose turn it is and what to do. */
export function statusText(model) {
  const v = model.view;
  if (v.phase === "over") {
    if (v.winner === null) return t("game_over");
    return model.you !== null && teamOf(model.you) === v.winner ? t("you_won") : t("team_won", { names: teamNames(model, v.winner) });
  }
  if (v.turn === null) {
    // Between two hands (phase "deal"): the hand as its last action left it.
    const trick = currentTrick(v);
    if (!trick) return t("thrown_now");
    return trick && trick.winner !== null ? t("wins_trick", { name: seatName(model, trick.winner) }) : t("hand_ends");
  }
  const mine = v.turn === model.you;
  const name = seatName(model, v.turn);
  if (v.phase === "bid") return mine ? t("status_your_bid") : t("status_bidding", { name });
  const trick = currentTrick(v);
  if (mine) {
    if (trick && trick.winner === null && trick.cards.length) {
      return t("status_your_card_follow", { suit: suitName(parse(trick.cards[0]).suit) });
    }
    return t("status_your_lead");
  }
  return t("status_playing", { name });
}

export function teamNames(model, team) {
  return t("and_names", { a: seatName(model, team), b: seatName(model, team + 2) });
}

/** A team as the one watching calls it: "Us" / "Them", or its players' names
 * ("Rami & Karim") to a spectator and in a replay. */
export function teamLabel(model, team) {
  if (model.you === null) return teamNames(model, team);
  return t(team === teamOf(model.you) ? "team_us" : "team_them");
}

function teamBanner(model) {
  const v = model.view;
  const mine = teamOf(model.you ?? 0);
  const team = (k) => {
    const a = k;
    const b = k + 2;
    return h(
      "div",
      { class: ["team", `team-${k}`] },
      model.you === null
        ? h("span", { class: "team-name team-names", title: teamNames(model, k) }, teamLabel(model, k))
        : h("span", { class: "team-name" }, teamLabel(model, k)),
      h(
        "span",
        { class: "team-scores num" },
        h("b", {}, num(v.scores[a] + v.scores[b])),
        " ",
        // Each partner's own score (the title names them).
        h(
          "small",
          {
            dir: "ltr",
            title: t("partner_scores", { a: seatName(model, a), sa: v.scores[a], b: seatName(model, b), sb: v.scores[b] }),
          },
          `${v.scores[a]} / ${v.scores[b]}`,
        ),
      ),
    );
  };
  return h("div", { class: "teams", role: "group", "aria-label": t("scores") }, team(mine), team(1 - mine));
}

// ------------------------------------------------------------- the screen

const states = new WeakMap();

/** Render the table for `model` into `root` (replacing what was there). */
export function renderTable(root, model, handlers = {}) {
  const state = states.get(root) || { trickKey: null, trickCards: 0, timer: null };
  states.set(root, state);
  const v = model.view;
  const pos = positions(model.you);
  const plates = [0, 1, 2, 3].map((seat) => seatPlate(model, seat, pos[seat]));
  const rules = v.rules;
  // Hand numbers shown to people count from 1.
  const facts = [t("hand_n", { n: v.hand_index + 1 }), t("target_n", { n: rules.target }), t("need_n", { n: v.required_total })];
  const info = h(
    "div",
    { class: "table-info" },
    h("span", { class: "chip trump-chip", html: suitIcon("H", 14) }, h("span", {}, t("hearts_trump"))),
    model.kind ? h("span", { class: ["chip", `kind-${model.kind}`] }, t(`kind.${model.kind}`), model.rated ? ` · ${t("rated")}` : "") : null,
    facts.map((f) => h("span", { class: "chip" }, f)),
  );
  const tool = (key, label, fn, disabled = false) =>
    fn ? h("button", { type: "button", class: "tool", dataset: { key }, onclick: fn, disabled }, label) : null;
  const tools = h(
    "div",
    { class: "table-tools" },
    tool("last-trick", t("last_trick"), handlers.openLastTrick, !previousTrick(model)),
    tool("scores", t("scores_tool"), handlers.openScores),
    tool("rules", t("table_rules"), handlers.openRules),
    handlers.extraTools ? handlers.extraTools() : null,
  );
  const status = h(
    "div",
    { class: ["status", v.turn === model.you && v.phase !== "over" && "mine"], role: "status", "aria-live": "polite" },
    h("span", { class: "status-text" }, statusText(model)),
    v.turn === model.you && model.deadline ? h("span", { class: "countdown big", role: "timer", dataset: { countdown: "me" } }) : null,
  );
  const felt = h(
    "div",
    { class: ["felt", model.you === null && "spectating"] },
    plates,
    info,
    trickArea(model, state),
  );
  const faceUp = model.hands
    ? h(
        "div",
        { class: "all-hands" },
        [0, 1, 2, 3].map((seat) =>
          h(
            "div",
            { class: ["open-hand", `pos-${pos[seat]}`], role: "group", "aria-label": t("hand_of", { name: seatName(model, seat) }) },
            h("div", { class: "open-hand-name" }, h("bdi", { class: "user", translate: "no" }, seatName(model, seat))),
            groupBySuit(model.hands[seat]).map((g) => h("div", { class: "suit-group" }, g.cards.map((c) => cardEl(c)))),
          ),
        ),
      )
    : null;
  const mine =
    model.you !== null && v.hand
      ? h("div", { class: "my-area" }, bidPanel(model, handlers), handRow(model, handlers))
      : null;
  const notice = model.notice ? h("div", { class: "notice", role: "alert" }, model.notice) : null;
  mount(
    root,
    h(
      "div",
      { class: ["table-screen", `phase-${v.phase}`, model.hands && "replaying"] },
      h(
        "div",
        { class: "table-head" },
        teamBanner(model),
        h("span", { class: "chip trump-chip phone-only", html: suitIcon("H", 14) }, h("span", {}, t("trumps"))),
        // A phone has no room for the felt's chips: the same facts in a line.
        h("p", { class: "table-facts phone-only" }, facts.join(" · ")),
        tools,
      ),
      felt,
      status,
      notice,
      faceUp,
      mine,
    ),
  );
  // The status is rebuilt with the table, so a screen reader would miss it:
  // say it through the page's live region when it changes.
  const said = statusText(model);
  if (said !== state.said) announce(said);
  state.said = said;
  startCountdown(root, model, state);
  // When a turn comes to this player, bring the hand into view (a phone may
  // be scrolled down to the chat or the score sheet).
  const turnKey = v.turn === model.you && v.phase !== "over" ? `${v.hand_index}:${v.phase}:${v.tricks.length}` : null;
  if (turnKey && turnKey !== state.turnKey) {
    const mineEl = root.querySelector(".my-area");
    if (mineEl) {
      const box = mineEl.getBoundingClientRect();
      if (box.bottom > innerHeight || box.top < 0) mineEl.scrollIntoView({ block: "nearest" });
    }
  }
  state.turnKey = turnKey;
}

function startCountdown(root, model, state) {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  if (!model.deadline) return;
  const total = (model.timer || 30) * 1000;
  const mine = model.view.turn === model.you;
  const tick = () => {
    const left = Math.max(0, model.deadline - Date.now());
    const secs = Math.ceil(left / 1000);
    if (mine && secs === 5 && state.warned !== model.deadline) {
      state.warned = model.deadline;
      announce(t("hurry", { n: secs }));
    }
    for (const el of root.querySelectorAll("[data-countdown]")) {
      el.textContent = t("seconds_left", { n: secs });
      el.classList.toggle("low", secs <= 5);
    }
    for (const el of root.querySelectorAll(".seat.turn .ring circle")) {
      el.style.strokeDashoffset = String(126 * (1 - left / total));
    }
    if (!root.isConnected && state.timer) clearInterval(state.timer);
  };
  tick();
  state.timer = setInterval(tick, 250);
}

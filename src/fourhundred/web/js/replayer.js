// Steps through a finished game record (game-record.md) for the replay
// viewer: every position of every hand, with all four hands face up (the
// game is over, nothing is secret any more). The server has already checked
// the record; this follows the rules of rules.md to show tricks and scores.
// tests/web replays the project's public vectors here and compares the
// results with the Python engine's.

import { sortHand, trickWinner } from "./cards.js";
import { bidValue, requiredTotal, resolveSettings, winningTeam } from "./rules.js";

/**
 * The whole game as frames. Returns {settings, hands: [{dealer, bids (by
 * seat), plays, frames, result}], winner, scores}. A frame is a view-like
 * object (view.md fields plus `hands`: every seat's unplayed cards and
 * `action`: the action that led to it), frame 0 being the fresh deal.
 */
export function replayRecord(record) {
  const settings = resolveSettings(record.rules);
  let scores = [0, 0, 0, 0];
  let winner = null;
  const hands = [];
  record.hands.forEach((hand, handIndex) => {
    const out = playHand(settings, hand, handIndex, scores);
    hands.push(out);
    scores = out.result.scores;
    if (out.result.winner !== null) winner = out.result.winner;
  });
  return { settings, hands, winner, scores };
}

function playHand(settings, hand, handIndex, scoresBefore) {
  const dealer = hand.dealer;
  const required = requiredTotal(settings, scoresBefore);
  const held = hand.deal.map((cards) => sortHand(cards));
  const bids = [null, null, null, null];
  const tricks = [];
  const won = [0, 0, 0, 0];
  const frames = [];
  const base = {
    rules: settings,
    seat: null,
    hand_index: handIndex,
    dealer,
    scores: scoresBefore,
    required_total: required,
    legal: null,
    values: null,
    can_redeal: false,
  };
  const snapshot = (phase, turn, action, winner = null) =>
    frames.push({
      ...base,
      phase,
      turn,
      action,
      winner,
      bids: [...bids],
      tricks_won: [...won],
      tricks: tricks.map((tr) => ({ ...tr, cards: [...tr.cards] })),
      hands: held.map((h) => [...h]),
    });

  let turn = (dealer + 1) % 4;
  snapshot("bid", turn, null);
  const redeal = hand.redeal_request ?? null;
  if (redeal !== null) {
    return finish(frames, hand, { thrown_in: true, redeal, tricks: won, deltas: [0, 0, 0, 0], scores: scoresBefore, winner: null });
  }
  for (const b of hand.bids) {
    bids[turn] = b;
    turn = (turn + 1) % 4;
    snapshot(bids.every((x) => x !== null) ? "play" : "bid", turn, { seat: (turn + 3) % 4, bid: b });
  }
  const total = bids.reduce((a, b) => a + (b ?? 0), 0);
  if (hand.bids.length === 4 && total < required) {
    frames[frames.length - 1].phase = "bid";
    return finish(frames, hand, { thrown_in: true, redeal: null, tricks: won, deltas: [0, 0, 0, 0], scores: scoresBefore, winner: null, total, required });
  }
  const thirteen = bids.indexOf(13);
  let leader = (dealer + 1) % 4;
  let decided = null;
  for (const card of hand.plays) {
    let trick = tricks[tricks.length - 1];
    if (!trick || trick.winner !== null) {
      trick = { leader, cards: [], winner: null };
      tricks.push(trick);
    }
    const seat = (trick.leader + trick.cards.length) % 4;
    held[seat] = held[seat].filter((c) => c !== card);
    trick.cards.push(card);
    if (trick.cards.length === 4) {
      trick.winner = trickWinner(trick.leader, trick.cards);
      won[trick.winner] += 1;
      leader = trick.winner;
      if (thirteen >= 0 && trick.winner !== thirteen) decided = 1 - (thirteen % 2);
    }
    const next = trick.cards.length === 4 ? leader : (seat + 1) % 4;
    snapshot("play", next, { seat, card });
  }
  const complete = tricks.length === 13 && tricks[12].winner !== null;
  if (thirteen >= 0 && complete && decided === null) decided = thirteen % 2;
  if (decided !== null) {
    return finish(frames, hand, { thrown_in: false, redeal: null, tricks: won, deltas: [0, 0, 0, 0], scores: scoresBefore, winner: decided });
  }
  if (!complete) {
    return finish(frames, hand, { thrown_in: false, unfinished: true, redeal: null, tricks: won, deltas: [0, 0, 0, 0], scores: scoresBefore, winner: null });
  }
  const deltas = bids.map((b, s) => {
    const v = bidValue(settings, b, scoresBefore[s]);
    return won[s] >= b ? v : -v;
  });
  const scores = scoresBefore.map((x, s) => x + deltas[s]);
  return finish(frames, hand, { thrown_in: false, redeal: null, tricks: won, deltas, scores, winner: winningTeam(settings, scores) });
}

function finish(frames, hand, result) {
  const last = frames[frames.length - 1];
  if (result.winner !== null) {
    last.phase = "over";
    last.winner = result.winner;
    last.turn = null;
  }
  return { dealer: hand.dealer, frames, result };
}

/** The score sheet rows (scoresheet.js's format) of a replayed game. */
export function scoreRows(game) {
  return game.hands.map((h, i) => ({
    hand_index: i,
    dealer: h.dealer,
    bids: h.frames[h.frames.length - 1].bids,
    tricks: h.result.tricks,
    deltas: h.result.deltas,
    scores: h.result.scores,
    thrown_in: h.result.thrown_in,
  }));
}

// What the client knows about the table it is attached to, kept from the
// server's frames (protocol.md: snapshot, catchup, event, presence, chat).
// Every snapshot/catchup/event carries the full room, view and clock, so the
// table can always be redrawn from here alone.

import { trickWinner } from "./cards.js";
import { t } from "./i18n.js";

export const CHAT_KEEP = 200;

export class TableState {
  constructor() {
    this.table = null;
    this.version = 0;
    this.you = { seat: null, role: "spectator", host: false };
    this.room = null;
    this.view = null;
    this.clock = null;
    this.clockAt = 0;
    this.sheet = [];
    this.chat = [];
    this.result = null;
    this.lastEvent = null;
  }

  /** Take one frame in; returns the event it carried (or null). */
  apply(frame, now = Date.now()) {
    switch (frame.type) {
      case "snapshot":
      case "catchup": {
        if (this.table !== frame.table) this.result = null;
        this.table = frame.table;
        this.version = frame.version;
        this.setLive(frame, now);
        this.sheet = [...(frame.sheet || [])];
        this.chat = [...(frame.chat || [])].slice(-CHAT_KEEP);
        const events = frame.type === "catchup" ? frame.events || [] : [];
        for (const { event } of events) this.note(event);
        this.lastEvent = events.length ? events[events.length - 1].event : null;
        return this.lastEvent;
      }
      case "event": {
        if (frame.table !== this.table) return null;
        if (frame.version <= this.version) return null; // already seen
        this.version = frame.version;
        this.setLive(frame, now);
        const e = frame.event;
        if (e.kind === "hand_over" && !this.sheet.some((r) => r.hand_index === e.hand_index)) {
          this.sheet.push(e);
        }
        this.note(e);
        this.lastEvent = e;
        return e;
      }
      case "presence": {
        const seat = this.room?.seats?.[frame.seat];
        if (frame.table === this.table && seat) seat.connected = frame.connected;
        return null;
      }
      case "chat":
        if (frame.table === this.table) {
          this.chat.push(frame);
          if (this.chat.length > CHAT_KEEP) this.chat.shift();
        }
        return null;
      default:
        return null;
    }
  }

  setLive(frame, now) {
    if (frame.you) this.you = frame.you;
    if (frame.room) this.room = frame.room;
    this.view = frame.view ?? null;
    this.clock = frame.clock ?? null;
    this.clockAt = now;
  }

  note(event) {
    if (event && event.kind === "game_over") {
      this.result = { winner: event.winner, scores: event.scores, rated: event.rated, ratings: event.ratings, reason: event.reason };
    }
  }

  get status() {
    return this.room?.status || null;
  }

  get deadline() {
    return this.clock ? this.clockAt + this.clock.remaining_ms : null;
  }

  /** Seats for the table renderer: name, bot, connected, substitute. */
  seats() {
    return (this.room?.seats || []).map((s) => seatInfo(s));
  }

  /** The model table.js renders. */
  model(extra = {}) {
    const sheet = this.sheet;
    return {
      view: this.view,
      seats: this.seats(),
      you: this.you.seat,
      deadline: this.deadline,
      timer: this.clock?.timer || this.room?.timer || 30,
      history: sheet,
      lastTrick: sheet.length ? sheet[sheet.length - 1].last_trick || null : null,
      result: this.result,
      kind: this.room?.kind || null,
      rated: Boolean(this.room?.rated),
      ...extra,
    };
  }
}

/** A room seat (protocol.md) as the renderer wants it. */
export function seatInfo(s) {
  if (!s) return null;
  const empty = !s.user && !s.bot;
  let name = null;
  if (s.user) name = s.user.name;
  else if (s.bot) name = botName(s.seat);
  return {
    name,
    empty,
    bot: Boolean(s.bot),
    substitute: Boolean(s.substitute),
    connected: s.bot ? true : Boolean(s.connected),
    ready: Boolean(s.ready),
    user: s.user || null,
    botName: s.bot || null,
    rating: s.user ? s.user.rating : null,
  };
}

/** "Bot 2": a bot is named after its seat, so three bots can be told apart. */
export function botName(seat) {
  return t("bot_seat", { n: seat + 1 });
}

/**
 * The view just after `event` when the server has already moved on to the
 * next hand (protocol.md: the events of one command all carry the state
 * after the whole command). `before` is the view shown so far, `after` the
 * frame's. Null when the frame's own view shows the event.
 */
export function interimView(before, event, after) {
  if (!before || !after || !event || before.phase === "over") return null;
  if (after.hand_index === before.hand_index) return null;
  const v = structuredClone(before);
  Object.assign(v, { legal: null, values: null, can_redeal: false, turn: null });
  if (event.kind === "bid") {
    v.bids[event.seat] = event.bid;
    return v;
  }
  if (event.kind !== "play") return null;
  let trick = v.tricks[v.tricks.length - 1];
  if (!trick || trick.winner !== null) {
    trick = { leader: event.seat, cards: [], winner: null };
    v.tricks.push(trick);
  }
  trick.cards.push(event.card);
  if (trick.cards.length === 4) {
    trick.winner = event.trick_winner ?? trickWinner(trick.leader, trick.cards);
    v.tricks_won[trick.winner] += 1;
  }
  if (v.hand) v.hand = v.hand.filter((c) => c !== event.card);
  return v;
}

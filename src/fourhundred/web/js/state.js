// What the client knows about the table it is attached to, kept from the
// server's frames (protocol.md: snapshot, catchup, event, presence, chat).
// Every snapshot/catchup/event carries the full room, view and clock, each
// event the state just after it, so the table is always drawn from here
// alone: the client computes no rule.

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
    /** The last `hint` frame for this table (shown while its version is the table's). */
    this.hint = null;
  }

  /** Take one frame in; returns the event it carried (or null). */
  apply(frame, now = Date.now()) {
    switch (frame.type) {
      case "snapshot":
      case "catchup": {
        if (this.table !== frame.table) {
          this.result = null;
          this.hint = null;
        }
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
      case "hint":
        if (frame.table === this.table) this.hint = frame;
        return null;
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
      hints: Boolean(this.room?.hints),
      hint: this.hint && this.hint.version === this.version ? this.hint : null,
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
    level: s.level || null,
    rating: s.user ? s.user.rating : null,
  };
}

/** "Bot 2": a bot is named after its seat, so three bots can be told apart. */
export function botName(seat) {
  return t("bot_seat", { n: seat + 1 });
}

// The table this page is attached to: the socket's frames drawn in order
// (each event with the view the server sent for just after it), the
// waiting room or the game screen, and the moves sent from it. A move the
// server refuses because the table had moved on is caught up quietly.

import { announce, h, mount } from "./dom.js";
import { cardName, lang, t } from "./i18n.js";
import { api, TableSocket } from "./net.js";
import { TableState } from "./state.js";
import { ctx } from "./context.js";
import { renderRoom } from "./screens/room.js";
import { openGameOver, renderGame } from "./screens/game.js";
import { refreshRematch } from "./screens/rematch.js";
import { errorText } from "./ui.js";

// How long a finished trick stays on the table, and the gap between cards
// played by others, so people can follow a fast bot. `?pace=fast` (tests)
// and reduced-motion users get short pauses.
const FAST = new URLSearchParams(location.search).get("pace") === "fast" || matchMedia("(prefers-reduced-motion: reduce)").matches;
const PAUSE = FAST ? { trick: 150, card: 0, hand: 100 } : { trick: 1200, card: 350, hand: 600 };

const frames = [];
let pumping = false;

/** Open the page's one socket (once); its frames are drawn in order. */
export function connect() {
  if (ctx.socket) {
    ctx.socket.connect();
    return;
  }
  ctx.socket = new TableSocket({
    onFrame: (frame) => {
      frames.push({ frame, at: Date.now() });
      pump();
    },
    onStatus: (status) => {
      const was = ctx.connection;
      ctx.connection = status;
      if (status === "unauthorized") {
        ctx.signedOut(t("auth.session_ended"));
        return;
      }
      if (ctx.route.name === "table" && ctx.ts.room && was !== status) renderTableScreen();
    },
  });
  ctx.socket.chatUnfiltered = ctx.chatUnfiltered;
  ctx.socket.connect();
}

export async function showTable(r) {
  connect();
  if (ctx.ts.table !== r.id || !ctx.ts.room) ctx.loading();
  const invite = sessionStorage.getItem(`fh.invite.${r.id}`);
  try {
    await ctx.socket.join(invite ? { table: r.id, invite } : { table: r.id });
  } catch (err) {
    if (err.code !== "offline") ctx.failed(err);
    return;
  }
  // The waiting room offers to invite online friends and to befriend or
  // block the others seated: it needs the friends lists.
  if (ctx.me && !ctx.me.guest) ctx.socialChanged();
}

// Frames are shown in order with short pauses so that a trick taken by a
// bot can be seen before the next one begins. Each event carries the view
// just after it (the last card of a hand, then the hand's end, then the next
// deal), so drawing them in order shows every moment.
const drained = [];

async function pump() {
  if (pumping) return;
  pumping = true;
  while (frames.length) {
    const { frame, at } = frames.shift();
    const hurry = frames.length > 40; // far behind (a catch-up): no pauses
    const pause = handle(frame, at);
    if (pause && !hurry) await new Promise((res) => setTimeout(res, pause));
  }
  pumping = false;
  for (const done of drained.splice(0)) done();
}

/** Resolves once every frame received so far has been drawn. */
function settled() {
  return pumping || frames.length ? new Promise((res) => drained.push(res)) : Promise.resolve();
}

function handle(frame, at = Date.now()) {
  switch (frame.type) {
    case "snapshot":
    case "catchup":
    case "event": {
      if (ctx.route.name !== "table" && !ctx.invite) return 0;
      const before = ctx.ts.view;
      const event = ctx.ts.apply(frame, at);
      if (frame.type === "event" && !event) return 0;
      if (ctx.invite && frame.type !== "event") arrivedByInvite(frame);
      rememberSeat();
      if (ctx.route.name !== "table" || ctx.route.id !== ctx.ts.table) return 0;
      if (ctx.pending && frame.type === "event" && ctx.ts.view !== before) ctx.pending = false;
      if (frame.type === "event") sayIfTimedOut(event);
      renderTableScreen();
      if (event && event.kind === "play") {
        if (event.trick_winner !== null && event.trick_winner !== undefined) return PAUSE.trick;
        return event.seat !== ctx.ts.you.seat ? PAUSE.card : 0;
      }
      if (event && event.kind === "hand_over") return PAUSE.hand;
      return 0;
    }
    case "hint":
      ctx.ts.apply(frame);
      if (ctx.route.name === "table") renderTableScreen();
      return 0;
    case "presence":
    case "chat":
      ctx.ts.apply(frame);
      if (ctx.route.name === "table") renderTableScreen();
      if (frame.type === "chat" && frame.from?.id !== ctx.me?.id) announce(`${frame.from?.name}: ${frame.text}`);
      return 0;
    case "matched":
      // A Ranked game or this player's tournament match is ready: go there.
      if (frame.kind === "tournament") {
        ctx.matchNotice = frame.table;
        announce(t("tour.match_ready"));
      }
      ctx.go(`#/table/${encodeURIComponent(frame.table)}`);
      return 0;
    case "notice":
      ctx.onNotice(frame);
      return 0;
    case "standing":
      ctx.refreshStanding();
      return 0;
    case "tournament":
      ctx.onTournament?.(frame);
      return 0;
    case "tournament_chat":
      ctx.onTournamentChat?.(frame);
      return 0;
    case "follow_failed":
      return 0;
    case "closing":
      ctx.say(t(`closing.${frame.code}`) || frame.message);
      return 0;
    case "join_failed":
      if (ctx.route.name === "table") ctx.failed(frame.error);
      return 0;
    case "error":
      ctx.say(errorText(frame));
      return 0;
    default:
      return 0;
  }
}

/** When the turn timer ran out on this player, the server moved for them
 * (the event's `by` is "timeout"): tell them what it did. */
function sayIfTimedOut(event) {
  if (event.by !== "timeout" || event.seat !== ctx.ts.you.seat) return;
  if (event.kind === "bid") ctx.say(t("timeout_bid", { n: event.bid }));
  else if (event.kind === "play") ctx.say(t("timeout_played", { card: cardName(event.card).toLocaleLowerCase(lang()) }));
}

// The table this player sits at, so the lobby can offer the way back (a
// user sits at one unfinished table at a time).
const SEAT_KEY = "fh.table";

function rememberSeat() {
  const ts = ctx.ts;
  try {
    const live = ts.you.seat !== null && (ts.status === "waiting" || ts.status === "playing");
    if (live) localStorage.setItem(SEAT_KEY, ts.table);
    else if (localStorage.getItem(SEAT_KEY) === ts.table) localStorage.removeItem(SEAT_KEY);
  } catch {
    // storage blocked: no way-back link, nothing else changes
  }
}

ctx.seatedAt = () => {
  try {
    return localStorage.getItem(SEAT_KEY);
  } catch {
    return null;
  }
};

function arrivedByInvite(frame) {
  const code = ctx.invite;
  ctx.invite = null;
  sessionStorage.setItem(`fh.invite.${frame.table}`, code);
  history.replaceState(null, "", `${location.pathname}#/table/${encodeURIComponent(frame.table)}`);
  ctx.route = { name: "table", id: frame.table, sit: true };
  maybeSit();
}

function maybeSit() {
  const ts = ctx.ts;
  if (!ctx.route.sit || ts.you.seat !== null || ts.status !== "waiting") return;
  ctx.route.sit = false;
  if (ts.room.kind === "ranked" || !ts.room.open_seats) return;
  ctx.cmd("sit", {}).catch(() => {});
}

export function renderTableScreen() {
  const ts = ctx.ts;
  if (!ts.room) return;
  ctx.renderShell();
  if (ts.status === "waiting") {
    maybeSit();
    renderRoom(ctx, ctx.main);
    return;
  }
  if (ts.status === "closed") {
    mount(ctx.main, h("div", { class: "panel failed" }, h("p", {}, t("table_closed")), h("a", { href: "#/", class: "button primary" }, t("back_to_lobby"))));
    return;
  }
  if (!ts.view) return; // the game has started; its first deal comes next
  // Keyboard players keep their place: focus that was in the hand or the
  // bids (or fell to the page when a card was played) goes to the hand or
  // the bids when it is this seat's turn. Focus anywhere else (the chat) stays.
  const before = document.activeElement;
  const keep = !before || before === document.body || Boolean(before.closest?.(".hand, .bids"));
  renderGame(ctx, ctx.main);
  if (keep && !document.querySelector("dialog[open]")) {
    const target = ctx.main.querySelector(".hand.active button.card[tabindex='0'], .bids button:not(:disabled)");
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  }
  // The table is over once its `game_over` event is in (after the last
  // hand's line of the score sheet): only then is the result complete.
  if (ts.status === "over" && ts.view.phase === "over" && ctx.shownOver !== ts.table) {
    ctx.shownOver = ts.table;
    ctx.showResult(false);
  }
  if (ts.status === "over") refreshRematch(ctx);
}

ctx.showResult = async () => {
  let game = ctx.game && ctx.game.id === ctx.ts.table ? ctx.game : null;
  if (!game && !ctx.demo && !(ctx.ts.result && ctx.ts.result.ratings)) {
    try {
      game = await api.game(ctx.ts.table);
      ctx.game = game;
    } catch {
      game = null;
    }
  }
  if (document.querySelector("dialog.game-over-dialog")) return;
  openGameOver(ctx, ctx.ts.model({}), game);
};

/** Send a command for this table; errors are shown (unless `quiet`) and re-thrown. */
ctx.cmd = async (type, fields = {}, { quiet = type === "chat" } = {}) => {
  if (ctx.demo) {
    // The demo has no server: say what would be sent (tests read the console).
    console.info(`demo: send ${JSON.stringify({ type, ...fields })}`);
    ctx.say(t("demo.sent"));
    return { type: "ack" };
  }
  try {
    return await ctx.socket.send(type, fields);
  } catch (err) {
    if (PENALTIES.has(err.code)) ctx.refreshStanding();
    if (!quiet) ctx.say(errorText(err));
    throw err;
  }
};

// Refusals for a penalty: the standing banner says why and until when.
const PENALTIES = new Set(["muted", "suspended", "banned"]);

// Refusals that mean this page's picture of the game was old (someone
// moved, a timer ran out): nothing to tell the player, just catch up.
const OLD_PICTURE = new Set(["stale", "not_your_turn", "wrong_phase"]);

/**
 * A game action (bid, play, redeal): one at a time, at the version of the
 * view it was chosen from (the last frame drawn). When the table had moved
 * on, the page catches up quietly and the player chooses again.
 */
ctx.act = async (type, fields) => {
  if (ctx.pending) return;
  ctx.pending = !ctx.demo;
  ctx.notice = null;
  renderTableScreen();
  try {
    await ctx.cmd(type, ctx.demo ? fields : { ...fields, version: ctx.ts.version }, { quiet: true });
  } catch (err) {
    if (OLD_PICTURE.has(err.code)) await catchUp(err.version);
    else ctx.say(errorText(err));
    ctx.pending = false;
    renderTableScreen();
  }
};

/** Draw every frame already here; if the table is still ahead, join again
 * from the last version seen (the server answers with what was missed). */
async function catchUp(version) {
  await settled();
  if (typeof version === "number" && ctx.ts.version < version && ctx.socket) {
    try {
      await ctx.socket.sendJoin();
      await settled();
    } catch {
      // the socket reconnects and joins again by itself
    }
  }
}

ctx.fillWithBots = async () => {
  const room = ctx.ts.room;
  for (const s of room.seats) {
    if (!s.user && !s.bot) await ctx.cmd("add_bot", { seat: s.seat }).catch(() => {});
  }
  const me = ctx.ts.you.seat !== null ? ctx.ts.room.seats[ctx.ts.you.seat] : null;
  if (me && !me.ready) await ctx.cmd("ready", { ready: true }).catch(() => {});
};

ctx.leaveTable = async () => {
  try {
    await ctx.cmd("leave");
  } catch {
    return;
  }
  try {
    if (localStorage.getItem(SEAT_KEY) === ctx.ts.table) localStorage.removeItem(SEAT_KEY);
  } catch {
    // nothing remembered
  }
  ctx.backToLobby();
};

ctx.backToLobby = () => {
  for (const d of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (d).close();
  ctx.socket?.detach();
  ctx.ts = new TableState();
  ctx.go("#/");
};

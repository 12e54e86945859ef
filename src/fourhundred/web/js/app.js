// The application: the page shell (header, language switch), the routes,
// and the glue between the screens, the socket (net.js) and the table state.
//
// Routes: #/ (home / lobby), #/table/ID[?sit=1], #/replay/ID, #/profile/ID,
// #/leaderboard; /?invite=CODE is an invite link; /?demo=NAME renders a demo
// scene from demo/NAME.json without a server.

import { announce, h, mount } from "./dom.js";
import { initLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { api, TableSocket } from "./net.js";
import { TableState } from "./state.js";
import { onNarrowChange } from "./table.js";
import { inviteFrom, renderLobby, renderSignedOut } from "./screens/home.js";
import { renderRoom } from "./screens/room.js";
import { openGameOver, renderGame } from "./screens/game.js";
import { renderReplay, replayState } from "./screens/replay.js";
import { renderLeaderboard, renderProfile } from "./screens/people.js";
import { errorText } from "./ui.js";

const params = new URLSearchParams(location.search);
// How long a finished trick stays on the table, and the gap between cards
// played by others, so people can follow a fast bot. `?pace=fast` (tests)
// and reduced-motion users get short pauses.
const FAST = params.get("pace") === "fast" || matchMedia("(prefers-reduced-motion: reduce)").matches;
const PAUSE = FAST ? { trick: 150, card: 0, hand: 100 } : { trick: 1200, card: 350, hand: 600 };

const ctx = {
  me: null,
  demo: false,
  route: { name: "home" },
  ts: new TableState(),
  socket: null,
  connection: "idle",
  pending: false,
  notice: null,
  muted: new Set(),
  lobby: { tables: [], watch: [], queue: null },
  invite: params.get("invite"),
  shownOver: null,
  game: null,
};

let main;
let noticeTimer = null;
let lobbyTimer = null;
let queueTimer = null;
const frames = [];
let pumping = false;

// ----------------------------------------------------------------- shell

function header() {
  const other = lang() === "ar" ? "en" : "ar";
  const nav = [
    ["#/", t("nav.play"), "home"],
    ["#/leaderboard", t("nav.leaderboard"), "leaderboard"],
  ];
  if (ctx.me) nav.push([`#/profile/${encodeURIComponent(ctx.me.id)}`, t("nav.profile"), "profile"]);
  return h(
    "header",
    { class: "topbar" },
    h(
      "a",
      { class: "brand", href: "#/", "aria-label": t("brand_home") },
      h("span", { class: "logo", "aria-hidden": "true", html: LOGO }),
      h("span", { class: "brand-name" }, t("brand")),
    ),
    h(
      "nav",
      { "aria-label": t("nav.label") },
      h(
        "ul",
        {},
        nav.map(([href, label, name]) =>
          h("li", {}, h("a", { href, "aria-current": ctx.route.name === name ? "page" : null }, label)),
        ),
      ),
    ),
    h(
      "div",
      { class: "topbar-end" },
      ctx.me ? h("span", { class: "me-chip" }, h("bdi", { class: "user", translate: "no" }, ctx.me.name), ctx.me.guest ? ` · ${t("guest")}` : "") : null,
      h(
        "button",
        {
          type: "button",
          class: "lang-switch",
          lang: other,
          "aria-label": t("lang.switch_to"),
          dataset: { key: "lang" },
          onclick: () => setLang(other),
        },
        other === "ar" ? "العربية" : "English",
      ),
      ctx.me && !ctx.demo ? h("button", { type: "button", class: "ghost small", onclick: signOut }, t("sign_out")) : null,
    ),
  );
}

const LOGO =
  '<svg viewBox="0 0 40 40" width="32" height="32"><rect x="6" y="4" width="22" height="30" rx="3" fill="#fff" stroke="#0e3d45" stroke-width="2" transform="rotate(-10 17 19)"/>' +
  '<rect x="12" y="6" width="22" height="30" rx="3" fill="#fff" stroke="#0e3d45" stroke-width="2" transform="rotate(8 23 21)"/>' +
  '<path d="M23 30c-1-1-8-5-8-10 0-3 2-5 4-5 2 0 3 1 4 2 1-1 2-2 4-2 2 0 4 2 4 5 0 5-7 9-8 10z" fill="#c3202f" transform="rotate(8 23 21)"/></svg>';

function renderShell() {
  const playing = ctx.route.name === "table" && ctx.ts.room && ctx.ts.status !== "waiting";
  document.body.classList.toggle("at-table", Boolean(playing));
  document.documentElement.lang = lang();
  document.documentElement.dir = lang() === "ar" ? "rtl" : "ltr";
  document.title = t("page_title");
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("skip");
  const top = document.getElementById("top");
  mount(top, header());
}

// ---------------------------------------------------------------- routes

function parseRoute() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query = ""] = hash.split("?");
  const q = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "table" && parts[1]) return { name: "table", id: parts[1], sit: q.get("sit") === "1" };
  if (parts[0] === "replay" && parts[1]) return { name: "replay", id: parts[1] };
  if (parts[0] === "profile" && parts[1]) return { name: "profile", id: parts[1] };
  if (parts[0] === "leaderboard") return { name: "leaderboard" };
  return { name: "home" };
}

/** @param {string} hash @param {{invite?: string}} [opts] */
ctx.go = (hash, { invite } = {}) => {
  if (invite) {
    const id = decodeURIComponent(hash.split("/")[2] || "");
    sessionStorage.setItem(`fh.invite.${id}`, invite);
  }
  if (location.hash === hash) route();
  else location.hash = hash;
};

async function route() {
  if (ctx.demo) return;
  const r = parseRoute();
  // A dialog belongs to the screen it was opened on.
  for (const d of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (d).close();
  const leaving = ctx.route.name === "table" && (r.name !== "table" || r.id !== ctx.route.id);
  ctx.route = r;
  clearInterval(lobbyTimer);
  renderShell();
  if (leaving) {
    ctx.ts = new TableState();
    ctx.shownOver = null;
  }
  if (r.name === "leaderboard") return showLeaderboard();
  if (r.name === "profile") return showProfile(r.id);
  if (r.name === "replay") return showReplay(r.id);
  if (!ctx.me) {
    renderSignedOut(ctx, main);
    return;
  }
  if (r.name === "table") return showTable(r);
  return showLobby();
}

function loading() {
  mount(main, h("p", { class: "loading", role: "status" }, t("loading")));
}

function failed(err, back = true) {
  mount(
    main,
    h(
      "div",
      { class: "panel failed" },
      h("p", { role: "alert" }, errorText(err)),
      back ? h("a", { href: "#/", class: "button primary" }, t("back_to_lobby")) : null,
    ),
  );
}

// ----------------------------------------------------------------- lobby

async function showLobby() {
  if (!main.querySelector(".lobby")) loading();
  const load = async () => {
    try {
      const [waiting, playing, queue] = await Promise.all([
        api.tables("waiting"),
        api.tables("playing"),
        ctx.me.guest ? Promise.resolve({ status: "idle" }) : api.queueStatus(),
      ]);
      queue.receivedAt = Date.now();
      ctx.lobby = { tables: waiting.tables, watch: playing.tables, queue };
      if (queue.status === "matched") return ctx.go(`#/table/${encodeURIComponent(queue.table)}`);
    } catch (err) {
      ctx.lobby.error = errorText(err);
    }
    if (ctx.route.name === "home") renderLobby(ctx, main, ctx.lobby);
  };
  await load();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => {
    if (ctx.route.name !== "home" || document.hidden || main.querySelector("dialog[open]")) return;
    if (main.contains(document.activeElement) && document.activeElement.matches("input")) return;
    load();
  }, 5000);
}

ctx.createTable = (choice) => api.createTable({ kind: choice.kind, preset: choice.preset, settings: choice.settings, timer: choice.timer });

ctx.joinQueue = async () => {
  try {
    const q = await api.queueJoin();
    q.receivedAt = Date.now();
    ctx.lobby.queue = q;
    watchQueue();
  } catch (err) {
    ctx.lobby.error = errorText(err);
  }
  renderLobby(ctx, main, ctx.lobby);
};

ctx.leaveQueue = async () => {
  clearInterval(queueTimer);
  try {
    await api.queueLeave();
  } catch (err) {
    ctx.lobby.error = errorText(err);
  }
  ctx.lobby.queue = { status: "idle" };
  renderLobby(ctx, main, ctx.lobby);
};

function watchQueue() {
  clearInterval(queueTimer);
  let n = 0;
  queueTimer = setInterval(async () => {
    if (ctx.lobby.queue?.status !== "waiting") return clearInterval(queueTimer);
    n += 1;
    if (n % 2 === 0) {
      try {
        const q = await api.queueStatus();
        q.receivedAt = Date.now();
        ctx.lobby.queue = q;
        if (q.status === "matched") {
          clearInterval(queueTimer);
          return ctx.go(`#/table/${encodeURIComponent(q.table)}`);
        }
      } catch {
        // keep the last status; the next poll tries again
      }
    }
    const wait = main.querySelector(".queue-wait");
    if (ctx.route.name === "home" && wait) renderLobby(ctx, main, ctx.lobby);
  }, 1000);
}

ctx.openInvite = async (code) => {
  ctx.invite = code;
  connect();
  try {
    await ctx.socket.join({ invite: code });
  } catch (err) {
    ctx.invite = null;
    failed(err);
  }
};

// ----------------------------------------------------------------- table

function connect() {
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
        ctx.me = null;
        route();
        return;
      }
      if (ctx.route.name === "table" && ctx.ts.room && was !== status) renderTableScreen();
    },
  });
  ctx.socket.connect();
}

async function showTable(r) {
  connect();
  if (ctx.ts.table !== r.id || !ctx.ts.room) loading();
  const invite = sessionStorage.getItem(`fh.invite.${r.id}`);
  try {
    await ctx.socket.join(invite ? { table: r.id, invite } : { table: r.id });
  } catch (err) {
    if (err.code !== "offline") failed(err);
  }
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
      renderTableScreen();
      if (event && event.kind === "play") {
        if (event.trick_winner !== null && event.trick_winner !== undefined) return PAUSE.trick;
        return event.seat !== ctx.ts.you.seat ? PAUSE.card : 0;
      }
      if (event && event.kind === "hand_over") return PAUSE.hand;
      return 0;
    }
    case "presence":
    case "chat":
      ctx.ts.apply(frame);
      if (ctx.route.name === "table") renderTableScreen();
      if (frame.type === "chat" && frame.from?.id !== ctx.me?.id) announce(`${frame.from?.name}: ${frame.text}`);
      return 0;
    case "matched":
      ctx.go(`#/table/${encodeURIComponent(frame.table)}`);
      return 0;
    case "closing":
      ctx.say(t(`closing.${frame.code}`) || frame.message);
      return 0;
    case "join_failed":
      if (ctx.route.name === "table") failed(frame.error);
      return 0;
    case "error":
      ctx.say(errorText(frame));
      return 0;
    default:
      return 0;
  }
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

function renderTableScreen() {
  const ts = ctx.ts;
  if (!ts.room) return;
  renderShell();
  if (ts.status === "waiting") {
    maybeSit();
    renderRoom(ctx, main);
    return;
  }
  if (ts.status === "closed") {
    mount(main, h("div", { class: "panel failed" }, h("p", {}, t("table_closed")), h("a", { href: "#/", class: "button primary" }, t("back_to_lobby"))));
    return;
  }
  if (!ts.view) return; // the game has started; its first deal comes next
  renderGame(ctx, main);
  // The table is over once its `game_over` event is in (after the last
  // hand's line of the score sheet): only then is the result complete.
  if (ts.status === "over" && ts.view.phase === "over" && ctx.shownOver !== ts.table) {
    ctx.shownOver = ts.table;
    ctx.showResult(false);
  }
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
    if (!quiet) ctx.say(errorText(err));
    throw err;
  }
};

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

ctx.say = (text) => {
  ctx.notice = text;
  announce(text);
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    ctx.notice = null;
    if (ctx.route.name === "table" || ctx.demo) rerender();
  }, 4000);
  rerender();
};

ctx.mute = (id) => {
  ctx.muted.add(id);
  if (!ctx.demo) ctx.cmd("mute", { user: id, muted: true }).catch(() => {});
  rerender();
};

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

// -------------------------------------------------------- other screens

async function showReplay(id) {
  loading();
  try {
    const [game, replay] = await Promise.all([api.game(id), api.replay(id)]);
    const rs = replayState(replay, game, null);
    ctx.replay = rs;
    renderReplay(ctx, main, rs);
    loadAnalysis(id, rs);
  } catch (err) {
    failed(err);
  }
}

// The server computes the analysis on first request (202 until it is
// ready): ask again while this replay is on screen.
async function loadAnalysis(id, rs, tries = 0) {
  let res = null;
  try {
    res = await api.analysis(id);
  } catch {
    res = null; // not available: the panel says so
  }
  if (ctx.replay !== rs || ctx.route.name !== "replay") return;
  const pending = Boolean(res && res.status === "pending");
  rs.analysisPending = pending && tries < 60;
  rs.analysis = res && Array.isArray(res.hands) ? res : null;
  renderReplay(ctx, main, rs);
  if (rs.analysisPending) setTimeout(() => loadAnalysis(id, rs, tries + 1), 5000);
}

async function showProfile(id) {
  loading();
  try {
    const [profile, games] = await Promise.all([api.user(id), api.userGames(id, 20)]);
    renderProfile(ctx, main, profile, games.games);
  } catch (err) {
    failed(err);
  }
}

async function showLeaderboard() {
  loading();
  try {
    const res = await api.leaderboard(50);
    renderLeaderboard(ctx, main, res.players);
  } catch (err) {
    failed(err);
  }
}

// ------------------------------------------------------------- sign in

ctx.signedIn = (user) => {
  ctx.me = user;
  connect();
  if (ctx.invite) {
    renderShell();
    loading();
    ctx.openInvite(ctx.invite);
    return;
  }
  route();
};

async function signOut() {
  try {
    await api.logout();
  } catch {
    // signed out locally either way
  }
  ctx.socket?.close();
  ctx.socket = null;
  ctx.me = null;
  ctx.ts = new TableState();
  ctx.go("#/");
}

function rerender() {
  if (ctx.demo) return renderDemo();
  if (ctx.route.name === "table") renderTableScreen();
  else renderShell();
}

// ------------------------------------------------------------------ demo

let demoScene = null;

async function startDemo(name) {
  ctx.demo = true;
  ctx.connection = "open";
  let scene;
  try {
    const res = await fetch(`demo/${encodeURIComponent(name)}.json`);
    if (!res.ok) throw new Error(res.statusText);
    scene = await res.json();
  } catch {
    renderShell();
    failed({ code: "not_found" }, false);
    return;
  }
  demoScene = scene;
  ctx.me = scene.me || null;
  if (scene.frame) {
    ctx.ts.apply(scene.frame);
    ctx.route = { name: "table", id: scene.frame.table };
  }
  if (scene.game) ctx.game = scene.game;
  renderDemo();
}

function renderDemo() {
  const scene = demoScene;
  if (!scene) return;
  renderShell();
  switch (scene.screen) {
    case "home":
      renderSignedOut(ctx, main);
      break;
    case "lobby":
      ctx.route = { name: "home" };
      renderShell();
      renderLobby(ctx, main, { tables: scene.tables, watch: scene.watch, queue: scene.queue });
      break;
    case "room":
      renderRoom(ctx, main);
      break;
    case "table":
      renderTableScreen();
      break;
    case "replay":
      if (ctx.replay) renderReplay(ctx, main, ctx.replay);
      else {
        // The replay is the server's, as for a real game.
        api.replay(scene.game.id).then(
          (replay) => {
            ctx.replay = replayState(replay, scene.game, scene.analysis || null);
            renderReplay(ctx, main, ctx.replay);
          },
          (err) => failed(err, false),
        );
      }
      break;
    case "profile":
      renderProfile(ctx, main, scene.profile, scene.games);
      break;
    case "leaderboard":
      ctx.route = { name: "leaderboard" };
      renderShell();
      renderLeaderboard(ctx, main, scene.players);
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ boot

async function boot() {
  initLang(params.get("lang"));
  main = document.getElementById("main");
  document.addEventListener("keydown", (e) => {
    if (ctx.replay && main.querySelector(".replay")) ctx.replay.keys?.(e);
  });
  onNarrowChange(() => rerender());
  onLangChange(() => {
    if (ctx.demo) return renderDemo();
    if (ctx.route.name === "replay" && ctx.replay) {
      renderShell();
      return renderReplay(ctx, main, ctx.replay);
    }
    if (ctx.route.name === "table" && ctx.ts.room) return renderTableScreen();
    route();
  });
  const demo = params.get("demo");
  if (demo) {
    if (demo === "home") {
      ctx.demo = true;
      demoScene = { screen: "home" };
      renderDemo();
      return;
    }
    return startDemo(demo);
  }
  if (params.get("invite")) {
    const code = inviteFrom(location.href);
    ctx.invite = code;
  }
  renderShell();
  loading();
  try {
    const res = await api.me();
    ctx.me = res.user;
  } catch {
    ctx.me = null;
  }
  window.addEventListener("hashchange", route);
  if (ctx.me) {
    connect();
    if (ctx.invite) return ctx.signedIn(ctx.me);
  }
  route();
}

boot();

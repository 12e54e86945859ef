// The application: the page shell (header, language switch), the routes,
// the lobby and the other screens, and signing in. The table the page is
// attached to is live.js; the demo mode, demo.js; the shared state,
// context.js.
//
// Routes: #/ (home / lobby), #/table/ID[?sit=1], #/replay/ID, #/profile/ID,
// #/leaderboard; /?invite=CODE is an invite link; /?demo=NAME renders a demo
// scene from demo/NAME.json without a server.

import { announce, h, mount } from "./dom.js";
import { initLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { api } from "./net.js";
import { TableState } from "./state.js";
import { onNarrowChange } from "./hand.js";
import { ctx } from "./context.js";
import { connect, renderTableScreen, showTable } from "./live.js";
import { renderDemo, showHomeDemo, startDemo } from "./demo.js";
import { inviteFrom, renderLobby, renderSignedOut } from "./screens/home.js";
import { renderReplay, replayState } from "./screens/replay.js";
import { renderLeaderboard, renderProfile } from "./screens/people.js";
import { loadCatalog } from "./settings.js";
import { errorText } from "./ui.js";

const params = new URLSearchParams(location.search);

let main;
let noticeTimer = null;
let lobbyTimer = null;
let queueTimer = null;

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
  loadCatalog().catch(() => {}); // ready before "Create a table" is pressed
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

// ------------------------------------------------------------------ boot

async function boot() {
  initLang(params.get("lang"));
  main = document.getElementById("main");
  Object.assign(ctx, { main, renderShell, loading, failed, reroute: route, rerender });
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
      showHomeDemo();
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
    // Not `me`: a visitor who has not signed in is no error (protocol.md).
    const res = await api.session();
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

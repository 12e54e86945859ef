// The application: the page shell (header, language switch), the routes,
// the lobby and the other screens, and signing in. The table the page is
// attached to is live.js; the demo mode, demo.js; the shared state,
// context.js.
//
// Routes: #/ (home / lobby), #/table/ID[?sit=1], #/replay/ID, #/profile/ID,
// #/leaderboard, #/account, #/mod and #/mod/REPORT (moderators), #/tournaments[?status=...],
// #/tournament/ID; /?invite=CODE is an invite link to a table, /?tournament=CODE to a
// private tournament; /?demo=NAME renders a demo scene from demo/NAME.json without a server.

import { announce, h, mount, quiet } from "./dom.js";
import { initLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { api, whenSessionLost } from "./net.js";
import { TableState } from "./state.js";
import { onNarrowChange } from "./hand.js";
import { ctx } from "./context.js";
import { connect, renderTableScreen, showTable } from "./live.js";
import { renderDemo, showHomeDemo, startDemo } from "./demo.js";
import { inviteFrom, renderLobby, renderSignedOut } from "./screens/home.js";
import { renderReplay } from "./screens/replay.js";
import { renderProfile } from "./screens/people.js";
import { LIST_STATUSES } from "./screens/tournaments.js";
import { loadCatalog } from "./settings.js";
import { errorText } from "./ui.js";
import { chatUnfilteredHere, standingBanner } from "./report.js";
import { showAccount, showLeaderboard, showMod, showReplay } from "./pages.js";
import { openTournamentInvite, showTournament, showTournaments, stopTournamentList, unfollowTournament } from "./tourlive.js";

const params = new URLSearchParams(location.search);

let main;
let noticeTimer = null;
let lobbyTimer = null;
let queueTimer = null;
/** @type {(() => Promise<void>) | null} reloads the lobby (set by showLobby) */
let lobbyLoad = null;

// ----------------------------------------------------------------- shell

function header() {
  const other = lang() === "ar" ? "en" : "ar";
  const nav = [
    ["#/", t("nav.play"), "home"],
    ["#/tournaments", t("nav.tournaments"), "tournaments"],
    ["#/leaderboard", t("nav.leaderboard"), "leaderboard"],
  ];
  if (ctx.me) nav.push([`#/profile/${encodeURIComponent(ctx.me.id)}`, t("nav.profile"), "profile"]);
  if (ctx.me && !ctx.demo) nav.push(["#/account", t("nav.account"), "account"]);
  if (ctx.me && ctx.standing?.moderator) nav.push(["#/mod", t("nav.mod"), "mod"]);
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
          h("li", {}, h("a", { href, "aria-current": ctx.route.name.replace(/^tournament$/, "tournaments") === name ? "page" : null }, label)),
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
          // Named by its visible word (the other language's own name), so
          // "click English" works by voice; the title says what it does.
          title: t("lang.switch_to"),
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
  mount(top, header(), ctx.me ? standingBanner(ctx.standing, renderShell) : null);
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
  if (parts[0] === "account") return { name: "account" };
  if (parts[0] === "mod") return { name: "mod", id: parts[1] || null };
  if (parts[0] === "tournaments") {
    const status = q.get("status");
    return { name: "tournaments", status: LIST_STATUSES.includes(status) ? status : "upcoming" };
  }
  if (parts[0] === "tournament" && parts[1]) return { name: "tournament", id: parts[1] };
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
  if (leaving) quiet();
  if (ctx.route.name === "tournament" && (r.name !== "tournament" || r.id !== ctx.route.id)) unfollowTournament();
  ctx.route = r;
  clearInterval(lobbyTimer);
  stopTournamentList();
  renderShell();
  if (leaving) {
    ctx.ts = new TableState();
    ctx.shownOver = null;
  }
  if (r.name === "leaderboard") return showLeaderboard();
  if (r.name === "profile") return showProfile(r.id);
  if (r.name === "replay") return showReplay(r.id);
  if (r.name === "tournaments") return showTournaments(r.status);
  if (r.name === "tournament") return showTournament(r.id);
  if (!ctx.me) {
    renderSignedOut(ctx, main);
    return;
  }
  if (r.name === "mod") return showMod(r.id);
  if (r.name === "table") return showTable(r);
  if (r.name === "account") return showAccount();
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
      const member = !ctx.me.guest;
      const [waiting, playing, queue, social, invites] = await Promise.all([
        api.tables("waiting"),
        api.tables("playing"),
        member ? api.queueStatus() : Promise.resolve({ status: "idle" }),
        member ? api.friends() : Promise.resolve(null),
        member ? api.invites() : Promise.resolve({ invites: [] }),
      ]);
      queue.receivedAt = Date.now();
      ctx.social = social;
      ctx.invites = invites.invites;
      ctx.lobby = { tables: waiting.tables, watch: playing.tables, queue };
      if (queue.status === "matched") return ctx.go(`#/table/${encodeURIComponent(queue.table)}`);
    } catch (err) {
      ctx.lobby.error = errorText(err);
    }
    if (ctx.route.name === "home") renderLobby(ctx, main, ctx.lobby);
  };
  lobbyLoad = load;
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

// Friends: the lists are reloaded after every change and every notice,
// then the screen on show is drawn again.
async function loadSocial() {
  if (!ctx.me || ctx.me.guest) {
    ctx.social = null;
    return;
  }
  try {
    ctx.social = await api.friends();
  } catch {
    // keep the last lists; the next change or notice tries again
  }
}

ctx.socialChanged = async () => {
  if (ctx.route.name === "home" && lobbyLoad) return lobbyLoad();
  await loadSocial();
  if (ctx.route.name === "profile") return route();
  rerender();
};

ctx.onNotice = (frame) => {
  const key = { friend_request: "notice.friend_request", friend_accepted: "notice.friend_accepted", table_invite: "notice.table_invite" }[frame.notice];
  if (key) ctx.say(t(key, { name: frame.from?.name || "?" }));
  if (ctx.route.name !== "profile") ctx.socialChanged();
};

ctx.mute = (id) => {
  ctx.muted.add(id);
  if (!ctx.demo) ctx.cmd("mute", { user: id, muted: true }).catch(() => {});
  rerender();
};

// -------------------------------------------------------- other screens

async function showProfile(id) {
  loading();
  try {
    const [profile, games] = await Promise.all([api.user(id), api.userGames(id, 20), loadSocial()]);
    renderProfile(ctx, main, profile, games.games);
  } catch (err) {
    failed(err);
  }
}

// ------------------------------------------------------------- sign in

ctx.signedIn = (user) => {
  ctx.me = user;
  connect();
  ctx.refreshStanding();
  const after = sessionStorage.getItem("fh.after");
  if (after) {
    sessionStorage.removeItem("fh.after");
    ctx.go(after);
    return;
  }
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
  ctx.signedOut();
}

/** Forget the session here (it ended on the server) and go home, saying `note`. */
ctx.signedOut = (note) => {
  ctx.socket?.close();
  ctx.socket = null;
  ctx.me = null;
  ctx.standing = null;
  ctx.ts = new TableState();
  ctx.farewell = note || null;
  ctx.go("#/");
};

// A request refused for want of a session while signed in here: the
// session ended elsewhere; say so on the sign-in page rather than show
// errors on every poll.
whenSessionLost(() => {
  if (ctx.me) ctx.signedOut(t("auth.session_ended"));
});

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
  const tourCode = params.get("tournament");
  renderShell();
  loading();
  try {
    // Not `me`: a visitor who has not signed in is no error (protocol.md).
    const res = await api.session();
    ctx.me = res.user;
  } catch {
    ctx.me = null;
  }
  if (tourCode) await openTournamentInvite(tourCode);
  window.addEventListener("hashchange", route);
  ctx.chatUnfiltered = chatUnfilteredHere();
  if (ctx.me) {
    try {
      ctx.standing = await api.standing();
    } catch {
      ctx.standing = null;
    }
    connect();
    if (ctx.invite) return ctx.signedIn(ctx.me);
  }
  route();
}

boot();

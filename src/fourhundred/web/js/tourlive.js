// The tournament pages in the shell: the list (kept current while it is on
// screen), one tournament followed live (its `tournament` and
// `tournament_chat` frames), the page's acts, and a private tournament's
// invite link. The pages themselves are drawn by screens/tournaments.js and
// screens/tournament.js.

import { announce } from "./dom.js";
import { ctx } from "./context.js";
import { connect } from "./live.js";
import { api } from "./net.js";
import { knownInvite, rememberInvite, renderTournaments } from "./screens/tournaments.js";
import { act as tournamentAct, newer, renderTournament, tourView } from "./screens/tournament.js";
import { loadCatalog } from "./settings.js";
import { errorText } from "./ui.js";

/** @type {ReturnType<typeof setInterval> | null} reloads the list while it is on screen */
let listTimer = null;

/** Stop reloading the list (the page is leaving it). */
export function stopTournamentList() {
  clearInterval(listTimer);
}

export async function showTournaments(status) {
  if (!ctx.main.querySelector(".tournaments")) ctx.loading();
  const catalog = await loadCatalog().catch(() => null);
  let data;
  const note = ctx.tourInviteError;
  ctx.tourInviteError = null;
  try {
    const res = await api.tournaments(status);
    data = { status, tournaments: res.tournaments, catalog, error: note };
  } catch (err) {
    data = { status, tournaments: [], catalog, error: errorText(err) };
  }
  if (ctx.route.name !== "tournaments" || ctx.route.status !== status) return;
  renderTournaments(ctx, ctx.main, data);
  // The list stays current while it is on screen (as the lobby's does).
  clearInterval(listTimer);
  listTimer = setInterval(() => {
    if (ctx.route.name !== "tournaments" || document.hidden || document.querySelector("dialog[open]")) return;
    clearInterval(listTimer);
    showTournaments(status);
  }, 15000);
}

ctx.createTournament = (body) => api.createTournament(body);

let checkInTimer = null;

function drawTournament() {
  const tv = ctx.tour;
  if (!tv || !tv.detail || ctx.route.name !== "tournament" || ctx.route.id !== tv.id) return;
  renderTournament(ctx, ctx.main, tv);
  // The check-in button appears when check-in opens (the server's time).
  clearTimeout(checkInTimer);
  const wait = tv.detail.status === "open" ? tv.detail.check_in_ms - Date.now() : -1;
  if (wait > 0 && wait < 86400000) checkInTimer = setTimeout(drawTournament, wait + 500);
}

export async function showTournament(id) {
  if (!ctx.tour || ctx.tour.id !== id) {
    ctx.tour = tourView(id, knownInvite(id));
    ctx.loading();
  }
  const tv = ctx.tour;
  tv.catalog = await loadCatalog().catch(() => null);
  try {
    const res = await api.tournament(id, tv.invite || undefined);
    newer(tv, res.tournament);
  } catch (err) {
    if (ctx.tour === tv) ctx.failed(err);
    return;
  }
  drawTournament();
  // Follow it live: each change comes as a `tournament` frame.
  if (ctx.me && ctx.tour === tv && ctx.route.name === "tournament") {
    connect();
    ctx.socket.follow(tv.invite ? { tournament: id, invite: tv.invite } : { tournament: id }).catch(() => {});
  }
}

export function unfollowTournament() {
  clearTimeout(checkInTimer);
  ctx.tour = null;
  if (ctx.socket && ctx.socket.followed) ctx.socket.follow(null).catch(() => {});
}

let acting = false;

ctx.tourAct = async (action, body) => {
  const tv = ctx.tour;
  if (!tv || acting) return false; // a second click while the first is on its way
  acting = true;
  let ok = false;
  try {
    ok = await tournamentAct(ctx, tv, action, body);
  } finally {
    acting = false;
  }
  drawTournament();
  if (!ok) ctx.main.querySelector(".tour-you [role=alert]")?.scrollIntoView({ block: "nearest" });
  return ok;
};

ctx.onTournament = (frame) => {
  const tv = ctx.tour;
  if (!tv || !frame.tournament || frame.tournament.id !== tv.id) return;
  // An older picture never replaces a newer one.
  if (newer(tv, frame.tournament)) drawTournament();
};

ctx.onTournamentChat = (frame) => {
  const tv = ctx.tour;
  if (!tv || frame.tournament !== tv.id) return;
  tv.chat.push(frame);
  if (tv.chat.length > 200) tv.chat.shift();
  drawTournament();
  if (frame.from?.id !== ctx.me?.id) announce(`${frame.from?.name}: ${frame.text}`);
};

/** A visitor who must sign in first comes back to this page after. */
ctx.signInFirst = () => {
  sessionStorage.setItem("fh.after", location.hash);
  ctx.go("#/");
};

/** /?tournament=CODE: a private tournament's invite link. */
export async function openTournamentInvite(code) {
  try {
    const res = await api.tournamentInvite(code);
    const id = res.tournament.id;
    rememberInvite(id, code);
    history.replaceState(null, "", `${location.pathname}#/tournament/${encodeURIComponent(id)}`);
  } catch (err) {
    history.replaceState(null, "", `${location.pathname}#/tournaments`);
    ctx.tourInviteError = errorText(err);
  }
}

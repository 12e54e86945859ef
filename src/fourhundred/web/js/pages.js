// The screens that load, then draw: a replay (with its analysis as it
// comes), the account page, the leaderboard and the moderator's pages.
// Each asks the server, then hands the answer to its screen module; the
// shell (app.js) routes to them.

import { ctx } from "./context.js";
import { api } from "./net.js";
import { renderAccount } from "./screens/account.js";
import { renderModList, renderModReport } from "./screens/mod.js";
import { renderLeaderboard } from "./screens/people.js";
import { renderReplay, replayState } from "./screens/replay.js";

export async function showReplay(id) {
  ctx.loading();
  try {
    const [game, replay] = await Promise.all([api.game(id), api.replay(id)]);
    const rs = replayState(replay, game, null);
    ctx.replay = rs;
    renderReplay(ctx, ctx.main, rs);
    loadAnalysis(id, rs);
  } catch (err) {
    ctx.failed(err);
  }
}

// The server computes the analysis hand by hand on first request (202, with
// the hands ready so far, until the whole game is): ask again every two
// seconds while this replay is on screen, showing each hand as it comes.
async function loadAnalysis(id, rs, tries = 0) {
  let res = null;
  try {
    res = await api.analysis(id);
  } catch {
    res = null; // not available: the panel says so
  }
  if (ctx.replay !== rs || ctx.route.name !== "replay") return;
  const pending = Boolean(res && res.status === "pending");
  rs.analysisPending = pending && tries < 300;
  rs.analysis = res && Array.isArray(res.hands) ? res : null;
  renderReplay(ctx, ctx.main, rs);
  if (rs.analysisPending) setTimeout(() => loadAnalysis(id, rs, tries + 1), 2000);
}

export async function showAccount() {
  if (!ctx.main.querySelector(".account")) ctx.loading();
  try {
    const res = await api.sessions();
    if (ctx.route.name === "account") renderAccount(ctx, ctx.main, res.sessions);
  } catch (err) {
    ctx.failed(err);
  }
}

export async function showLeaderboard() {
  ctx.loading();
  try {
    const res = await api.leaderboard(50);
    renderLeaderboard(ctx, ctx.main, res.players);
  } catch (err) {
    ctx.failed(err);
  }
}

export async function showMod(id, notice = null) {
  if (!notice) ctx.loading();
  try {
    if (id) {
      const detail = await api.modReport(id);
      renderModReport(ctx, ctx.main, detail, (text) => showMod(id, text), notice);
    } else {
      const [open, audit] = await Promise.all([api.modReports("open"), api.modAudit(100)]);
      renderModList(ctx, ctx.main, open.reports, audit.entries);
    }
  } catch (err) {
    ctx.failed(err);
  }
}

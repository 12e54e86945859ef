// The demo mode (/?demo=NAME): one screen drawn from a scene file,
// demo/NAME.json (a snapshot frame as the server sends it, or a lobby,
// profile, leaderboard or replay), without a server. The browser tests and
// scripts/screenshots.py serve the scenes; the package does not ship them.

import { api } from "./net.js";
import { ctx } from "./context.js";
import { renderTableScreen } from "./live.js";
import { renderLobby, renderSignedOut } from "./screens/home.js";
import { renderRoom } from "./screens/room.js";
import { renderReplay, replayState } from "./screens/replay.js";
import { renderLeaderboard, renderProfile } from "./screens/people.js";

let demoScene = null;

/** The sign-in screen as a demo (no scene file). */
export function showHomeDemo() {
  ctx.demo = true;
  demoScene = { screen: "home" };
  renderDemo();
}

/** Show the demo scene `name` (demo/NAME.json). */
export async function startDemo(name) {
  ctx.demo = true;
  ctx.connection = "open";
  let scene;
  try {
    const res = await fetch(`demo/${encodeURIComponent(name)}.json`);
    if (!res.ok) throw new Error(res.statusText);
    scene = await res.json();
  } catch {
    ctx.renderShell();
    ctx.failed({ code: "not_found" }, false);
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

/** Draw the demo scene again (after a language switch, a notice...). */
export function renderDemo() {
  const scene = demoScene;
  if (!scene) return;
  ctx.renderShell();
  switch (scene.screen) {
    case "home":
      renderSignedOut(ctx, ctx.main);
      break;
    case "lobby":
      ctx.route = { name: "home" };
      ctx.renderShell();
      renderLobby(ctx, ctx.main, { tables: scene.tables, watch: scene.watch, queue: scene.queue });
      break;
    case "room":
      renderRoom(ctx, ctx.main);
      break;
    case "table":
      renderTableScreen();
      break;
    case "replay":
      if (ctx.replay) renderReplay(ctx, ctx.main, ctx.replay);
      else {
        // The replay is the server's, as for a real game.
        api.replay(scene.game.id).then(
          (replay) => {
            ctx.replay = replayState(replay, scene.game, scene.analysis || null);
            renderReplay(ctx, ctx.main, ctx.replay);
          },
          (err) => ctx.failed(err, false),
        );
      }
      break;
    case "profile":
      renderProfile(ctx, ctx.main, scene.profile, scene.games);
      break;
    case "leaderboard":
      ctx.route = { name: "leaderboard" };
      ctx.renderShell();
      renderLeaderboard(ctx, ctx.main, scene.players);
      break;
    default:
      break;
  }
}

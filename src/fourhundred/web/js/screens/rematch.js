// The rematch part of the game-over dialog: it draws `room.rematch` as the
// server sends it (docs/protocol.md, "Rematch") and sends `rematch` or
// `rematch_bots`; whether a rematch may be offered is the server's to say.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";

function button(label, key, onclick, cls = "primary") {
  return h("button", { type: "button", class: [cls, "small"], dataset: { key }, onclick }, label);
}

/** Seconds left to answer the offer, by the server's clock. */
function secondsLeft(ctx, r) {
  const now = ctx.socket ? ctx.socket.serverNow() : Date.now();
  return Math.max(0, Math.ceil((r.deadline_ms - now) / 1000));
}

let ticker = null;

/** Keep the open offer's countdown moving (one timer for the page). */
function tick(ctx) {
  if (ticker) return;
  ticker = setInterval(() => {
    const el = document.querySelector("dialog.game-over-dialog [data-key='rematch-left']");
    const r = ctx.ts.room?.rematch;
    if (!el || !r || r.state !== "open") {
      clearInterval(ticker);
      ticker = null;
      return;
    }
    el.textContent = t("rematch.left", { seconds: secondsLeft(ctx, r) });
  }, 1000);
}

function follow(ctx, r, label) {
  const go = () => ctx.go(`#/table/${encodeURIComponent(r.table)}`, { invite: r.invite || undefined });
  return button(label, "rematch-follow", go);
}

/** The rematch's state and the buttons this person may use (null: none). */
export function rematchPanel(ctx) {
  const r = ctx.ts.room?.rematch;
  if (!r) return null;
  const seat = ctx.ts.you.seat;
  const mine = seat === null ? undefined : r.answers?.[seat];
  const say = (key, vars) => h("p", { class: "rematch-state", role: "status" }, t(key, vars));
  const send = (type, fields = {}) => () => ctx.cmd(type, fields).catch(() => {});
  switch (r.state) {
    case "available":
      return seat === null ? null : [button(t("rematch.offer"), "rematch", send("rematch", { accept: true }))];
    case "open": {
      const count = r.answers.filter((a) => a === true).length;
      const left = h("span", { class: "rematch-left muted", role: "timer", dataset: { key: "rematch-left" } }, t("rematch.left", { seconds: secondsLeft(ctx, r) }));
      const parts = [say("rematch.open", { accepted: count }), left];
      tick(ctx);
      if (mine === null) {
        parts.push(button(t("rematch.accept"), "rematch-accept", send("rematch", { accept: true })));
        parts.push(button(t("rematch.decline"), "rematch-decline", send("rematch", { accept: false }), "secondary"));
      } else if (mine === true) {
        parts.push(h("p", { class: "rematch-waiting muted" }, t("rematch.waiting")));
      }
      return parts;
    }
    case "ended":
      return [
        say(r.reason === "declined" ? "rematch.declined" : "rematch.expired"),
        mine === true ? button(t("rematch.with_bots"), "rematch-bots", send("rematch_bots")) : null,
        mine === true ? button(t("rematch.open_seats"), "rematch-open", send("rematch_bots", { fill: "open" }), "secondary") : null,
      ];
    case "opening":
      return [say("rematch.opening")];
    case "opened":
      return [say("rematch.opened"), follow(ctx, r, mine === true ? t("rematch.go") : t("rematch.watch"))];
    default:
      return null;
  }
}

/** Redraw the rematch part of an open game-over dialog; a player seated at
 * the new table goes there once it opens. */
export function refreshRematch(ctx) {
  const slot = document.querySelector("dialog.game-over-dialog .rematch");
  if (slot) mount(slot, rematchPanel(ctx));
  const r = ctx.ts.room?.rematch;
  const seat = ctx.ts.you.seat;
  if (r && r.state === "opened" && seat !== null && r.answers[seat] === true && ctx.followed !== r.table) {
    ctx.followed = r.table;
    ctx.go(`#/table/${encodeURIComponent(r.table)}`, { invite: r.invite || undefined });
  }
}

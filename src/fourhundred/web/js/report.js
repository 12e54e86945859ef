// Reports (docs/moderation.md, "Reports"): the dialog a player fills in
// from a seat, a chat line or a profile, and the player's own standing
// (a penalty in force, a recent warning) shown at the top of every page.

import { ctx } from "./context.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";
import { formMessage, openDialog, showError, when } from "./ui.js";

export const REASONS = ["cards_shared", "chat_abuse", "leaving", "other"];

/**
 * The report dialog. `players`: whom it may be about (one, or a choice);
 * `table` and `version`: the game and the moment, when there is one.
 * @param {{players: {id: string, name: string}[], table?: string | null, version?: number | null}} about
 */
export function openReport({ players, table = null, version = null }) {
  let reason = null;
  let user = players.length === 1 ? players[0].id : null;
  const msg = formMessage();
  const note = h("textarea", { id: "report-note", name: "note", maxlength: 500, rows: 3 });
  const who =
    players.length > 1
      ? h(
          "div",
          { class: "field" },
          h("label", { for: "report-user" }, t("report.player")),
          h(
            "select",
            { id: "report-user", onchange: (e) => (user = e.target.value || null) },
            h("option", { value: "" }, "—"),
            players.map((p) => h("option", { value: p.id }, p.name)),
          ),
        )
      : null;
  const reasons = h(
    "fieldset",
    { class: "report-reasons" },
    h("legend", {}, t("report.reason")),
    REASONS.map((r) =>
      h(
        "label",
        { class: "report-reason" },
        h("input", { type: "radio", name: "reason", value: r, onchange: () => (reason = r) }),
        " ",
        t(`report.reason.${r}`),
      ),
    ),
  );
  const form = h(
    "form",
    {
      class: "report-form",
      novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        if (!user || !reason) {
          msg.textContent = t(user ? "report.need_reason" : "report.need_player");
          msg.classList.add("error");
          return;
        }
        const body = { user, reason };
        const text = /** @type {HTMLTextAreaElement} */ (note).value.trim();
        if (text) body.note = text;
        if (table) body.table = table;
        if (table && typeof version === "number") body.version = version;
        try {
          await api.report(body);
        } catch (err) {
          showError(msg, err);
          return;
        }
        form.replaceChildren(h("p", { class: "report-sent", role: "status" }, t("report.sent")));
      },
    },
    who,
    reasons,
    h("div", { class: "field" }, h("label", { for: "report-note" }, t("report.note")), note),
    h("div", { class: "dialog-actions" }, h("button", { type: "submit", class: "primary" }, t("report.send"))),
    msg,
  );
  const title = players.length === 1 ? t("report.title", { name: players[0].name }) : t("report.pick");
  openDialog({ title, body: form, className: "report-dialog" });
}

/** A sentence for a standing's penalty (null: none). */
export function penaltyText(penalty) {
  if (!penalty) return null;
  const reason = penalty.reason || "—";
  if (penalty.kind === "ban") return t("standing.ban", { reason });
  const until = when(penalty.until_ms);
  return t(penalty.kind === "mute" ? "standing.mute" : "standing.suspend", { until, reason });
}

const SEEN_KEY = "fh.warning_seen";

/** The banner of the signed-in player's standing, or null. */
export function standingBanner(standing, rerender) {
  if (!standing) return null;
  const text = penaltyText(standing.penalty);
  if (text) return h("div", { class: "banner error standing", role: "alert" }, text);
  const w = standing.warning;
  let seen = null;
  try {
    seen = localStorage.getItem(SEEN_KEY);
  } catch {
    seen = null;
  }
  if (!w || seen === String(w.id)) return null;
  return h(
    "div",
    { class: "banner warn standing", role: "alert" },
    h("span", {}, t("standing.warning", { reason: w.reason })),
    " ",
    h(
      "button",
      {
        type: "button",
        class: "ghost small",
        onclick: () => {
          try {
            localStorage.setItem(SEEN_KEY, String(w.id));
          } catch {
            // shown again next time
          }
          rerender();
        },
      },
      t("standing.dismiss"),
    ),
  );
}

// ------------------------------------------------ the page's safety hooks

ctx.report = (players) => openReport({ players, table: ctx.route.name === "table" ? ctx.ts.table : null, version: ctx.route.name === "table" ? ctx.ts.version : null });

ctx.chatExtras = () =>
  ctx.demo
    ? {}
    : {
        unfiltered: ctx.chatUnfiltered,
        onFilter: ctx.setChatFilter,
        onReport: (m) => ctx.report([{ id: m.from.id, name: m.from.name }]),
      };

const FILTER_KEY = "fh.chat_unfiltered";

/** Whether this browser chose to see chat unfiltered (read at boot). */
export function chatUnfilteredHere() {
  try {
    return localStorage.getItem(FILTER_KEY) === "1";
  } catch {
    return false;
  }
}

ctx.setChatFilter = (off) => {
  ctx.chatUnfiltered = off;
  try {
    if (off) localStorage.setItem(FILTER_KEY, "1");
    else localStorage.removeItem(FILTER_KEY);
  } catch {
    // this page only
  }
  if (ctx.socket) {
    ctx.socket.chatUnfiltered = off;
    ctx.socket.send("chat_filter", { off }).catch(() => {});
    // Joining again redraws the chat so far as chosen (and tells the
    // table's process, in a cluster).
    if (ctx.route.name === "table" && ctx.ts.table) ctx.socket.sendJoin().catch(() => {});
  }
  ctx.rerender();
};

/** Read the player's standing again (at sign-in, and when a command was
 * refused for a penalty): the banner says why and until when. */
ctx.refreshStanding = async () => {
  try {
    ctx.standing = ctx.me ? await api.standing() : null;
  } catch {
    return;
  }
  ctx.rerender();
};

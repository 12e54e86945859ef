// The moderator page (docs/moderation.md, "The moderator page"): the open
// reports and the audit log (#/mod), and one report (#/mod/ID) with its
// game, the chat around its moment, the player's history, the proposed
// penalty and the actions.

import { h, mount, num } from "../dom.js";
import { seatLabel, t } from "../i18n.js";
import { api } from "../net.js";
import { penaltyText } from "../report.js";
import { formMessage, showError, when } from "../ui.js";

const KINDS = ["warn", "mute", "suspend", "ban"];
const name = (u) => h("bdi", { class: "user", translate: "no" }, u ? u.name : t("mod.system"));
const reasonText = (r) => (t.has(`report.reason.${r}`) ? t(`report.reason.${r}`) : r);

function stepText(kind, hours) {
  const label = t(`mod.kind.${kind}`);
  return hours ? t("mod.step_hours", { kind: label, hours }) : label;
}

function actionText(action) {
  return t.has(`mod.kind.${action}`) ? t(`mod.kind.${action}`) : t.has(`mod.act.${action}`) ? t(`mod.act.${action}`) : action;
}

/** What the fair-play check found (a report by the system): the two scores,
 * the bids and cards judged, the games and deals of the pair together, the partner. */
function fairPlayFacts(r) {
  const d = r.details;
  if (r.reason !== "fair_play" || !d) return null;
  const fact = (key, value) => [h("dt", {}, t(key)), h("dd", {}, value)];
  return h(
    "div",
    { class: "mod-fair-play" },
    h(
      "dl",
      { class: "mod-facts" },
      fact("mod.fp_score", num(Number(d.z).toFixed(1))),
      typeof d.policy_z === "number" ? fact("mod.fp_second", num(d.policy_z.toFixed(1))) : null,
      fact("mod.fp_cards", num(d.decisions)),
      fact("mod.fp_games", num(d.games)),
      fact("mod.fp_deals", num(d.deals)),
      Array.isArray(d.thresholds)
        ? fact("mod.fp_thresholds", num(d.thresholds.map((x) => Number(x).toFixed(1)).join(" / ")))
        : null,
      r.partner ? fact("mod.fp_partner", name(r.partner)) : null,
    ),
    h("p", { class: "muted" }, t("mod.fp_note")),
  );
}

export function renderModList(ctx, root, reports, entries) {
  mount(
    root,
    h(
      "div",
      { class: "mod" },
      h("h1", { class: "page-title" }, t("mod.title")),
      h(
        "section",
        { class: "panel", "aria-labelledby": "mod-open" },
        h("h2", { id: "mod-open" }, t("mod.open_reports")),
        reports.length
          ? h(
              "ul",
              { class: "mod-reports" },
              reports.map((r) =>
                h(
                  "li",
                  { class: "mod-report", dataset: { report: r.id } },
                  h("span", { class: "mod-when" }, when(r.created_ms)),
                  h("span", { class: "mod-about" }, t("mod.about"), " ", name(r.reported)),
                  h("span", { class: "mod-by" }, t("mod.by"), " ", name(r.reporter)),
                  h("span", { class: "mod-reason" }, reasonText(r.reason)),
                  r.reason === "fair_play" && r.details ? h("span", { class: "mod-score" }, t("mod.fp_score"), " ", num(Number(r.details.z).toFixed(1))) : null,
                  r.note ? h("span", { class: "mod-note user", dir: "auto" }, r.note) : null,
                  h("a", { class: "button secondary small", href: `#/mod/${encodeURIComponent(r.id)}` }, t("mod.open")),
                ),
              ),
            )
          : h("p", { class: "muted" }, t("mod.none")),
      ),
      auditPanel(entries),
    ),
  );
}

function auditPanel(entries) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "mod-audit" },
    h("h2", { id: "mod-audit" }, t("mod.audit")),
    entries.length
      ? h(
          "ul",
          { class: "mod-audit" },
          entries.map((e) =>
            h(
              "li",
              {},
              h("span", { class: "mod-when" }, when(e.at_ms)),
              " ",
              e.moderator ? name(e.moderator) : t("mod.operator"),
              " · ",
              h("b", {}, actionText(e.action)),
              e.target ? [" · ", name(e.target)] : null,
              e.details && e.details.reason ? [" · ", h("span", { class: "user", dir: "auto" }, e.details.reason)] : null,
            ),
          ),
        )
      : h("p", { class: "muted" }, t("mod.no_audit")),
  );
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const cardText = (c) => `${c[0] === "T" ? "10" : c[0]}${SUITS[c[1]] || c[1]}`;

/** A running game's hand in play, every seat's cards face up. */
function handsNow(game) {
  const hands = game.record?.hands || [];
  const hand = hands[hands.length - 1];
  if (!hand) return null;
  return h(
    "ul",
    { class: "mod-hands" },
    hand.deal.map((cards, seat) =>
      h(
        "li",
        {},
        h("b", {}, seatLabel(seat)),
        game.seats?.[seat] ? [" ", name(game.seats[seat])] : null,
        ": ",
        h("span", { dir: "ltr", class: "num" }, cards.map(cardText).join(" ")),
      ),
    ),
  );
}

function gamePanel(game) {
  let body;
  if (!game) body = h("p", { class: "muted" }, t("mod.no_game"));
  else if (game.replay_url) body = h("a", { class: "button secondary", href: game.replay_url }, t("mod.replay"));
  else if (game.status === "playing" && game.record) body = [h("p", { class: "muted" }, t("mod.game_running")), handsNow(game)];
  else body = h("p", { class: "muted" }, t("mod.game_not_started"));
  return h("section", { class: "panel", "aria-labelledby": "mod-game" }, h("h2", { id: "mod-game" }, t("mod.game")), body);
}

function chatPanel(lines, reported) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "mod-chat" },
    h("h2", { id: "mod-chat" }, t("mod.chat")),
    lines.length
      ? h(
          "ol",
          { class: "chat-list mod-chat" },
          lines.map((c) =>
            h(
              "li",
              { class: ["chat-msg", c.user === reported && "reported"] },
              h("bdi", { class: "who user", translate: "no" }, c.name),
              h("span", { class: "text user", translate: "no", dir: "auto" }, c.text),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("mod.no_chat")),
  );
}

function historyPanel(history) {
  const standing = penaltyText(history.standing.penalty);
  return h(
    "section",
    { class: "panel", "aria-labelledby": "mod-history" },
    h("h2", { id: "mod-history" }, t("mod.history")),
    standing ? h("p", { class: "banner error" }, standing) : null,
    h("p", {}, t("mod.past_reports", { n: history.reports.length }), " · ", t("mod.recent_games", { n: history.games.length })),
    h("h3", {}, t("mod.penalties")),
    history.penalties.length
      ? h(
          "ul",
          { class: "mod-penalties" },
          history.penalties.map((p) =>
            h("li", {}, h("span", { class: "mod-when" }, when(p.created_ms)), " · ", h("b", {}, t(`mod.kind.${p.kind}`)), " · ", h("span", { class: "user", dir: "auto" }, p.reason)),
          ),
        )
      : h("p", { class: "muted" }, t("mod.no_penalties")),
  );
}

function actionPanel(detail, reload) {
  const r = detail.report;
  const proposal = detail.proposal;
  const msg = formMessage();
  const kind = h(
    "select",
    { id: "mod-kind", name: "kind", onchange: () => syncHours() },
    KINDS.map((k) => h("option", { value: k, selected: k === proposal.kind }, t(`mod.kind.${k}`))),
  );
  const hours = h("input", { id: "mod-hours", name: "hours", type: "number", min: 1, max: 87600, value: proposal.hours ?? "" });
  const reason = h("input", { id: "mod-reason", name: "reason", type: "text", maxlength: 500, autocomplete: "off" });
  const syncHours = () => {
    const k = /** @type {HTMLSelectElement} */ (kind).value;
    const timed = k === "mute" || k === "suspend";
    /** @type {HTMLInputElement} */ (hours).disabled = !timed;
    if (timed && !(/** @type {HTMLInputElement} */ (hours).value)) /** @type {HTMLInputElement} */ (hours).value = k === "mute" ? "24" : "168";
  };
  syncHours();
  const act = h(
    "form",
    {
      class: "mod-act",
      novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const k = /** @type {HTMLSelectElement} */ (kind).value;
        const why = /** @type {HTMLInputElement} */ (reason).value.trim();
        if (!why) {
          msg.textContent = t("mod.need_reason");
          msg.classList.add("error");
          return;
        }
        const body = { kind: k, reason: why, report: r.id };
        const n = Number(/** @type {HTMLInputElement} */ (hours).value);
        if ((k === "mute" || k === "suspend") && n) body.hours = n;
        try {
          await api.modAct(r.reported.id, body);
        } catch (err) {
          showError(msg, err);
          return;
        }
        reload(t("mod.applied", { kind: t(`mod.kind.${k}`) }));
      },
    },
    h("p", { class: "mod-proposal" }, t("mod.proposal", { step: stepText(proposal.kind, proposal.hours) })),
    h("div", { class: "field" }, h("label", { for: "mod-kind" }, t("mod.action")), kind),
    h("div", { class: "field" }, h("label", { for: "mod-hours" }, t("mod.hours")), hours),
    h("div", { class: "field" }, h("label", { for: "mod-reason" }, t("mod.reason_input")), reason),
    h("button", { type: "submit", class: "primary" }, t("mod.apply")),
    msg,
  );
  const resolution = h("input", { id: "mod-resolution", name: "resolution", type: "text", maxlength: 500, autocomplete: "off" });
  const msg2 = formMessage();
  const resolve =
    r.status === "open"
      ? h(
          "form",
          {
            class: "mod-resolve",
            novalidate: true,
            onsubmit: async (e) => {
              e.preventDefault();
              const text = /** @type {HTMLInputElement} */ (resolution).value.trim();
              if (!text) {
                msg2.textContent = t("mod.need_resolution");
                msg2.classList.add("error");
                return;
              }
              try {
                await api.modResolve(r.id, text);
              } catch (err) {
                showError(msg2, err);
                return;
              }
              reload(t("mod.resolved", { resolution: text }));
            },
          },
          h("div", { class: "field" }, h("label", { for: "mod-resolution" }, t("mod.resolution")), resolution),
          h("button", { type: "submit", class: "secondary" }, t("mod.resolve")),
          msg2,
        )
      : h("p", { class: "banner" }, t("mod.resolved", { resolution: r.resolution || "" }));
  return h("section", { class: "panel", "aria-labelledby": "mod-actions" }, h("h2", { id: "mod-actions" }, t("mod.actions")), act, resolve);
}

export function renderModReport(ctx, root, detail, reload, notice = null) {
  const r = detail.report;
  mount(
    root,
    h(
      "div",
      { class: "mod mod-detail" },
      h("a", { href: "#/mod", class: "link" }, t("mod.back")),
      h("h1", { class: "page-title" }, t("mod.report_title", { name: r.reported.name })),
      notice ? h("p", { class: "banner", role: "status" }, notice) : null,
      h(
        "section",
        { class: "panel mod-summary" },
        h("p", {}, t("mod.by"), " ", name(r.reporter), " · ", when(r.created_ms)),
        h("p", {}, h("b", {}, reasonText(r.reason))),
        fairPlayFacts(r),
        r.note ? h("p", { class: "user", dir: "auto" }, r.note) : null,
        r.table ? h("p", { class: "muted" }, t("mod.moment", { table: r.table }), " ", num(r.version ?? "–")) : null,
      ),
      h(
        "div",
        { class: "mod-grid" },
        actionPanel(detail, reload),
        chatPanel(detail.chat, r.reported.id),
        gamePanel(detail.game),
        historyPanel(detail.history),
      ),
    ),
  );
}

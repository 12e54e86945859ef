// One tournament's page: its terms, what this person may do now (enter,
// accept a partner, check in, the organiser's acts), the teams, the bracket
// (knockout) or the standings (Swiss) with every round's matches and their
// tables, the log, the chat and the results export.
//
// Everything here is laid out from the server's DETAIL (docs/protocol.md,
// "Tournaments"): pairings, standings, byes and winners are the server's;
// the page only finds this person in them. What is allowed is the server's
// to say too: a refused act shows its error and changes nothing.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { presetSettings } from "../settings.js";
import { chatPanel, errorText, formMessage, when } from "../ui.js";
import { settingsList } from "../settingsform.js";
import { bracketPanel, exportPanel, invitePanel, logPanel, swissPanels, teamsPanel } from "./tourboard.js";
import { button, confirmAct, currentMatch, formatLabel, rich, rulesLine, standing, statusChip, teamName, user } from "./tourparts.js";

/**
 * What the page holds for one tournament.
 * @typedef {{id: string, detail: any, invite: string | null, chat: any[],
 *   error: string | null, partner: string, catalog: any}} TourView
 */

/** @returns {TourView} */
export function tourView(id, invite = null) {
  return { id, detail: null, invite, chat: [], error: null, partner: "", catalog: null };
}

/** A tournament's table ids are "{tournament}-r{round}-{slot}"
 * (docs/protocol.md, "Tournament tables"): the tournament of a table. */
export function tournamentOfTable(tableId) {
  const m = /^(.+)-r\d+-\d+$/.exec(String(tableId || ""));
  return m ? m[1] : null;
}

// --------------------------------------------------------------- actions

function enterForm(ctx, tv) {
  const msg = formMessage();
  const input = h("input", {
    id: "tour-partner",
    name: "partner",
    required: true,
    autocomplete: "off",
    maxlength: 64,
    value: tv.partner,
    dataset: { key: "tour-partner" },
    oninput: (e) => (tv.partner = e.target.value),
  });
  return h(
    "div",
    { class: "tour-enter" },
    h(
      "form",
      {
        class: "inline-form",
        onsubmit: (e) => {
          e.preventDefault();
          const partner = input.value.trim();
          if (!partner) {
            msg.textContent = t("tour.partner_needed");
            msg.classList.add("error");
            input.focus();
            return;
          }
          ctx.tourAct("enter", { partner }).then((ok) => {
            if (ok) tv.partner = "";
          });
        },
      },
      h("label", { for: "tour-partner" }, t("tour.partner_label")),
      input,
      h("button", { type: "submit", class: "primary" }, t("tour.enter_team")),
    ),
    msg,
    h("p", { class: "muted" }, t("tour.or_alone")),
    button(t("tour.enter_solo"), () => ctx.tourAct("enter", { solo: true }), "secondary", "tour-solo"),
  );
}

function checkInPart(ctx, d, st) {
  if (st.checkedIn) return h("p", { class: "tour-ok" }, t("tour.checked_in"));
  if (Date.now() < d.check_in_ms) return h("p", { class: "muted" }, t("tour.check_in_at", { time: when(d.check_in_ms) }));
  return [h("p", {}, t("tour.check_in_open")), button(t("tour.check_in"), () => ctx.tourAct("check-in"), "primary", "tour-check-in")];
}

/** What this person may do now, and where they stand. */
function youPanel(ctx, tv) {
  const d = tv.detail;
  const st = standing(d, ctx.me);
  let body = [];
  if (!ctx.me) {
    body = [
      h("p", {}, t("tour.sign_in")),
      button(t("tour.sign_in_button"), () => ctx.signInFirst(), "primary"),
    ];
  } else if (ctx.me.guest) {
    body = [h("p", {}, t("tour.guests"))];
  } else if (d.status === "open") {
    if (st.invited) {
      const inviter = st.invited.players[0];
      body = [
        h("p", { class: "tour-invited" }, rich("tour.invited", { name: user(inviter.name) })),
        button(t("tour.accept"), () => ctx.tourAct("accept", { team: st.invited.id }), "primary", "tour-accept"),
      ];
    } else if (st.team) {
      const partner = st.team.players[1 - st.index];
      body = [
        h("p", {}, partner ? rich("tour.entered_with", { name: user(partner.name) }) : t("tour.entered")),
        !st.team.confirmed ? h("p", { class: "muted" }, rich("tour.waiting_partner", { name: user(partner?.name || "?") })) : null,
      ];
    } else if (st.solo) {
      body = [h("p", {}, t("tour.entered_solo"))];
    } else {
      body = [enterForm(ctx, tv)];
    }
    if (st.inIt && !st.invited) body.push(checkInPart(ctx, d, st));
    else if (st.invited) body.push(h("p", { class: "muted" }, t("tour.accept_first")));
  } else if (d.status === "running") {
    body = runningPart(d, st);
  } else if (d.status === "finished" && d.winner) {
    body = [h("p", { class: "tour-winner" }, rich(st.team && st.team.id === d.winner ? "tour.you_won" : "tour.won_by", { team: teamName(d, d.winner) }))];
  } else if (d.status === "cancelled") {
    const why = d.log.find((e) => e.kind === "cancelled");
    body = [h("p", {}, t(why && why.reason === "too_few_teams" ? "tour.cancelled_few" : "tour.cancelled"))];
  }
  return h(
    "section",
    { class: "panel tour-you", "aria-labelledby": "tour-you-title" },
    h("h2", { id: "tour-you-title" }, t("tour.you_title")),
    tv.error ? h("p", { class: "banner error", role: "alert" }, tv.error) : null,
    body,
  );
}

function runningPart(d, st) {
  if (!st.team) return [h("p", { class: "muted" }, t(d.winner ? "tour.not_in" : "tour.watching"))];
  if (st.team.removed) return [h("p", {}, t("tour.removed"))];
  if (st.team.out) return [h("p", {}, t("tour.out"))];
  const cur = currentMatch(d, st.team.id);
  if (!cur) return [h("p", {}, t("tour.waiting_round"))];
  if (cur.bye) return [h("p", {}, t("tour.bye_round", { n: cur.round.number }))];
  const m = cur.match;
  if (m.status === "playing") {
    const other = m.a === st.team.id ? m.b : m.a;
    return [
      h("p", { class: "tour-ready" }, rich("tour.match_ready_vs", { team: teamName(d, other) })),
      h("p", { class: "muted" }, t("tour.ready_by", { time: when(cur.round.deadline_ms) })),
      h("a", { class: "button primary", href: `#/table/${encodeURIComponent(m.table)}` }, t("tour.go_to_table")),
    ];
  }
  return [h("p", {}, t(m.winner === st.team.id ? "tour.won_match" : "tour.lost_match")), h("p", { class: "muted" }, t("tour.waiting_round"))];
}

function organiserPanel(ctx, d) {
  if (!ctx.me || !d.organiser || d.organiser.id !== ctx.me.id) return null;
  if (d.status !== "open" && d.status !== "running") return null;
  const tools = [];
  if (d.status === "open") tools.push(button(t("tour.start_now"), () => ctx.tourAct("start"), "primary", "tour-start"));
  if (d.status === "running") {
    tools.push(
      d.paused
        ? button(t("tour.resume"), () => ctx.tourAct("resume"), "primary", "tour-resume")
        : button(t("tour.pause"), () => ctx.tourAct("pause"), "secondary", "tour-pause"),
    );
  }
  tools.push(
    button(
      t("tour.cancel"),
      () => confirmAct(ctx, t("tour.cancel"), t("tour.cancel_confirm"), t("tour.cancel"), () => ctx.tourAct("cancel")),
      "ghost danger",
      "tour-cancel",
    ),
  );
  return h(
    "section",
    { class: "panel tour-organiser", "aria-labelledby": "tour-org-title" },
    h("h2", { id: "tour-org-title" }, t("tour.organiser_title")),
    h("p", { class: "muted" }, t(d.status === "open" ? "tour.organiser_help_open" : "tour.organiser_help_running")),
    h("div", { class: "tour-tools" }, tools),
  );
}
// ------------------------------------------------------------------ page

/** The whole page, drawn from `tv.detail`. */
export function renderTournament(ctx, root, tv) {
  const d = tv.detail;
  const st = standing(d, ctx.me);
  const mineId = st.team ? st.team.id : null;
  const canChat = Boolean(ctx.me && (st.inIt || st.organiser));
  const head = h(
    "section",
    { class: "tour-header" },
    h("h1", { class: "page-title" }, user(d.name), statusChip(d)),
    h(
      "dl",
      { class: "tour-facts" },
      fact(t("tour.format"), formatLabel(d)),
      fact(t("tour.start"), h("time", { datetime: new Date(d.start_ms).toISOString() }, when(d.start_ms))),
      d.status === "open" ? fact(t("tour.check_in_opens"), when(d.check_in_ms)) : null,
      fact(t("tour.teams"), t("tour.teams_of", { n: d.teams_entered, max: d.max_teams })),
      fact(t("tour.organiser"), d.organiser ? user(d.organiser.name) : t("tour.by_server")),
      fact(t("tour.rules"), rulesLine(d, tv.catalog)),
      d.round ? fact(t("tour.round"), String(d.round)) : null,
    ),
    tv.catalog
      ? h(
          "details",
          { class: "tour-rules" },
          h("summary", {}, t("tour.all_rules")),
          settingsList({ ...(presetSettings(tv.catalog, d.preset) || {}), ...(d.settings || {}) }, d.timer),
        )
      : null,
  );
  mount(
    root,
    h(
      "div",
      { class: "tournament" },
      h("p", { class: "crumbs" }, h("a", { href: "#/tournaments" }, t("tour.all"))),
      head,
      h(
        "div",
        { class: "tour-grid" },
        h(
          "div",
          { class: "tour-main" },
          youPanel(ctx, tv),
          organiserPanel(ctx, d),
          invitePanel(tv),
          d.format === "knockout" ? bracketPanel(ctx, d, mineId) : swissPanels(ctx, d, mineId),
          teamsPanel(ctx, d),
          logPanel(d),
          exportPanel(tv),
        ),
        h(
          "aside",
          { class: "tour-side-col panel" },
          chatPanel({
            messages: tv.chat,
            me: ctx.me,
            scope: `tournament:${tv.id}`,
            ...ctx.chatExtras(),
            canSend: canChat,
            placeholder: t("tour.chat_placeholder"),
            send: (text) => ctx.socket.send("tournament_chat", { tournament: tv.id, text }),
            muted: ctx.muted,
            onMute: (id) => {
              ctx.mute(id);
              renderTournament(ctx, root, tv);
            },
          }),
          canChat ? null : h("p", { class: "muted" }, t("tour.chat_who")),
        ),
      ),
    ),
  );
}

function fact(label, value) {
  return h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));
}

/** Take a DETAIL unless the page already has a later one (a `tournament`
 * frame may overtake an HTTP answer). */
export function newer(tv, detail) {
  if (!detail || (tv.detail && detail.version < tv.detail.version)) return false;
  tv.detail = detail;
  return true;
}

/** The act's errors shown on the page; the page redraws with the answer. */
export async function act(ctx, tv, action, body) {
  try {
    const res = await api.tournamentAct(tv.id, action, body, tv.detail && !tv.detail.public ? tv.invite || undefined : undefined);
    tv.error = null;
    newer(tv, res && res.tournament);
    return true;
  } catch (err) {
    tv.error = err && err.field === "partner" ? t("tour.no_such_player") : errorText(err);
    return false;
  }
}

// The waiting room: seats and teams, who is ready, every setting in plain
// words, the invite link, and the host's controls (settings and timer, add
// a bot, move, remove, fill and start).

import { copyText, h, mount } from "../dom.js";
import { seatLabel, t } from "../i18n.js";
import { seatInfo } from "../state.js";
import { presetLabel } from "../settings.js";
import { catalogOrSay, chatPanel, openDialog } from "../ui.js";
import { settingsForm, settingsList } from "../settingsform.js";
import { blockPlayer, canBefriend, inviteFriendsPanel, personActions } from "./friends.js";
import { tournamentOfTable } from "./tournament.js";

/** The link that brings a friend to this table. */
export function inviteLink(room) {
  if (room.invite) return `${location.origin}/?invite=${encodeURIComponent(room.invite)}`;
  return `${location.origin}/#/table/${encodeURIComponent(room.id)}`;
}

function seatCard(ctx, room, you, seat) {
  const s = room.seats[seat];
  const info = seatInfo(s);
  const mine = you.seat === seat;
  const host = you.host;
  const isHostSeat = s.user && s.user.id === room.host;
  const controls = [];
  if (info.empty) {
    if (you.seat === null && room.kind !== "ranked") {
      controls.push(h("button", { type: "button", class: "primary small", onclick: () => ctx.cmd("sit", { seat }) }, t("room.sit")));
    }
    if (host && room.kind !== "ranked") controls.push(addBotControl(ctx, seat));
  } else if (s.user && !mine && !info.bot && !ctx.demo) {
    if (host) {
      controls.push(
        h("button", { type: "button", class: "ghost small danger", "aria-label": t("room.remove_name", { name: info.name }), onclick: () => ctx.cmd("remove", { seat }) }, t("room.remove")),
      );
    }
    controls.push(
      h("button", { type: "button", class: "ghost small", "aria-label": t("report_name", { name: info.name }), onclick: () => ctx.report([{ id: s.user.id, name: info.name }]) }, t("report")),
    );
  } else if (host && !mine) {
    controls.push(
      h("button", { type: "button", class: "ghost small danger", "aria-label": t("room.remove_name", { name: info.name }), onclick: () => ctx.cmd("remove", { seat }) }, t("room.remove")),
    );
  }
  const person = info.user && !mine ? personActions(ctx, info.user) : null;
  if (person) controls.push(person);
  if (host) {
    const id = `move-${seat}`;
    controls.push(
      h(
        "span",
        { class: "move" },
        h("label", { for: id, class: "sr-only" }, t("room.move_label", { seat: seatLabel(seat) })),
        h(
          "select",
          {
            id,
            class: "small",
            onchange: (e) => {
              const to = Number(e.target.value);
              if (!Number.isNaN(to) && e.target.value !== "") ctx.cmd("move", { from: seat, to });
            },
          },
          h("option", { value: "" }, t("room.move")),
          [0, 1, 2, 3].filter((x) => x !== seat).map((x) => h("option", { value: x }, t("room.swap_with", { seat: seatLabel(x) }))),
        ),
      ),
    );
  }
  return h(
    "li",
    { class: ["room-seat", `team-${seat % 2}`, info.empty && "empty", mine && "me"], dataset: { seat } },
    h("div", { class: "room-seat-label" }, seatLabel(seat)),
    h(
      "div",
      { class: "room-seat-name" },
      info.empty ? h("span", { class: "muted" }, t("room.empty")) : h("bdi", { class: "user", translate: "no" }, info.name),
      mine ? h("span", { class: "badge you" }, t("you")) : null,
      isHostSeat ? h("span", { class: "badge host" }, t("room.host")) : null,
      info.bot ? h("span", { class: "badge bot", dataset: { level: info.level || "" } }, info.level ? t(`level.${info.level}`) : t("bot")) : null,
      !info.empty && !info.bot && !info.connected ? h("span", { class: "badge away" }, t("away")) : null,
    ),
    h(
      "div",
      { class: ["ready-state", info.ready ? "is-ready" : "not-ready"] },
      info.empty ? "" : info.ready ? t("room.ready") : t("room.not_ready"),
    ),
    controls.length ? h("div", { class: "room-seat-controls" }, controls) : null,
  );
}

// The bot levels a host picks from (protocol.md, `add_bot`), easiest first.
const LEVELS = ["beginner", "intermediate", "expert"];
/** The level picked for each seat, kept across redraws (the room is drawn again on every frame). */
const picked = ["intermediate", "intermediate", "intermediate", "intermediate"];

/** The host's control on an empty seat: a level, then "Add a bot". */
function addBotControl(ctx, seat) {
  const id = `bot-level-${seat}`;
  const select = h(
    "select",
    {
      id,
      class: "small",
      dataset: { key: "bot-level" },
      onchange: (e) => {
        picked[seat] = e.target.value;
      },
    },
    LEVELS.map((level) => h("option", { value: level, selected: level === picked[seat] }, t(`level.${level}`))),
  );
  return h(
    "span",
    { class: "add-bot" },
    h("label", { for: id, class: "sr-only" }, t("room.bot_level", { seat: seatLabel(seat) })),
    select,
    h(
      "button",
      {
        type: "button",
        class: "secondary small",
        "aria-label": t("room.add_bot_seat", { seat: seatLabel(seat) }),
        onclick: () => ctx.cmd("add_bot", { seat, level: picked[seat] }),
      },
      t("room.add_bot"),
    ),
  );
}

/** Hints (a room option, off by default, never Ranked): the host's switch, or a line for the others. */
function hintsControl(ctx, room, host) {
  if (room.kind === "ranked") return null;
  if (!host) return h("p", { class: "muted", dataset: { key: "hints" } }, room.hints ? t("room.hints_on") : t("room.hints_off"));
  return h(
    "label",
    { class: "check", dataset: { key: "hints" } },
    h("input", { type: "checkbox", checked: Boolean(room.hints), onchange: (e) => ctx.cmd("configure", { hints: e.target.checked }) }),
    " ",
    t("room.hints_allow"),
  );
}

export function renderRoom(ctx, root) {
  const ts = ctx.ts;
  const room = ts.room;
  const you = ts.you;
  const seated = you.seat !== null;
  const me = seated ? room.seats[you.seat] : null;
  const filled = room.seats.filter((s) => s.user || s.bot).length;
  const ready = room.seats.filter((s) => s.ready).length;
  const link = inviteLink(room);
  const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  const teams = [0, 1].map((team) =>
    h(
      "section",
      { class: ["team-box", `team-${team}`], "aria-labelledby": `team-${team}-title` },
      h("h3", { id: `team-${team}-title` }, t("team_n", { n: team + 1 })),
      h("ul", { class: "room-seats" }, [team, team + 2].map((seat) => seatCard(ctx, room, you, seat))),
    ),
  );
  const hostTools = you.host
    ? h(
        "div",
        { class: "host-tools" },
        room.kind !== "ranked"
          ? h("button", { type: "button", class: "secondary", onclick: () => openConfigure(ctx, room) }, t("room.change_settings"))
          : null,
        filled < 4 && room.kind !== "ranked"
          ? h(
              "button",
              { type: "button", class: "secondary", "aria-describedby": "fill-help", onclick: () => ctx.fillWithBots() },
              t("room.fill_bots"),
            )
          : null,
        // The button also marks the host ready (ctx.fillWithBots): say so.
        filled < 4 && room.kind !== "ranked" ? h("p", { class: "help", id: "fill-help" }, t("room.fill_bots.help")) : null,
        filled < 4 && room.kind !== "ranked" ? h("p", { class: "help", dataset: { key: "levels-help" } }, t("room.levels_help")) : null,
      )
    : null;
  const readyButton =
    seated && me
      ? h(
          "button",
          {
            type: "button",
            class: me.ready ? "secondary" : "primary big",
            dataset: { key: "ready" },
            "aria-pressed": String(Boolean(me.ready)),
            onclick: () => ctx.cmd("ready", { ready: !me.ready }),
          },
          me.ready ? t("room.unready") : t("room.ready_button"),
        )
      : null;
  // A tournament match: the seats are the server's; players only say ready.
  const tournament = room.kind === "tournament" ? tournamentOfTable(room.id) : null;
  const tourBanner = tournament
    ? h(
        "p",
        { class: "banner info tour-match-banner", role: "status" },
        t(ctx.matchNotice === room.id ? "tour.match_ready" : "tour.match_table"),
        " ",
        t("tour.match_ready_help"),
        " ",
        h("a", { href: `#/tournament/${encodeURIComponent(tournament)}` }, t("tour.back")),
      )
    : null;
  const startHint =
    filled < 4 ? t("room.waiting_players", { n: 4 - filled }) : ready < 4 ? t("room.waiting_ready", { n: 4 - ready }) : t("room.starting");
  mount(
    root,
    h(
      "div",
      { class: "room" },
      h(
        "div",
        { class: "room-head" },
        h("h1", { class: "page-title" }, t("room.title"), " ", h("span", { class: `kind-chip kind-${room.kind}` }, t(`kind.${room.kind}`))),
        h("div", { class: "room-head-actions" }, h("p", { class: "start-hint", role: "status" }, startHint), readyButton),
      ),
      tourBanner,
      h(
        "div",
        { class: "room-grid" },
        h(
          "div",
          { class: "room-main" },
          h(
            "section",
            { class: "panel", "aria-labelledby": "seats-title" },
            h("h2", { id: "seats-title" }, t("room.seats_title")),
            h("p", { class: "muted" }, t("room.teams_help")),
            h("div", { class: "teams-grid" }, teams),
            h("div", { class: "room-actions" }, hostTools, seated && !tournament ? h("button", { type: "button", class: "ghost", onclick: () => ctx.leaveTable() }, t("room.leave")) : null),
          ),
          tournament
            ? null
            : h(
                "section",
                { class: "panel invite", "aria-labelledby": "invite-title" },
                h("h2", { id: "invite-title" }, t("room.invite_title")),
                h("p", { class: "muted" }, room.invite ? t("room.invite_private") : t("room.invite_casual")),
                h(
                  "div",
                  { class: "inline-form" },
                  h("label", { for: "invite-link", class: "sr-only" }, t("room.invite_title")),
                  h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
                  h(
                    "button",
                    {
                      type: "button",
                      class: "secondary",
                      onclick: async () => {
                        const ok = await copyText(link);
                        copied.textContent = ok ? t("room.copied") : t("room.copy_failed");
                      },
                    },
                    t("room.copy"),
                  ),
                ),
                copied,
              ),
          tournament ? null : inviteFriendsPanel(ctx, room),
          h(
            "section",
            { class: "panel", "aria-labelledby": "rules-title" },
            h("h2", { id: "rules-title" }, t("room.rules_title")),
            h("p", { class: "preset-name" }, t("room.preset", { name: presetLabel(room.preset, room.changes) })),
            settingsList(room.settings, room.timer),
            hintsControl(ctx, room, you.host),
          ),
        ),
        h(
          "aside",
          { class: "room-side panel" },
          chatPanel({
            messages: ts.chat,
            me: ctx.me,
            scope: `table:${ts.table}`,
            spectator: !seated,
            send: (text) => ctx.cmd("chat", { text }),
            muted: ctx.muted,
            onMute: (id) => ctx.mute(id),
            onBlock: canBefriend(ctx) ? (from) => blockPlayer(ctx, from) : null,
            ...ctx.chatExtras(),
          }),
        ),
      ),
    ),
  );
}

async function openConfigure(ctx, room) {
  const catalog = await catalogOrSay((text) => ctx.say(text));
  if (!catalog) return;
  const dlg = openDialog({
    title: t("room.change_settings"),
    className: "wide",
    body: settingsForm({
      catalog,
      idPrefix: "cfg",
      initial: { preset: room.preset, settings: room.settings, timer: room.timer },
      submitLabel: t("room.save_settings"),
      onSubmit: async ({ preset, settings, timer }) => {
        await ctx.cmd("configure", { preset, settings, timer });
        dlg.close();
      },
    }),
  });
}

// Home: sign in (guest, log in, register) and, once signed in, the lobby:
// invites from friends, create a table, join by invite, the Ranked queue,
// friends (screens/friends.js), Casual tables with open seats and games to
// watch.

import { cardFace } from "../cards.js";
import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { summary } from "../settings.js";
import { botLabel, catalogOrSay, formMessage, openDialog, showError } from "../ui.js";
import { settingsForm } from "../settingsform.js";
import { registerInstead } from "./account.js";
import { friendsPanel, invitesPanel } from "./friends.js";

// ------------------------------------------------------------ signed out

function signInCard(ctx) {
  const tabs = ["guest", "login", "register"];
  let current = "guest";
  const panel = h("div", { class: "tab-panel", role: "tabpanel", id: "auth-panel" });
  const tabButtons = tabs.map((name) =>
    h(
      "button",
      {
        type: "button",
        role: "tab",
        id: `tab-${name}`,
        "aria-controls": "auth-panel",
        class: "tab",
        onclick: () => select(name, true),
        onkeydown: (e) => {
          const i = tabs.indexOf(name);
          const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
          if (!step) return;
          const dir = document.dir === "rtl" ? -step : step;
          select(tabs[(i + dir + tabs.length) % tabs.length], true);
        },
      },
      t(`auth.${name}`),
    ),
  );
  const select = (name, focus = false) => {
    current = name;
    tabButtons.forEach((b, i) => {
      const on = tabs[i] === name;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    });
    panel.setAttribute("aria-labelledby", `tab-${name}`);
    mount(panel, authForm(ctx, current));
  };
  const card = h(
    "section",
    { class: "panel auth", "aria-labelledby": "auth-title" },
    h("h2", { id: "auth-title" }, t("auth.title")),
    h("div", { class: "tabs", role: "tablist", "aria-label": t("auth.title") }, tabButtons),
    panel,
  );
  // A guest who chose to register signed out to do it: the register tab.
  select(ctx.authTab || "guest");
  ctx.authTab = null;
  return card;
}

function input(id, label, attrs = {}) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, name: id, ...attrs }),
  );
}

function authForm(ctx, kind) {
  const msg = formMessage();
  const done = (res) => ctx.signedIn(res.user);
  let fields;
  let submit;
  if (kind === "guest") {
    fields = [input("guest-name", t("auth.name"), { required: true, maxlength: 24, autocomplete: "nickname" })];
    submit = (f) => api.guest(f.get("guest-name").trim()).then(done);
  } else if (kind === "login") {
    fields = [
      input("login-username", t("auth.username"), { required: true, autocomplete: "username", maxlength: 24 }),
      input("login-password", t("auth.password"), { required: true, type: "password", autocomplete: "current-password" }),
    ];
    submit = (f) => api.login(f.get("login-username").trim(), f.get("login-password")).then(done);
  } else {
    fields = [
      input("reg-username", t("auth.username"), { required: true, autocomplete: "username", minlength: 3, maxlength: 24, pattern: "[A-Za-z0-9_.\\-]{3,24}", "aria-describedby": "reg-username-help" }),
      h("p", { class: "help", id: "reg-username-help" }, t("auth.username_help")),
      input("reg-password", t("auth.password"), { required: true, type: "password", autocomplete: "new-password", minlength: 8, "aria-describedby": "reg-password-help" }),
      h("p", { class: "help", id: "reg-password-help" }, t("auth.password_help")),
      input("reg-name", t("auth.display_name"), { maxlength: 24, autocomplete: "nickname" }),
    ];
    submit = (f) =>
      api.register(f.get("reg-username").trim(), f.get("reg-password"), (f.get("reg-name") || "").trim() || undefined).then(done);
  }
  const label = { guest: t("auth.play_guest"), login: t("auth.login"), register: t("auth.register") }[kind];
  return h(
    "form",
    {
      class: "auth-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        if (!form.reportValidity()) return;
        const button = form.querySelector("button[type=submit]");
        button.disabled = true;
        try {
          await submit(new FormData(form));
        } catch (err) {
          showError(msg, err);
        } finally {
          button.disabled = false;
        }
      },
    },
    fields,
    msg,
    h("button", { type: "submit", class: "primary wide" }, label),
  );
}

function howTo() {
  const items = ["how.1", "how.2", "how.3", "how.4", "how.5"];
  return h(
    "section",
    { class: "panel howto", "aria-labelledby": "how-title" },
    h("h2", { id: "how-title" }, t("how.title")),
    h("ol", {}, items.map((k) => h("li", {}, t(k)))),
  );
}

export function renderSignedOut(ctx, root) {
  const invited = ctx.invite
    ? h("p", { class: "banner invite-banner", role: "status" }, t("invited_sign_in"))
    : null;
  // Said once, after the account was deleted here (screens/account.js).
  const farewell = ctx.farewell ? h("p", { class: "banner", role: "status" }, ctx.farewell) : null;
  ctx.farewell = null;
  mount(
    root,
    h(
      "div",
      { class: "home" },
      h(
        "section",
        { class: "hero" },
        h(
          "div",
          { class: "hero-fan", "aria-hidden": "true" },
          ["AH", "KS", "QD", "JC", "TH"].map((c, i) => h("span", { class: "card", style: { "--i": i - 2 }, html: cardFace(c) })),
        ),
        h("h1", {}, t("hero.title")),
        h("p", { class: "tagline" }, t("hero.tagline")),
        h("p", { class: "lede" }, t("hero.lede")),
      ),
      farewell,
      invited,
      h("div", { class: "home-grid" }, signInCard(ctx), howTo()),
    ),
  );
}

// ------------------------------------------------------------- the lobby

function seatDots(room) {
  return h(
    "ul",
    { class: "seat-dots", "aria-label": t("seats") },
    room.seats.map((s) => {
      const name = s.user ? s.user.name : s.bot ? botLabel(s.level) : null;
      return h(
        "li",
        { class: ["dot", `team-${s.seat % 2}`, name ? "taken" : "open"] },
        name ? h("bdi", { class: "user", translate: "no" }, name) : t("open_seat"),
      );
    }),
  );
}

function tableRow(ctx, room, action) {
  const label = action === "watch" ? t("watch") : t("join_table");
  return h(
    "li",
    { class: "table-row" },
    h(
      "div",
      { class: "table-row-main" },
      h("div", { class: "table-row-title" }, h("span", { class: `kind-chip kind-${room.kind}` }, t(`kind.${room.kind}`)), " ", summary(room.settings, room.preset, room.changes)),
      h("div", { class: "table-row-sub" }, t("seconds_turn", { n: room.timer }), " · ", action === "watch" ? t("spectators_n", { n: room.spectators }) : t("open_seats_n", { n: room.open_seats })),
      seatDots(room),
    ),
    h(
      "button",
      {
        type: "button",
        class: action === "watch" ? "secondary" : "primary",
        "aria-label": `${label}: ${summary(room.settings, room.preset, room.changes)}`,
        onclick: () => ctx.go(`#/table/${encodeURIComponent(room.id)}${action === "join" ? "?sit=1" : ""}`),
      },
      label,
    ),
  );
}

/** Text or link to an invite code: accepts "CODE", "/?invite=CODE" or a full URL. */
export function inviteFrom(text) {
  const raw = String(text || "").trim();
  if (!raw) return null;
  try {
    const url = new URL(raw, location.origin);
    const code = url.searchParams.get("invite");
    if (code) return code;
  } catch {
    // not a URL: a bare code
  }
  return /^[A-Za-z0-9_-]{6,64}$/.test(raw) ? raw : null;
}

function createCard(ctx) {
  return h(
    "section",
    { class: "panel action-card", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, t("create.title")),
    h("p", {}, t("create.help")),
    h("button", { type: "button", class: "primary", onclick: () => openCreate(ctx) }, t("create.button")),
  );
}

export async function openCreate(ctx) {
  const catalog = await catalogOrSay((text) => ctx.say(text));
  if (!catalog) return;
  const dlg = openDialog({
    title: t("create.title"),
    className: "wide",
    body: settingsForm({
      catalog,
      withKind: true,
      idPrefix: "create",
      submitLabel: t("create.submit"),
      onSubmit: async (choice) => {
        const res = await ctx.createTable(choice);
        dlg.close();
        ctx.go(`#/table/${encodeURIComponent(res.table.id)}`, res.invite ? { invite: res.invite } : {});
      },
    }),
  });
}

function joinCard(ctx) {
  const msg = formMessage();
  return h(
    "section",
    { class: "panel action-card", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, t("joincode.title")),
    h(
      "form",
      {
        class: "inline-form",
        onsubmit: (e) => {
          e.preventDefault();
          const code = inviteFrom(new FormData(e.currentTarget).get("invite"));
          if (!code) {
            msg.textContent = t("joincode.bad");
            msg.classList.add("error");
            return;
          }
          ctx.openInvite(code);
        },
      },
      h("label", { for: "invite-input", class: "sr-only" }, t("joincode.label")),
      h("input", { id: "invite-input", name: "invite", placeholder: t("joincode.placeholder"), autocomplete: "off", required: true }),
      h("button", { type: "submit", class: "secondary" }, t("joincode.button")),
    ),
    msg,
  );
}

function rankedCard(ctx, queue) {
  const guest = !ctx.me || ctx.me.guest;
  const status = queue?.status || "idle";
  let body;
  if (guest) {
    body = [
      h("p", { class: "muted" }, t("ranked.guests")),
      h("button", { type: "button", class: "secondary", onclick: () => registerInstead(ctx) }, t("auth.register_instead")),
    ];
  } else if (status === "waiting") {
    const secs = Math.floor((queue.waited_ms + (Date.now() - (queue.receivedAt || Date.now()))) / 1000);
    body = [
      h("p", { class: "queue-wait", role: "status" }, t("ranked.waiting", { time: clock(secs) }), h("span", { class: "spinner", "aria-hidden": "true" })),
      h("p", { class: "muted" }, t("ranked.queued", { n: queue.queued ?? 1 })),
      h("button", { type: "button", class: "secondary", onclick: () => ctx.leaveQueue() }, t("ranked.cancel")),
    ];
  } else if (status === "matched") {
    body = h("button", { type: "button", class: "primary", onclick: () => ctx.go(`#/table/${encodeURIComponent(queue.table)}`) }, t("ranked.go"));
  } else {
    body = [
      h("p", {}, t("ranked.help")),
      h("button", { type: "button", class: "primary", onclick: () => ctx.joinQueue() }, t("ranked.join")),
    ];
  }
  return h(
    "section",
    { class: "panel action-card ranked", "aria-labelledby": "ranked-title" },
    h("h2", { id: "ranked-title" }, t("ranked.title")),
    body,
  );
}

function tournamentsCard() {
  return h(
    "section",
    { class: "panel action-card tournaments-card", "aria-labelledby": "tournaments-title" },
    h("h2", { id: "tournaments-title" }, t("tour.list_title")),
    h("p", {}, t("tour.card_help")),
    h("a", { href: "#/tournaments", class: "button secondary" }, t("tour.card_button")),
  );
}

const clock = (secs) => `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;

export function renderLobby(ctx, root, data) {
  const { tables = [], watch = [], queue = null, error = null } = data;
  mount(
    root,
    h(
      "div",
      { class: "lobby" },
      h("h1", { class: "page-title" }, t("lobby.title")),
      error ? h("p", { class: "banner error", role: "alert" }, error) : null,
      ctx.seatedAt?.()
        ? h(
            "p",
            { class: "banner info back-banner" },
            t("lobby.seated"),
            " ",
            h("a", { href: `#/table/${encodeURIComponent(ctx.seatedAt())}`, class: "button primary small" }, t("lobby.back")),
          )
        : null,
      invitesPanel(ctx, ctx.invites),
      h("div", { class: "action-grid" }, createCard(ctx), joinCard(ctx), rankedCard(ctx, queue), tournamentsCard()),
      friendsPanel(ctx, ctx.social),
      h(
        "section",
        { class: "panel", "aria-labelledby": "casual-title" },
        h("h2", { id: "casual-title" }, t("lobby.casual")),
        tables.length
          ? h("ul", { class: "table-list" }, tables.map((r) => tableRow(ctx, r, "join")))
          : h("p", { class: "muted" }, t("lobby.no_tables")),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "watch-title" },
        h("h2", { id: "watch-title" }, t("lobby.watch")),
        watch.length
          ? h("ul", { class: "table-list" }, watch.map((r) => tableRow(ctx, r, "watch")))
          : h("p", { class: "muted" }, t("lobby.no_games")),
      ),
    ),
  );
}

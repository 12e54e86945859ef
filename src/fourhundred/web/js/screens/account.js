// The account page (#/account): change the password, the sessions with
// "Log out everywhere else", "Download my data" and "Delete my account"
// (docs/protocol.md, "Your account"). It draws what the server sends.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { formMessage, openDialog, showError, when } from "../ui.js";
import { rich } from "./tourparts.js";

function field(id, label, attrs) {
  return h("div", { class: "field" }, h("label", { for: id }, label), h("input", { id, name: id, ...attrs }));
}

/** Run `action` from a form's submit, its button disabled meanwhile. */
function submitting(action) {
  return async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    if (!form.reportValidity()) return;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await action(new FormData(form), form);
    } finally {
      button.disabled = false;
    }
  };
}

/** A guest who wants an account: sign out, then the register tab (a guest's
 * name and games are not carried over: docs/protocol.md, "Accounts"). */
export async function registerInstead(ctx) {
  ctx.authTab = "register";
  try {
    await api.logout();
  } catch {
    // signed out locally either way
  }
  ctx.signedOut(t("auth.register_note"));
}

function passwordPanel(ctx, note) {
  if (ctx.me.guest) {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "acct-pw-title" },
      h("h2", { id: "acct-pw-title" }, t("account.password_title")),
      h("p", { class: "muted" }, t("account.guest_password")),
      h("button", { type: "button", class: "secondary", onclick: () => registerInstead(ctx) }, t("auth.register_instead")),
    );
  }
  const msg = formMessage();
  if (note) msg.textContent = note;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "acct-pw-title" },
    h("h2", { id: "acct-pw-title" }, t("account.password_title")),
    h(
      "form",
      {
        class: "account-form",
        onsubmit: submitting(async (f, form) => {
          msg.classList.remove("error");
          try {
            await api.changePassword(String(f.get("acct-current")), String(f.get("acct-new")));
            form.reset();
            ctx.accountNote = { password: t("account.changed") };
            ctx.reroute();
          } catch (err) {
            showError(msg, err);
          }
        }),
      },
      field("acct-current", t("account.current"), { type: "password", required: true, autocomplete: "current-password" }),
      field("acct-new", t("account.new"), { type: "password", required: true, minlength: 8, autocomplete: "new-password", "aria-describedby": "acct-new-help" }),
      h("p", { class: "help", id: "acct-new-help" }, t("auth.password_help")),
      msg,
      h("button", { type: "submit", class: "primary" }, t("account.change")),
    ),
  );
}

/** "Firefox on Windows", as the server named the session's browser and
 * system; the names are products' own, so they are marked not to translate. */
function deviceName(s) {
  const named = (text) => h("bdi", { translate: "no" }, text);
  if (s.browser && s.system) return rich("account.device", { browser: named(s.browser), system: named(s.system) });
  if (s.browser || s.system) return named(s.browser || s.system);
  return t("account.device_unknown");
}

function sessionsPanel(ctx, sessions, note) {
  const msg = formMessage();
  if (note) msg.textContent = note;
  const others = sessions.filter((s) => !s.current).length;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "acct-sessions-title" },
    h("h2", { id: "acct-sessions-title" }, t("account.sessions_title")),
    h(
      "ul",
      { class: "sessions" },
      sessions.map((s) =>
        h(
          "li",
          { class: ["session-row", s.current ? "current" : null] },
          h("span", { class: "session-device" }, deviceName(s)),
          h("span", {}, t("account.session_started", { when: when(s.created_ms) })),
          h("span", { class: "muted" }, t("account.session_expires", { when: when(s.expires_ms) })),
          s.current ? h("span", { class: "badge" }, t("account.this_device")) : null,
        ),
      ),
    ),
    others ? null : h("p", { class: "muted" }, t("account.no_other")),
    msg,
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        disabled: !others,
        onclick: async () => {
          try {
            const res = await api.endSessions();
            ctx.accountNote = { sessions: t("account.logged_out_n", { n: res.ended }) };
            ctx.reroute();
          } catch (err) {
            showError(msg, err);
          }
        },
      },
      t("account.logout_others"),
    ),
  );
}

function dataPanel() {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "acct-data-title" },
    h("h2", { id: "acct-data-title" }, t("account.data_title")),
    h("p", { class: "muted" }, t("account.data_help")),
    h("a", { class: "button secondary", href: api.exportUrl, download: "" }, t("account.download")),
  );
}

function confirmDelete(ctx) {
  const msg = formMessage();
  const password = ctx.me.guest
    ? null
    : field("acct-delete-password", t("account.delete_password"), { type: "password", required: true, autocomplete: "current-password" });
  const form = h(
    "form",
    {
      class: "account-form",
      onsubmit: submitting(async (f) => {
        try {
          await api.deleteAccount(ctx.me.guest ? undefined : String(f.get("acct-delete-password")));
        } catch (err) {
          showError(msg, err);
          return;
        }
        dlg.close();
        ctx.signedOut(t("account.deleted"));
      }),
    },
    h("p", {}, t("account.delete_what")),
    h("ul", { class: "consequences" }, ["account.delete_1", "account.delete_2", "account.delete_3"].map((k) => h("li", {}, t(k)))),
    password,
    msg,
    h(
      "div",
      { class: "dialog-actions" },
      h("button", { type: "button", class: "secondary", onclick: () => dlg.close() }, t("account.keep")),
      h("button", { type: "submit", class: "primary danger" }, t("account.delete")),
    ),
  );
  const dlg = openDialog({ title: t("account.delete_title"), body: form, className: "delete-dialog" });
}

function deletePanel(ctx) {
  return h(
    "section",
    { class: "panel danger-zone", "aria-labelledby": "acct-delete-title" },
    h("h2", { id: "acct-delete-title" }, t("account.delete_title")),
    h("p", { class: "muted" }, t("account.delete_help")),
    h("button", { type: "button", class: "primary danger", onclick: () => confirmDelete(ctx) }, t("account.delete")),
  );
}

/** The account page for the signed-in `ctx.me`, with its live `sessions`. */
export function renderAccount(ctx, root, sessions) {
  const note = ctx.accountNote || {};
  ctx.accountNote = null;
  mount(
    root,
    h(
      "div",
      { class: "account" },
      h("h1", { class: "page-title" }, t("account.title"), " · ", h("bdi", { class: "user", translate: "no" }, ctx.me.name), ctx.me.guest ? h("span", { class: "badge" }, t("guest")) : null),
      passwordPanel(ctx, note.password),
      sessionsPanel(ctx, sessions, note.sessions),
      dataPanel(),
      deletePanel(ctx),
    ),
  );
}

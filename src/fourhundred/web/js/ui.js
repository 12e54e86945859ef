// Shared pieces of the screens: dialogs, chat, messages (the settings form
// is settingsform.js).

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { loadCatalog } from "./settings.js";

let dialogSeq = 0;

/**
 * A modal <dialog> (Escape closes it; focus returns where it was).
 * @param {{title: string, body: any, actions?: any[], className?: string, onClose?: () => void}} opts
 */
export function openDialog({ title, body, actions = [], className = "", onClose }) {
  const back = document.activeElement;
  const id = `dlg-${++dialogSeq}`;
  const dialog = h(
    "dialog",
    { class: ["dialog", className], "aria-labelledby": id },
    h(
      "div",
      { class: "dialog-head" },
      h("h2", { id }, title),
      h("button", { type: "button", class: "icon-btn close", "aria-label": t("close"), onclick: () => dialog.close() }, "×"),
    ),
    h("div", { class: "dialog-body" }, body),
    actions.length ? h("div", { class: "dialog-actions" }, actions) : null,
  );
  dialog.addEventListener("close", () => {
    dialog.remove();
    onClose?.();
    if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true });
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  // Start on the dialog itself (its title is read out); Tab goes on to the
  // controls. Focusing the first control would flash a ring on "close".
  dialog.tabIndex = -1;
  dialog.focus();
  return dialog;
}

/** An error or info line under a form. */
export function formMessage() {
  return h("p", { class: "form-msg", role: "alert", "aria-live": "assertive" });
}

export function showError(el, err) {
  el.textContent = errorText(err);
  el.classList.add("error");
}

// Errors whose server message says which input or rule is to blame (a
// person can act on it). Others (a stale version, a lost connection) are
// said in the client's own words only: server internals such as version
// numbers never reach the screen.
const EXPLAINED = new Set(["bad_request", "bad_setting", "illegal", "not_allowed", "conflict"]);

/**
 * The server's catalogue of settings for a dialog, or null once `say` has
 * told the person why it could not be had.
 * @param {(text: string) => void} say
 */
export async function catalogOrSay(say) {
  try {
    return await loadCatalog();
  } catch (err) {
    say(errorText(err));
    return null;
  }
}

/** A bot as people read it: its level's label ("Expert bot"), or "bot". */
export function botLabel(level) {
  return level && t.has(`level.${level}`) ? t(`level.${level}`) : t("bot");
}

/** A player-facing sentence for an ApiError or a socket error. */
export function errorText(err) {
  if (!err) return "";
  const code = err.code || "unknown";
  const wait = Number(err.retryAfter);
  if (code === "rate_limited" && wait > 0) return t("err.rate_limited_in", { n: wait });
  // A wrong password on the account page is just that (not "not signed in").
  if (code === "unauthorized" && err.field) return t("err.wrong_password");
  // The login's own 401 says it all; its message would repeat it.
  if (code === "unauthorized") return t("err.unauthorized");
  const key = `err.${code}`;
  const known = t.has(key) ? t(key) : t("err.unknown");
  // The server's message is English only, so shown in English pages.
  if (err.message && lang() === "en" && EXPLAINED.has(code)) return `${known} (${err.message})`;
  return known;
}

// ----------------------------------------------------------------- chat

// What the player typed and the last refusal of the chat being drawn. A
// screen is redrawn whole at every frame (a card played, a seat taken), so
// the panel keeps them here: a word half typed or a refusal just shown
// ("you are muted") survives the redraws until the next line is sent. A
// new `scope` (another table or tournament) starts afresh.
const kept = { scope: "", draft: "", error: "" };

/** The chat panel: messages and a form (none when `canSend` is false).
 * `send(text)` returns a promise; `scope` names the conversation (a table
 * or a tournament) whose draft and refusal are kept across redraws. */
export function chatPanel({ messages, send, me, scope = "", muted = new Set(), onMute, onBlock = null, onReport = null, spectator = false, unfiltered = false, onFilter = null, canSend = true, placeholder = "" }) {
  if (kept.scope !== scope) Object.assign(kept, { scope, draft: "", error: "" });
  const list = h(
    "ol",
    // New messages are announced once through the page's live region
    // (app.js); a live list redrawn whole would read everything again.
    { class: "chat-list", "aria-label": t("chat_messages") },
    messages
      .filter((m) => !muted.has(m.from?.id))
      .map((m) =>
        h(
          "li",
          { class: ["chat-msg", m.channel === "spectators" && "spect", m.from?.id === me?.id && "mine"] },
          h("bdi", { class: "who user", translate: "no" }, m.from?.name || "?"),
          m.channel === "spectators" ? h("span", { class: "badge" }, t("spectator")) : null,
          h("span", { class: "text user", translate: "no", dir: "auto" }, unfiltered && m.raw ? m.raw : m.text),
          onReport && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link report", "aria-label": t("report_name", { name: m.from?.name || "?" }), onclick: () => onReport(m) },
                t("report"),
              )
            : null,
          onMute && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link mute", "aria-label": t("mute_name", { name: m.from?.name || "?" }), onclick: () => onMute(m.from.id) },
                t("mute"),
              )
            : null,
          onBlock && m.from?.id !== me?.id
            ? h(
                "button",
                { type: "button", class: "link mute", "aria-label": t("friends.block_name", { name: m.from?.name || "?" }), onclick: () => onBlock(m.from) },
                t("friends.block"),
              )
            : null,
        ),
      ),
  );
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "text",
      id: "chat-input",
      name: "chat",
      maxlength: 300,
      autocomplete: "off",
      value: kept.draft,
      dataset: { key: "chat-input" },
      placeholder: placeholder || (spectator ? t("chat_placeholder_spect") : t("chat_placeholder")),
      "aria-label": t("chat_message"),
      oninput: () => {
        kept.draft = input.value;
      },
    })
  );
  const msg = formMessage();
  if (kept.error) {
    msg.textContent = kept.error;
    msg.classList.add("error");
  }
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        // The panel on screen when the answer comes may be a later redraw.
        const now = () => /** @type {HTMLElement} */ (document.querySelector(".chat .form-msg")) || msg;
        try {
          await send(text);
          Object.assign(kept, { draft: "", error: "" });
          const field = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-input"));
          if (field && field.value === input.value) field.value = "";
          input.value = "";
          now().textContent = "";
        } catch (err) {
          kept.error = errorText(err);
          showError(now(), err);
        }
      },
    },
    input,
    h("button", { type: "submit", class: "secondary" }, t("send")),
  );
  setTimeout(() => {
    list.scrollTop = list.scrollHeight;
  }, 0);
  return h(
    "section",
    { class: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title", class: "panel-title" }, t("chat")),
    messages.length ? list : h("p", { class: "muted chat-empty" }, t("chat_empty")),
    canSend ? form : null,
    canSend ? msg : null,
    onFilter
      ? h(
          "div",
          { class: "field switch chat-filter" },
          h(
            "label",
            {},
            h("input", { type: "checkbox", id: "chat-unfiltered", checked: unfiltered, dataset: { key: "chat-unfiltered" }, onchange: (e) => onFilter(e.target.checked) }),
            t("chat_unfiltered"),
          ),
        )
      : null,
  );
}

/** A line of text saying how long ago a time (ms) was. */
export function when(ms) {
  const fmt = new Intl.DateTimeFormat(lang() === "ar" ? "ar-LB-u-nu-latn" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  return fmt.format(new Date(ms));
}

// Friends (docs/protocol.md, "Friends and invites"): the lobby's Friends
// panel (friends with who is online and at which table, requests both
// ways, blocked players), the lobby's table invites, the "Add friend" and
// "Block" buttons shown beside a player's name, and the waiting room's
// "Invite a friend". The server decides everything; this draws its lists.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { errorText, formMessage } from "../ui.js";

const name = (n) => h("bdi", { class: "user", translate: "no" }, n);

/** Whether the signed-in person may have friends (guests may not). */
export const canBefriend = (ctx) => Boolean(ctx.me && !ctx.me.guest && !ctx.demo);

/** Run a friends call; say what happened (or what went wrong); reload the lists. */
async function act(ctx, call, done) {
  try {
    await call();
    if (done) ctx.say(done);
  } catch (err) {
    ctx.say(errorText(err));
  }
  await ctx.socialChanged();
}

// ------------------------------------------------ beside a player's name

/**
 * "Add friend" (or where the request stands) and "Block" / "Unblock" for
 * `user` ({id, name, guest?}); nothing for oneself, guests' own pages and
 * before the lists are loaded.
 */
export function personActions(ctx, user, { small = true } = {}) {
  const social = ctx.social;
  if (!canBefriend(ctx) || !user || user.id === ctx.me.id || !social) return null;
  const size = small ? "small" : "";
  const has = (list) => list.some((p) => p.id === user.id);
  const out = [];
  const who = { name: user.name };
  if (has(social.blocked)) {
    out.push(h("button", { type: "button", class: ["ghost", size], "aria-label": t("friends.unblock_name", who), onclick: () => unblockPlayer(ctx, user) }, t("friends.unblock")));
    return h("span", { class: "person-actions" }, out);
  }
  if (has(social.friends)) out.push(h("span", { class: "badge friend" }, t("friends.is_friend")));
  else if (has(social.outgoing)) out.push(h("span", { class: "badge" }, t("friends.asked")));
  else if (has(social.incoming)) {
    out.push(h("button", { type: "button", class: ["primary", size], "aria-label": t("friends.accept_name", who), onclick: () => act(ctx, () => api.acceptFriend(user.id), t("friends.now_friends", who)) }, t("friends.accept")));
  } else if (!user.guest) {
    out.push(h("button", { type: "button", class: ["secondary", size], "aria-label": t("friends.add_name", who), onclick: () => act(ctx, () => api.addFriend({ user: user.id }), t("friends.request_sent", who)) }, t("friends.add")));
  }
  out.push(h("button", { type: "button", class: ["ghost", "danger", size], "aria-label": t("friends.block_name", who), onclick: () => act(ctx, () => api.block(user.id), t("friends.blocked_done", who)) }, t("friends.block")));
  return h("span", { class: "person-actions" }, out);
}

/** Block `user` ({id, name}), from a chat line: their lines go at once. */
export function blockPlayer(ctx, user) {
  ctx.muted.add(user.id);
  return act(ctx, () => api.block(user.id), t("friends.blocked_done", { name: user.name }));
}

function unblockPlayer(ctx, user) {
  ctx.muted.delete(user.id);
  return act(ctx, () => api.unblock(user.id), t("friends.unblocked", { name: user.name }));
}

// ---------------------------------------------------------- the lobby

function person(p, ...controls) {
  return h("li", { class: "friend-row" }, h("a", { class: "friend-name", href: `#/profile/${encodeURIComponent(p.id)}` }, name(p.name)), h("span", { class: "friend-controls" }, controls));
}

function friendRow(ctx, f) {
  const who = { name: f.name };
  return h(
    "li",
    { class: ["friend-row", f.online ? "online" : "offline"] },
    h("span", { class: ["presence-dot", f.online ? "on" : "off"], role: "img", "aria-label": f.online ? t("friends.online") : t("friends.offline") }),
    h("a", { class: "friend-name", href: `#/profile/${encodeURIComponent(f.id)}` }, name(f.name)),
    h(
      "span",
      { class: "friend-controls" },
      f.table
        ? h("a", { class: "button secondary small", href: `#/table/${encodeURIComponent(f.table)}`, "aria-label": t("friends.watch_name", who) }, t("friends.at_table"))
        : h("span", { class: "muted friend-status" }, f.online ? t("friends.online") : t("friends.offline")),
      h("button", { type: "button", class: "ghost small", "aria-label": t("friends.remove_name", who), onclick: () => act(ctx, () => api.removeFriend(f.id), t("friends.removed", who)) }, t("friends.remove")),
    ),
  );
}

function addFriendForm(ctx) {
  const msg = formMessage();
  return h(
    "form",
    {
      class: "inline-form add-friend",
      onsubmit: async (e) => {
        e.preventDefault();
        const form = /** @type {HTMLFormElement} */ (e.currentTarget);
        const username = String(new FormData(form).get("friend-username") || "").trim();
        if (!username) return;
        try {
          const res = await api.addFriend({ username });
          ctx.say(res.status === "accepted" ? t("friends.now_friends", { name: res.user.name }) : t("friends.request_sent", { name: res.user.name }));
          await ctx.socialChanged();
        } catch (err) {
          msg.textContent = err.code === "not_found" ? t("friends.no_such_user") : errorText(err);
          msg.classList.add("error");
        }
      },
    },
    h("label", { for: "friend-username", class: "sr-only" }, t("friends.username")),
    h("input", { id: "friend-username", name: "friend-username", placeholder: t("friends.username"), autocomplete: "off", maxlength: 24, required: true }),
    h("button", { type: "submit", class: "secondary" }, t("friends.add")),
    msg,
  );
}

/** The lobby's Friends panel. `social` is GET /api/friends (null: not loaded). */
export function friendsPanel(ctx, social) {
  const title = h("h2", { id: "friends-title" }, t("friends.title"));
  if (!canBefriend(ctx)) {
    return h("section", { class: "panel friends", "aria-labelledby": "friends-title" }, title, h("p", { class: "muted" }, t("friends.guests")));
  }
  if (!social) return h("section", { class: "panel friends", "aria-labelledby": "friends-title" }, title, h("p", { class: "muted" }, t("loading")));
  const sub = (key, list, row) =>
    list.length ? [h("h3", {}, t(key)), h("ul", { class: "friend-list" }, list.map(row))] : null;
  return h(
    "section",
    { class: "panel friends", "aria-labelledby": "friends-title" },
    title,
    addFriendForm(ctx),
    sub("friends.incoming", social.incoming, (p) =>
      person(
        p,
        h("button", { type: "button", class: "primary small", "aria-label": t("friends.accept_name", { name: p.name }), onclick: () => act(ctx, () => api.acceptFriend(p.id), t("friends.now_friends", { name: p.name })) }, t("friends.accept")),
        h("button", { type: "button", class: "ghost small", "aria-label": t("friends.decline_name", { name: p.name }), onclick: () => act(ctx, () => api.declineFriend(p.id)) }, t("friends.decline")),
      ),
    ),
    social.friends.length
      ? h("ul", { class: "friend-list" }, social.friends.map((f) => friendRow(ctx, f)))
      : h("p", { class: "muted" }, t("friends.none")),
    sub("friends.outgoing", social.outgoing, (p) =>
      person(p, h("button", { type: "button", class: "ghost small", "aria-label": t("friends.cancel_name", { name: p.name }), onclick: () => act(ctx, () => api.removeFriend(p.id)) }, t("friends.cancel"))),
    ),
    sub("friends.blocked", social.blocked, (p) =>
      person(p, h("button", { type: "button", class: "ghost small", "aria-label": t("friends.unblock_name", { name: p.name }), onclick: () => unblockPlayer(ctx, p) }, t("friends.unblock"))),
    ),
  );
}

/** The lobby's table invites (GET /api/invites), with Join and Decline. */
export function invitesPanel(ctx, invites) {
  if (!canBefriend(ctx) || !invites || !invites.length) return null;
  return h(
    "section",
    { class: "panel invites", "aria-labelledby": "invites-title" },
    h("h2", { id: "invites-title" }, t("invites.title")),
    h(
      "ul",
      { class: "friend-list" },
      invites.map((inv) => {
        const who = { name: inv.from.name };
        const join = () => (inv.invite ? ctx.openInvite(inv.invite) : ctx.go(`#/table/${encodeURIComponent(inv.table.id)}?sit=1`));
        return h(
          "li",
          { class: "friend-row invite-row" },
          h("span", { class: "invite-text" }, name(inv.from.name), " ", t("invites.invites_you"), " ", h("span", { class: `kind-chip kind-${inv.table.kind}` }, t(`kind.${inv.table.kind}`))),
          h(
            "span",
            { class: "friend-controls" },
            h("button", { type: "button", class: "primary small", "aria-label": t("invites.join_name", who), onclick: join }, t("invites.join")),
            h("button", { type: "button", class: "ghost small", "aria-label": t("invites.decline_name", who), onclick: () => act(ctx, () => api.declineInvite(inv.table.id)) }, t("friends.decline")),
          ),
        );
      }),
    ),
  );
}

// ---------------------------------------------------- the waiting room

/** "Invite a friend": the online friends not at this table, each with Invite. */
export function inviteFriendsPanel(ctx, room) {
  if (!canBefriend(ctx) || room.kind === "ranked") return null;
  const social = ctx.social;
  const seated = new Set(room.seats.filter((s) => s.user).map((s) => s.user.id));
  const online = social ? social.friends.filter((f) => f.online && !seated.has(f.id)) : [];
  return h(
    "section",
    { class: "panel invite-friends", "aria-labelledby": "invite-friends-title" },
    h("h2", { id: "invite-friends-title" }, t("friends.invite_title")),
    !social
      ? h("p", { class: "muted" }, t("loading"))
      : online.length
        ? h(
            "ul",
            { class: "friend-list" },
            online.map((f) =>
              h(
                "li",
                { class: "friend-row online" },
                h("span", { class: "presence-dot on", role: "img", "aria-label": t("friends.online") }),
                h("span", { class: "friend-name" }, name(f.name)),
                h(
                  "span",
                  { class: "friend-controls" },
                  h("button", { type: "button", class: "secondary small", "aria-label": t("friends.invite_name", { name: f.name }), onclick: () => act(ctx, () => api.inviteToTable(room.id, f.id), t("friends.invited", { name: f.name })) }, t("friends.invite")),
                ),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("friends.none_online")),
  );
}

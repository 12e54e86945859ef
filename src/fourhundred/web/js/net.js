// All transport lives here: the HTTP API and the table WebSocket of
// docs/protocol.md. Screens call `api.*` and use one `TableSocket`; nothing
// else touches fetch() or WebSocket, so a change of protocol stays local.

export class ApiError extends Error {
  constructor(status, code, message, field = null, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.retryAfter = retryAfter;
  }
}

/** Called when a request finds the session gone (see `whenSessionLost`). */
let sessionLost = () => {};

/**
 * `fn` runs when a request is refused 401 for want of a session (not a
 * wrong password, which names its field): the session ended on the server,
 * from another device ("log out everywhere else") or by expiry.
 * @param {() => void} fn
 */
export function whenSessionLost(fn) {
  sessionLost = fn;
}

async function request(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "offline", "network");
  }
  if (res.status === 204) return null;
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    if (res.status === 401 && !err.field) sessionLost();
    throw new ApiError(res.status, err.code || "http", err.message || res.statusText, err.field || null, res.headers.get("Retry-After"));
  }
  return data;
}

const q = (params) => {
  const s = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null));
  const text = s.toString();
  return text ? `?${text}` : "";
};
const enc = encodeURIComponent;

/** The HTTP API (docs/protocol.md, "HTTP API"). Every call throws ApiError. */
export const api = {
  me: () => request("GET", "/api/me"),
  /** Always 200: {signed_in, user} (user null when not signed in). */
  session: () => request("GET", "/api/session"),
  guest: (name) => request("POST", "/api/guest", { name }),
  register: (username, password, name) =>
    request("POST", "/api/register", name ? { username, password, name } : { username, password }),
  login: (username, password) => request("POST", "/api/login", { username, password }),
  logout: () => request("POST", "/api/logout"),
  presets: () => request("GET", "/api/presets"),
  tables: (status = "waiting", limit) => request("GET", `/api/tables${q({ status, limit })}`),
  createTable: (body) => request("POST", "/api/tables", body),
  table: (id, invite) => request("GET", `/api/tables/${enc(id)}${q({ invite })}`),
  invite: (code) => request("GET", `/api/invites/${enc(code)}`),
  queueJoin: () => request("POST", "/api/queue"),
  queueStatus: () => request("GET", "/api/queue"),
  queueLeave: () => request("DELETE", "/api/queue"),
  game: (id) => request("GET", `/api/games/${enc(id)}`),
  record: (id) => request("GET", `/api/games/${enc(id)}/record`),
  replay: (id) => request("GET", `/api/games/${enc(id)}/replay`),
  analysis: (id) => request("GET", `/api/games/${enc(id)}/analysis`),
  user: (id) => request("GET", `/api/users/${enc(id)}`),
  userGames: (id, limit, before) => request("GET", `/api/users/${enc(id)}/games${q({ limit, before })}`),
  leaderboard: (limit) => request("GET", `/api/leaderboard${q({ limit })}`),
  // Friends, blocks and table invites (registered users only).
  friends: () => request("GET", "/api/friends"),
  /** @param {{user?: string, username?: string}} who */
  addFriend: (who) => request("POST", "/api/friends", who),
  acceptFriend: (id) => request("POST", `/api/friends/${enc(id)}/accept`),
  declineFriend: (id) => request("POST", `/api/friends/${enc(id)}/decline`),
  removeFriend: (id) => request("DELETE", `/api/friends/${enc(id)}`),
  block: (id) => request("POST", "/api/blocks", { user: id }),
  unblock: (id) => request("DELETE", `/api/blocks/${enc(id)}`),
  inviteToTable: (table, id) => request("POST", `/api/tables/${enc(table)}/invite`, { user: id }),
  invites: () => request("GET", "/api/invites"),
  declineInvite: (table) => request("DELETE", `/api/invites/${enc(table)}`),
  changePassword: (current, next) => request("POST", "/api/account/password", { current, new: next }),
  sessions: () => request("GET", "/api/account/sessions"),
  /** Log out everywhere else (all: here too). */
  endSessions: (all = false) => request("DELETE", `/api/account/sessions${all ? "?all=1" : ""}`),
  /** A download (Content-Disposition: attachment): a link, not a fetch. */
  exportUrl: "/api/account/export",
  /** @param {string} [password] absent for a guest */
  deleteAccount: (password) => request("DELETE", "/api/account", password === undefined ? {} : { password }),
  report: (body) => request("POST", "/api/reports", body),
  standing: () => request("GET", "/api/me/standing"),
  modReports: (status = "open") => request("GET", `/api/mod/reports${q({ status })}`),
  modReport: (id) => request("GET", `/api/mod/reports/${enc(id)}`),
  modAct: (user, body) => request("POST", `/api/mod/users/${enc(user)}/actions`, body),
  modResolve: (id, resolution) => request("POST", `/api/mod/reports/${enc(id)}/resolve`, { resolution }),
  modAudit: (limit) => request("GET", `/api/mod/audit${q({ limit })}`),
  // Tournaments (docs/protocol.md, "Tournaments").
  tournaments: (status = "upcoming") => request("GET", `/api/tournaments${q({ status })}`),
  createTournament: (body) => request("POST", "/api/tournaments", body),
  tournament: (id, invite) => request("GET", `/api/tournaments/${enc(id)}${q({ invite })}`),
  tournamentInvite: (code) => request("GET", `/api/tournament-invites/${enc(code)}`),
  /** enter, accept, check-in, start, pause, resume, remove, cancel. */
  tournamentAct: (id, action, body, invite) => request("POST", `/api/tournaments/${enc(id)}/${enc(action)}${q({ invite })}`, body),
  /** The results export's address (a link, not a call). */
  tournamentExport: (id, fmt, invite) => `/api/tournaments/${enc(id)}/export.${fmt}${q({ invite })}`,
};

// ------------------------------------------------------------- WebSocket

const BACKOFF_START = 500;
const BACKOFF_MAX = 10000;
const PING_EVERY = 20000;
// Close codes after which reconnecting would not help (protocol.md).
const FINAL_CLOSES = { 4000: "replaced", 4401: "unauthorized", 4403: "forbidden" };

const versionKey = (table) => `fh.version.${table}`;

/**
 * The one socket of this page. It connects, re-joins its table after any
 * drop with the last version it saw (0.5 s doubling to 10 s back-off) and
 * matches every command with its ack or error.
 *
 * handlers: onFrame(frame) for snapshot, catchup, event, presence, chat,
 * matched, closing, tournament and tournament_chat frames; onStatus(status) with "connecting", "open",
 * "reconnecting", or a final "replaced" / "unauthorized" / "forbidden".
 */
export class TableSocket {
  /** @param {{onFrame?: (frame: any) => void, onStatus?: (status: string) => void, url?: string}} [handlers] */
  constructor({ onFrame, onStatus, url } = {}) {
    this.onFrame = onFrame || (() => {});
    this.onStatus = onStatus || (() => {});
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.target = null; // {table} or {invite}: what to join after a reconnect
    this.table = null;
    this.version = null;
    this.seated = false;
    this.joinWaiter = null;
    this.delay = BACKOFF_START;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.status = "idle";
    this.attempts = 0;
    this.followed = null; // {tournament, invite}: followed again after a reconnect
    /** The server's clock minus this page's, from `hello` and each pong (ms). */
    this.skew = 0;
    /** Whether this user reads chat unmasked (the chat filter switch). */
    this.chatUnfiltered = false;
  }

  /** The server's wall clock now, as well as this page can tell (ms). */
  serverNow() {
    return Date.now() + this.skew;
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  /** Open the socket (idempotent). */
  connect() {
    this.stopped = false;
    if (this.ws && this.ws.readyState <= 1) return;
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempts ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = (e) => this.closed(e.code);
    ws.onerror = () => {};
  }

  /** Attach to a table ({table: id} or {invite: code}); resolves with the ack. */
  join(target) {
    if (!target.table || target.table !== this.table) {
      this.version = null;
      this.seated = false;
    }
    this.target = { ...target };
    this.table = target.table || null;
    this.connect();
    if (this.ws && this.ws.readyState === 1) return this.sendJoin();
    return new Promise((resolve, reject) => {
      this.joinWaiter = { resolve, reject };
    });
  }

  sendJoin() {
    // A seated player comes back by table id; a spectator of a Private
    // table needs the invite each time (protocol.md, `join`).
    const t = this.target;
    const msg = {};
    if (t.invite && !(this.seated && this.table)) msg.invite = t.invite;
    else msg.table = t.table || this.table;
    const stored = this.table ? Number(sessionStorage.getItem(versionKey(this.table))) : 0;
    const last = this.table ? this.version ?? stored : null;
    if (last) msg.last_version = last;
    return this.send("join", msg);
  }

  /** Send a command; resolves with the ack, rejects with {code, message}. */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== 1) {
      return Promise.reject({ code: "offline", message: "not connected" });
    }
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type, id, ...fields }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, type }));
  }

  /**
   * Follow a tournament ({tournament, invite?}; null: none): this socket
   * then receives its `tournament` and `tournament_chat` frames, again
   * after any reconnect. Resolves with the ack once the socket is open.
   * @param {{tournament: string, invite?: string | null} | null} target
   */
  follow(target) {
    this.followed = target ? { ...target } : null;
    this.connect();
    if (!this.ws || this.ws.readyState !== 1) return Promise.resolve(null);
    return this.sendFollow();
  }

  sendFollow() {
    const f = this.followed;
    const msg = f ? (f.invite ? { tournament: f.tournament, invite: f.invite } : { tournament: f.tournament }) : { tournament: null };
    return this.send("follow", msg);
  }

  /** Forget the table (after leaving it for good). */
  detach() {
    if (this.table) sessionStorage.removeItem(versionKey(this.table));
    this.target = null;
    this.table = null;
    this.version = null;
  }

  /** Close for good (leaving the page section that needs it). */
  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    switch (frame.type) {
      case "hello":
        if (typeof frame.server_ms === "number") this.skew = frame.server_ms - Date.now();
        this.attempts = 0;
        this.delay = BACKOFF_START;
        this.setStatus("open");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.ping(), PING_EVERY);
        // Before the join, so the snapshot's chat is already as chosen.
        if (this.chatUnfiltered) this.send("chat_filter", { off: true }).catch(() => {});
        if (this.followed) this.sendFollow().catch((err) => this.onFrame({ type: "follow_failed", error: err }));
        if (this.target) {
          const waiter = this.joinWaiter;
          this.joinWaiter = null;
          const p = this.sendJoin();
          if (waiter) p.then(waiter.resolve, waiter.reject);
          else p.catch((err) => this.onFrame({ type: "join_failed", error: err }));
        }
        return;
      case "ack":
      case "error": {
        // An ack's or error's version is not a frame this page has drawn:
        // only snapshot, catchup and event frames move `version`.
        const waiter = this.pending.get(frame.id);
        if (!waiter) {
          if (frame.type === "error") this.onFrame(frame);
          return;
        }
        this.pending.delete(frame.id);
        if (frame.type === "ack") waiter.resolve(frame);
        else waiter.reject({ code: frame.code, message: frame.message, version: frame.version });
        return;
      }
      case "pong":
        if (typeof frame.server_ms === "number") this.skew = frame.server_ms - Date.now();
        return;
      case "snapshot":
      case "catchup":
      case "event":
        if (frame.table) this.table = frame.table;
        if (this.target && frame.table) this.target.table = frame.table;
        if (frame.you) this.seated = frame.you.seat !== null;
        this.seen(frame.version, true);
        this.onFrame(frame);
        return;
      default:
        this.onFrame(frame);
    }
  }

  seen(version, store) {
    if (typeof version !== "number") return;
    if (this.version === null || version > this.version) this.version = version;
    if (store && this.table) sessionStorage.setItem(versionKey(this.table), String(this.version));
  }

  ping() {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "ping", id: this.nextId++ }));
  }

  closed(code) {
    clearInterval(this.pingTimer);
    this.ws = null;
    for (const waiter of this.pending.values()) waiter.reject({ code: "offline", message: "connection lost" });
    this.pending.clear();
    if (this.stopped) return;
    if (FINAL_CLOSES[code]) {
      this.stopped = true;
      this.setStatus(FINAL_CLOSES[code]);
      return;
    }
    this.scheduleRetry();
  }

  scheduleRetry() {
    this.attempts += 1;
    this.setStatus("reconnecting");
    const wait = this.delay;
    this.delay = Math.min(BACKOFF_MAX, this.delay * 2);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }
}

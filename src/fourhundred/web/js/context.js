// The page's state, shared by app.js (the shell and the routes), live.js
// (the table the page is attached to) and demo.js: who is signed in, the
// route, the table's state and socket, and the shell's drawing functions
// (set by app.js when it boots).

import { TableState } from "./state.js";

export const ctx = {
  me: null,
  demo: false,
  route: { name: "home" },
  ts: new TableState(),
  socket: null,
  connection: "idle",
  pending: false,
  notice: null,
  /** @type {number | null} the table version at which this page asked for a hint */
  hintAsked: null,
  muted: new Set(),
  /** The signed-in player's standing (GET /api/me/standing), or null. */
  standing: null,
  /** Chat shown as said (the chat filter off for this player). */
  chatUnfiltered: false,
  /** @type {(penalised?: boolean) => Promise<void>} */
  refreshStanding: async () => {},
  /** @type {(off: boolean) => void} */
  setChatFilter: () => {},
  /** The chat panel's report button and filter switch (none in the demo). */
  chatExtras: () => ({}),
  /** @type {(players: {id: string, name: string}[]) => void} */
  report: () => {},
  lobby: { tables: [], watch: [], queue: null },
  /** @type {any} GET /api/friends (null: not loaded, or a guest) */
  social: null,
  /** @type {any[]} GET /api/invites */
  invites: [],
  invite: new URLSearchParams(location.search).get("invite"),
  shownOver: null,
  game: null,
  replay: null,
  /** A line for the account page's next drawing: {password} or {sessions}. */
  accountNote: null,
  /** A line for the signed-out home page's next drawing. */
  farewell: null,
  /** @type {import("./screens/tournament.js").TourView | null} the tournament page's */
  tour: null,
  /** @type {string | null} why a tournament invite link did not open */
  tourInviteError: null,
  /** @type {HTMLElement | null} the page's <main> */
  main: null,
  // The shell's functions (app.js):
  renderShell: () => {},
  loading: () => {},
  /** @type {(err: any, back?: boolean) => void} */
  failed: () => {},
  reroute: () => {},
  rerender: () => {},
  /** @type {(frame: any) => void} a `notice` frame arrived */
  onNotice: () => {},
  /** @type {() => Promise<void>} the friends lists changed: reload, redraw */
  socialChanged: async () => {},
  /** @type {(note?: string) => void} forget the session here and go home */
  signedOut: () => {},
  /** @type {string | null} the sign-in card's tab to open next ("register") */
  authTab: null,
};

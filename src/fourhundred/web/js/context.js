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
  muted: new Set(),
  lobby: { tables: [], watch: [], queue: null },
  invite: new URLSearchParams(location.search).get("invite"),
  shownOver: null,
  game: null,
  replay: null,
  /** @type {HTMLElement | null} the page's <main> */
  main: null,
  // The shell's functions (app.js):
  renderShell: () => {},
  loading: () => {},
  /** @type {(err: any, back?: boolean) => void} */
  failed: () => {},
  reroute: () => {},
  rerender: () => {},
};

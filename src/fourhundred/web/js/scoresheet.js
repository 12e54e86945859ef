// The score sheet: every hand, every player, bid and tricks, the change and
// the running total. Rows are
// {hand, dealer, bids: [by seat], tricks: [by seat], deltas, scores, thrown_in}.

import { h, num } from "./dom.js";
import { signed, t } from "./i18n.js";

/** Columns in team order: your team first (seat, partner), then the others. */
function columnSeats(you) {
  const me = you ?? 0;
  return [me, (me + 2) % 4, (me + 1) % 4, (me + 3) % 4];
}

/**
 * A <table> of the score sheet. `names(seat)` gives a player's name.
 * `current` (optional) is the view, to show the hand in progress.
 */
export function scoreSheet(rows, names, you = null, current = null) {
  const cols = columnSeats(you);
  const head = h(
    "thead",
    {},
    h(
      "tr",
      {},
      h("th", { scope: "col", class: "hand-col" }, t("hand_col")),
      cols.map((s) =>
        h(
          "th",
          { scope: "col", class: `team-${s % 2}` },
          h("bdi", { class: "user", translate: "no" }, names(s)),
        ),
      ),
    ),
  );
  const body = h(
    "tbody",
    {},
    rows.map((row) =>
      h(
        "tr",
        { class: row.thrown_in ? "thrown" : "" },
        h("th", { scope: "row", class: "hand-col" }, row.hand_index + 1),
        row.thrown_in
          ? h("td", { colspan: 4, class: "thrown-note" }, t("thrown_in_row"))
          : cols.map((s) => cell(row, s)),
      ),
    ),
    // The hand on the table, until its line is in the sheet.
    current && current.phase !== "over" && !rows.some((r) => r.hand_index === current.hand_index)
      ? h(
          "tr",
          { class: "in-progress" },
          h("th", { scope: "row", class: "hand-col" }, current.hand_index + 1),
          cols.map((s) =>
            h(
              "td",
              {},
              h(
                "span",
                { class: "bw" },
                current.bids[s] === null ? "–" : t("bid_won_short", { bid: current.bids[s], won: current.tricks_won[s] }),
              ),
            ),
          ),
        )
      : null,
  );
  const totals = current ? current.scores : rows.length ? rows[rows.length - 1].scores : [0, 0, 0, 0];
  const foot = h(
    "tfoot",
    {},
    h(
      "tr",
      {},
      h("th", { scope: "row", class: "hand-col" }, t("total")),
      cols.map((s) => h("td", { class: "total" }, num(totals[s]))),
    ),
    h(
      "tr",
      { class: "team-totals" },
      h("th", { scope: "row", class: "hand-col" }, t("team_col")),
      h("td", { colspan: 2, class: "team-0-total" }, num(totals[cols[0]] + totals[cols[1]])),
      h("td", { colspan: 2, class: "team-1-total" }, num(totals[cols[2]] + totals[cols[3]])),
    ),
  );
  return h(
    "div",
    { class: "sheet-wrap" },
    h(
      "table",
      { class: "score-sheet", "aria-label": t("score_sheet") },
      h("caption", { class: "sr-only" }, t("score_sheet_caption")),
      head,
      body,
      foot,
    ),
    rows.length === 0 ? h("p", { class: "muted" }, t("no_hands_yet")) : null,
  );
}

function cell(row, s) {
  const d = row.deltas[s];
  // The server marks the seats that asked for a hint in this hand.
  const hinted = (row.hinted || []).includes(s);
  return h(
    "td",
    { dataset: { seat: s }, class: [d > 0 ? "made" : d < 0 ? "short" : "", hinted && "hinted"] },
    h("span", { class: "bw" }, t("bid_won_short", { bid: row.bids[s] ?? "–", won: row.tricks[s] })),
    hinted ? h("span", { class: "badge hint-mark", title: t("hint.used_help") }, t("hint.used")) : null,
    h("span", { class: ["delta", d > 0 ? "up" : d < 0 ? "down" : ""], dir: "ltr" }, signed(d)),
    num(row.scores[s], "run"),
  );
}

// The player's own area of the table: the cards in the hand (the legal ones
// exactly `view.legal`) and the bid panel (the bids `view.legal` offers, each
// worth `view.values`), and a card as a picture or a button.

import { cardFace, groupBySuit, isTrump, parse } from "./cards.js";
import { h } from "./dom.js";
import { cardName, suitName, t } from "./i18n.js";

/** The trick to show in the middle: the last one of the hand (complete or not). */
export function currentTrick(view) {
  return view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
}


/** The total of the bids made so far. */
export const sumBids = (bids) => bids.reduce((a, b) => a + (b ?? 0), 0);

/**
 * A card as a button (your hand) or a picture (the table).
 * @param {string} card
 * @param {{button?: boolean, legal?: boolean, onPlay?: (card: string, legal: boolean) => void,
 *   extra?: Record<string, any>}} [opts]
 */
export function cardEl(card, { button = false, legal = true, onPlay, extra = {} } = {}) {
  const label = cardName(card) + (isTrump(card) ? `${t("comma")}${t("trump")}` : "");
  const classes = ["card", isTrump(card) && "trump", !legal && "dim"];
  if (!button) {
    return h("span", { class: classes, role: "img", "aria-label": label, html: cardFace(card), ...extra });
  }
  return h("button", {
    type: "button",
    class: classes,
    "aria-label": legal ? label : `${label}${t("comma")}${t("card_not_playable")}`,
    "aria-disabled": legal ? null : "true",
    dataset: { card, key: `card-${card}` },
    html: cardFace(card),
    onclick: () => onPlay(card, legal),
    ...extra,
  });
}

// ------------------------------------------------------------------ hand

export function handRow(model, handlers) {
  const v = model.view;
  const cards = v.hand || [];
  const legal = new Set(v.phase === "play" && Array.isArray(v.legal) ? v.legal : []);
  const myTurnToPlay = v.phase === "play" && v.turn === model.you && v.legal !== null;
  const groups = groupBySuit(cards);
  const firstLegal = cards.length ? [...groups.flatMap((g) => g.cards)].find((c) => legal.has(c)) : null;
  const tabCard = firstLegal || groups[0]?.cards[0];
  const onPlay = (card, ok) => {
    if (model.pending) return;
    if (!myTurnToPlay) {
      handlers.notice?.(t("not_your_turn"));
      return;
    }
    if (!ok) {
      const trick = currentTrick(v);
      const led = trick && trick.winner === null && trick.cards.length ? parse(trick.cards[0]).suit : null;
      handlers.notice?.(led ? t("must_follow", { suit: suitName(led) }) : t("card_not_playable"));
      return;
    }
    handlers.play?.(card);
  };
  const n = cards.length;
  // On a phone a hand of more than 7 cards is shown in two overlapping rows,
  // so that every card keeps a tap target wider than 44 px.
  const ordered = groups.flatMap((g, gi) => g.cards.map((c, ci) => ({ c, start: gi > 0 && ci === 0 })));
  const rows = narrow() && n > 7 ? [ordered.slice(0, Math.ceil(n / 2)), ordered.slice(Math.ceil(n / 2))] : [ordered];
  return h(
    "div",
    {
      class: ["hand", myTurnToPlay && "active", model.pending && "pending", rows.length > 1 && "two-rows"],
      role: "group",
      "aria-label": t("your_hand", { n }),
      onkeydown: (e) => rove(e),
    },
    rows.map((row) => {
      const gaps = row.filter((x, i) => i > 0 && x.start).length;
      return h(
        "div",
        { class: "hand-row", style: { "--n": Math.max(row.length, 1), "--n1": Math.max(row.length - 1, 1), "--gaps": gaps } },
        row.map(({ c, start }, i) =>
          cardEl(c, {
            button: true,
            legal: !myTurnToPlay || legal.has(c),
            onPlay,
            extra: {
              tabindex: c === tabCard ? "0" : "-1",
              class: ["card", isTrump(c) && "trump", myTurnToPlay && !legal.has(c) && "dim", i > 0 && start && "group-start"],
            },
          }),
        ),
      );
    }),
  );
}

const NARROW = typeof matchMedia === "function" ? matchMedia("(max-width: 560px)") : null;
/** Whether the screen is phone-narrow (the hand then takes two rows). */
export const narrow = () => Boolean(NARROW && NARROW.matches);
/** Call `fn` when the screen crosses the phone width (to redraw the hand). */
export function onNarrowChange(fn) {
  NARROW?.addEventListener("change", fn);
}

// Arrow keys move between the cards of the hand (one tab stop for the hand).
function rove(e) {
  const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
  if (!keys.includes(e.key)) return;
  const buttons = [...e.currentTarget.querySelectorAll("button.card")];
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  // The hand is always laid out left to right (like cards held in the hand),
  // in Arabic too, so the arrows follow the screen.
  let j = i;
  if (e.key === "Home") j = 0;
  else if (e.key === "End") j = buttons.length - 1;
  else if (e.key === "ArrowRight") j = Math.min(buttons.length - 1, i + 1);
  else j = Math.max(0, i - 1);
  e.preventDefault();
  buttons.forEach((b, k) => b.setAttribute("tabindex", k === j ? "0" : "-1"));
  buttons[j].focus();
}

// ------------------------------------------------------------ bid panel

export function bidPanel(model, handlers) {
  const v = model.view;
  if (v.phase !== "bid" || v.legal === null || model.you === null) return null;
  // Whether a bid throws the hand in is the server's to judge: the panel
  // shows the numbers the view gives, and no rule of its own.
  const total = sumBids(v.bids);
  return h(
    "section",
    { class: "bid-panel", "aria-labelledby": "bid-title" },
    h("h2", { id: "bid-title" }, t("your_bid")),
    h(
      "p",
      { class: "bid-hint" },
      t("bid_hint", { total, need: v.required_total }),
    ),
    h(
      "div",
      { class: "bids", role: "group", "aria-label": t("legal_bids") },
      v.legal.map((b, i) => {
        const value = v.values[i];
        const worth = value === null ? t("thirteen_worth") : t("worth", { n: value });
        return h(
          "button",
          {
            type: "button",
            class: ["bid-btn", b === 13 && "thirteen"],
            dataset: { bid: b, key: `bid-${b}` },
            disabled: model.pending,
            "aria-label": t("bid_aria", { n: b, worth }),
            onclick: () => handlers.bid?.(b),
          },
          h("span", { class: "bid-n" }, b),
          h("span", { class: "bid-v", dir: "auto" }, value === null ? t("all_or_nothing") : `±${value}`),
        );
      }),
    ),
    v.can_redeal
      ? h(
          "button",
          { type: "button", class: "ghost redeal", dataset: { key: "redeal" }, onclick: () => handlers.redeal?.() },
          t("ask_redeal"),
        )
      : null,
  );
}

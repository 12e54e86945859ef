// Cards: the text form of docs/view.md ("AH", "TD"), sorting, and the card faces,
// drawn here as SVG (no copied art). Hearts are always trumps.

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const TRUMP = "H";
/** Suits in the order a hand is shown: trumps first, then colours alternate. */
export const DISPLAY_SUITS = ["H", "S", "D", "C"];

const RED = "#c3202f";
const BLACK = "#1d2230";

/** {rank, suit, rankIndex} of a card's text form; throws on anything else. */
export function parse(card) {
  if (typeof card !== "string" || card.length !== 2) throw new Error(`not a card: ${card}`);
  const rankIndex = RANKS.indexOf(card[0]);
  if (rankIndex < 0 || !SUITS.includes(card[1])) throw new Error(`not a card: ${card}`);
  return { rank: card[0], suit: card[1], rankIndex };
}

export const suitOf = (card) => card[1];
export const rankIndexOf = (card) => RANKS.indexOf(card[0]);
export const isTrump = (card) => card[1] === TRUMP;
/** What is printed in the corner: "10" for the ten. */
export const rankLabel = (rank) => (rank === "T" ? "10" : rank);

/** The hand in display order: grouped by suit (hearts first), high to low. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const sa = DISPLAY_SUITS.indexOf(a[1]);
    const sb = DISPLAY_SUITS.indexOf(b[1]);
    return sa !== sb ? sa - sb : rankIndexOf(b) - rankIndexOf(a);
  });
}

/** Cards grouped by suit in display order: [{suit, cards}] (empty suits left out). */
export function groupBySuit(cards) {
  const sorted = sortHand(cards);
  return DISPLAY_SUITS.map((suit) => ({ suit, cards: sorted.filter((c) => c[1] === suit) })).filter(
    (g) => g.cards.length,
  );
}

// ---------------------------------------------------------------- drawing

// Suit shapes in a 100 x 100 box, drawn for this project.
const SUIT_PATHS = {
  H: "M50 92C44 86 6 62 6 33 6 17 18 7 32 7c9 0 15 5 18 12 3-7 9-12 18-12 14 0 26 10 26 26 0 29-38 53-44 59z",
  D: "M50 3C62 22 76 38 90 50 76 62 62 78 50 97 38 78 24 62 10 50 24 38 38 22 50 3z",
  S: "M50 5c8 13 42 31 42 55 0 13-10 22-21 22-8 0-14-4-18-10 1 11 6 17 14 22H33c8-5 13-11 14-22-4 6-10 10-18 10C18 82 8 73 8 60 8 36 42 18 50 5z",
  C: "M50 6a19 19 0 0 1 14 32 19 19 0 1 1-10 33c1 9 5 15 13 20H33c8-5 12-11 13-20a19 19 0 1 1-10-33A19 19 0 0 1 50 6z",
};

export const suitColor = (suit) => (suit === "H" || suit === "D" ? RED : BLACK);

/** A suit symbol as an inline SVG string (decorative: aria-hidden). */
export function suitIcon(suit, size = 16) {
  return (
    `<svg class="suit-icon" viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true" focusable="false">` +
    `<path d="${SUIT_PATHS[suit]}" fill="${suitColor(suit)}"/></svg>`
  );
}

function pip(suit, x, y, size, flip = false) {
  const k = size / 100;
  const t = flip
    ? `translate(${x + size / 2} ${y + size / 2}) rotate(180) translate(${-size / 2} ${-size / 2}) scale(${k})`
    : `translate(${x} ${y}) scale(${k})`;
  return `<path transform="${t}" d="${SUIT_PATHS[suit]}" fill="${suitColor(suit)}"/>`;
}

// Pip layouts for 2..10 (x, y in card units, flipped when below the middle).
const PIP_LAYOUT = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 28], [68, 28], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 112], [68, 112]],
  10: [[32, 28], [68, 28], [50, 42], [32, 56], [68, 56], [32, 84], [68, 84], [50, 98], [32, 112], [68, 112]],
};

const FACE_TINT = { H: "#fdebed", D: "#fdf0e6", S: "#e9edf6", C: "#e8f3ee" };

function corner(rank, suit, color) {
  const label = rankLabel(rank);
  const fs = label.length > 1 ? 19 : 22;
  return (
    `<text x="11" y="24" text-anchor="middle" font-size="${fs}" font-weight="700" fill="${color}"` +
    ` font-family="system-ui, 'Segoe UI', Roboto, Arial, sans-serif" letter-spacing="-1">${label}</text>` +
    pip(suit, 3.5, 28, 15)
  );
}

const faceCache = new Map();

/** The face of a card as an SVG string (viewBox 100 x 140). */
export function cardFace(card) {
  if (faceCache.has(card)) return faceCache.get(card);
  const { rank, suit } = parse(card);
  const color = suitColor(suit);
  let middle = "";
  const n = Number(rank === "T" ? 10 : rank);
  if (n >= 2 && n <= 10) {
    for (const [x, y] of PIP_LAYOUT[n]) middle += pip(suit, x - 9, y - 9, 18, y > 72);
  } else if (rank === "A") {
    middle = pip(suit, 24, 44, 52);
  } else {
    // Court cards: a framed panel with the letter and a small crown or plume.
    const crown =
      rank === "K"
        ? "M36 52l6-12 8 9 8-9 6 12z"
        : rank === "Q"
          ? "M38 52l4-10 8 6 8-6 4 10z M50 38a3 3 0 1 1 0.01 0z"
          : "M44 52c0-8 4-13 10-15-2 4-2 9 2 15z";
    middle =
      `<rect x="22" y="30" width="56" height="80" rx="6" fill="${FACE_TINT[suit]}" stroke="${color}" stroke-width="1.5"/>` +
      `<rect x="26" y="34" width="48" height="72" rx="4" fill="none" stroke="${color}" stroke-opacity=".35"/>` +
      `<path d="${crown}" fill="${color}" fill-opacity=".85"/>` +
      `<text x="50" y="86" text-anchor="middle" font-size="34" font-weight="700" fill="${color}"` +
      ` font-family="Georgia, 'Times New Roman', serif">${rank}</text>` +
      pip(suit, 42, 90, 16);
  }
  const trumpMark =
    suit === "H"
      ? `<g class="trump-mark"><circle cx="88" cy="12" r="8" fill="#e0a526"/>` +
        `<path d="M88 6.5l1.7 3.6 3.9.5-2.9 2.7.8 3.9-3.5-2-3.5 2 .8-3.9-2.9-2.7 3.9-.5z" fill="#fff"/></g>`
      : "";
  const svg =
    `<svg class="card-face" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#c5cad3" stroke-width="1.5"/>` +
    corner(rank, suit, color) +
    `<g transform="rotate(180 50 70)">${corner(rank, suit, color)}</g>` +
    middle +
    trumpMark +
    `</svg>`;
  faceCache.set(card, svg);
  return svg;
}

/** The back of a card (for hidden cards and the deck), as an SVG string. */
export function cardBack() {
  return (
    `<svg class="card-face" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<defs><pattern id="bk" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="12" height="12" fill="#13505b"/><rect width="6" height="6" fill="#176470"/></pattern></defs>` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#c5cad3" stroke-width="1.5"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="url(#bk)"/>` +
    `<circle cx="50" cy="70" r="20" fill="#0e3d45" stroke="#e0a526" stroke-width="2"/>` +
    `<text x="50" y="76" text-anchor="middle" font-size="16" font-weight="700" fill="#f6e7c1"` +
    ` font-family="system-ui, sans-serif">400</text></svg>`
  );
}

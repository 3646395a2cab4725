// Cards as a person recognises them: rank and suit symbol, red or black, and a spoken name
// ("seven of hearts", « sept de cœur ») for screen readers. Codes are the API's: rank then suit
// (`7H`, `TS`), jokers `X1` and `X2` (docs/api.md, "Card codes").

import { counted, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { h } from "./vendor/preact.mjs";

/** @type {Record<string, () => string>} */
const RANK_NAMES = {
  A: () => pgettext("card rank", "ace"),
  2: () => pgettext("card rank", "two"),
  3: () => pgettext("card rank", "three"),
  4: () => pgettext("card rank", "four"),
  5: () => pgettext("card rank", "five"),
  6: () => pgettext("card rank", "six"),
  7: () => pgettext("card rank", "seven"),
  8: () => pgettext("card rank", "eight"),
  9: () => pgettext("card rank", "nine"),
  T: () => pgettext("card rank", "ten"),
  J: () => pgettext("card rank", "jack"),
  Q: () => pgettext("card rank", "queen"),
  K: () => pgettext("card rank", "king"),
};

/** @type {Record<string, {name: () => string, symbol: string, red: boolean}>} */
export const SUITS = {
  C: { name: () => pgettext("suit", "clubs"), symbol: "♣", red: false },
  D: { name: () => pgettext("suit", "diamonds"), symbol: "♦", red: true },
  H: { name: () => pgettext("suit", "hearts"), symbol: "♥", red: true },
  S: { name: () => pgettext("suit", "spades"), symbol: "♠", red: false },
};

/** @type {Record<string, () => string>} ranks with their article, for "play the seven" (French: l'as, la dame) */
const THE_RANKS = {
  A: () => pgettext("card rank, with its article", "the ace"),
  2: () => pgettext("card rank, with its article", "the two"),
  3: () => pgettext("card rank, with its article", "the three"),
  4: () => pgettext("card rank, with its article", "the four"),
  5: () => pgettext("card rank, with its article", "the five"),
  6: () => pgettext("card rank, with its article", "the six"),
  7: () => pgettext("card rank, with its article", "the seven"),
  8: () => pgettext("card rank, with its article", "the eight"),
  9: () => pgettext("card rank, with its article", "the nine"),
  T: () => pgettext("card rank, with its article", "the ten"),
  J: () => pgettext("card rank, with its article", "the jack"),
  Q: () => pgettext("card rank, with its article", "the queen"),
  K: () => pgettext("card rank, with its article", "the king"),
};

/** @param {string} code */
function isJoker(code) {
  return code.startsWith("X");
}

/**
 * "seven of hearts", "ten of spades", "joker".
 *
 * @param {string} code
 */
export function cardName(code) {
  if (isJoker(code)) {
    return pgettext("card", "joker");
  }
  const rank = RANK_NAMES[code.slice(0, -1)]?.() ?? code.slice(0, -1);
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank, suit: suitName(code.slice(-1)) });
}

/**
 * "the seven of hearts" (« le sept de cœur », « l'as de pique »): a card in a sentence.
 *
 * @param {string} code
 */
export function theCard(code) {
  if (isJoker(code)) {
    return pgettext("card, with its article", "the joker");
  }
  const rank = THE_RANKS[code.slice(0, -1)]?.() ?? code.slice(0, -1);
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank, suit: suitName(code.slice(-1)) });
}

/**
 * "1 card", "7 cards".
 *
 * @param {number} count
 */
export function cardCount(count) {
  return counted(count, ngettext("%(count)s card", "%(count)s cards", count));
}

/**
 * "hearts" for `H`.
 *
 * @param {string} suit
 */
export function suitName(suit) {
  return SUITS[suit]?.name() ?? suit;
}

/**
 * "♥" for `H`.
 *
 * @param {string} suit
 */
export function suitSymbol(suit) {
  return SUITS[suit]?.symbol ?? suit;
}

/**
 * The visible rank: "10" for `T`, the letter otherwise (the French pack's letters: V, D, R for
 * valet, dame, roi).
 *
 * @param {string} code
 */
function rankLabel(code) {
  const rank = code.slice(0, -1);
  switch (rank) {
    case "T":
      return "10";
    case "J":
      return pgettext("the letter on a jack", "J");
    case "Q":
      return pgettext("the letter on a queen", "Q");
    case "K":
      return pgettext("the letter on a king", "K");
    case "A":
      return pgettext("the letter on an ace", "A");
    default:
      return rank;
  }
}

/**
 * A card face, hidden from screen readers: whoever shows it names it (a button's words, or
 * {@link card}).
 *
 * @param {string} code
 * @param {string} [extraClass]
 */
export function cardFace(code, extraClass = "") {
  if (isJoker(code)) {
    return h(
      "span",
      { class: `card joker ${extraClass}`, "aria-hidden": "true" },
      h("span", { class: "corner" }, "★"),
      h("span", { class: "pip" }, pgettext("card", "Joker")),
    );
  }
  const suit = code.slice(-1);
  const colour = SUITS[suit]?.red ? "red" : "black";
  const corner = `${rankLabel(code)}${suitSymbol(suit)}`;
  return h(
    "span",
    { class: `card ${colour} ${extraClass}`, "aria-hidden": "true" },
    h("span", { class: "corner" }, corner),
    h("span", { class: "pip" }, suitSymbol(suit)),
    h("span", { class: "corner end" }, corner),
  );
}

/**
 * A card shown (not a control), named for screen readers.
 *
 * @param {string} code
 * @param {string} [extraClass]
 */
export function card(code, extraClass = "") {
  return h(
    "span",
    { class: "card-shown", role: "img", "aria-label": cardName(code), title: cardName(code) },
    cardFace(code, extraClass),
  );
}

/**
 * A list of cards shown small, named as a whole ("seven of hearts, ten of spades").
 *
 * @param {string[]} codes
 * @param {string} [none] what to say when there are none
 */
export function cardRow(codes, none = gettext("none")) {
  if (codes.length === 0) {
    return h("span", { class: "none" }, none);
  }
  return h(
    "span",
    { class: "card-row", role: "img", "aria-label": codes.map(cardName).join(", ") },
    codes.map((code) => cardFace(code, "small")),
  );
}

/**
 * A suit named in words with its symbol: "♥ hearts", red or black.
 *
 * @param {string} suit
 */
export function suitBadge(suit) {
  const red = SUITS[suit]?.red ? "red" : "black";
  return h(
    "span",
    { class: `suit ${red}` },
    h("span", { "aria-hidden": "true" }, suitSymbol(suit)),
    ` ${suitName(suit)}`,
  );
}

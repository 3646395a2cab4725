// Cards as a person recognises them: rank and suit symbol, red or black, and a spoken name
// ("seven of hearts") for screen readers. Codes are the API's: rank then suit (`7H`, `TS`), jokers
// `X1` and `X2` (docs/api.md, "Card codes").

import { h } from "./dom.js";

/** @type {Record<string, string>} */
const RANK_NAMES = {
  A: "ace",
  2: "two",
  3: "three",
  4: "four",
  5: "five",
  6: "six",
  7: "seven",
  8: "eight",
  9: "nine",
  T: "ten",
  J: "jack",
  Q: "queen",
  K: "king",
};

/** @type {Record<string, {name: string, symbol: string, red: boolean}>} */
export const SUITS = {
  C: { name: "clubs", symbol: "♣", red: false },
  D: { name: "diamonds", symbol: "♦", red: true },
  H: { name: "hearts", symbol: "♥", red: true },
  S: { name: "spades", symbol: "♠", red: false },
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
    return "joker";
  }
  const rank = RANK_NAMES[code.slice(0, -1)] ?? code.slice(0, -1);
  return `${rank} of ${suitName(code.slice(-1))}`;
}

/**
 * "hearts" for `H`.
 *
 * @param {string} suit
 */
export function suitName(suit) {
  return SUITS[suit]?.name ?? suit;
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
 * The visible rank: "10" for `T`, the letter otherwise.
 *
 * @param {string} code
 */
function rankLabel(code) {
  const rank = code.slice(0, -1);
  return rank === "T" ? "10" : rank;
}

/**
 * A card face, hidden from screen readers: whoever shows it names it (a button's label, or
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
      h("span", { class: "pip" }, "Joker"),
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
export function cardRow(codes, none = "none") {
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

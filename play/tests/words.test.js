// Cards and events in words (static/play/cards.js, log.js): what a screen reader says and the log
// shows. Run with `node --test` (npm test).

import assert from "node:assert/strict";
import test from "node:test";

import { cardName, suitName } from "../static/play/cards.js";
import { describe } from "../static/play/log.js";

const names = ["alice", "Random bot 2", "bob"];
/** @param {number | null | undefined} seat */
const name = (seat) => (seat === null || seat === undefined ? "The table" : names[seat]);

test("cards are named as a person says them", () => {
  assert.equal(cardName("7H"), "seven of hearts");
  assert.equal(cardName("TS"), "ten of spades");
  assert.equal(cardName("AC"), "ace of clubs");
  assert.equal(cardName("QD"), "queen of diamonds");
  assert.equal(cardName("X2"), "joker");
  assert.equal(suitName("S"), "spades");
});

test("events read as sentences, with the drawer's own cards only where the event has them", () => {
  const at = "2026-11-25T00:00:00+00:00";
  assert.equal(
    describe({ seq: 4, at, seat: 0, type: "play", data: { card: "JS", suit: "H" } }, name, 0),
    "alice plays the jack of spades.",
  );
  assert.equal(
    describe({ seq: 5, at, seat: 2, type: "draw", data: { count: 2, reason: "pick_up" } }, name, 0),
    "bob draws 2 cards (the pick-up).",
  );
  assert.equal(
    describe({ seq: 6, at, seat: 0, type: "draw", data: { count: 1, reason: "draw", cards: ["7H"] } }, name, 0),
    "alice draws 1 card: seven of hearts.",
  );
  assert.equal(describe({ seq: 7, at, seat: 2, type: "hand", data: { count: 7 } }, name, 0), null);
  assert.equal(
    describe(
      { seq: 8, at, seat: 1, type: "move", data: { seat: 1, piece: 1, from: [0, 0], to: [2, 0], card: "KC" } },
      name,
      0,
    ),
    "Random bot 2 moves to row 3, column 1, taking the king of clubs.",
  );
  assert.equal(
    describe(
      {
        seq: 9,
        at,
        seat: null,
        type: "match_end",
        data: { winner: 2, ranking: [2, 0, 1], totals: [0, 0, 35], hands: [] },
      },
      name,
      0,
    ),
    "The match is over: bob wins.",
  );
});

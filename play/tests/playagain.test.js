// "Play again" (static/play/playagain.js): the same game, the same people invited, the bots kept.

import assert from "node:assert/strict";
import test from "node:test";

import { rematch } from "../static/play/playagain.js";
import { sheddingView } from "./fixtures.js";

const finished = { status: "finished", to_move: null, legal_moves: [] };

test("against bots only: a new match with the same settings and bots", () => {
  const view = sheddingView({ ...finished, deals: 3, turn_seconds: 60, options: { draw_rule: "one" } });
  assert.deepEqual(rematch(view), {
    kind: "match",
    body: {
      ruleset: "switch",
      seats: 2,
      options: { draw_rule: "one" },
      deals: 3,
      target: null,
      turn_seconds: 60,
      rated: false,
      bots: [{ seat: 1, strategy: "random" }],
    },
  });
});

test("with people: a challenge inviting them in seat order, the bots in the seats after them", () => {
  const view = sheddingView({
    ...finished,
    seat_count: 4,
    rated: true,
    you: { seat: 2, hand: [] },
    seats: [
      { seat: 0, player: null, bot: "heuristic" },
      { seat: 1, player: "bob", bot: null },
      { seat: 2, player: "alice", bot: null },
      { seat: 3, player: "carol", bot: null },
    ],
  });
  const again = rematch(view);
  assert.equal(again?.kind, "challenge");
  assert.deepEqual(again?.body, {
    ruleset: "switch",
    seats: 4,
    options: {},
    deals: 1,
    target: null,
    turn_seconds: null,
    rated: true,
    bots: [{ seat: 3, strategy: "heuristic" }],
    to: ["bob", "carol"],
  });
});

test("a spectator has nothing to play again", () => {
  assert.equal(rematch(sheddingView({ ...finished, you: null })), null);
});

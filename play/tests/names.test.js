// People's names at the table (static/play/moves.js, abbott.js): a tournament guest by the name
// the desk typed, bots in words, and Abbott's pieces told apart by more than their colour. Run
// with `node --test` (npm test).

import assert from "node:assert/strict";
import test from "node:test";

import { pieceMark } from "../static/play/abbott.js";
import { seatNames } from "../static/play/moves.js";

test("a guest is named as the desk typed it, never by its account's username", () => {
  const name = seatNames({
    seats: [
      { seat: 0, player: "Chloé (guest 12)", name: "Chloé", bot: null },
      { seat: 1, player: "alice", name: "alice", bot: null },
      { seat: 2, player: null, name: null, bot: "heuristic" },
    ],
  });
  assert.deepEqual([0, 1, 2].map(name), ["Chloé", "alice", "Heuristic bot"]);
});

test("three bots of one strategy at Abbott's table wear pieces marked apart", () => {
  const name = seatNames({
    seats: [
      { seat: 0, player: "ann", name: "ann", bot: null },
      { seat: 1, player: null, name: null, bot: "heuristic" },
      { seat: 2, player: null, name: null, bot: "heuristic" },
      { seat: 3, player: null, name: null, bot: "heuristic" },
    ],
  });
  assert.deepEqual(
    [0, 1, 2, 3].map((seat) => pieceMark(seat, name)),
    ["A", "H2", "H3", "H4"],
  );
});

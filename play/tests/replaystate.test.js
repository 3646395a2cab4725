// A finished match step by step from its revealed event log (static/play/replaystate.js).

import assert from "node:assert/strict";
import test from "node:test";

import { dealStarts, steps } from "../static/play/replaystate.js";
import { event } from "./fixtures.js";

const shedding = [
  event(1, "deal", null, { deal: 1, first: 0, starter: "9H", active_suit: "H", direction: 1, stock_count: 40 }),
  event(2, "hand", 0, { count: 2, cards: ["7H", "JC"] }),
  event(3, "hand", 1, { count: 2, cards: ["2H", "KS"] }),
  event(4, "play", 0, { card: "7H" }),
  event(5, "play", 1, { card: "2H" }),
  event(6, "penalty", 1, { kind: "stack", draw: 2 }),
  event(7, "draw", 0, { count: 2, reason: "pick_up", cards: ["3C", "4D"] }),
  event(8, "play", 0, { card: "JC", suit: "S" }),
  event(9, "suit", 0, { suit: "S" }),
  event(10, "play", 1, { card: "KS" }),
  event(11, "finish", 1, { place: 1 }),
  event(12, "deal_end", null, { deal: 1, winner: 1, points: [0, 25], tallies: [25, 0] }),
  event(13, "deal", null, { deal: 2, first: 1, starter: "5C", active_suit: "C", direction: 1, stock_count: 40 }),
  event(14, "match_end", null, { winner: 1, ranking: [1, 0], totals: [0, 25], hands: [] }),
];

test("a step is an action with what it caused; positions show every hand", () => {
  const all = steps({ game: "shedding", seats: 2 }, [...shedding].reverse());
  assert.deepEqual(
    all.map((step) => step.events.map((e) => e.seq)),
    [[1, 2, 3], [4], [5, 6], [7], [8, 9], [10, 11, 12], [13], [14]],
  );
  assert.deepEqual(all[0].position.game === "shedding" && all[0].position.hands, [
    ["7H", "JC"],
    ["2H", "KS"],
  ]);
  const stacked = all[2].position;
  assert.ok(stacked.game === "shedding");
  assert.equal(stacked.top, "2H");
  assert.equal(stacked.pickUp, 2);
  const picked = all[3].position;
  assert.ok(picked.game === "shedding");
  assert.deepEqual(picked.hands[0], ["JC", "3C", "4D"]);
  assert.equal(picked.pickUp, 0);
  assert.equal(picked.stock, 38);
  const named = all[4].position;
  assert.ok(named.game === "shedding");
  assert.equal(named.suit, "S");
  const ended = all[5].position;
  assert.ok(ended.game === "shedding");
  assert.deepEqual(ended.scores, [0, 25]);
  assert.deepEqual(ended.hands[1], []);
  // Stepping back is reading an earlier position: it was not changed by what came after.
  assert.deepEqual(all[1].position.game === "shedding" && all[1].position.hands[0], ["JC"]);
});

test("jumping to a deal goes to its first step", () => {
  const all = steps({ game: "shedding", seats: 2 }, shedding);
  assert.deepEqual(
    [...dealStarts(all)],
    [
      [1, 0],
      [2, 6],
    ],
  );
});

test("Abbott's pieces move and take the cards of their squares", () => {
  const grid = [
    ["AS", "KD"],
    [null, "2C"],
  ];
  const all = steps({ game: "abbott", seats: 2 }, [
    event(1, "deal", null, {
      hand: 1,
      first_mover: 0,
      grid,
      pieces: [
        [1, 0],
        [0, 0],
      ],
    }),
    event(2, "move", 0, { seat: 0, piece: 0, from: [1, 0], to: [1, 1], card: "2C" }),
    event(3, "move", 1, { seat: 1, piece: 1, from: [0, 0], to: [0, 1], card: "KD" }),
    event(4, "hand_end", null, { hand: 1, winner: 1, totals: [0, 3], best_hands: [], scores: [0, 3] }),
  ]);
  const last = all.at(-1)?.position;
  assert.ok(last?.game === "abbott");
  assert.deepEqual(last.pieces, [
    [1, 1],
    [0, 1],
  ]);
  assert.deepEqual(last.grid, [
    ["AS", null],
    [null, null],
  ]);
  assert.deepEqual(last.cards, [["2C"], ["KD"]]);
  assert.deepEqual(last.scores, [0, 3]);
  assert.deepEqual(grid[1], [null, "2C"], "the deal's own grid is left as it was");
});

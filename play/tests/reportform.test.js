// A table's result as typed on a phone becomes the desk's body (static/play/reportform.js).

import assert from "node:assert/strict";
import test from "node:test";

import { emptyRow, firstRows, resultBody, resultLines, rowsGrow } from "../static/play/reportform.js";

const NAMES = ["Ann", "Bea", "Cal", "Dee"];

test("French rows give each other player's tally, and confirm when asked", () => {
  const row = { ...emptyRow(), winner: "Bea", tallies: { Ann: "12", Cal: "30", Dee: "0", Bea: "99" } };

  assert.deepEqual(resultBody("french", NAMES, [row]), {
    deals: [{ winner: "Bea", points_left: { Ann: 12, Cal: 30, Dee: 0 } }],
  });
  assert.equal(resultBody("french", NAMES, [row], true).confirm, true);
});

test("placement rows give the order out, Abbott rows the winner or a tie and the alliance", () => {
  const placed = { ...emptyRow(), order: ["Cal", "Ann", "Dee", "Bea"] };
  const tie = emptyRow();
  const allied = { ...emptyRow(), winner: "Ann", chooser: "Ann", chosen: "Dee" };

  assert.deepEqual(resultBody("placement", NAMES, [placed]), { deals: [{ order: ["Cal", "Ann", "Dee", "Bea"] }] });
  assert.deepEqual(resultBody("abbott", NAMES, [tie, allied]), {
    hands: [
      { winner: null, alliance: null },
      { winner: "Ann", alliance: { chooser: "Ann", chosen: "Dee" } },
    ],
  });
});

test("the form starts with the round's deals, and grows only to a target or in Abbott", () => {
  assert.equal(firstRows({ scoring: "french", deals_per_round: 3 }), 3);
  assert.equal(firstRows({ scoring: "abbott", deals_per_round: null }), 1);
  assert.equal(rowsGrow({ scoring: "french", deals_per_round: 3 }), false);
  assert.equal(rowsGrow({ scoring: "placement", deals_per_round: null }), true);
});

test("a report reads as a line a deal or hand", () => {
  assert.deepEqual(resultLines({ deals: [{ winner: "Bea", points_left: { Ann: 12, Cal: 30 } }] }), [
    "Deal 1: Bea went out; Ann 12, Cal 30",
  ]);
  assert.deepEqual(resultLines({ hands: [{ winner: null, alliance: null }] }), ["Hand 1: a tie"]);
});

// What the lobby lists (static/play/lobbystate.js): every match being played once, a tournament's
// table under its tournament and not again among the others.

import assert from "node:assert/strict";
import test from "node:test";

import { beingPlayed, noticeText, tournamentTables } from "../static/play/lobbystate.js";

/**
 * @param {number} id
 * @returns {any}
 */
function summary(id) {
  return { id, ruleset: "switch", game: "shedding", status: "active", seat_count: 2, created_by: "desk" };
}

/** @returns {any} a tournament in its second round: table 1 played, table 2 in play, 3 offline */
function tournament() {
  const seats = [{ name: "erin" }, { name: "Random bot" }];
  return {
    name: "Thursday online",
    rounds: [
      { number: 1, tables: [{ number: 1, match: 4, recorded: true, seats }] },
      {
        number: 2,
        tables: [
          { number: 1, match: 8, recorded: true, seats },
          { number: 2, match: 9, recorded: false, seats },
          { number: 3, match: null, recorded: false, seats },
        ],
      },
    ],
  };
}

test("the tables listed are those of the latest round still being played online", () => {
  assert.deepEqual(tournamentTables([tournament(), { name: "Not started", rounds: [] }]), [
    { match: 9, tournament: "Thursday online", round: 2, table: 2, players: ["erin", "Random bot"] },
  ]);
});

test("a tournament's table is not listed again among the matches being played", () => {
  const active = [summary(11), summary(9), summary(10), summary(7)];

  const shown = beingPlayed(active, tournamentTables([tournament()]), 2);

  assert.deepEqual(
    shown.map((match) => match.id),
    [11, 10],
  );
});

test("the notices say what concerns the player and nothing else", () => {
  /** @type {any} */
  const seated = { seq: 3, type: "round_seated", match: 9, data: { match: 9, tournament: 2, round: 2, table: 2 } };
  /** @type {any} */
  const offline = {
    seq: 4,
    type: "round_seated",
    match: null,
    data: { match: null, tournament: 2, round: 2, table: 3 },
  };
  /** @type {any} */
  const joined = { seq: 5, type: "player_joined", match: 9, data: { match: 9 } };

  assert.equal(noticeText(seated), "Tournament 2, round 2: you play at table 2.");
  assert.equal(noticeText(offline), null);
  assert.equal(noticeText(joined), null);
});

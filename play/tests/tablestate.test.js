// The table's reducer and what the page says of a state (static/play/tablestate.js).

import assert from "node:assert/strict";
import test from "node:test";

import {
  connectionState,
  connectionWords,
  documentTitle,
  initialState,
  LOG_LIMIT,
  reduce,
  statusLine,
  turnBegan,
} from "../static/play/tablestate.js";
import { event, sheddingView } from "./fixtures.js";

/**
 * @param {import("../static/play/tablestate.js").TableState} state
 * @param {import("../static/play/tablestate.js").TableAction[]} actions
 */
function run(state, actions) {
  return actions.reduce(reduce, state);
}

test("an older view than the one shown is dropped: answers overtake each other", () => {
  const state = run(initialState(7), [
    { type: "view", view: sheddingView({ version: 5 }) },
    { type: "view", view: sheddingView({ version: 4, to_move: 1 }) },
  ]);
  assert.equal(state.view?.version, 5);
  assert.equal(state.view?.to_move, 0);
});

test("events are handled once and in order, whatever order and however often they come", () => {
  const state = run(initialState(7), [
    { type: "events", events: [event(2, "play", 0, { card: "7H" }), event(1, "deal", null)] },
    { type: "events", events: [event(1, "deal", null), event(2, "play", 0, { card: "7H" }), event(3, "draw", 1)] },
  ]);
  assert.deepEqual(
    state.log.map((e) => e.seq),
    [1, 2, 3],
  );
  assert.equal(state.lastSeq, 3);
});

test("the log keeps the newest events only", () => {
  const many = Array.from({ length: LOG_LIMIT + 5 }, (_, i) => event(i + 1, "draw", 1));
  const state = reduce(initialState(7), { type: "events", events: many });
  assert.equal(state.log.length, LOG_LIMIT);
  assert.equal(state.log[0].seq, 6);
});

test("a move on its way keeps its key, says so, and the buttons wait until it is answered", () => {
  const key = "5f0c7a52-8d1e-4d1b-9a55-0c1b7f3c2e11";
  let state = run(initialState(7), [
    { type: "view", view: sheddingView() },
    { type: "sending", path: "moves/", body: { action: "draw", expected_version: 3 }, key },
  ]);
  assert.equal(statusLine(state), "Sending your move…");
  state = run(state, [{ type: "online", online: false }, { type: "retrying" }]);
  assert.equal(state.pending?.key, key);
  assert.equal(statusLine(state), "Your move is kept and will be sent again when the connection is back.");
  assert.equal(connectionWords(state), "Connection lost: reconnecting…");
  assert.equal(connectionState(state), "reconnecting");
  state = run(state, [
    { type: "online", online: true },
    { type: "answered", view: sheddingView({ version: 5, to_move: 1, legal_moves: [] }) },
  ]);
  assert.equal(state.pending, null);
  assert.equal(statusLine(state), "Random bot to play.");
});

test("cut off from the server, the page never says Live nor a plain Your turn", () => {
  const live = run(initialState(7), [
    { type: "view", view: sheddingView() },
    { type: "connection", connection: "live" },
  ]);
  assert.equal(connectionWords(live), "Live");
  assert.equal(statusLine(live), "Your turn.");
  const offline = reduce(live, { type: "online", online: false });
  assert.equal(connectionWords(offline), "Connection lost: reconnecting…");
  assert.equal(statusLine(offline), "Your turn, once the connection is back.");
  const dropped = reduce(live, { type: "connection", connection: "reconnecting" });
  assert.equal(connectionWords(dropped), "Connection lost: reconnecting…");
});

test("a move the table overtook is explained; another refusal is shown in the server's words", () => {
  const sending = run(initialState(7), [
    { type: "view", view: sheddingView() },
    { type: "sending", path: "moves/", body: {}, key: "k" },
  ]);
  const overtaken = reduce(sending, { type: "refused", code: "stale_version", message: "Stale." });
  assert.match(overtaken.error, /moved on before your move arrived/);
  assert.equal(overtaken.pending, null);
  const illegal = reduce(sending, { type: "refused", code: "illegal_move", message: "You must follow hearts." });
  assert.equal(illegal.error, "You must follow hearts.");
});

test("the turn begins once: the moment for the sound and the tab's title", () => {
  const theirs = run(initialState(7), [{ type: "view", view: sheddingView({ to_move: 1, legal_moves: [] }) }]);
  const mine = reduce(theirs, { type: "view", view: sheddingView({ version: 4 }) });
  assert.equal(turnBegan(theirs, mine), true);
  assert.equal(turnBegan(mine, reduce(mine, { type: "events", events: [event(9, "play", 1)] })), false);
  assert.equal(documentTitle(mine, "Match 7 · Switch"), "(Your turn) Match 7 · Switch");
  assert.equal(documentTitle(theirs, "Match 7 · Switch"), "Match 7 · Switch");
});

test("a spectator is told they are watching; the end is said", () => {
  const watching = reduce(initialState(7), {
    type: "view",
    view: sheddingView({ you: null, legal_moves: [], to_move: 1 }),
  });
  assert.equal(statusLine(watching), "You are watching. Random bot to play.");
  const over = reduce(watching, {
    type: "view",
    view: sheddingView({ version: 9, you: null, status: "finished", to_move: null, legal_moves: [] }),
  });
  assert.equal(statusLine(over), "You are watching. The match is over.");
});

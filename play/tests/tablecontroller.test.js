// The table's controller against a fake server (static/play/tablecontroller.js): what it reads,
// what it posts and with which key, and what it does when the network fails mid-move.

import assert from "node:assert/strict";
import test from "node:test";

import { ApiError } from "../static/play/api.js";
import { createTableController, MUTED_KEY } from "../static/play/tablecontroller.js";
import { statusLine } from "../static/play/tablestate.js";
import { event, sheddingView } from "./fixtures.js";

/** A server played by the test: views to read, answers to writes, and the stream's handlers. */
function fakeServer() {
  const server = {
    view: sheddingView(),
    reads: 0,
    /** @type {{path: string, body: any, key: string}[]} */
    writes: [],
    /** @type {((attempt: number, onRetry: () => void) => Promise<any>) | null} */
    answer: null,
    /** @type {any} */
    stream: null,
    feedStopped: false,
    /** @type {import("../static/play/tablecontroller.js").Transport} */
    transport: {
      readView: async () => {
        server.reads += 1;
        return server.view;
      },
      write: async (path, body, { key, onRetry }) => {
        server.writes.push({ path, body, key });
        return server.answer ? server.answer(server.writes.length, onRetry) : { view: server.view };
      },
      newKey: () => `key-${server.writes.length + 1}`,
      followMatch(handlers) {
        server.stream = handlers;
        return { stop() {} };
      },
      followFeed: () => ({
        stop: () => {
          server.feedStopped = true;
        },
      }),
    },
  };
  return server;
}

/** Let the controller's promises settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("a move is posted with the view's version and a key; its answer is the new view", async () => {
  const server = fakeServer();
  const table = createTableController({ matchId: 7, transport: server.transport, onChange() {} });
  await settle();
  server.view = sheddingView({ version: 4, to_move: 1, legal_moves: [] });

  await table.play({ action: "draw" });

  assert.deepEqual(server.writes, [{ path: "moves/", body: { action: "draw", expected_version: 3 }, key: "key-1" }]);
  assert.equal(table.state().view?.version, 4);
  assert.equal(table.state().pending, null);
});

test("a move cut off by the network is kept, said to be reconnecting, and applied once", async () => {
  const server = fakeServer();
  /** @type {string[]} */
  const said = [];
  const table = createTableController({
    matchId: 7,
    transport: server.transport,
    onChange: (state) => said.push(statusLine(state)),
  });
  await settle();
  const readsBefore = server.reads;
  // The transport retries by itself with the key it was given: two failed tries, then the answer.
  server.answer = async (_, onRetry) => {
    onRetry();
    table.setOnline(false);
    onRetry();
    table.setOnline(true);
    return { view: sheddingView({ version: 4, to_move: 1, legal_moves: [] }) };
  };

  await table.play({ action: "play", card: "7H" });

  assert.equal(server.writes.length, 1, "one write, retried inside the transport with its one key");
  assert.ok(said.includes("Your move is kept and will be sent again when the connection is back."));
  assert.ok(server.reads > readsBefore, "back online, the table is read again");
  assert.equal(table.state().view?.version, 4);
  assert.equal(table.state().pending, null);
});

test("a second click while a move is on its way sends nothing", async () => {
  const server = fakeServer();
  const table = createTableController({ matchId: 7, transport: server.transport, onChange() {} });
  await settle();
  /** @type {(value: any) => void} */
  let release = () => {};
  server.answer = () => new Promise((resolve) => (release = resolve));

  const first = table.play({ action: "draw" });
  await table.play({ action: "play", card: "7H" });
  release({ view: sheddingView({ version: 4 }) });
  await first;

  assert.equal(server.writes.length, 1);
});

test("a refused move says why and reads the table as it is now", async () => {
  const server = fakeServer();
  const table = createTableController({ matchId: 7, transport: server.transport, onChange() {} });
  await settle();
  const readsBefore = server.reads;
  server.answer = async () => {
    throw new ApiError(409, "stale_version", "The match has moved on.");
  };

  await table.play({ action: "draw" });

  assert.match(table.state().error, /moved on before your move arrived/);
  assert.equal(server.reads, readsBefore + 1);
});

test("events from the stream are logged once and the view read again; the end stops the feed", async () => {
  const server = fakeServer();
  const table = createTableController({ matchId: 7, transport: server.transport, onChange() {} });
  await settle();
  server.view = sheddingView({ version: 9, status: "finished", to_move: null, legal_moves: [] });

  server.stream.onEvent(event(1, "play", 1, { card: "9H" }));
  server.stream.onEvent(event(1, "play", 1, { card: "9H" }));
  server.stream.onEvent(event(2, "match_end", null, { winner: 1, ranking: [1, 0], totals: [0, 5], hands: [] }));
  await settle();

  assert.deepEqual(
    table.state().log.map((e) => e.seq),
    [1, 2],
  );
  assert.equal(server.stream.cursor(), 2);
  assert.equal(table.state().view?.status, "finished");
  assert.equal(server.stream.finished(), true);
  assert.equal(server.feedStopped, true);
});

test("reads asked while one is on its way make one more read, not one each", async () => {
  const server = fakeServer();
  const table = createTableController({ matchId: 7, transport: server.transport, onChange() {} });
  await settle();
  const before = server.reads;

  await Promise.all([table.refresh(), table.refresh(), table.refresh()]);

  assert.equal(server.reads - before, 2);
});

/** This browser's storage, as a test keeps it. */
function storage() {
  /** @type {Map<string, string>} */
  const kept = new Map();
  return {
    kept,
    /** @param {string} key */
    getItem: (key) => kept.get(key) ?? null,
    /** @param {string} key @param {string} value */
    setItem: (key, value) => void kept.set(key, value),
  };
}

test("the Sound switch is remembered: the next table in this browser starts as it was left", async () => {
  const preferences = storage();
  const first = createTableController({ matchId: 7, transport: fakeServer().transport, onChange() {}, preferences });
  assert.equal(first.state().muted, false, "never chosen, the system asking for no less motion: sound on");

  first.setMuted(true);
  const next = createTableController({ matchId: 8, transport: fakeServer().transport, onChange() {}, preferences });
  const startedMuted = next.state().muted;
  next.setMuted(false);
  const after = createTableController({ matchId: 9, transport: fakeServer().transport, onChange() {}, preferences });

  assert.equal(first.state().muted, true);
  assert.equal(startedMuted, true, "as the first table left it");
  assert.equal(after.state().muted, false, "as the second left it");
});

test("under reduced motion nothing glides and the sound starts off unless this browser chose it", async () => {
  const reducedMotion = true;
  const fresh = createTableController({
    matchId: 7,
    transport: fakeServer().transport,
    onChange() {},
    settings: { reducedMotion },
    preferences: storage(),
  });
  const chosen = storage();
  chosen.setItem(MUTED_KEY, "false");
  const soundWanted = createTableController({
    matchId: 7,
    transport: fakeServer().transport,
    onChange() {},
    settings: { reducedMotion },
    preferences: chosen,
  });
  const moving = createTableController({ matchId: 7, transport: fakeServer().transport, onChange() {} });

  assert.deepEqual([fresh.state().motion, fresh.state().muted], [false, true]);
  assert.deepEqual([soundWanted.state().motion, soundWanted.state().muted], [false, false]);
  assert.deepEqual([moving.state().motion, moving.state().muted], [true, false]);
});

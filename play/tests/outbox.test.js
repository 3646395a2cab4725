// Writes kept while the network is down (static/play/outbox.js): each sent once, with the key it
// was given, in order, after a reload too; a refusal ends it like an answer.

import assert from "node:assert/strict";
import test from "node:test";

import { Outbox, shortName } from "../static/play/outbox.js";

class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.values = new Map();
  }

  /** @param {string} name */
  getItem(name) {
    return this.values.get(name) ?? null;
  }

  /**
   * @param {string} name
   * @param {string} value
   */
  setItem(name, value) {
    this.values.set(name, value);
  }
}

const OFFLINE = new Error("offline");

/**
 * An outbox whose server is reachable when `network.up`, and which records what arrived.
 *
 * @param {MemoryStorage} storage
 * @param {{up: boolean, refuse?: boolean}} network
 * @param {string[]} arrived the keys the server received
 */
function outboxOver(storage, network, arrived) {
  return new Outbox({
    storage,
    name: "test",
    async send(item) {
      if (!network.up) throw OFFLINE;
      arrived.push(item.key);
      if (network.refuse)
        throw Object.assign(new Error("no"), { status: 409, code: "result_recorded", detail: "Has one." });
    },
    offline: (failure) => failure === OFFLINE,
  });
}

test("a write made offline waits, then is sent once with its key when the network is back", async () => {
  const storage = new MemoryStorage();
  const network = { up: false };
  /** @type {string[]} */
  const arrived = [];
  const outbox = outboxOver(storage, network, arrived);

  const item = await outbox.add({ path: "/x/", body: { a: 1 }, label: "the result" });

  assert.deepEqual(arrived, []);
  assert.deepEqual(outbox.waiting(), [item]);
  // The page is opened again (a reload): a new outbox over the same storage sends it.
  network.up = true;
  const reopened = outboxOver(storage, network, arrived);
  await reopened.flush();
  await reopened.flush();

  assert.deepEqual(arrived, [item.key]);
  assert.deepEqual(reopened.waiting(), []);
  assert.deepEqual(reopened.state().sent, [item]);
});

test("writes go in the order they were made, and a refusal is kept to be shown", async () => {
  const storage = new MemoryStorage();
  const network = { up: false, refuse: false };
  /** @type {string[]} */
  const arrived = [];
  const outbox = outboxOver(storage, network, arrived);
  const first = await outbox.add({ path: "/report/", body: {}, label: "report" });
  const second = await outbox.add({ path: "/confirm/", body: {}, label: "confirm" });

  network.up = true;
  network.refuse = true;
  await outbox.flush();

  assert.deepEqual(arrived, [first.key, second.key]);
  assert.equal(outbox.state().refused.length, 2);
  assert.equal(outbox.state().refused[0].failure?.code, "result_recorded");
  assert.deepEqual(outbox.waiting(), []);
});

test("a secret's short name is stable and does not contain it", () => {
  const secret = "swt_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
  assert.equal(shortName(secret), shortName(secret));
  assert.notEqual(shortName(secret), shortName(`${secret}x`));
  assert.ok(!shortName(secret).includes("swt_"));
});

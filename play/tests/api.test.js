// Writes that survive the network (static/play/api.js): the same Idempotency-Key on every try.

import assert from "node:assert/strict";
import test from "node:test";

import { Api, ApiError, keepTrying } from "../static/play/api.js";

test("a write is sent again with the same key until the server answers", async (t) => {
  /** @type {string[]} */
  const keys = [];
  t.mock.method(globalThis, "fetch", async (/** @type {string} */ _url, /** @type {RequestInit} */ init) => {
    keys.push(/** @type {Record<string, string>} */ (init.headers)["Idempotency-Key"]);
    if (keys.length < 3) {
      throw new TypeError("Failed to fetch"); // the network is down
    }
    return new Response(JSON.stringify({ ok: true }), { status: 201, headers: { "Content-Type": "application/json" } });
  });
  let retries = 0;

  const answer = await new Api("token").post(
    "/matches/7/moves/",
    { action: "draw" },
    { onRetry: () => (retries += 1) },
  );

  assert.deepEqual(answer, { ok: true });
  assert.equal(keys.length, 3);
  assert.equal(new Set(keys).size, 1);
  assert.match(keys[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(retries, 2);
});

test("a refusal is not tried again", async () => {
  let tries = 0;
  await assert.rejects(
    keepTrying(async () => {
      tries += 1;
      throw new ApiError(422, "illegal_move", "No.");
    }),
    (error) => error instanceof ApiError && error.code === "illegal_move",
  );
  assert.equal(tries, 1);
});

test("while the network is down a write waits as long as it takes; a busy server, a while", async () => {
  let tries = 0;
  const answer = await keepTrying(
    async () => {
      tries += 1;
      if (tries < 8) {
        throw new ApiError(0, "network", "Down.");
      }
      return "applied";
    },
    { wait: async () => {} },
  );
  assert.equal(answer, "applied");
  assert.equal(tries, 8);
});

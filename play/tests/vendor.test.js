// The vendored Preact (static/play/vendor/, served by the service itself) is exactly the npm
// package this lock file pins: `npm run vendor` copies it after an upgrade.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

test("static/play/vendor/preact.mjs is the locked package's own build", () => {
  const vendored = readFileSync(new URL("../static/play/vendor/preact.mjs", import.meta.url));
  const packaged = readFileSync(new URL("../node_modules/preact/dist/preact.mjs", import.meta.url));
  assert.ok(vendored.equals(packaged), "run `npm run vendor` in play/ after changing preact's version");
});

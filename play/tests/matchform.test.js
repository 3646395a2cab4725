// The new-match form (static/play/matchform.js) shows only the fields the settings take: no
// Deals for Abbott's Switch, no auto-start without an open seat (issue 37: both showed, a CSS rule
// overriding `hidden`). Run with `node --test` (npm test).

import assert from "node:assert/strict";
import test from "node:test";

import { createMatchForm } from "../static/play/matchform.js";

const RULESETS = [
  {
    name: "switch",
    game: "shedding",
    title: "Switch",
    description: "",
    players: [2, 10],
    bots: ["random", "heuristic"],
    options: {},
  },
  {
    name: "abbott",
    game: "abbott",
    title: "Abbott's Switch",
    description: "",
    players: [4, 4],
    bots: ["random", "heuristic", "search"],
    options: {},
  },
];

/**
 * The ids of the form's fields as drawn now.
 *
 * @param {any} node a Preact element, or its children
 * @returns {string[]}
 */
function ids(node) {
  if (Array.isArray(node)) {
    return node.flatMap(ids);
  }
  if (node === null || typeof node !== "object") {
    return [];
  }
  const own = typeof node.props?.id === "string" ? [node.props.id] : [];
  return [...own, ...ids(node.props?.children)];
}

/** A form whose rulesets have come in, and a way to change its fields as a person does. */
async function drawnForm() {
  const api = { all: async () => RULESETS, post: async () => ({}) };
  const form = createMatchForm(/** @type {any} */ (api), "ann", () => {});
  await new Promise((resolve) => setImmediate(resolve));
  /** @param {string} id @param {string} value */
  const change = (id, value) => {
    const find = (/** @type {any} */ node) => {
      if (Array.isArray(node)) return node.map(find).find(Boolean);
      if (node === null || typeof node !== "object") return undefined;
      return node.props?.id === id ? node : find(node.props?.children);
    };
    const field = find(form.view());
    (field.props.onChange ?? field.props.onInput)({ currentTarget: { value } });
  };
  return { form, change };
}

test("Abbott's Switch is offered no deals, shedding Switch is", async () => {
  const { form, change } = await drawnForm();
  assert.ok(ids(form.view()).includes("deals"));
  change("ruleset", "abbott");
  assert.ok(!ids(form.view()).includes("deals"));
});

test("auto-start is offered only while a seat is open", async () => {
  const { form, change } = await drawnForm();
  assert.ok(!ids(form.view()).includes("auto-start")); // every other seat a bot
  change("seat-1", "open");
  assert.ok(ids(form.view()).includes("auto-start"));
});

// The stream parser (static/play/sse.js) against the format of the HTML standard's server-sent
// events: run with `node --test` (npm test), no browser needed.

import assert from "node:assert/strict";
import test from "node:test";

import { SseParser } from "../static/play/sse.js";

test("a message is complete at its blank line, whatever the chunks", () => {
  const parser = new SseParser();
  const text =
    'retry: 1000\n\nid: 4\nevent: play\ndata: {"seq": 4}\n\n: keepalive\n\nid: 5\nevent: skip\ndata: {"seq": 5}\n\n';
  const messages = [];
  for (const character of text) {
    messages.push(...parser.push(character));
  }
  assert.deepEqual(messages, [
    { id: "4", event: "play", data: '{"seq": 4}' },
    { id: "5", event: "skip", data: '{"seq": 5}' },
  ]);
  assert.equal(parser.retry, 1000);
});

test("CRLF and CR end lines too; data lines join with a newline; one leading space is dropped", () => {
  const parser = new SseParser();
  const messages = parser.push("data:first\r\ndata:  second\rid:7\r\n\r\n");
  assert.deepEqual(messages, [{ id: "7", event: "message", data: "first\n second" }]);
});

test("an unfinished message waits for the rest; comments and unknown fields are ignored", () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push(": hello\nfoo: bar\nid: 9\ndata: par"), []);
  assert.deepEqual(parser.push("tial\n\n"), [{ id: "9", event: "message", data: "partial" }]);
});

test("a blank line without data dispatches nothing", () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push("id: 3\n\nevent: x\n\n"), []);
});

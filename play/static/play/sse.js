// Server-Sent Events over fetch. A browser's EventSource cannot send an Authorization header, so
// the stream is read from fetch's body and parsed here (the format of the HTML standard's
// "Server-sent events"). It resumes with Last-Event-ID after whatever ends it: the server stopping
// (docs/api.md, "Server-Sent Events"), a lost network, a stalled connection; it reconnects at once
// when the browser comes back online.

import { ApiError, sleep } from "./api.js";
import { gettext, interpolate } from "./i18n.js";

/** @typedef {{id: string | null, event: string, data: string}} Message */
/** @typedef {"connecting" | "live" | "reconnecting" | "stopped"} StreamState */

// The server sends a comment after 15 s of silence (SSE_KEEPALIVE_SECONDS; never more than 25): a
// connection quiet for longer than this is taken for dead and opened again.
const STALL_MILLISECONDS = 40_000;
const RECONNECT_DELAYS = [1000, 2000, 4000, 8000];

/**
 * Split a stream's text into messages. Keeps the unfinished rest between chunks.
 */
export class SseParser {
  constructor() {
    this.buffer = "";
    /** @type {string[]} */
    this.data = [];
    this.event = "";
    /** @type {string | null} */
    this.id = null;
    /** @type {number | null} */
    this.retry = null;
  }

  /**
   * @param {string} text
   * @returns {Message[]} the messages completed by this chunk
   */
  push(text) {
    this.buffer += text;
    /** @type {Message[]} */
    const messages = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        if (this.data.length > 0) {
          messages.push({ id: this.id, event: this.event || "message", data: this.data.join("\n") });
        }
        this.data = [];
        this.event = "";
        continue;
      }
      if (line.startsWith(":")) {
        continue; // a comment: the keep-alive
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") {
        this.data.push(value);
      } else if (field === "event") {
        this.event = value;
      } else if (field === "id") {
        this.id = value;
      } else if (field === "retry" && /^\d+$/.test(value)) {
        this.retry = Number(value);
      }
    }
    return messages;
  }
}

/**
 * @typedef {object} FollowOptions
 * @property {string} url the stream's path
 * @property {string} token
 * @property {() => number} cursor the last seq handled: sent as Last-Event-ID
 * @property {(message: Message) => void} onMessage
 * @property {(state: StreamState) => void} [onState]
 * @property {(error: ApiError) => void} [onRefused] a refusal (401, 403, 404 …): the stream stops
 * @property {() => boolean} [finished] asked when a stream ends: true stops following
 */

/**
 * Follow a stream until `stop()` (or a refusal, or `finished()`).
 *
 * @param {FollowOptions} options
 * @returns {{stop: () => void, reconnect: () => void}}
 */
export function follow(options) {
  let stopped = false;
  /** @type {AbortController | null} */
  let connection = null;
  /** @type {(() => void) | null} */
  let wake = null;
  const setState = options.onState ?? (() => {});

  /** Drop the connection (or the wait before the next) and connect again now. */
  function reconnect() {
    connection?.abort();
    wake?.();
  }

  /** @param {number} milliseconds */
  function pause(milliseconds) {
    return Promise.race([
      sleep(milliseconds),
      new Promise((resolve) => {
        wake = () => resolve(undefined);
      }),
    ]).finally(() => {
      wake = null;
    });
  }

  async function run() {
    let failures = 0;
    let retry = 1000;
    let connected = false;
    while (!stopped) {
      // A stream the server ended on time is opened again without a word; only a failure shows.
      if (!connected) {
        setState("connecting");
      } else if (failures > 0) {
        setState("reconnecting");
      }
      const controller = new AbortController();
      connection = controller;
      let watchdog = setTimeout(() => controller.abort(), STALL_MILLISECONDS);
      try {
        const response = await fetch(options.url, {
          headers: {
            Authorization: `Token ${options.token}`,
            Accept: "text/event-stream",
            "Last-Event-ID": String(options.cursor()),
          },
          cache: "no-store",
          signal: controller.signal,
        });
        if (!response.ok || response.body === null) {
          const problem = await response.json().catch(() => ({}));
          const error = new ApiError(
            response.status,
            problem.code ?? "unexpected",
            problem.detail ?? interpolate(gettext("The server answered %(status)s."), { status: response.status }),
          );
          if (response.status >= 500 || response.status === 429) {
            throw error; // try again later
          }
          options.onRefused?.(error);
          stopped = true;
          break;
        }
        failures = 0;
        connected = true;
        setState("live");
        const parser = new SseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done || stopped) {
            break;
          }
          clearTimeout(watchdog);
          watchdog = setTimeout(() => controller.abort(), STALL_MILLISECONDS);
          for (const message of parser.push(value)) {
            options.onMessage(message);
          }
          retry = parser.retry ?? retry;
        }
        if (options.finished?.()) {
          stopped = true;
          break;
        }
        await pause(retry);
      } catch {
        if (stopped) {
          break;
        }
        failures += 1;
        setState("reconnecting");
        await pause(RECONNECT_DELAYS[Math.min(failures - 1, RECONNECT_DELAYS.length - 1)]);
      } finally {
        clearTimeout(watchdog);
      }
    }
    setState("stopped");
  }

  window.addEventListener("online", reconnect);
  run();
  return {
    stop() {
      stopped = true;
      window.removeEventListener("online", reconnect);
      connection?.abort();
      wake?.();
    },
    reconnect,
  };
}

/**
 * Follow the caller's feed from now on (its end read first, so nothing old is replayed) until
 * `stop()`. `onFailure`: the end could not be read (a seat link's or a lost network's feed; the
 * page goes on without it).
 *
 * @param {import("./api.js").Api} api
 * @param {(event: import("../../types/api").FeedEvent) => void} onEvent
 * @param {(failure: unknown) => void} [onFailure]
 * @returns {{stop: () => void}}
 */
export function followFeed(api, onEvent, onFailure = () => {}) {
  /** @type {{stop: () => void} | null} */
  let feed = null;
  let stopped = false;
  api.feedEnd().then((end) => {
    if (stopped) {
      return;
    }
    let cursor = end;
    feed = follow({
      url: "/api/v1/players/me/stream/",
      token: api.token,
      cursor: () => cursor,
      onMessage(message) {
        const event = JSON.parse(message.data);
        cursor = Math.max(cursor, event.seq);
        onEvent(event);
      },
    });
  }, onFailure);
  return {
    stop() {
      stopped = true;
      feed?.stop();
    },
  };
}

// The public API as the web client uses it (docs/api.md): a token in the Authorization header,
// JSON in and out, problem documents turned into errors that say what went wrong in the server's
// own words, and writes that survive a lost connection (the same Idempotency-Key on every retry).

import { gettext, interpolate } from "./i18n.js";

/** @typedef {import("../../types/api").Problem} Problem */

export const BASE = "/api/v1";

// How long a write keeps retrying (same key) while a reachable server answers that it is busy.
const WRITE_RETRY_MILLISECONDS = 30_000;
const RETRY_DELAYS = [250, 500, 1000, 2000, 4000];

/** A refusal or failure, with the problem document's `code` and `detail` (or our own words). */
export class ApiError extends Error {
  /**
   * @param {number} status 0 when the server could not be reached
   * @param {string} code
   * @param {string} detail a sentence for a person
   * @param {Record<string, string[]>} [errors]
   * @param {number | null} [retryAfter] seconds
   */
  constructor(status, code, detail, errors = {}, retryAfter = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }

  /** The detail, with the field errors of a validation problem after it. */
  describe() {
    const fields = Object.entries(this.errors).map(
      ([field, messages]) => `${field === "non_field_errors" ? "" : `${field}: `}${messages.join(" ")}`,
    );
    return [this.detail, ...fields].join(" ");
  }

  /** Worth trying again with the same Idempotency-Key: nothing was applied. */
  get retryable() {
    return this.status === 0 || this.status === 429 || this.status === 503 || this.code === "match_busy";
  }
}

/**
 * An Idempotency-Key: a random UUID. Not `crypto.randomUUID()`, which browsers offer only to
 * secure contexts — and a club's server is often plain http on the local network.
 */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** @param {number} milliseconds */
export function sleep(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Resolves when the browser believes it is online (at once if it does, or cannot tell). */
function online() {
  if (typeof navigator === "undefined" || navigator.onLine) {
    return Promise.resolve();
  }
  return new Promise((resolve) => window.addEventListener("online", () => resolve(undefined), { once: true }));
}

/**
 * Try `attempt` until it is answered. While the server cannot be reached it is tried again for as
 * long as it takes (the page says it is reconnecting; a move that arrives after the table moved on
 * is refused by its `expected_version`, so nothing is played late); a busy server (429, 503,
 * `match_busy`) for WRITE_RETRY_MILLISECONDS. Any other refusal ends it.
 *
 * @template T
 * @param {() => Promise<T>} attempt
 * @param {{onRetry?: (failure: ApiError) => void, wait?: (milliseconds: number) => Promise<unknown>}} [options]
 * @returns {Promise<T>}
 */
export async function keepTrying(attempt, { onRetry, wait = sleep } = {}) {
  const deadline = Date.now() + WRITE_RETRY_MILLISECONDS;
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ApiError) || !error.retryable || (error.status !== 0 && Date.now() >= deadline)) {
        throw error;
      }
      onRetry?.(error);
      await wait(error.retryAfter ? error.retryAfter * 1000 : RETRY_DELAYS[Math.min(tries, RETRY_DELAYS.length - 1)]);
      await online();
    }
  }
}

/**
 * The error a failed answer stands for.
 *
 * @param {Response} response
 * @returns {Promise<ApiError>}
 */
async function refusal(response) {
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    try {
      /** @type {Problem} */
      const problem = await response.json();
      return new ApiError(response.status, problem.code, problem.detail, problem.errors ?? {}, retryAfter);
    } catch {
      // not a problem document after all: described below
    }
  }
  return new ApiError(
    response.status,
    "unexpected",
    interpolate(gettext("The server answered %(status)s."), {
      status: `${response.status} ${response.statusText}`.trim(),
    }),
    {},
    retryAfter,
  );
}

/** One player's (or one seat link's) access to the API. */
export class Api {
  /** @param {string} token empty: no token (registration, the token endpoint) */
  constructor(token) {
    this.token = token;
    // Server time minus this browser's, from the answers' Date headers: turn clocks count down
    // by the server's clock even when this device's is wrong.
    this.clockOffset = 0;
  }

  /**
   * @param {Record<string, string>} [extra]
   * @returns {Record<string, string>}
   */
  headers(extra = {}) {
    return this.token ? { Authorization: `Token ${this.token}`, ...extra } : extra;
  }

  /** @param {Response} response */
  noteClock(response) {
    const date = response.headers.get("Date");
    if (date) {
      this.clockOffset = Date.parse(date) + 500 - Date.now();
    }
  }

  /** The server's time now, in milliseconds since the epoch. */
  now() {
    return Date.now() + this.clockOffset;
  }

  /**
   * One request; the answer's JSON, or an ApiError.
   *
   * @param {string} method
   * @param {string} path under /api/v1
   * @param {unknown} [body]
   * @param {Record<string, string>} [headers]
   * @returns {Promise<any>}
   */
  async request(method, path, body, headers = {}) {
    /** @type {Response} */
    let response;
    try {
      response = await fetch(BASE + path, {
        method,
        headers: this.headers(body === undefined ? headers : { "Content-Type": "application/json", ...headers }),
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch {
      throw new ApiError(
        0,
        "network",
        gettext("The server cannot be reached. Check the connection; this page catches up by itself."),
      );
    }
    this.noteClock(response);
    if (!response.ok) {
      throw await refusal(response);
    }
    return response.status === 204 ? null : response.json();
  }

  /**
   * @param {string} path
   * @returns {Promise<any>}
   */
  get(path) {
    return this.request("GET", path);
  }

  /**
   * A write, sent with an Idempotency-Key and sent again with the same key while the network is
   * down or the server asks to retry (429, 503, `match_busy`): it is applied at most once.
   *
   * @param {string} path
   * @param {unknown} [body]
   * @param {{key?: string, onRetry?: (failure: ApiError) => void}} [options] the key (a fresh one
   *   by default), and what to do each time a try fails and another follows
   * @returns {Promise<any>}
   */
  post(path, body = {}, { key = newKey(), onRetry } = {}) {
    return keepTrying(() => this.request("POST", path, body, { "Idempotency-Key": key }), { onRetry });
  }

  /**
   * Every item of a paginated list, following `next` up to `limit` items.
   *
   * @param {string} path
   * @param {number} [limit]
   * @returns {Promise<any[]>}
   */
  async all(path, limit = 100) {
    /** @type {any[]} */
    const items = [];
    /** @type {string | null} */
    let next = path;
    while (next && items.length < limit) {
      const page = await this.get(next);
      items.push(...page.results);
      next = page.next ? new URL(page.next).pathname.slice(BASE.length) + new URL(page.next).search : null;
    }
    return items.slice(0, limit);
  }

  /**
   * The newest seq of the caller's feed, so that a page follows what happens from now on. A
   * feed's seqs have no gaps but where old events were cleared away, so the count of events
   * after the first one kept gives a point at or before the end; what follows it is read to the end.
   *
   * @returns {Promise<number>}
   */
  async feedEnd() {
    const first = await this.get("/players/me/events/?after=0&limit=1");
    if (first.results.length === 0) {
      return 0;
    }
    let after = first.results[0].seq + first.count - 2;
    for (;;) {
      const page = await this.get(`/players/me/events/?after=${Math.max(after, 0)}&limit=500`);
      if (page.results.length === 0) {
        return Math.max(after, 0);
      }
      after = page.results[page.results.length - 1].seq;
      if (!page.next) {
        return after;
      }
    }
  }
}

// --- who is signed in ---------------------------------------------------------------------------

const TOKEN_KEY = "switch.play.token";
const USERNAME_KEY = "switch.play.username";

/** @returns {{token: string, username: string} | null} */
export function storedSession() {
  const token = localStorage.getItem(TOKEN_KEY);
  const username = localStorage.getItem(USERNAME_KEY);
  return token && username ? { token, username } : null;
}

/**
 * @param {string} token
 * @param {string} username
 */
export function saveSession(token, username) {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USERNAME_KEY, username);
}

export function forgetSession() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USERNAME_KEY);
}

/**
 * A sign-in or sign-up (no token needed): the token, or an ApiError.
 *
 * @param {"sign-in" | "sign-up"} kind
 * @param {string} username
 * @param {string} password
 * @returns {Promise<string>}
 */
export async function obtainToken(kind, username, password) {
  const anonymous = new Api("");
  const path = kind === "sign-up" ? "/players/" : "/auth/token/";
  const answer = await anonymous.request("POST", path, { username, password });
  return answer.token;
}

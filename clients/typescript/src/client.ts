// A minimal typed client of the Switch game service: JSON in and out with the player's token, an
// Idempotency-Key on every write, and every refusal an ApiError read from its problem document —
// or from whatever the body was (a proxy's HTML page), never a decoding error.

import type { components } from "./schema.js";

export type Schemas = components["schemas"];
export type View = Schemas["View"];
export type Action = Schemas["Action"];
export type ActionRequest = Schemas["ActionRequest"];
export type FeedEvent = Schemas["FeedEvent"];
export type FeedPage = Schemas["FeedPage"];
export type MoveResult = Schemas["MoveResult"];
export type Problem = Schemas["Problem"];

/** Answers that mean "nothing was done, try again later" (429, 503, a proxy's 502 and 504). */
const TRANSIENT = new Set([429, 502, 503, 504]);

export class ApiError extends Error {
  readonly code: string;
  readonly detail: string;

  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
    /** Retry-After, in seconds, if the answer had one. */
    readonly retryAfter: number | null,
  ) {
    const code = problem.code ?? `http_${status}`;
    super(`${status} ${code}: ${problem.detail ?? ""}`);
    this.code = code;
    this.detail = problem.detail ?? "";
  }

  /** Whether the same request may succeed later: nothing was applied. */
  get transient(): boolean {
    return TRANSIENT.has(this.status) || this.code === "match_busy";
  }

  static async of(response: Response): Promise<ApiError> {
    const text = await response.text();
    let problem: Partial<Problem>;
    try {
      problem = JSON.parse(text) as Partial<Problem>;
    } catch {
      problem = { status: response.status, detail: text.trim().slice(0, 200) || response.statusText };
    }
    const retryAfter = Number.parseFloat(response.headers.get("Retry-After") ?? "");
    return new ApiError(response.status, problem, Number.isNaN(retryAfter) ? null : retryAfter);
  }
}

export class Client {
  private readonly base: string;

  /** `server` as `http://host:port`; the token of the player to act as, if known. */
  constructor(
    server: string,
    public token = "",
  ) {
    this.base = `${server.replace(/\/+$/, "")}/api/v1`;
  }

  /** The decoded answer; a write (any method but GET) carries `key`, a fresh one by default. */
  async request<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    key: string = crypto.randomUUID(),
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.token) headers.Authorization = `Token ${this.token}`;
    if (method !== "GET") headers["Idempotency-Key"] = key;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw await ApiError.of(response);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  /** Register `username` (a bot account unless told otherwise), or sign in if it exists. */
  async signIn(username: string, password: string, bot = true): Promise<string> {
    const credentials = { username, password };
    let answer: Schemas["Registered"] | Schemas["Token"];
    try {
      answer = await this.request("POST", "/players/", { ...credentials, bot });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "username_taken")) throw error;
      answer = await this.request("POST", "/auth/token/", credentials);
    }
    this.token = answer.token;
    return this.token;
  }

  match(matchId: number): Promise<View> {
    return this.request("GET", `/matches/${matchId}/`);
  }

  /** Post one action; send the same `key` again to retry it: it is applied at most once. */
  move(matchId: number, action: ActionRequest, key?: string): Promise<MoveResult> {
    return this.request("POST", `/matches/${matchId}/moves/`, action, key);
  }

  /** The feed after `after` (a long poll of up to `wait` seconds), in `incarnation` if known. */
  feed(after: number, wait = 30, incarnation = ""): Promise<FeedPage> {
    const query = new URLSearchParams({ after: String(after), wait: String(wait) });
    if (incarnation) query.set("incarnation", incarnation);
    return this.request("GET", `/players/me/events/?${query}`);
  }
}

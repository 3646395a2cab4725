// A tiny typed client: sign up, start a match against a bot, and play it out from legal_moves.
// The types come from the service's OpenAPI schema (`npm run generate`); `npm run check` generates
// them and type-checks this file, so a change of the schema that breaks a client fails there.
//
//   npm run check                         # generate src/schema.d.ts and type-check
//   await main("http://127.0.0.1:8000")   # from your own code: play one match against a bot

import type { components } from "./schema";

type Schemas = components["schemas"];
type View = Schemas["View"];
type Action = Schemas["Action"];
type ActionRequest = Schemas["ActionRequest"];
type FeedEvent = Schemas["FeedEvent"];
type Problem = Schemas["Problem"];

class Api {
  constructor(
    private readonly base: string,
    private token = "",
  ) {}

  async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.token) headers.Authorization = `Token ${this.token}`;
    const response = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const problem = (await response.json()) as Problem;
      throw new Error(`${problem.code}: ${problem.detail}`);
    }
    return (await response.json()) as T;
  }

  async register(username: string, password: string): Promise<void> {
    const body: Schemas["RegistrationRequest"] = { username, password };
    this.token = (await this.call<Schemas["Registered"]>("POST", "/players/", body)).token;
  }
}

/** What the seat may do: for shedding prefer playing a card, for Abbott taking one. */
export function choose(view: View): ActionRequest | null {
  const moves: Action[] = view.legal_moves;
  let preferred: Action[] = [];
  if (view.game === "shedding") {
    preferred = moves.filter((move) => move.action === "play");
  } else {
    const grid = view.grid ?? [];
    preferred = moves.filter((move) => move.action === "move" && grid[move.to[0]]?.[move.to[1]]);
  }
  const move = preferred[0] ?? moves[0];
  return move ? { ...move, expected_version: view.version } : null;
}

/** A short line about a feed event, narrowed by its type. */
export function describe(event: FeedEvent): string {
  switch (event.type) {
    case "your_turn":
      return `your turn in match ${event.data.match} (version ${event.data.version})`;
    case "challenge":
      return `challenged by ${event.data.from} to ${event.data.ruleset}`;
    case "match_end":
      return `match ${event.data.match} ended`;
    default:
      return event.type;
  }
}

export async function main(base: string): Promise<void> {
  const api = new Api(base);
  await api.register(`ts-${Date.now()}`, "correct-horse-battery-9");
  const settings: Schemas["MatchCreateRequest"] = {
    ruleset: "switch",
    seats: 2,
    bots: [{ seat: 1, strategy: "random" }],
  };
  const created = await api.call<View>("POST", "/matches/", settings);
  let view = await api.call<View>("POST", `/matches/${created.id}/start/`);
  for (let moves = 0; view.status === "active" && moves < 100; moves++) {
    const move = choose(view);
    if (move === null) {
      view = await api.call<View>("GET", `/matches/${view.id}/`);
      continue;
    }
    view = (await api.call<Schemas["MoveResult"]>("POST", `/matches/${view.id}/moves/`, move)).view;
  }
  console.log(`match ${view.id}: ${view.status}`);
}

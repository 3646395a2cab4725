// The client in use: sign up, start a match against a bot, and play it out from legal_moves,
// narrowing views, actions and feed events by their discriminators. `npm run check` generates the
// types and type-checks this file with the client, so a change of the schema that breaks a client
// fails there.

import {
  type Action,
  type ActionRequest,
  Client,
  type FeedEvent,
  type Schemas,
  type View,
} from "./client.js";

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

/** One match against the random bot, to its end or a hundred moves. */
export async function playAgainstABot(server: string): Promise<View> {
  const client = new Client(server);
  await client.signIn(`ts-${Date.now()}`, "correct-horse-battery-9");
  const settings: Schemas["MatchCreateRequest"] = {
    ruleset: "switch",
    seats: 2,
    bots: [{ seat: 1, strategy: "random" }],
  };
  const created = await client.request<View>("POST", "/matches/", settings);
  let view = await client.request<View>("POST", `/matches/${created.id}/start/`);
  for (let moves = 0; view.status === "active" && moves < 100; moves++) {
    const move = choose(view);
    view = move === null ? await client.match(view.id) : (await client.move(view.id, move)).view;
  }
  return view;
}

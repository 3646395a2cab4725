// The API's shapes for the web client, by the names the client uses: aliases of the types that
// openapi-typescript generates from docs/openapi.yaml into schema.d.ts (`npm run generate`).

import type { components } from "./schema";

type Schemas = components["schemas"];

export type View = Schemas["View"];
export type SheddingView = Schemas["SheddingView"];
export type AbbottView = Schemas["AbbottView"];
export type SheddingSeat = Schemas["SheddingSeat"];
export type AbbottSeat = Schemas["AbbottSeat"];
export type Action = Schemas["Action"];
export type ActionRequest = Schemas["ActionRequest"];
export type MoveResult = Schemas["MoveResult"];
export type MatchEvent = Schemas["Event"];
export type FeedEvent = Schemas["FeedEvent"];
export type Outcome = Schemas["Outcome"];
export type Result = Schemas["Result"];
export type Problem = Schemas["Problem"];
export type Ruleset = Schemas["Ruleset"];
export type RulesetName = Schemas["RulesetEnum"];
export type Strategy = Schemas["StrategyEnum"];
export type MatchSummary = Schemas["MatchSummary"];
export type MatchCreate = Schemas["MatchCreateRequest"];
export type Challenge = Schemas["Challenge"];
export type ChallengeCreate = Schemas["ChallengeCreateRequest"];
export type Player = Schemas["Player"];
export type TournamentSummary = Schemas["TournamentSummary"];
export type Tournament = Schemas["Tournament"];
export type PlayerPage = Schemas["PlayerPage"];
export type Ladder = Schemas["Ladder"];
export type Standing = Schemas["Standing"];
export type PoolEntry = Schemas["PoolEntry"];
export type PoolEnter = Schemas["PoolEnterRequest"];

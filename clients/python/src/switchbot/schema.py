"""The API's JSON as typed dictionaries, generated from docs/openapi.yaml by datamodel-code-generator
(``make schema``): do not edit by hand."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict


class Abandoned(TypedDict):
    abandoned: bool
    resigned: NotRequired[list[int]]
    reason: NotRequired[str]


class AbbottDeal(TypedDict):
    hand: int
    first_mover: int
    dealer: int
    grid: list[list[str | None]]
    pieces: list[list[int]]
    from_layout: bool
    shuffle_commitment: str


AbbottViewGameEnum: TypeAlias = Literal["abbott"]


class AbbottYou(TypedDict):
    seat: int


class Alliance(TypedDict):
    chooser: int
    chosen: int


class AllianceNamesRequest(TypedDict):
    chooser: str
    chosen: str


AllyActionActionEnum: TypeAlias = Literal["ally"]


class AllyActionRequest(TypedDict):
    expected_version: NotRequired[int]
    partner: int
    action: AllyActionActionEnum


class AllyEventData(TypedDict):
    chooser: int
    chosen: int
    controls: list[int]


AllyEventTypeEnum: TypeAlias = Literal["ally"]


AnnounceEnum: TypeAlias = Literal["last_card"]


class AnnounceEventData(TypedDict):
    cards_left: int


AnnounceEventTypeEnum: TypeAlias = Literal["announce"]


AnswerEnum: TypeAlias = Literal["accepted", "declined"]


class BestHand(TypedDict):
    category: str
    cards: list[str]


class BotTakeoverEventData(TypedDict):
    strategy: str


BotTakeoverEventTypeEnum: TypeAlias = Literal["bot_takeover"]


ByePolicyEnum: TypeAlias = Literal["zero", "average", "maximum"]


class ChallengeCancelledFeedData(TypedDict):
    challenge: int
    player: str
    match: int | None


ChallengeCancelledFeedEventTypeEnum: TypeAlias = Literal["challenge_cancelled"]


ToItem: TypeAlias = str


ChallengeDeclinedFeedEventTypeEnum: TypeAlias = Literal["challenge_declined"]


class ChallengeExpiredFeedData(TypedDict):
    challenge: int
    match: int | None


ChallengeExpiredFeedEventTypeEnum: TypeAlias = Literal["challenge_expired"]


ChallengeFeedData = TypedDict(
    "ChallengeFeedData",
    {
        "challenge": int,
        "from": str,
        "from_bot_account": NotRequired[bool],
        "ruleset": str,
        "match": int | None,
    },
)


ChallengeFeedEventTypeEnum: TypeAlias = Literal["challenge"]


ChallengeStatusEnum: TypeAlias = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class CheckinRequest(TypedDict):
    name: str
    present: bool


class Clock(TypedDict):
    ends_at: str | None
    paused_remaining: float | None


class ClockRequestRequest(TypedDict):
    minutes: NotRequired[int]
    pause: NotRequired[bool]
    resume: NotRequired[bool]


class ConsentAskedEventData(TypedDict):
    seat: int


ConsentAskedEventTypeEnum: TypeAlias = Literal["consent_asked"]


class DealEndEventData(TypedDict):
    deal: int
    winner: int
    blocked: bool
    tallies: list[int]
    points: list[int]
    placings: list[int]
    seed: NotRequired[str]


DealEndEventTypeEnum: TypeAlias = Literal["deal_end"]


DealEventTypeEnum: TypeAlias = Literal["deal"]


class DealPoints(TypedDict):
    number: int
    winner: str | None
    points: dict[str, int]
    tallies: NotRequired[dict[str, int]]


DeclineEndActionActionEnum: TypeAlias = Literal["decline_end"]


class DeclineEndActionRequest(TypedDict):
    expected_version: NotRequired[int]
    action: DeclineEndActionActionEnum


class DeclineEndEventData(TypedDict):
    seat: int
    proposed: list[bool]


DeclineEndEventTypeEnum: TypeAlias = Literal["decline_end"]


DrawActionActionEnum: TypeAlias = Literal["draw"]


class DrawActionRequest(TypedDict):
    expected_version: NotRequired[int]
    action: DrawActionActionEnum


class DrawEventData(TypedDict):
    count: int
    reason: str
    cards: NotRequired[list[str]]


DrawEventTypeEnum: TypeAlias = Literal["draw"]


EndTurnActionActionEnum: TypeAlias = Literal["end_turn"]


class EndTurnActionRequest(TypedDict):
    expected_version: NotRequired[int]
    action: EndTurnActionActionEnum


EndTurnEventTypeEnum: TypeAlias = Literal["end_turn"]


EntryKindEnum: TypeAlias = Literal["player", "guest", "bot"]


class FinishEventData(TypedDict):
    place: int


FinishEventTypeEnum: TypeAlias = Literal["finish"]


FormatEnum: TypeAlias = Literal["switch-record/1"]


class FrenchDealRequest(TypedDict):
    winner: str
    points_left: dict[str, int]


class GameRating(TypedDict):
    rating: float
    mu: float
    sigma: float
    games: int


class GameRatings(TypedDict):
    shedding: GameRating
    abbott: GameRating


class HandEndEventData(TypedDict):
    hand: int
    winner: int | None
    reason: str
    best_hands: list[BestHand]
    alliance: Alliance | None
    scores: list[int]
    totals: list[int]
    seed: NotRequired[str]


HandEndEventTypeEnum: TypeAlias = Literal["hand_end"]


class HandEventData(TypedDict):
    count: int
    cards: NotRequired[list[str]]


HandEventTypeEnum: TypeAlias = Literal["hand"]


class HandOutcome(TypedDict):
    number: int
    points: list[int]
    winner: int | None
    placings: list[int]
    teams: list[list[int]]
    tallies: NotRequired[list[int]]


HistoryEntryTypeEnum: TypeAlias = Literal[
    "starter", "play", "draw", "end_turn", "skip", "reshuffle"
]


class JoinRequest(TypedDict):
    seat: NotRequired[int | None]


class Ladder(TypedDict):
    id: int
    ruleset: str
    game: str
    seats: int
    interval_seconds: int
    turn_seconds: int
    members: int
    online: int
    rounds: int
    next_round_at: str
    created_at: str


class LadderPage(TypedDict):
    results: list[Ladder]
    count: int
    next: str | None
    previous: str | None


LanguageEnum: TypeAlias = Literal["en", "fr"]


class LastDeal(TypedDict):
    deal: int
    winner: int
    blocked: bool
    tallies: list[int]
    points: list[int]
    placings: list[int]


class LeaderboardRow(TypedDict):
    player: str
    bot: bool
    rating: float
    games: int


class MatchCounts(TypedDict):
    matches: int
    active: int
    finished: int


MatchEndEventTypeEnum: TypeAlias = Literal["match_end"]


MatchEndFeedEventTypeEnum: TypeAlias = Literal["match_end"]


class MatchStartedFeedData(TypedDict):
    seat: int
    match: int | None


MatchStartedFeedEventTypeEnum: TypeAlias = Literal["match_started"]


MatchStatusEnum: TypeAlias = Literal["waiting", "active", "finished", "abandoned"]


class MatchSummary(TypedDict):
    id: int
    ruleset: str
    game: str
    status: str
    version: int
    seat_count: int
    auto_start: bool
    rated: bool
    practice: bool
    created_by: str
    created_by_bot_account: bool
    created_at: str


class Membership(TypedDict):
    ladder: int
    player: str
    active: bool
    joined_at: str


MoveActionActionEnum: TypeAlias = Literal["move"]


class MoveActionRequest(TypedDict):
    expected_version: NotRequired[int]
    to: list[int]
    action: MoveActionActionEnum


MoveEventData = TypedDict(
    "MoveEventData",
    {
        "seat": int,
        "piece": int,
        "from": list[int],
        "to": list[int],
        "card": str | None,
    },
)


MoveEventTypeEnum: TypeAlias = Literal["move"]


NullEnum: TypeAlias = None


OnResignEnum: TypeAlias = Literal["bot", "forfeit"]


class OnlineRow(TypedDict):
    player: str
    bot: bool
    seen_at: str


class Outcome(TypedDict):
    winner: int
    ranking: list[int]
    totals: list[int]
    conceded: NotRequired[list[int]]
    hands: list[HandOutcome]


class OwnTable(TypedDict):
    round: int
    table: int
    seat: int


PassActionActionEnum: TypeAlias = Literal["pass"]


class PassActionRequest(TypedDict):
    expected_version: NotRequired[int]
    action: PassActionActionEnum


class PassEventData(TypedDict):
    seat: int
    piece: int
    card: str | None


PassEventTypeEnum: TypeAlias = Literal["pass"]


PenaltyEventTypeEnum: TypeAlias = Literal["penalty"]


class Pending(TypedDict):
    draw: int
    skip: int
    draw_card: str | None
    skip_card: str | None


class PlacementDealRequest(TypedDict):
    order: list[str]


PlayActionActionEnum: TypeAlias = Literal["play"]


PlayEnum: TypeAlias = Literal["online", "offline"]


class PlayEventData(TypedDict):
    card: str
    suit: NotRequired[str]
    announce: NotRequired[str]


PlayEventTypeEnum: TypeAlias = Literal["play"]


class Played(TypedDict):
    played: int
    won: int


class PlayerJoinedFeedData(TypedDict):
    seat: int
    player: str
    bot_account: NotRequired[bool]
    match: int | None


PlayerJoinedFeedEventTypeEnum: TypeAlias = Literal["player_joined"]


class PlayerLeftFeedData(TypedDict):
    seat: int
    player: str
    bot_account: NotRequired[bool]
    match: int | None


PlayerLeftFeedEventTypeEnum: TypeAlias = Literal["player_left"]


class PlayerPage(TypedDict):
    username: str
    bot: bool
    created_at: str
    ratings: GameRatings
    matches: Played


PoolEntryStatusEnum: TypeAlias = Literal["waiting", "matched", "left"]


class Problem(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: NotRequired[dict[str, list[str]]]
    oldest: NotRequired[int]
    last: NotRequired[int]
    incarnation: NotRequired[str]
    limit: NotRequired[str]
    allowed: NotRequired[int]


ProposeEndActionActionEnum: TypeAlias = Literal["propose_end"]


class ProposeEndActionRequest(TypedDict):
    expected_version: NotRequired[int]
    action: ProposeEndActionActionEnum


class ProposeEndEventData(TypedDict):
    seat: int
    proposed: list[bool]


ProposeEndEventTypeEnum: TypeAlias = Literal["propose_end"]


RankingEnum: TypeAlias = Literal["total", "average"]


class Rating(TypedDict):
    mu: float
    sigma: float


ReasonEnum: TypeAlias = Literal[
    "generic", "later", "ruleset", "seats", "clock", "rated", "casual", "no_bots", "only_bots"
]


RecordedMatchGameEnum: TypeAlias = Literal["shedding", "abbott"]


RecordedMatchStatusEnum: TypeAlias = Literal["finished", "abandoned"]


class RecordedPlayer(TypedDict):
    seat: int
    player: str | None
    bot_account: bool
    bot: str | None
    resigned: bool


class Registered(TypedDict):
    id: int
    username: str
    bot: bool
    token: str


class RegistrationRequest(TypedDict):
    username: str
    password: str
    bot: NotRequired[bool]


RepeatVerdictEnum: TypeAlias = Literal["fewest", "spread", "improvable", "unproven"]


class ReportDisputeRequest(TypedDict):
    reason: NotRequired[str]


ReportStatusEnum: TypeAlias = Literal["pending", "confirmed", "disputed", "recorded", "settled"]


class ReshuffleEventData(TypedDict):
    count: int


ReshuffleEventTypeEnum: TypeAlias = Literal["reshuffle"]


class ResignEventData(TypedDict):
    replaced_by: str | None


ResignEventTypeEnum: TypeAlias = Literal["resign"]


Result: TypeAlias = Outcome | Abandoned


class ResultVersion(TypedDict):
    entered_by: str
    entered_at: str
    reason: str
    reported_by: str | None
    confirmed_by: str | None


class ReverseEventData(TypedDict):
    direction: int
    as_skip: NotRequired[bool]


ReverseEventTypeEnum: TypeAlias = Literal["reverse"]


class RoundSeatedFeedData(TypedDict):
    tournament: int
    round: int
    table: int
    seat: int
    match: int | None


RoundSeatedFeedEventTypeEnum: TypeAlias = Literal["round_seated"]


RoundStatusEnum: TypeAlias = Literal["draft", "published", "complete"]


RulesetEnum: TypeAlias = Literal[
    "switch",
    "jack-change-it",
    "french",
    "black-jack",
    "irish-switch",
    "jacks-twos-eights",
    "take-two",
    "abbott",
    "abbott-2",
]


RulesetGameEnum: TypeAlias = Literal["shedding", "abbott"]


ScopesEnum: TypeAlias = Literal["read", "play"]


ScoringEnum: TypeAlias = Literal["french", "placement", "abbott"]


class Seated(TypedDict):
    entry: int
    name: str
    bot: str | None
    bot_account: bool


SeatingEnum: TypeAlias = Literal["random", "balanced", "swiss"]


class SelfCheckin(TypedDict):
    tournament: int
    name: str
    present: bool


SelfReportEnum: TypeAlias = Literal["off", "confirm", "trust"]


Tournament: TypeAlias = int


class SeriesCreateRequest(TypedDict):
    name: str
    tournaments: list[Tournament]
    public: NotRequired[bool]


SeriesStandingRowKindEnum: TypeAlias = Literal["player", "guest"]


class SeriesTournament(TypedDict):
    id: int
    name: str
    status: str


class SheddingDeal(TypedDict):
    deal: int
    first: int
    decks: int
    jokers: int
    hand_size: int
    from_layout: bool
    direction: int
    starter: str
    active_suit: str
    hand_counts: list[int]
    stock_count: int
    shuffle_commitment: str


class SheddingSeat(TypedDict):
    seat: int
    player: str | None
    name: str | None
    bot: str | None
    bot_account: bool
    resigned: bool
    hand_count: NotRequired[int]
    announced: NotRequired[bool]
    finished: NotRequired[int | None]
    score: NotRequired[int]
    skips_owed: NotRequired[int]


SheddingViewGameEnum: TypeAlias = Literal["shedding"]


class SheddingYou(TypedDict):
    seat: int
    hand: list[str]
    drawn: NotRequired[str | None]


class SkipEventData(TypedDict):
    turns: int


SkipEventTypeEnum: TypeAlias = Literal["skip"]


SourceEnum: TypeAlias = Literal["played", "entered", "forfeited"]


class Standing(TypedDict):
    player: str
    bot: bool
    rating: float
    mu: float
    sigma: float
    games: int
    active: bool
    last_match: int | None


class StandingsPage(TypedDict):
    results: list[Standing]
    count: int
    next: str | None
    previous: str | None


StrategyEnum: TypeAlias = Literal["random", "heuristic", "montecarlo", "ismcts", "search"]


SuitEnum: TypeAlias = Literal["C", "D", "H", "S"]


class SuitEventData(TypedDict):
    suit: str


SuitEventTypeEnum: TypeAlias = Literal["suit"]


TableDealRequest: TypeAlias = FrenchDealRequest | PlacementDealRequest


class TableReportFeedData(TypedDict):
    tournament: int
    round: int
    table: int
    report: int
    status: str
    match: int | None


TableReportFeedEventTypeEnum: TypeAlias = Literal["table_report"]


class TableResultOut(TypedDict):
    source: SourceEnum
    totals: dict[str, int]
    conceded: NotRequired[dict[str, int]]
    deals: list[DealPoints]
    entered: dict[str, Any] | None
    entered_by: str | None
    entered_at: str | None
    corrections: int
    history: list[ResultVersion]


class TableSeat(TypedDict):
    entry: int
    name: str
    bot: str | None
    bot_account: bool
    seat: int


class Tiebreaks(TypedDict):
    conceded: NotRequired[int]
    table_share: float
    opponents_score: float
    deals_won: int
    head_to_head: float | None
    lot: float


class TimeoutEventData(TypedDict):
    strikes: int


TimeoutEventTypeEnum: TypeAlias = Literal["timeout"]


class Token(TypedDict):
    token: str


class TokenCreateRequest(TypedDict):
    name: str
    scopes: list[ScopesEnum]


class TokenRequestRequest(TypedDict):
    username: str
    password: str
    rotate: NotRequired[bool]


class TournamentCreateRequest(TypedDict):
    name: str
    ruleset: RulesetEnum
    scoring: ScoringEnum
    rounds: int
    table_size: int
    deals_per_round: NotRequired[int]
    target: NotRequired[int]
    seating: NotRequired[SeatingEnum]
    bye_policy: NotRequired[ByePolicyEnum]
    options: NotRequired[dict[str, Any]]
    play: NotRequired[PlayEnum]
    public: NotRequired[bool]
    language: NotRequired[LanguageEnum]
    fill_with_bots: NotRequired[StrategyEnum | NullEnum | None]
    ranking: NotRequired[RankingEnum]
    self_report: NotRequired[SelfReportEnum]
    self_checkin: NotRequired[bool]


TournamentStatusEnum: TypeAlias = Literal[
    "registering", "running", "round_complete", "finished", "cancelled"
]


class TournamentSummary(TypedDict):
    id: int
    name: str
    ruleset: str
    scoring: str
    status: str
    planned_rounds: int
    current_round: int
    entries: int
    created_at: str


class Turn(TypedDict):
    played: int
    last_card: str | None
    must_cover: bool
    suit_mode: str | None
    drew: int
    run: int
    again: bool
    skips: int
    last_card_barred: bool


class WithdrawRequest(TypedDict):
    player: NotRequired[str]
    name: NotRequired[str]


YourTurnFeedEventTypeEnum: TypeAlias = Literal["your_turn"]


class AbbottHandRequest(TypedDict):
    winner: str | None
    alliance: AllianceNamesRequest | None


class AbbottSeat(TypedDict):
    seat: int
    player: str | None
    name: str | None
    bot: str | None
    bot_account: bool
    resigned: bool
    cards: NotRequired[list[str]]
    best_hand: NotRequired[BestHand]
    total: NotRequired[int]
    proposed_end: NotRequired[bool]


class AllyAction(TypedDict):
    partner: int
    action: AllyActionActionEnum


class AllyEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: AllyEventTypeEnum
    data: AllyEventData


class AnnounceEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: AnnounceEventTypeEnum
    data: AnnounceEventData


class ApiToken(TypedDict):
    id: int
    name: str
    scopes: list[ScopesEnum]
    created_at: str


class ApiTokenPage(TypedDict):
    results: list[ApiToken]
    count: int
    next: str | None
    previous: str | None


class BotSeat(TypedDict):
    seat: int
    strategy: StrategyEnum


class BotSeatRequest(TypedDict):
    seat: int
    strategy: StrategyEnum


class BotTakeoverEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: BotTakeoverEventTypeEnum
    data: BotTakeoverEventData


class ChallengeCancelledFeedEvent(TypedDict):
    seq: int
    at: str
    type: ChallengeCancelledFeedEventTypeEnum
    match: int | None
    data: ChallengeCancelledFeedData


class ChallengeCreateRequest(TypedDict):
    ruleset: RulesetEnum
    seats: int
    options: NotRequired[dict[str, Any]]
    bots: NotRequired[list[BotSeatRequest]]
    deals: NotRequired[int]
    target: NotRequired[int | None]
    turn_seconds: NotRequired[int | None]
    rated: NotRequired[bool]
    to: list[ToItem]
    expires_in: NotRequired[int]


class ChallengeDeclinedFeedData(TypedDict):
    challenge: int
    player: str
    reason: ReasonEnum
    match: int | None


class ChallengeDeclinedFeedEvent(TypedDict):
    seq: int
    at: str
    type: ChallengeDeclinedFeedEventTypeEnum
    match: int | None
    data: ChallengeDeclinedFeedData


class ChallengeExpiredFeedEvent(TypedDict):
    seq: int
    at: str
    type: ChallengeExpiredFeedEventTypeEnum
    match: int | None
    data: ChallengeExpiredFeedData


class ChallengeFeedEvent(TypedDict):
    seq: int
    at: str
    type: ChallengeFeedEventTypeEnum
    match: int | None
    data: ChallengeFeedData


class ConsentAskedEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: ConsentAskedEventTypeEnum
    data: ConsentAskedEventData


DealData: TypeAlias = SheddingDeal | AbbottDeal


class DealEndEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: DealEndEventTypeEnum
    data: DealEndEventData


class DealEvent(TypedDict):
    data: DealData
    seq: int
    at: str
    seat: int | None
    type: DealEventTypeEnum


class DeclineEndAction(TypedDict):
    action: DeclineEndActionActionEnum


class DeclineEndEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: DeclineEndEventTypeEnum
    data: DeclineEndEventData


class DeclineRequest(TypedDict):
    reason: NotRequired[ReasonEnum]


class DrawAction(TypedDict):
    action: DrawActionActionEnum


class DrawEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: DrawEventTypeEnum
    data: DrawEventData


class EndTurnAction(TypedDict):
    action: EndTurnActionActionEnum


class EndTurnEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: EndTurnEventTypeEnum
    data: dict[str, Any]


class EntrantRequest(TypedDict):
    player: NotRequired[str]
    guest: NotRequired[str]
    bot: NotRequired[StrategyEnum]
    name: NotRequired[str]


class Entry(TypedDict):
    id: int
    name: str
    kind: EntryKindEnum
    player: str | None
    bot: str | None
    bot_account: bool
    joined_round: int
    withdrawn: bool
    play_url: str | None
    present: bool


class FinishEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: FinishEventTypeEnum
    data: FinishEventData


class HandEndEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: HandEndEventTypeEnum
    data: HandEndEventData


class HandEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: HandEventTypeEnum
    data: HandEventData


class HistoryEntry(TypedDict):
    type: HistoryEntryTypeEnum
    seat: NotRequired[int]
    card: NotRequired[str]
    suit: NotRequired[str]
    announce: NotRequired[str]
    count: NotRequired[int]
    reason: NotRequired[str]
    turns: NotRequired[int]


class Invitation(TypedDict):
    player: str
    bot_account: bool
    answer: AnswerEnum | NullEnum | None


class LadderCreateRequest(TypedDict):
    ruleset: RulesetEnum
    seats: int
    interval_seconds: int
    turn_seconds: NotRequired[int]


class LeaderboardPage(TypedDict):
    results: list[LeaderboardRow]
    count: int
    next: str | None
    previous: str | None


class MatchCreateRequest(TypedDict):
    ruleset: RulesetEnum
    seats: int
    options: NotRequired[dict[str, Any]]
    bots: NotRequired[list[BotSeatRequest]]
    deals: NotRequired[int]
    target: NotRequired[int | None]
    turn_seconds: NotRequired[int | None]
    on_resign: NotRequired[OnResignEnum]
    auto_start: NotRequired[bool]
    rated: NotRequired[bool]
    layout: NotRequired[dict[str, Any] | None]
    practice_seed: NotRequired[str | None]


class MatchEndEvent(TypedDict):
    data: Result
    seq: int
    at: str
    seat: int | None
    type: MatchEndEventTypeEnum


class MatchEndFeedData(TypedDict):
    result: NotRequired[Outcome]
    abandoned: NotRequired[bool]
    match: int | None


class MatchEndFeedEvent(TypedDict):
    seq: int
    at: str
    type: MatchEndFeedEventTypeEnum
    match: int | None
    data: MatchEndFeedData


class MatchPage(TypedDict):
    results: list[MatchSummary]
    count: int
    next: str | None
    previous: str | None


class MatchStartedFeedEvent(TypedDict):
    seq: int
    at: str
    type: MatchStartedFeedEventTypeEnum
    match: int | None
    data: MatchStartedFeedData


class MoveAction(TypedDict):
    to: list[int]
    action: MoveActionActionEnum


class MoveEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: MoveEventTypeEnum
    data: MoveEventData


class NewApiToken(TypedDict):
    id: int
    name: str
    scopes: list[ScopesEnum]
    created_at: str
    token: str


class OnlinePage(TypedDict):
    results: list[OnlineRow]
    count: int
    next: str | None
    previous: str | None


class OwnEntry(TypedDict):
    tournament: int
    name: str
    status: TournamentStatusEnum
    play: PlayEnum
    self_report: SelfReportEnum
    self_checkin: bool
    entry: str
    present: bool
    table: OwnTable | None


class PassAction(TypedDict):
    action: PassActionActionEnum


class PassEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: PassEventTypeEnum
    data: PassEventData


class PlayAction(TypedDict):
    card: str
    suit: NotRequired[SuitEnum]
    announce: NotRequired[AnnounceEnum]
    action: PlayActionActionEnum


class PlayActionRequest(TypedDict):
    expected_version: NotRequired[int]
    card: str
    suit: NotRequired[SuitEnum]
    announce: NotRequired[AnnounceEnum]
    action: PlayActionActionEnum


class PlayEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: PlayEventTypeEnum
    data: PlayEventData


class Player(TypedDict):
    id: int
    username: str
    name: str
    rating: Rating
    matches: MatchCounts


class PlayerJoinedFeedEvent(TypedDict):
    seq: int
    at: str
    type: PlayerJoinedFeedEventTypeEnum
    match: int | None
    data: PlayerJoinedFeedData


class PlayerLeftFeedEvent(TypedDict):
    seq: int
    at: str
    type: PlayerLeftFeedEventTypeEnum
    match: int | None
    data: PlayerLeftFeedData


class PoolEnterRequest(TypedDict):
    ruleset: RulesetEnum
    seats: int
    rated: NotRequired[bool]
    bots_ok: NotRequired[bool]
    wait_seconds: NotRequired[int | None]


class PoolEntry(TypedDict):
    id: int
    status: PoolEntryStatusEnum
    ruleset: str
    seats: int
    rated: bool
    bots_ok: bool
    wait_seconds: int
    match: int | None
    created_at: str


class ProposeEndAction(TypedDict):
    action: ProposeEndActionActionEnum


class ProposeEndEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: ProposeEndEventTypeEnum
    data: ProposeEndEventData


class RecordedMatch(TypedDict):
    id: int
    ruleset: str
    game: RecordedMatchGameEnum
    seat_count: int
    options: dict[str, Any]
    deals: int
    target: int | None
    layout: dict[str, Any] | None
    turn_seconds: int | None
    status: RecordedMatchStatusEnum
    practice: bool
    created_at: str
    finished_at: str | None


class RegisterRequest(TypedDict):
    player: NotRequired[str]
    guest: NotRequired[str]
    bot: NotRequired[StrategyEnum]
    name: NotRequired[str]
    entries: NotRequired[list[EntrantRequest]]


class Report(TypedDict):
    id: int
    round: int
    table: int
    by: str
    at: str
    result: dict[str, Any]
    status: ReportStatusEnum
    answered_by: str | None
    answered_at: str | None
    reason: str


class ReportCreateRequest(TypedDict):
    deals: NotRequired[list[TableDealRequest]]
    hands: NotRequired[list[AbbottHandRequest]]
    confirm: NotRequired[bool]


class ReshuffleEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: ReshuffleEventTypeEnum
    data: ReshuffleEventData


class ResignEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: ResignEventTypeEnum
    data: ResignEventData


class ReverseEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: ReverseEventTypeEnum
    data: ReverseEventData


class RoundSeatedFeedEvent(TypedDict):
    seq: int
    at: str
    type: RoundSeatedFeedEventTypeEnum
    match: int | None
    data: RoundSeatedFeedData


class Ruleset(TypedDict):
    name: str
    game: RulesetGameEnum
    title: str
    players: list[int]
    options: dict[str, Any]
    description: str
    bots: list[str]


class RulesetPage(TypedDict):
    results: list[Ruleset]
    count: int
    next: str | None
    previous: str | None


class Series(TypedDict):
    id: int
    name: str
    public: bool
    public_url: str | None
    tournaments: list[SeriesTournament]
    created_at: str


class SeriesStandingRow(TypedDict):
    rank: int
    name: str
    kind: SeriesStandingRowKindEnum
    score: float
    points: float
    tournaments: int
    ranks: dict[str, int]


class SkipEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: SkipEventTypeEnum
    data: SkipEventData


class StandingRow(TypedDict):
    rank: int
    entry: int
    player: str
    kind: EntryKindEnum
    bot: str | None
    score: float
    points: float
    deals_won: int
    played: int
    byes: int
    withdrawn: bool
    present: bool
    tiebreaks: Tiebreaks
    rating: float
    round_points: dict[str, float | None]


class SuitEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: SuitEventTypeEnum
    data: SuitEventData


class Table(TypedDict):
    number: int
    match: int | None
    played: PlayEnum
    recorded: bool
    seats: list[TableSeat]
    fill_bots: int
    result: TableResultOut | None
    report_status: ReportStatusEnum | NullEnum | None


class TableReportFeedEvent(TypedDict):
    seq: int
    at: str
    type: TableReportFeedEventTypeEnum
    match: int | None
    data: TableReportFeedData


class TableResultRequest(TypedDict):
    deals: NotRequired[list[TableDealRequest]]
    hands: NotRequired[list[AbbottHandRequest]]
    replace: NotRequired[bool]
    confirm: NotRequired[bool]
    reason: NotRequired[str]


class TimeoutEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: TimeoutEventTypeEnum
    data: TimeoutEventData


class TournamentPage(TypedDict):
    results: list[TournamentSummary]
    count: int
    next: str | None
    previous: str | None


Action: TypeAlias = (
    PlayAction
    | DrawAction
    | EndTurnAction
    | MoveAction
    | PassAction
    | AllyAction
    | ProposeEndAction
    | DeclineEndAction
)


ActionRequest: TypeAlias = (
    PlayActionRequest
    | DrawActionRequest
    | EndTurnActionRequest
    | MoveActionRequest
    | PassActionRequest
    | AllyActionRequest
    | ProposeEndActionRequest
    | DeclineEndActionRequest
)


Challenge = TypedDict(
    "Challenge",
    {
        "id": int,
        "to": list[Invitation],
        "status": ChallengeStatusEnum,
        "reason": ReasonEnum | NullEnum | None,
        "match": int | None,
        "created_at": str,
        "expires_at": str,
        "ruleset": str,
        "seats": int,
        "options": dict[str, Any],
        "bots": list[BotSeat],
        "deals": int,
        "target": int | None,
        "turn_seconds": int | None,
        "rated": bool,
        "from": str,
        "from_bot_account": bool,
    },
)


class ChallengePage(TypedDict):
    results: list[Challenge]
    count: int
    next: str | None
    previous: str | None


class PenaltyEventData(TypedDict):
    kind: str
    draw: int
    skip: NotRequired[int]
    cancelled: NotRequired[int]
    reason: NotRequired[str]
    play: NotRequired[Action]


class RecordedAction(TypedDict):
    seat: int
    action: Action
    timeout: NotRequired[bool]


class RecordedDeal(TypedDict):
    number: int
    seed: str
    shuffle_commitment: str
    actions: list[RecordedAction]


class Round(TypedDict):
    number: int
    status: RoundStatusEnum
    seed: int
    repeats: int
    repeat_lower_bound: int
    repeat_verdict: RepeatVerdictEnum
    published_at: str | None
    clock: Clock
    tables: list[Table]
    byes: list[Seated]


class SheddingView(TypedDict):
    id: int
    ruleset: str
    options: dict[str, Any]
    status: MatchStatusEnum
    version: int
    deal: int
    seat_count: int
    deals: int
    target: int | None
    turn_seconds: int | None
    rated: bool
    practice: bool
    turn_deadline: str | None
    created_by: str
    created_by_bot_account: bool
    shuffle_commitment: str | None
    to_move: int | None
    legal_moves: list[Action]
    result: Result | None
    game: SheddingViewGameEnum
    seats: list[SheddingSeat]
    you: SheddingYou | None
    direction: NotRequired[int]
    top_card: NotRequired[str | None]
    active_suit: NotRequired[str | None]
    pending: NotRequired[Pending]
    stock_count: NotRequired[int]
    discard_count: NotRequired[int]
    discard_pile: NotRequired[list[str]]
    turn: NotRequired[Turn]
    finish_order: NotRequired[list[int]]
    history: NotRequired[list[HistoryEntry]]
    last_deal: NotRequired[LastDeal | None]


class Tournament1(TypedDict):
    id: int
    name: str
    ruleset: str
    options: dict[str, Any]
    scoring: ScoringEnum
    planned_rounds: int
    table_size: int
    deals_per_round: int | None
    target: int | None
    seating: SeatingEnum
    bye_policy: ByePolicyEnum
    play: PlayEnum
    fill_with_bots: str | None
    ranking: RankingEnum
    self_report: SelfReportEnum
    self_checkin: bool
    tiebreaks: list[str]
    public: bool
    public_url: str | None
    language: LanguageEnum
    status: TournamentStatusEnum
    created_by: str
    created_at: str
    entries: list[Entry]
    rounds: list[Round]


class AbbottView(TypedDict):
    id: int
    ruleset: str
    options: dict[str, Any]
    status: MatchStatusEnum
    version: int
    deal: int
    seat_count: int
    deals: int
    target: int | None
    turn_seconds: int | None
    rated: bool
    practice: bool
    turn_deadline: str | None
    created_by: str
    created_by_bot_account: bool
    shuffle_commitment: str | None
    to_move: int | None
    legal_moves: list[Action]
    result: Result | None
    game: AbbottViewGameEnum
    seats: list[AbbottSeat]
    you: AbbottYou | None
    players: NotRequired[int]
    size: NotRequired[int]
    control_threshold: NotRequired[int]
    hand: NotRequired[int]
    first_mover: NotRequired[int | None]
    dealer: NotRequired[int | None]
    grid: NotRequired[list[list[str | None]]]
    pieces: NotRequired[list[list[int]]]
    consent_asked: NotRequired[int | None]
    alliance: NotRequired[Alliance | None]
    totals: NotRequired[list[int]]
    controls: NotRequired[list[int]]
    piece_to_move: NotRequired[int | None]


class GameRecord(TypedDict):
    format: FormatEnum
    match: RecordedMatch
    players: list[RecordedPlayer]
    deals: list[RecordedDeal]
    result: Result | None


class PenaltyEvent(TypedDict):
    seq: int
    at: str
    seat: int | None
    type: PenaltyEventTypeEnum
    data: PenaltyEventData


View: TypeAlias = SheddingView | AbbottView


class YourTurnFeedData(TypedDict):
    seat: int
    version: int
    view: View
    match: int | None


class YourTurnFeedEvent(TypedDict):
    seq: int
    at: str
    type: YourTurnFeedEventTypeEnum
    match: int | None
    data: YourTurnFeedData


Event: TypeAlias = (
    DealEvent
    | HandEvent
    | PlayEvent
    | AnnounceEvent
    | SuitEvent
    | PenaltyEvent
    | ReverseEvent
    | DrawEvent
    | ReshuffleEvent
    | SkipEvent
    | EndTurnEvent
    | FinishEvent
    | DealEndEvent
    | MoveEvent
    | PassEvent
    | AllyEvent
    | ProposeEndEvent
    | ConsentAskedEvent
    | DeclineEndEvent
    | HandEndEvent
    | MatchEndEvent
    | TimeoutEvent
    | BotTakeoverEvent
    | ResignEvent
)


class EventPage(TypedDict):
    results: list[Event]
    count: int
    next: str | None
    previous: str | None


FeedEvent: TypeAlias = (
    YourTurnFeedEvent
    | MatchStartedFeedEvent
    | MatchEndFeedEvent
    | PlayerJoinedFeedEvent
    | PlayerLeftFeedEvent
    | ChallengeFeedEvent
    | ChallengeDeclinedFeedEvent
    | ChallengeCancelledFeedEvent
    | ChallengeExpiredFeedEvent
    | RoundSeatedFeedEvent
    | TableReportFeedEvent
)


class FeedPage(TypedDict):
    results: list[FeedEvent]
    count: int
    next: str | None
    previous: str | None


class MoveResult(TypedDict):
    event: Event
    events: list[Event]
    view: View

"""Every option makes a sound record (switchgame/records/gamerecord.py, switchgame/records/notation.py): matches of every
ruleset, with house rules drawn from every option the shedding rulesets take (blunders and their
penalties, jokers, decks, stacking, every power) and both Abbott presets, played as the service
plays them — each advance decided by the service's own pure decision
(switchgame/decision.py), with illegal plays, turn clocks running out, bots taking seats,
resignations and abandonment — end with a record that is built from the log, re-creates the
game's last state from itself alone, verifies, survives the text notation and the JSON the export
writes, unchanged."""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import orjson
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from switchgame import catalog
from switchgame.cards import CARD_CODES, SUITS
from switchgame.decision import Abandon, Holder, MatchRead, Start, Status, decide
from switchgame.protocol import Event, GameState, IllegalMove, InvalidAction, InvalidOptions
from switchgame.records.gamerecord import Record, positions, record_from_log, verify_record
from switchgame.records.notation import record_from_text, record_text
from switchgame.records.replay import MatchSettings, turn_defaults
from switchgame.shedding import options as shedding_options
from tests.engine.test_gamerecord import record_match

NOW = datetime(2026, 11, 28, tzinfo=UTC)
# A match still going after this many actions is abandoned by staff (random play under some house
# rules has no reason to end), which is one more way a match ends.
ACTIONS_BEFORE_STAFF_STEP_IN = 400
STRIKES_BEFORE_TAKEOVER = 3
PATTERNS = ("2", "3", "5", "7", "8", "J", "Q", "K", "A", "X", "J-black", "Q-red", "QS", "AH", "2C")


@st.composite
def effects(draw: st.DrawFn) -> dict[str, Any]:
    """A power card's effect, as docs/rules.md §6.2 allows them to be combined."""
    effect: dict[str, Any] = {}
    if draw(st.booleans()):
        effect["draw"] = draw(st.integers(1, 5))
        if draw(st.booleans()):
            effect["stack_draw"] = draw(st.integers(0, 5))
        if draw(st.booleans()):
            effect["stacked_by"] = draw(st.lists(st.sampled_from(PATTERNS), max_size=3))
        if draw(st.booleans()):
            answers = st.one_of(st.just("all"), st.integers(1, 6))
            effect["cancelled_by"] = draw(
                st.dictionaries(st.sampled_from(PATTERNS), answers, max_size=2)
            )
    if draw(st.booleans()):
        effect["skip"] = draw(st.integers(1, 2))
        if draw(st.booleans()):
            effect["skip_chain"] = draw(st.sampled_from(shedding_options.SKIP_CHAIN))
    for flag in ("reverse", "names_suit", "anywhere", "wild"):
        if draw(st.integers(0, 3)) == 0:
            effect[flag] = True
    if draw(st.booleans()):
        effect["then"] = draw(st.sampled_from(shedding_options.THEN))
    return effect


HOUSE_RULES = st.fixed_dictionaries(
    {},
    optional={
        "decks": st.integers(1, shedding_options.MAX_DECKS),
        "jokers": st.integers(0, 4),
        "hand_size": st.integers(2, 9),
        "starter_may_be_power": st.booleans(),
        "draw_rule": st.sampled_from(shedding_options.DRAW_RULES),
        "may_draw_voluntarily": st.booleans(),
        "multi_card": st.sampled_from(shedding_options.MULTI_CARD),
        "powers": st.dictionaries(
            st.sampled_from(PATTERNS), st.one_of(st.none(), effects()), max_size=4
        ),
        "max_draw": st.one_of(st.none(), st.integers(1, 12)),
        "last_card_penalty": st.sampled_from(
            ("none", "no_finish", "skip_and_draw_1", "draw_2", "no_finish_draw_1")
        ),
        "finish_unannounced_in_one_turn": st.booleans(),
        "finish_on_power": st.booleans(),
        "play_until": st.sampled_from(shedding_options.PLAY_UNTIL),
        "blunder_penalty": st.integers(0, 10),
        "two_player_reverse": st.sampled_from(shedding_options.TWO_PLAYER_REVERSE),
        "must_not_be_lower": st.booleans(),
        "counter_clockwise": st.booleans(),
    },
)


@st.composite
def match_settings(draw: st.DrawFn) -> MatchSettings:
    """A ruleset, its seats and house rules, and how long the match lasts: as a match is created
    (a combination the rules refuse is one the service refuses too: drawn again)."""
    ruleset = draw(st.sampled_from(sorted(catalog.RULESETS)))
    info = catalog.find_ruleset(ruleset)
    low, high = info.players
    seats = draw(st.integers(low, min(high, 5)))
    if info.game == catalog.ABBOTT:
        return MatchSettings(ruleset, seats, target=draw(st.integers(5, 15)))
    options = draw(HOUSE_RULES)
    length = draw(st.sampled_from(("deals", "target")))
    chosen = MatchSettings(ruleset, seats, options=options)
    if length == "target":
        chosen = replace(chosen, target=draw(st.integers(10, 80)))
    else:
        chosen = replace(chosen, deals=draw(st.integers(1, 3)))
    try:
        chosen.new_game()
    except InvalidOptions:
        reject()
    return chosen


@dataclass
class Simulated:
    """A match advanced as the service advances one (games.services.pipeline): every operation's
    events go through :func:`decide`, which deals, reveals seeds and ends the match; the log is
    what the service stores."""

    settings: MatchSettings
    game: GameState
    holders: list[Holder]
    on_resign: str
    rng: random.Random
    read: MatchRead = field(
        default_factory=lambda: MatchRead(
            status=Status.WAITING,
            version=1,
            turn=(0, 0),
            deal_number=0,
            deal_seed="",
            turn_seconds=60,
            turn_deadline=None,
            layout=None,
        )
    )
    log: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    bots: dict[int, str] = field(default_factory=dict)
    strikes: dict[int, int] = field(default_factory=dict)

    def advance(self, events: list[Event], transition: Start | Abandon | None = None) -> None:
        decision = decide(
            read=self.read,
            game=self.game,
            holders=self.holders,
            events=events,
            now=NOW,
            new_seed=self.rng.randbytes(32),
            transition=transition,
        )
        for event in decision.events:
            self.log.append({"seq": len(self.log) + 1, **event.to_dict()})
        self.read = replace(
            self.read,
            status=decision.status,
            version=decision.version,
            turn=self.game.turn_id,
            deal_number=decision.deal_number,
            deal_seed=decision.deal_seed,
            turn_deadline=decision.turn_deadline,
        )
        if decision.ended:
            self.result = dict(decision.result or {})

    @property
    def active(self) -> bool:
        return self.read.status == Status.ACTIVE

    def take_seat(self, seat: int, *, strategy: str | None, resigned: bool) -> None:
        holder = self.holders[seat]
        self.holders[seat] = replace(holder, bot=strategy is not None, resigned=resigned)
        if strategy is not None:
            self.bots[seat] = strategy

    def act(self, seat: int) -> None:
        """One thing the seat to move does: mostly a legal action, sometimes an illegal play."""
        legal = self.game.legal_actions()
        if not self.holders[seat].bot and self.rng.random() < 0.05:
            with contextlib.suppress(IllegalMove, InvalidAction):  # refused: nothing is written
                self.advance(self.game.apply(self.illegal_play()))
            return
        plays = [a for a in legal if a["action"] in ("play", "move")]
        # Mostly plays: random voluntary draws make long deals.
        self.advance(
            self.game.apply(self.rng.choice(plays if plays and self.rng.random() < 0.8 else legal))
        )

    def illegal_play(self) -> dict[str, Any]:
        action = {"action": "play", "card": self.rng.choice(CARD_CODES)}
        if self.rng.random() < 0.3:
            action["suit"] = self.rng.choice(SUITS)
        if self.rng.random() < 0.2:
            action["announce"] = "last_card"
        return action

    def time_out(self, seat: int) -> None:
        """The seat's clock ran out (games.services.matches.turn_timeout_apply)."""
        self.strikes[seat] = self.strikes.get(seat, 0) + 1
        events = [Event("timeout", seat, {"strikes": self.strikes[seat]})]
        for _, defaults in turn_defaults(self.game):
            events += defaults
        if self.strikes[seat] >= STRIKES_BEFORE_TAKEOVER and not self.holders[seat].bot:
            self.take_seat(seat, strategy="heuristic", resigned=False)
            events.append(Event("bot_takeover", seat, {"strategy": "heuristic"}))
        self.advance(events)

    def resign(self, seat: int) -> None:
        """The seat's player leaves (games.services.matches.match_resign)."""
        ending = self.on_resign == "forfeit" or all(
            h.resigned or h.bot for h in self.holders if h.seat != seat
        )
        strategy = None if ending or self.on_resign != "bot" else "heuristic"
        self.take_seat(seat, strategy=strategy, resigned=True)
        events = [Event("resign", seat, {"replaced_by": strategy})]
        resigned = [h.seat for h in self.holders if h.resigned]
        self.advance(events, Abandon({"abandoned": True, "resigned": resigned}) if ending else None)

    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": h.seat,
                "player": f"p{h.seat}" if h.user_id is not None else None,
                "bot_account": False,
                "bot": self.bots.get(h.seat),
                "resigned": h.resigned,
            }
            for h in self.holders
        ]


def played(chosen: MatchSettings, seed: int) -> Simulated:
    """A match of ``chosen`` played at random from ``seed``: people and server bots, illegal plays,
    timeouts (a third one hands the seat to a bot), resignations, and staff ending a match that
    goes on too long."""
    rng = random.Random(seed)
    seats = chosen.players
    bot_seats = set(rng.sample(range(1, seats), rng.randint(0, seats - 1)))
    match = Simulated(
        settings=chosen,
        game=chosen.new_game(),
        holders=[
            Holder(seat, None if seat in bot_seats else seat + 1, seat in bot_seats, False)
            for seat in range(seats)
        ],
        on_resign=rng.choice(("bot", "forfeit")),
        rng=rng,
        bots=dict.fromkeys(bot_seats, "random"),
    )
    match.advance([], Start())
    resign_at = rng.randint(1, 300) if rng.random() < 0.3 else None
    for actions in range(1, ACTIONS_BEFORE_STAFF_STEP_IN + 1):
        if not match.active:
            return match
        seat = match.game.to_move
        assert seat is not None, "an active match with nobody to move"
        person = match.holders[seat].person
        if person and actions == resign_at:
            match.resign(seat)
        elif person and rng.random() < 0.04:
            match.time_out(seat)
        else:
            match.act(seat)
    if match.active:
        match.advance([], Abandon({"abandoned": True, "reason": "too long"}))
    return match


def record_of(match: Simulated) -> Record:
    return record_from_log(
        match=record_match(match.settings, match.game.game, str(match.read.status)),
        players=match.players(),
        events=match.log,
        result=match.result,
        seed_in_play=match.read.deal_seed or None,
    )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(chosen=match_settings(), seed=st.integers(0, 2**32))
def test_every_match_that_ends_has_a_record_that_verifies_and_round_trips(
    chosen: MatchSettings, seed: int
) -> None:
    match = played(chosen, seed)
    assert match.read.status in (Status.FINISHED, Status.ABANDONED)

    record = record_of(match)
    exported = orjson.loads(orjson.dumps(record))
    from_text = record_from_text(record_text(record))

    assert exported == record
    assert from_text == record
    verified = verify_record(from_text)
    assert verified.result == match.result
    assert verified.deals == match.read.deal_number
    *_, last = positions(exported)
    assert last.state.to_dict() == match.game.to_dict()

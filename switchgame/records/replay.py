"""Re-create a match, step by step, from what the service persists — and check its event log.

The engines are deterministic: a deal is fixed by its secret seed, which the deal's last event
reveals, and every other engine event is the output of ``apply(action)``. So a match's settings
(ruleset, seats, options, deals or target, the staff layout of the first deal) and its event log are
enough to re-create the state after every event, and with it every view that any seat or spectator
was shown (``state.view(seat)``). :func:`replay` does that and checks as it goes that each event it
re-creates is the one logged; the first that is not raises :class:`ReplayError`, which names the
event and what differs. Pure Python, like the engines: no Django.

What the service (``switchgame/decision.py``) writes around the engines' own events, and how it replays:

* ``deal``: the engine's deal events, the ``deal`` event carrying ``shuffle_commitment`` (the SHA-256
  of the seed). The seed is read from the deal's ``deal_end`` / ``hand_end`` event, which carries it
  as ``seed`` (hex); the deal still in play has not revealed it, so it replays only when its seed is
  passed as ``seed_in_play`` (the match's stored ``deal_seed``). The first deal uses the layout.
* ``timeout``: the seat's turn clock ran out, and the engine's default actions were played until the
  turn changed; the replay plays them too.
* ``bot_takeover`` and ``resign``: who plays a seat changed; the game did not.
* ``match_end`` with ``abandoned``: the match was abandoned (everyone resigned, or staff ended it);
  the game did not change. (A match that finishes has the engine's own ``match_end``.)
* Any other event begins one action's events. The log does not record actions, so the replay tries
  every legal action and keeps the one whose events are the logged ones (and, for a ``penalty`` of
  kind ``blunder``, the illegal play it names privately, which the rules charged for). When one action's events are
  the beginning of another's (a play, and the same play announced), the longer match is taken; two
  actions giving the same events and different states would make the log ambiguous, and are reported.

A log cut short after a whole step replays without complaint up to where it stops; compare the
replay's final state with the match's stored state to catch that.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from switchgame import catalog
from switchgame.protocol import Action, Event, GameState, IllegalMove, InvalidAction, Outcome
from switchgame.shuffle import seed_commitment

DEAL_END_EVENTS = frozenset({"deal_end", "hand_end"})  # they reveal the seed of the deal they end
SEAT_CHANGE_EVENTS = frozenset({"bot_takeover", "resign"})
# At most this many default actions for a timed-out turn (a turn needs a few: draw, play, end turn;
# a queen covered by queens one more each).
MAX_TIMEOUT_ACTIONS = 20

LoggedEvent = dict[str, Any]  # {"seq", "type", "seat", "data", "private"}, as MatchEvent rows hold


class ReplayError(ValueError):
    """The log is not what the match's settings and its own seeds give; ``seq`` is the first event
    that differs (``None`` when the log as a whole is at fault)."""

    def __init__(self, seq: int | None, message: str) -> None:
        super().__init__(f"event {seq}: {message}" if seq is not None else message)
        self.seq = seq


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """What the service stores about a match besides its log (the ``Match`` row's fields)."""

    ruleset: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    deals: int = 1
    target: int | None = None
    layout: Mapping[str, Any] | None = None

    def new_game(self) -> GameState:
        """The match's game before its first deal; raises InvalidOptions for bad settings."""
        return catalog.new_game(
            self.ruleset, self.players, self.options, deals=self.deals, target=self.target
        )


@dataclass(frozen=True, slots=True)
class Step:
    """Logged events that happened together, and the state after them (treat it as read-only).

    ``kind`` is ``"deal"``, ``"action"`` (one ``action`` by ``seat``), ``"timeout"`` (the default
    actions ``actions`` played for ``seat``), ``"seat_change"`` (a resignation or a bot taking a
    seat: the state is the one before) or ``"abandoned"`` (the match ended without a result: the
    state is the one before).
    """

    kind: str
    seat: int | None
    actions: tuple[Action, ...]
    events: tuple[LoggedEvent, ...]
    state: GameState

    @property
    def last_seq(self) -> int:
        return int(self.events[-1]["seq"])


@dataclass(frozen=True, slots=True)
class Replay:
    """A match re-created from its settings and log: the state before any event and after each step."""

    initial: GameState
    steps: tuple[Step, ...]

    @property
    def final(self) -> GameState:
        return self.steps[-1].state if self.steps else self.initial

    def state_after(self, seq: int) -> GameState:
        """The state once the event ``seq`` had happened, with the other events of its step (the
        service commits a step's events together, so nobody was shown anything in between)."""
        index = bisect.bisect_left(self.steps, seq, key=lambda step: step.last_seq)
        if not 1 <= seq <= (self.steps[-1].last_seq if self.steps else 0):
            raise KeyError(f"the log has no event {seq}")
        return self.steps[index].state


def replay(
    settings: MatchSettings,
    events: Sequence[Mapping[str, Any]],
    *,
    seed_in_play: str | None = None,
) -> Replay:
    """Re-create the match of ``settings`` from its ``events`` (oldest first), checking each event.

    ``seed_in_play`` is the hex seed of a deal whose end is not in the log yet. Raises ReplayError at
    the first event that the settings and the seeds do not give; InvalidOptions for bad settings.
    """
    log = _normalised_log(events)
    game = settings.new_game()
    initial = game.copy()
    steps: list[Step] = []
    state = initial
    seed: str | None = None  # the hex seed of the deal in play
    deals = 0
    at = 0
    while at < len(log):
        event = log[at]
        seq, kind = event["seq"], event["type"]
        start = at
        if kind in SEAT_CHANGE_EVENTS:
            steps.append(Step("seat_change", event["seat"], (), (event,), state))
            at += 1
            continue
        if kind == "match_end" and event["data"].get("abandoned"):
            steps.append(Step("abandoned", None, (), (event,), state))
            at += 1
            continue
        if kind == "timeout":
            if event["seat"] != game.to_move:
                raise ReplayError(seq, f"a timeout for seat {event['seat']}, but {_who(game)}")
            actions, at = _play_defaults(game, log, at + 1, seed)
            state = game.copy()
            steps.append(Step("timeout", event["seat"], actions, tuple(log[start:at]), state))
            continue
        if game.needs_deal:
            if kind != "deal":
                raise ReplayError(seq, f"a {kind} event where deal {deals + 1} should begin")
            seed = _deal_seed(log, at, seed_in_play, deals + 1)
            if seed_commitment(bytes.fromhex(seed)) != event["data"].get("shuffle_commitment"):
                raise ReplayError(
                    seq, f"the seed revealed for deal {deals + 1} does not match its commitment"
                )
            layout = settings.layout if deals == 0 else None
            dealt = _as_logged(game.deal(bytes.fromhex(seed), layout), seed)
            at = _expect(log, at, dealt)
            deals += 1
            state = game.copy()
            steps.append(Step("deal", None, (), tuple(log[start:at]), state))
            continue
        if game.is_over:
            raise ReplayError(seq, f"a {kind} event after the end of the match")
        seat = game.to_move
        action, game, at = _find_action(game, log, at, seed)
        state = game.copy()
        steps.append(Step("action", seat, (action,), tuple(log[start:at]), state))
    return Replay(initial=initial, steps=tuple(steps))


# --- reading the log ----------------------------------------------------------------------------


def _normalised_log(events: Sequence[Mapping[str, Any]]) -> list[LoggedEvent]:
    """The events as JSON gives them back (as they are stored), numbered 1, 2, 3… without a gap."""
    log = []
    for expected_seq, event in enumerate(events, start=1):
        seq = event.get("seq")
        if seq != expected_seq:
            raise ReplayError(
                seq, f"the log's events are numbered 1, 2, 3…: event {expected_seq} is missing"
            )
        log.append(
            _json(
                {
                    "seq": seq,
                    "type": event["type"],
                    "seat": event.get("seat"),
                    "data": event.get("data") or {},
                    "private": event.get("private"),
                }
            )
        )
    return log


def _deal_seed(log: list[LoggedEvent], at: int, seed_in_play: str | None, number: int) -> str:
    """The seed revealed by the first deal-ending event after the deal at ``at`` (or the one given)."""
    end = next((e for e in log[at + 1 :] if e["type"] in DEAL_END_EVENTS), None)
    if end is None:
        if seed_in_play is None:
            raise ReplayError(
                log[at]["seq"],
                f"deal {number} is still in play and its seed is not revealed: pass seed_in_play",
            )
        seed = seed_in_play
    else:
        seed = end["data"].get("seed")
    if not isinstance(seed, str):
        raise ReplayError(end["seq"] if end else None, f"deal {number}'s seed is missing")
    try:
        bytes.fromhex(seed)
    except ValueError:
        raise ReplayError(end["seq"] if end else None, f"deal {number}'s seed is not hex") from None
    return seed


# --- re-creating events -------------------------------------------------------------------------


def _as_logged(events: list[Event], seed: str | None) -> list[LoggedEvent]:
    """Engine events as the service logs them: the deal carries the seed's commitment, and the
    deal's end reveals the seed."""
    logged = []
    for event in events:
        if event.type == "deal" and seed is not None:
            event = event.with_data(shuffle_commitment=seed_commitment(bytes.fromhex(seed)))
        elif event.type in DEAL_END_EVENTS:
            event = event.with_data(seed=seed)
        logged.append(_json(event.to_dict()))
    return logged


def _expect(log: list[LoggedEvent], at: int, produced: list[LoggedEvent]) -> int:
    """Check that the log holds ``produced`` from ``at``; returns the index after them."""
    for offset, event in enumerate(produced):
        if at + offset >= len(log):
            raise ReplayError(
                log[-1]["seq"], f"the log ends where a {event['type']} event should follow"
            )
        logged = log[at + offset]
        difference = _difference(logged, event)
        if difference:
            raise ReplayError(logged["seq"], f"{_name(logged)}: {difference}")
    return at + len(produced)


def _agreement(log: list[LoggedEvent], at: int, produced: list[LoggedEvent]) -> int:
    """How many of ``produced`` the log holds from ``at`` before the first difference."""
    for offset, event in enumerate(produced):
        if at + offset >= len(log) or _difference(log[at + offset], event):
            return offset
    return len(produced)


def _find_action(
    game: GameState, log: list[LoggedEvent], at: int, seed: str | None
) -> tuple[Action, GameState, int]:
    """The legal action whose events are the logged ones from ``at``: the action, the state after
    it, and the index after its events."""
    found: list[tuple[int, Action, GameState]] = []
    tried: list[tuple[int, Action, list[LoggedEvent]]] = []
    for action in _candidates(game, log[at]):
        trial = game.copy()
        try:
            produced = _as_logged(trial.apply(action), seed)
        except (IllegalMove, InvalidAction):
            continue  # a charged play the log names that the rules refuse outright
        agreed = _agreement(log, at, produced)
        if agreed == len(produced):
            found.append((agreed, action, trial))
        tried.append((agreed, action, produced))
    if not found:
        raise ReplayError(*_closest_difference(game, log, at, tried))
    longest = max(length for length, _, _ in found)
    found = [item for item in found if item[0] == longest]
    _, action, after = found[0]
    if any(other.to_dict() != after.to_dict() for _, _, other in found[1:]):
        alternatives = ", ".join(json.dumps(a) for _, a, _ in found)
        raise ReplayError(
            log[at]["seq"], f"the log does not say which action was taken: {alternatives}"
        )
    return action, after, at + longest


def _candidates(game: GameState, logged: LoggedEvent) -> list[Action]:
    """The actions that may have given the events from ``logged``: the legal ones, and the
    illegal play a blunder penalty names (docs/rules.md §2.14: with ``blunder_penalty`` an illegal
    play is charged for instead of refused, and its ``penalty`` event keeps the play, privately)."""
    candidates = list(game.legal_actions())
    if logged["type"] == "penalty" and logged["data"].get("kind") == "blunder":
        charged = (logged["private"] or {}).get("play")
        if isinstance(charged, Mapping):
            candidates.append(dict(charged))
    return candidates


def turn_defaults(game: GameState) -> Iterator[tuple[Action, list[Event]]]:
    """The default actions a timed-out turn takes, applied one by one with their events, to the
    turn's end: after a draw that may be followed by a play, the turn is ended too rather than
    left with a spent clock. Stops when nobody is to move (a default that ended the deal), and
    after MAX_TIMEOUT_ACTIONS whatever happens, so that an engine bug cannot hang a worker."""
    turn = game.turn_id
    for _ in range(MAX_TIMEOUT_ACTIONS):
        action = game.default_action()
        yield action, game.apply(action)
        if game.turn_id != turn or game.to_move is None:
            return


def _play_defaults(
    game: GameState, log: list[LoggedEvent], at: int, seed: str | None
) -> tuple[tuple[Action, ...], int]:
    """Play the default actions of a timed-out turn as the service does, checking their events."""
    actions = []
    for action, events in turn_defaults(game):
        actions.append(action)
        at = _expect(log, at, _as_logged(events, seed))
    return tuple(actions), at


# --- explaining differences ---------------------------------------------------------------------


def _closest_difference(
    game: GameState,
    log: list[LoggedEvent],
    at: int,
    tried: list[tuple[int, Action, list[LoggedEvent]]],
) -> tuple[int, str]:
    """Where the log parts from the legal action that follows it longest, and how (the event's seq
    and a sentence), for a log that no legal action explains."""

    def closeness(item: tuple[int, Action, list[LoggedEvent]]) -> tuple[int, int, int]:
        agreed, _, produced = item
        if agreed >= len(log) - at:
            return (agreed, 0, 0)
        logged, event = log[at + agreed], produced[agreed]
        same_kind = (logged["type"], logged["seat"]) == (event["type"], event["seat"])
        same_data = sum(event["data"].get(key) == value for key, value in logged["data"].items())
        return (agreed, same_kind, same_data)

    candidates = [item for item in tried if closeness(item)[:2] > (0, 0)]
    if not candidates:
        logged = log[at]
        return logged["seq"], f"no legal action gives {_name(logged)} ({_who(game)})"
    agreed, action, produced = max(candidates, key=closeness)
    if at + agreed >= len(log):
        return log[-1][
            "seq"
        ], f"the log ends where a {produced[agreed]['type']} event should follow"
    logged = log[at + agreed]
    return logged["seq"], (
        f"{_name(logged)} is not what the closest legal action, {json.dumps(action)} "
        f"(by seat {game.to_move}), gives: {_difference(logged, produced[agreed])}"
    )


def _difference(logged: LoggedEvent, produced: LoggedEvent) -> str:
    """The first way ``logged`` differs from ``produced`` (an empty string when it does not)."""
    for key in ("type", "seat"):
        if logged[key] != produced[key]:
            return f"{key} is {logged[key]!r} in the log, {produced[key]!r} in the replay"
    if produced["type"] == "match_end" and "conceded" not in (logged["data"] or {}):
        # Logged before results carried tallies: compared as results were written then.
        produced = {**produced, "data": Outcome.from_json(produced["data"]).earlier_json()}
    for part in ("data", "private"):
        mine, theirs = logged[part] or {}, produced[part] or {}
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key) != theirs.get(key):
                return (
                    f"{part}.{key} is {_short(mine.get(key))} in the log, "
                    f"{_short(theirs.get(key))} in the replay"
                )
    return ""


def _name(event: LoggedEvent) -> str:
    seat = f" of seat {event['seat']}" if event["seat"] is not None else ""
    return f"the {event['type']} event{seat}"


def _who(game: GameState) -> str:
    return "nobody is to move" if game.to_move is None else f"seat {game.to_move} is to move"


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json(value: Any) -> Any:
    """``value`` as a JSON column gives it back: lists for tuples, string keys."""
    return json.loads(json.dumps(value))

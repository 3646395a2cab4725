"""The game record (``switch-record/1``): a finished match as its settings, its players, and for
each deal the seed, the seed's commitment and the actions taken — and the check that re-creates
every state from a record alone.

The engines are deterministic, so a deal is fixed by its seed and every state after it by the
actions taken; nothing else is needed to re-create a game, and nothing in a record has to be taken
on trust: :func:`positions` deals every deal from its seed, after checking the seed against the
commitment published before the deal was played, and applies every action, checking that the seat
named is the seat to move and that the action is legal. The result the record claims must be the
one the game reaches. :func:`record_from_log` builds a record from what the service stores (the
match's settings and event log, which :func:`switchgame.records.replay.replay` checks on the way);
:func:`game_record` from its parts, when the ``deals`` were worked out by it once before.

A record, as JSON::

    {"format": "switch-record/1",
     "match": {"id", "ruleset", "game", "seat_count", "options", "deals", "target", "layout",
               "turn_seconds", "status", "practice", "created_at", "finished_at"},
     "players": [{"seat", "player", "bot_account", "bot", "resigned"}, …],
     "deals": [{"number", "seed", "shuffle_commitment",
                "actions": [{"seat", "action"} or {"seat", "action", "timeout": true}, …]}, …],
     "result": the match's result}

An action with ``"timeout": true`` was played by the turn clock: it must be the engine's default
action at that point. Pure Python, like the engines: no Django.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from switchgame import catalog
from switchgame.protocol import (
    Action,
    GameState,
    IllegalMove,
    InvalidAction,
    InvalidLayout,
    InvalidOptions,
)
from switchgame.records.replay import DEAL_END_EVENTS, MatchSettings, replay
from switchgame.shuffle import seed_commitment

FORMAT = "switch-record/1"
ENDED_STATUSES = frozenset({"finished", "abandoned"})

Record = dict[str, Any]


class RecordError(ValueError):
    """The record is not a game the rules and its own seeds give; ``deal`` and ``action`` (1-based)
    say where, when the fault is in one deal or one action."""

    def __init__(self, message: str, *, deal: int | None = None, action: int | None = None) -> None:
        where = f"deal {deal}" if deal is not None else ""
        if action is not None:
            where += f", action {action}"
        super().__init__(f"{where}: {message}" if where else message)
        self.deal = deal
        self.action = action


@dataclass(frozen=True, slots=True)
class Position:
    """The game after a deal (``action`` 0) or after one action of it; ``state`` is the engine's
    state then (its ``view(seat)`` is what each seat was shown)."""

    deal: int
    action: int
    seat: int | None
    played: Action | None
    state: GameState


@dataclass(frozen=True, slots=True)
class Verified:
    """What a verified record holds: its deals, actions and the result the game reached."""

    deals: int
    actions: int
    result: Mapping[str, Any] | None


# --- building a record from the service's log ---------------------------------------------------


def record_from_log(
    *,
    match: Mapping[str, Any],
    players: Sequence[Mapping[str, Any]],
    events: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any] | None,
    seed_in_play: str | None = None,
) -> Record:
    """The record of a match from its settings (``match``, the record's ``match`` object), its
    ``players`` and its event log. ``seed_in_play`` is the seed of a deal the log does not end
    (an abandoned match's). Raises ReplayError if the log is not the game its settings give."""
    deals = deals_from_log(match=match, events=events, seed_in_play=seed_in_play)
    return game_record(match=match, players=players, deals=deals, result=result)


def game_record(
    *,
    match: Mapping[str, Any],
    players: Sequence[Mapping[str, Any]],
    deals: Any,
    result: Mapping[str, Any] | None,
) -> Record:
    """A record from its parts: ``deals`` as :func:`deals_from_log` gives them — or, for a record
    that is only to be written out, already written in a form its writer copies as it is."""
    return {
        "format": FORMAT,
        "match": dict(match),
        "players": [dict(p) for p in players],
        "deals": deals,
        "result": result,
    }


def deals_from_log(
    *,
    match: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    seed_in_play: str | None = None,
) -> list[dict[str, Any]]:
    """The record's ``deals`` — each deal's seed, commitment and actions — from the match's log,
    replayed (:func:`switchgame.records.replay.replay`: the log does not name the actions, so the replay finds
    each as the legal action that gives the events logged)."""
    settings = _settings(match)
    replayed = replay(settings, events, seed_in_play=seed_in_play)
    seeds = [
        str(e["data"]["seed"]) for e in events if e["type"] in DEAL_END_EVENTS and e.get("data")
    ]
    deals: list[dict[str, Any]] = []
    for step in replayed.steps:
        if step.kind == "deal":
            number = len(deals) + 1
            dealt = next(e for e in step.events if e["type"] == "deal")
            seed = seeds[number - 1] if number <= len(seeds) else seed_in_play
            deals.append(
                {
                    "number": number,
                    "seed": seed,
                    "shuffle_commitment": dealt["data"]["shuffle_commitment"],
                    "actions": [],
                }
            )
        elif step.kind in ("action", "timeout"):
            extra = {"timeout": True} if step.kind == "timeout" else {}
            deals[-1]["actions"] += [
                {"seat": step.seat, "action": _plain(action), **extra} for action in step.actions
            ]
    return deals


# --- verifying a record from itself alone --------------------------------------------------------


def verify_record(record: Mapping[str, Any]) -> Verified:
    """Re-create every state of ``record`` and check it (see :func:`positions`); raises
    RecordError at the first fault."""
    deals = actions = 0
    for position in positions(record):
        deals = position.deal
        actions += position.action > 0
    return Verified(deals=deals, actions=actions, result=record.get("result"))


def positions(record: Mapping[str, Any]) -> Iterator[Position]:
    """Every position of the game the record holds, from the record alone: after each deal and
    after each action. Checks as it goes that each seed matches its commitment, that each action is
    the legal action of the seat to move, and at the end that the game reached the record's
    result; raises RecordError at the first fault (the positions before it were good)."""
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        raise RecordError(f'not a game record: "format" must be "{FORMAT}"')
    match = _object(record, "match")
    game = _new_game(match)
    players = record.get("players")
    if not isinstance(players, list) or len(players) != match.get("seat_count"):
        raise RecordError('"players" must list one entry per seat')
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError('"deals" must be a list')
    for number, deal in enumerate(deals, start=1):
        yield from _deal_positions(game, match, number, deal)
    _check_end(game, match, record.get("result"), len(deals))


def _deal_positions(
    game: GameState, match: Mapping[str, Any], number: int, deal: Any
) -> Iterator[Position]:
    if not isinstance(deal, Mapping) or deal.get("number") != number:
        raise RecordError(f'the deals must be numbered 1, 2, 3…: "number" {number} expected')
    if not game.needs_deal:
        raise RecordError("it starts before the deal before it has ended", deal=number)
    seed = _seed(deal, number)
    if seed_commitment(seed) != deal.get("shuffle_commitment"):
        raise RecordError("its seed does not match its shuffle_commitment", deal=number)
    layout = match.get("layout") if number == 1 else None
    try:
        game.deal(seed, layout)
    except InvalidLayout as error:
        raise RecordError(f"its layout is not a deal: {error}", deal=number) from None
    yield Position(number, 0, None, None, game.copy())
    actions = deal.get("actions")
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list', deal=number)
    for index, entry in enumerate(actions, start=1):
        seat, action = _seat_action(entry, number, index)
        if seat != game.to_move:
            who = "nobody" if game.to_move is None else f"seat {game.to_move}"
            raise RecordError(f"seat {seat} acts, but {who} is to move", deal=number, action=index)
        if entry.get("timeout") and _plain(game.default_action()) != action:
            raise RecordError(
                "a timed-out turn must play the default action "
                f"{json.dumps(_plain(game.default_action()))}",
                deal=number,
                action=index,
            )
        try:
            game.apply(action)
        except (IllegalMove, InvalidAction) as error:
            raise RecordError(
                f"{json.dumps(action)} by seat {seat} is not legal: {error}",
                deal=number,
                action=index,
            ) from None
        yield Position(number, index, seat, action, game.copy())


def _check_end(game: GameState, match: Mapping[str, Any], result: Any, deals: int) -> None:
    """The game reached the end the record claims: the outcome of a finished match; a game not
    over for an abandoned one."""
    status = match.get("status")
    if status == "finished":
        outcome = game.outcome()
        if outcome is None:
            raise RecordError(
                f"the match is finished, but its game is not over after {deals} deals"
            )
        if not outcome.recorded_as(result):
            raise RecordError("the result is not the one the game reached")
    elif status == "abandoned":
        if game.is_over:
            raise RecordError("the match is abandoned, but its game was played to the end")
        if not isinstance(result, Mapping) or result.get("abandoned") is not True:
            raise RecordError('an abandoned match\'s result must say "abandoned": true')
    else:
        raise RecordError(f'"status" must be one of {", ".join(sorted(ENDED_STATUSES))}')


# --- reading a record -----------------------------------------------------------------------------


def _settings(match: Mapping[str, Any]) -> MatchSettings:
    return MatchSettings(
        ruleset=match["ruleset"],
        players=match["seat_count"],
        options=match.get("options") or {},
        deals=match.get("deals") or 1,
        target=match.get("target"),
        layout=match.get("layout"),
    )


def _new_game(match: Mapping[str, Any]) -> GameState:
    try:
        return _settings(match).new_game()
    except (KeyError, TypeError) as error:
        raise RecordError(f'"match" lacks a setting: {error}') from None
    except (catalog.UnknownRuleset, InvalidOptions) as error:
        raise RecordError(f'"match" has bad settings: {error}') from None


def _object(record: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = record.get(key)
    if not isinstance(value, Mapping):
        raise RecordError(f'"{key}" must be an object')
    return value


def _seed(deal: Mapping[str, Any], number: int) -> bytes:
    seed = deal.get("seed")
    try:
        if isinstance(seed, str) and seed:
            return bytes.fromhex(seed)
    except ValueError:
        pass
    raise RecordError('its "seed" must be hex', deal=number)


def _seat_action(entry: Any, deal: int, index: int) -> tuple[int, Action]:
    if (
        not isinstance(entry, Mapping)
        or not isinstance(entry.get("seat"), int)
        or not isinstance(entry.get("action"), Mapping)
    ):
        raise RecordError('an action is {"seat": n, "action": {…}}', deal=deal, action=index)
    return entry["seat"], dict(entry["action"])


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (plain dicts and lists), so records compare as JSON."""
    return json.loads(json.dumps(value))

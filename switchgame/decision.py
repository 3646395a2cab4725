"""What an advance of a match does, decided without a database.

Every way a match moves on — a move, a bot's move, a turn clock's default, a resignation, a seat
taken or freed, the start, an abandonment — ends in :func:`decide`: given the match as it was read,
the engine's state after the operation and the events the operation produced, it decides the
match's new status, result and turn deadline, reveals the seed of a deal that ended and deals the
next one, and says who must hear what: ``your_turn`` for the person left to act, ``match_end`` for
everyone still seated when the match ends, and whether a bot must be woken. A plain function of
plain values (it deals on the game it is handed, from the seed it is handed), so every rule of the
pipeline is tested without a database; :mod:`games.services.pipeline` writes what it decides.

**Every decision is pushed**: whenever an advance leaves a seat held by a person (not a bot, not
resigned) to act, that seat gets ``your_turn`` with the new version — a new turn, the same seat
acting again within its turn (it may play on, must cover a queen, answers after a draw), a question
put to it (Abbott: agreeing to end the hand), or the match changed under it by someone else (its
earlier ``your_turn`` went stale). The seat "to act" is the engine's ``to_move``: the seat whose
answer the engine waits for, which in Abbott's Switch is the 16+ partner who moves another's piece
(``controls``), or the seat asked to agree to end the hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from switchgame.protocol import Event, GameState
from switchgame.records.replay import DEAL_END_EVENTS
from switchgame.shuffle import seed_commitment


class Status(StrEnum):
    """A match's status (the values of ``Match.Status``)."""

    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a seat, as the decision needs to know it."""

    seat: int
    user_id: int | None  # the seated player, if any
    bot: bool  # a server bot plays the seat (also for a player who resigned or timed out)
    resigned: bool

    @property
    def seated(self) -> bool:
        """A player still sits here (a bot may play for them after three timeouts)."""
        return self.user_id is not None and not self.resigned

    @property
    def person(self) -> bool:
        """A player decides for the seat (and so must be told when to act)."""
        return self.seated and not self.bot


@dataclass(frozen=True, slots=True)
class MatchRead:
    """The match as the operation read it."""

    status: Status
    version: int
    turn: tuple[int, int]  # the engine's turn_id when read
    deal_number: int
    deal_seed: str  # hex; "" before the first deal
    turn_seconds: int | None
    turn_deadline: datetime | None
    layout: Mapping[str, Any] | None  # the staff layout of the first deal


@dataclass(frozen=True, slots=True)
class Start:
    """The operation starts the match: it becomes active and its first deal is dealt."""


@dataclass(frozen=True, slots=True)
class Abandon:
    """The operation ends the match without a result; ``result`` says how (``abandoned: true``
    and who ``resigned``, or the ``reason`` staff gave)."""

    result: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Notice:
    """A feed entry for a player; ``your_turn`` entries get the seat's view from the writer."""

    user_id: int
    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the advance does to the match, beside the engine state the game now holds."""

    status: Status
    version: int
    events: list[Event]  # to log, in order: the operation's, seeds revealed, a new deal's
    deal_number: int
    deal_seed: str
    turn_deadline: datetime | None
    ended: bool  # it finished or was abandoned in this advance
    result: Mapping[str, Any] | None  # set when it ended now, else unchanged (None)
    bot_to_move: bool  # a bot plays the seat to act: wake a worker
    your_turn: Holder | None  # the person left to act: gets ``your_turn`` with the new version
    notices: list[Notice]  # ``match_end`` for the players still seated when it ended


def practice_deal_seed(practice_seed: bytes, deal_number: int) -> bytes:
    """The seed of deal ``deal_number`` (1, 2, …) of a practice match: SHA-256 of the practice seed
    followed by the deal's number as 8 bytes, big-endian — fixed by the practice seed, so that the
    same seed deals the same cards again, and different for every deal of the match."""
    return hashlib.sha256(practice_seed + deal_number.to_bytes(8, "big")).digest()


def decide(
    *,
    read: MatchRead,
    game: GameState,
    holders: Sequence[Holder],
    events: Sequence[Event],
    now: datetime,
    new_seed: bytes,
    transition: Start | Abandon | None = None,
) -> Decision:
    """Decide what an advance does. ``game`` is the engine state after the operation's actions
    (a deal that is due is dealt on it from ``new_seed``); ``events`` are what the operation
    produced; ``transition`` a change of status the operation asks for."""
    status = read.status
    logged = [e.with_data(seed=read.deal_seed) if e.type in DEAL_END_EVENTS else e for e in events]
    deal_number, deal_seed = read.deal_number, read.deal_seed
    result: Mapping[str, Any] | None = None
    if isinstance(transition, Start):
        status = Status.ACTIVE
    if isinstance(transition, Abandon):
        status, result = Status.ABANDONED, transition.result
        logged.append(Event("match_end", None, dict(result)))
    elif status == Status.ACTIVE and game.needs_deal and not game.is_over:
        layout = read.layout if deal_number == 0 else None
        deal_number, deal_seed = deal_number + 1, new_seed.hex()
        commitment = seed_commitment(new_seed)
        logged += [
            e.with_data(shuffle_commitment=commitment) if e.type == "deal" else e
            for e in game.deal(new_seed, layout)
        ]
    if status == Status.ACTIVE and game.is_over:
        outcome = game.outcome()
        assert outcome is not None  # the engine's promise once it is over
        status, result = Status.FINISHED, outcome.to_json()
    ended = result is not None

    to_act = holders[game.to_move] if status == Status.ACTIVE and game.to_move is not None else None
    deadline = None
    if to_act is not None and read.turn_seconds:
        new_turn = game.turn_id != read.turn
        keep = read.turn_deadline is not None and not new_turn
        deadline = read.turn_deadline if keep else now + timedelta(seconds=read.turn_seconds)
    notices = []
    if ended:
        end: dict[str, Any] = (
            {"result": result} if status == Status.FINISHED else {"abandoned": True}
        )
        notices = [
            Notice(h.user_id, "match_end", end)
            for h in holders
            if h.seated and h.user_id is not None
        ]
    return Decision(
        status=status,
        version=read.version + 1,
        events=logged,
        deal_number=deal_number,
        deal_seed=deal_seed,
        turn_deadline=deadline,
        ended=ended,
        result=result,
        bot_to_move=to_act is not None and to_act.bot,
        your_turn=to_act if to_act is not None and to_act.person else None,
        notices=notices,
    )

"""The text notation of a game record: the same game as ``switch-record/1`` JSON, one line per
action, for a person to read — and back, losslessly (:func:`record_text`, :func:`record_from_text`).

Like PGN for chess: tag lines ``[Name value]`` (the value as JSON) give the settings, the seats and
the result; then each deal (``Hand`` in Abbott's Switch) has a line with its seed and commitment and
one numbered line per action, the seat first (``S0``, ``S1``, …)::

    [Ruleset "switch"]
    [Seat0 "alice"]
    [Seat1 "bot:heuristic"]
    …
    Deal 1 seed 8c1f… commitment 0a28…
      1. S0 play 8S
      2. S1 draw (timeout)
      3. S1 play JS suit H
      4. S0 play 3C last card

Actions: ``play <card>`` (then ``suit <S>`` for a suit named, ``last card`` for the announcement),
``draw``, ``end turn``; Abbott: ``move <row>,<column>``, ``ally S<seat>``, ``pass``,
``propose end``, ``decline end``. Any other action is written as its JSON. ``(timeout)`` marks an
action the turn clock took. A seat is a player's name, ``bot:<strategy>`` for a server bot, or both
with ``(resigned)`` for a player who resigned and whom a bot replaced; ``[BotAccounts [seats]]``
lists the seats whose player is a bot account. Lines starting with ``#``
are comments (the last one says who won) and blank lines are ignored. Pure Python: no Django.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from switchgame.records.gamerecord import Record, RecordError

# The record's "match" settings, by tag, in the order written.
MATCH_TAGS = {
    "Match": "id",
    "Ruleset": "ruleset",
    "Game": "game",
    "Seats": "seat_count",
    "Options": "options",
    "Deals": "deals",
    "Target": "target",
    "Layout": "layout",
    "TurnSeconds": "turn_seconds",
    "Status": "status",
    "Practice": "practice",
    "Created": "created_at",
    "Finished": "finished_at",
}
_TAG = re.compile(r"^\[(?P<name>[A-Za-z]+[0-9]*) (?P<value>.*)\]$")
_DEAL = re.compile(
    r"^(?:Deal|Hand) (?P<number>\d+) seed (?P<seed>\S+) commitment (?P<commitment>\S+)$"
)
_ACTION = re.compile(r"^(?P<index>\d+)\. S(?P<seat>\d+) (?P<text>.+?)(?P<timeout> \(timeout\))?$")
_SEAT_TAG = re.compile(r"^Seat(\d+)$")


# --- writing ------------------------------------------------------------------------------------


def record_text(record: Mapping[str, Any]) -> str:
    """The record in the text notation."""
    return "".join(line + "\n" for line in _lines(record))


def _lines(record: Mapping[str, Any]) -> Iterator[str]:
    match = record["match"]
    yield _tag("Format", record["format"])
    for tag, key in MATCH_TAGS.items():
        if key in match:
            yield _tag(tag, match[key])
    for player in record["players"]:
        yield _tag(f"Seat{player['seat']}", _seat_text(player))
    if any("bot_account" in player for player in record["players"]):
        yield _tag("BotAccounts", [p["seat"] for p in record["players"] if p.get("bot_account")])
    yield _tag("Result", record["result"])
    word = "Hand" if match.get("game") == "abbott" else "Deal"
    for deal in record["deals"]:
        yield ""
        yield f"{word} {deal['number']} seed {deal['seed']} commitment {deal['shuffle_commitment']}"
        for index, entry in enumerate(deal["actions"], start=1):
            timeout = " (timeout)" if entry.get("timeout") else ""
            yield f"  {index}. S{entry['seat']} {action_text(entry['action'])}{timeout}"
    yield ""
    yield f"# {_result_text(record)}"


def _tag(name: str, value: Any) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def _seat_text(player: Mapping[str, Any]) -> str:
    words = [player["player"]] if player.get("player") else []
    if player.get("resigned"):
        words.append("(resigned)")
    if player.get("bot"):
        words.append(f"bot:{player['bot']}")
    return " ".join(words)


def action_text(action: Mapping[str, Any]) -> str:
    """One action as the notation writes it (its JSON when the notation has no words for it)."""
    name, fields = action.get("action"), set(action) - {"action"}
    if (
        name == "play"
        and "card" in fields
        and fields <= {"card", "suit", "announce"}
        and all(_is_word(action[key]) for key in fields)
        and action.get("announce", "last_card") == "last_card"
    ):
        suit = f" suit {action['suit']}" if "suit" in fields else ""
        return f"play {action['card']}{suit}{' last card' if 'announce' in fields else ''}"
    if name == "move" and fields == {"to"} and _is_square(action["to"]):
        row, column = action["to"]
        return f"move {row},{column}"
    if name == "ally" and fields == {"partner"} and _is_count(action["partner"]):
        return f"ally S{action['partner']}"
    if not fields and name in _PLAIN:
        return _PLAIN[name]
    return json.dumps(dict(action), ensure_ascii=False)


def _is_word(value: Any) -> bool:
    return isinstance(value, str) and bool(re.fullmatch(r"\w+", value, re.ASCII))


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_square(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(map(_is_count, value))


_PLAIN = {
    "draw": "draw",
    "end_turn": "end turn",
    "pass": "pass",
    "propose_end": "propose end",
    "decline_end": "decline end",
}
_PLAIN_NAMES = {text: name for name, text in _PLAIN.items()}
_PLAY = re.compile(r"^play (?P<card>\S+)(?: suit (?P<suit>\S+))?(?P<announce> last card)?$")
_MOVE = re.compile(r"^move (?P<row>\d+),(?P<column>\d+)$")
_ALLY = re.compile(r"^ally S(?P<partner>\d+)$")


def _result_text(record: Mapping[str, Any]) -> str:
    result = record.get("result") or {}
    names = {p["seat"]: _seat_text(p) or f"seat {p['seat']}" for p in record["players"]}
    if result.get("abandoned"):
        why = result.get("reason") or (
            f"seats {', '.join(map(str, result.get('resigned', [])))} resigned"
        )
        return f"abandoned ({why})"
    winner = result.get("winner")
    totals = ", ".join(f"S{seat} {total}" for seat, total in enumerate(result.get("totals", [])))
    return f"S{winner} ({names.get(winner, '?')}) won; totals: {totals}"


# --- reading ------------------------------------------------------------------------------------


def record_from_text(text: str) -> Record:
    """The record a text in the notation holds; raises RecordError, naming the line, for a line
    that is not the notation. (Whether the game it holds is valid is for ``verify_record``.)"""
    tags: dict[str, Any] = {}
    deals: list[dict[str, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            _read_line(line, tags, deals)
        except (ValueError, KeyError) as error:
            raise RecordError(f"line {number} is not the notation ({error}): {line[:80]}") from None
    seats = sorted(int(m.group(1)) for name in tags if (m := _SEAT_TAG.match(name)))
    players = [_seat_from_text(seat, tags[f"Seat{seat}"]) for seat in seats]
    if (accounts := tags.get("BotAccounts")) is not None:
        for player in players:
            player["bot_account"] = player["seat"] in accounts
    return {
        "format": tags.get("Format"),
        "match": {key: tags[tag] for tag, key in MATCH_TAGS.items() if tag in tags},
        "players": players,
        "deals": deals,
        "result": tags.get("Result"),
    }


def _read_line(line: str, tags: dict[str, Any], deals: list[dict[str, Any]]) -> None:
    if tag := _TAG.match(line):
        tags[tag["name"]] = json.loads(tag["value"])
    elif deal := _DEAL.match(line):
        deals.append(
            {
                "number": int(deal["number"]),
                "seed": deal["seed"],
                "shuffle_commitment": deal["commitment"],
                "actions": [],
            }
        )
    elif (action := _ACTION.match(line)) and deals:
        entry: dict[str, Any] = {"seat": int(action["seat"]), "action": _action(action["text"])}
        if action["timeout"]:
            entry["timeout"] = True
        deals[-1]["actions"].append(entry)
    else:
        raise ValueError("a tag, a deal or an action after a deal was expected")


def _action(text: str) -> dict[str, Any]:
    if text.startswith("{"):
        action = json.loads(text)
        if not isinstance(action, dict):
            raise ValueError("an action in JSON is an object")
        return action
    if text in _PLAIN_NAMES:
        return {"action": _PLAIN_NAMES[text]}
    if play := _PLAY.match(text):
        action = {"action": "play", "card": play["card"]}
        if play["suit"]:
            action["suit"] = play["suit"]
        if play["announce"]:
            action["announce"] = "last_card"
        return action
    if move := _MOVE.match(text):
        return {"action": "move", "to": [int(move["row"]), int(move["column"])]}
    if ally := _ALLY.match(text):
        return {"action": "ally", "partner": int(ally["partner"])}
    raise ValueError(f"unknown action {text!r}")


def _seat_from_text(seat: int, text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        raise RecordError(f"Seat{seat} must be a string")
    words = text.split()
    bots = [w.removeprefix("bot:") for w in words if w.startswith("bot:")]
    names = [w for w in words if not w.startswith("bot:") and w != "(resigned)"]
    return {
        "seat": seat,
        "player": names[0] if names else None,
        "bot": bots[0] if bots else None,
        "resigned": "(resigned)" in words,
    }

#!/usr/bin/env python3
"""Verify game records (switch-record/1) offline: no server, no database, no Django.

Each record is re-created from itself alone by the project's pure rules
(switchgame.records.gamerecord): every deal's seed is checked against its shuffle commitment and
dealt, every action is checked to be the legal action of the seat to move, and the result must be
the one the game reaches. Runs on a bare Python 3.11 or newer from a clone: nothing to install.

    python3 scripts/verify_record.py game.json          # a record (GET /api/v1/matches/N/record/)
    python3 scripts/verify_record.py games.ndjson       # an export: one record per line
    python3 scripts/verify_record.py game.txt           # the text notation (docs/notation.md)
    curl … | python3 scripts/verify_record.py -         # standard input

Prints one line per record; exits 0 if every record verifies, 1 if one is not valid, 2 if none is
invalid but something could not be checked (a file that cannot be read, a line that is not a
record — an export's line for a match whose record the server could not build —, or a Python
older than 3.11).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

NOT_VALID, NOT_CHECKED = 1, 2
PYTHON = (3, 11)

# The project's root, where switchgame/ is: a clone needs no installation.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def records(stream: TextIO) -> Iterator[Any]:
    """The records of a file: one JSON document, NDJSON (one per line), or the text notation."""
    from switchgame.records.notation import record_from_text

    text = stream.read()
    if text.startswith("[Format "):
        yield record_from_text(text)
        return
    try:
        yield json.loads(text)
    except json.JSONDecodeError:
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)


def check(stream: TextIO, name: str, out: TextIO) -> int:
    """Verify every record of ``stream``, printing a line for each: 0 if all verified, else
    NOT_VALID if one is not valid, else NOT_CHECKED if one could not be checked."""
    from switchgame.records.gamerecord import RecordError, verify_record

    worst = 0
    for number, record in enumerate(records(stream), start=1):
        match = record.get("match") if isinstance(record, dict) else None
        match_id = match.get("id") if isinstance(match, dict) else match
        label = f"{name}: match {match_id}" if match_id is not None else f"{name}: record {number}"
        if isinstance(record, dict) and "format" not in record and "code" in record:
            print(f"{label}: NOT CHECKED — the server says: {record.get('detail')}", file=out)
            worst = max(worst, NOT_CHECKED)
            continue
        try:
            verified = verify_record(record)
        except RecordError as error:
            print(f"{label}: NOT VALID — {error}", file=out)
            worst = NOT_VALID
            continue
        print(f"{label}: valid ({verified.deals} deal(s), {verified.actions} action(s))", file=out)
    return worst


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="record files (JSON or NDJSON); - for stdin")
    arguments = parser.parse_args(argv)
    if sys.version_info < PYTHON:
        print(f"Python {'.'.join(map(str, PYTHON))} or newer is needed to check records", file=out)
        return NOT_CHECKED
    results = []
    for name in arguments.files:
        try:
            if name == "-":
                results.append(check(sys.stdin, "stdin", out))
            else:
                with open(name, encoding="utf-8") as stream:
                    results.append(check(stream, name, out))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            # Unreadable, not JSON, not the notation (RecordError and JSONDecodeError are
            # ValueErrors): what it holds was not checked.
            print(f"{name}: cannot be read — {error}", file=out)
            results.append(NOT_CHECKED)
        except Exception as error:  # the checker itself failed: not a verdict on the record
            print(f"{name}: could not be checked — {type(error).__name__}: {error}", file=out)
            results.append(NOT_CHECKED)
    return NOT_VALID if NOT_VALID in results else max(results, default=0)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Verify game records (switch-record/1) offline: no server, no database, no Django.

Each record is re-created from itself alone by the project's pure rules (switchgame.records.gamerecord): every
deal's seed is checked against its shuffle commitment and dealt, every action is checked to be the
legal action of the seat to move, and the result must be the one the game reaches.

    python scripts/verify_record.py game.json          # a record (GET /api/v1/matches/N/record/)
    python scripts/verify_record.py games.ndjson       # an export: one record per line
    python scripts/verify_record.py game.txt           # the text notation (docs/notation.md)
    curl … | python scripts/verify_record.py -         # standard input

Prints one line per record; exits 0 if every record verifies, 1 if one does not, 2 if a file
cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from switchgame.records.gamerecord import RecordError, verify_record
from switchgame.records.notation import record_from_text


def records(stream: TextIO) -> Iterator[Any]:
    """The records of a file: one JSON document, NDJSON (one per line), or the text notation."""
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


def check(stream: TextIO, name: str, out: TextIO) -> bool:
    """Verify every record of ``stream``, printing a line for each; whether all verified."""
    good = True
    for number, record in enumerate(records(stream), start=1):
        match = record.get("match", {}).get("id") if isinstance(record, dict) else None
        label = f"{name}: match {match}" if match is not None else f"{name}: record {number}"
        try:
            verified = verify_record(record)
        except RecordError as error:
            print(f"{label}: NOT VALID — {error}", file=out)
            good = False
            continue
        print(f"{label}: valid ({verified.deals} deal(s), {verified.actions} action(s))", file=out)
    return good


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="record files (JSON or NDJSON); - for stdin")
    arguments = parser.parse_args(argv)
    good = True
    for name in arguments.files:
        try:
            if name == "-":
                good &= check(sys.stdin, "stdin", out)
            else:
                with open(name, encoding="utf-8") as stream:
                    good &= check(stream, name, out)
        except (OSError, json.JSONDecodeError, RecordError) as error:
            print(f"{name}: cannot be read — {error}", file=out)
            return 2
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

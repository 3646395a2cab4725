"""``switch-bot run mybot.py``: play the ``Bot`` defined in a file.

    export SWITCH_PASSWORD='a long secret'
    switch-bot run mybot.py --username robo                    # its matches and its challenges
    switch-bot run mybot.py --username robo --ladder switch-4  # and the ladder's matches
    switch-bot run mybot.py --username robo --create black-jack --seats 4   # a match against bots

The account is a bot account, registered on first use. ``SWITCH_TOKEN`` may stand for a username
and a password."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
from pathlib import Path

from switchbot.bot import Bot
from switchbot.client import Client
from switchbot.runner import Runner
from switchbot.schema import MatchCreateRequest
from switchbot.transport import ApiError, Transport

log = logging.getLogger("switchbot")


class Refused(Exception):
    """A mistake in how the command was called: one line for its user."""


def load_bot(path: Path) -> Bot:
    """An instance of the one ``Bot`` subclass that the file defines."""
    if not path.is_file():
        raise Refused(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise Refused(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))  # so that it can import its neighbours
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    bots = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Bot)
        and value is not Bot
        and value.__module__ == module.__name__
    ]
    if len(bots) != 1:
        names = ", ".join(bot.__name__ for bot in bots) or "none"
        raise Refused(f"{path}: define exactly one subclass of switchbot.Bot (found: {names})")
    return bots[0]()


def ladder_id(client: Client, wanted: str) -> int:
    """A ladder named by its id, or as ``ruleset-seats`` (``switch-4``)."""
    if wanted.isdigit():
        return int(wanted)
    ladders = {
        f"{ladder['ruleset']}-{ladder['seats']}": ladder["id"] for ladder in client.ladders()
    }
    if wanted not in ladders:
        raise Refused(f"no ladder {wanted!r} (the ladders: {', '.join(ladders) or 'none'})")
    return ladders[wanted]


def create_match(client: Client, args: argparse.Namespace) -> None:
    """A match against the server's bots, started: the bot plays seat 0."""
    bots = [{"seat": seat, "strategy": args.opponents} for seat in range(1, args.seats)]
    settings = {"ruleset": args.create, "seats": args.seats, "bots": bots}
    if args.practice_seed:
        settings["practice_seed"] = args.practice_seed
    match = client.create_match(MatchCreateRequest(**settings))  # type: ignore[typeddict-item]
    client.start_match(match["id"])
    log.info(
        "created match %s: %s, %s bots in seats 1–%s",
        match["id"],
        args.create,
        args.opponents,
        args.seats - 1,
    )


def parser() -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(prog="switch-bot", description=__doc__.splitlines()[0])
    sub = commands.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play the Bot defined in a file")
    run.add_argument(
        "bot", type=Path, help="a Python file that defines one subclass of switchbot.Bot"
    )
    run.add_argument("--server", default=os.environ.get("SWITCH_SERVER", "http://127.0.0.1:8000"))
    run.add_argument("--username", help="the bot's account (registered as a bot account if new)")
    run.add_argument(
        "--password", default=os.environ.get("SWITCH_PASSWORD"), help="default: $SWITCH_PASSWORD"
    )
    run.add_argument("--ladder", help="join this ladder: its id, or ruleset-seats (switch-4)")
    run.add_argument("--matches", type=int, help="stop once this many matches have ended")
    run.add_argument("--no-challenges", action="store_true", help="leave challenges unanswered")
    run.add_argument("--create", metavar="RULESET", help="first create a match against server bots")
    run.add_argument("--seats", type=int, default=2, help="with --create: its seats (2)")
    run.add_argument(
        "--opponents", default="heuristic", help="with --create: the server bots' strategy"
    )
    run.add_argument("--practice-seed", help="with --create: 64 hex digits, the same game again")
    run.add_argument("--verbose", action="store_true")
    return commands


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(message)s",
        stream=sys.stdout,
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    client = Client(Transport(args.server, os.environ.get("SWITCH_TOKEN", "")))
    try:
        bot = load_bot(args.bot)
        if args.username:
            if not args.password:
                raise Refused("--username needs a password: --password or SWITCH_PASSWORD")
            client.sign_in(args.username, args.password)
        elif not client.transport.token:
            raise Refused("who plays? --username (with SWITCH_PASSWORD), or SWITCH_TOKEN")
        ladder = ladder_id(client, args.ladder) if args.ladder else None
        if args.create:
            create_match(client, args)
        Runner(
            bot,
            client,
            ladder=ladder,
            matches=args.matches,
            accept_challenges=not args.no_challenges,
        ).run()
    except Refused as refused:
        print(f"switch-bot: {refused}", file=sys.stderr)
        return 2
    except ApiError as error:
        print(f"switch-bot: the server refused: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

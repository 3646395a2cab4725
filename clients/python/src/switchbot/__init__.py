"""A bot kit for the Switch game service: subclass ``Bot``, define ``choose(view)``, and run it with
``switch-bot run mybot.py`` — the kit follows the feed, resumes it, retries what may be retried,
accepts challenges and joins ladders."""

from switchbot.bot import Bot
from switchbot.client import Client
from switchbot.feed import Cursor, CursorExpired
from switchbot.runner import Runner
from switchbot.transport import ApiError, Backoff, Transport, Unreachable

__all__ = [
    "ApiError",
    "Backoff",
    "Bot",
    "Client",
    "Cursor",
    "CursorExpired",
    "Runner",
    "Transport",
    "Unreachable",
]

"""The embedded default: ``make run`` serves the API, ``/healthz`` and the streams with SQLite and
nothing else — tasks (a bot's answer here) run in the web process and wake the streams there, and
so does the periodic sweep (a turn clock that runs out is enforced)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.serving.clients import SseMessage, auth, get_json, open_stream, sse_messages
from tests.serving.conftest import PROJECT_ROOT, Server, run_in_own_loop

pytestmark = pytest.mark.serving  # `make run` in a process of its own


def make_run(port: int) -> list[str]:
    return ["env", f"PORT={port}", "make", "--no-print-directory", "run"]


def test_make_run_serves_healthz_and_streams_with_no_other_service(tmp_path: Path):
    """And, as the README says next, ``make superuser`` beside it makes a staff account on its
    database, in a shell where neither DEBUG nor SECRET_KEY is set (``manage.py`` alone would
    stop at the missing SECRET_KEY)."""
    database = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    server = Server(
        make_run,
        {
            "DJANGO_SETTINGS_MODULE": "switchsite.settings",
            **database,
            "CELERY_BROKER_URL": "",
            "SWEEP_INTERVAL_SECONDS": "1",
        },
        tmp_path / "server.log",
    )
    try:
        run_in_own_loop(play_against_a_bot_while_streaming(server.base_url))
        made = subprocess.run(
            ["make", "--no-print-directory", "superuser"],
            cwd=PROJECT_ROOT,
            env={
                **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")},
                "DJANGO_SETTINGS_MODULE": "switchsite.settings",
                **database,
                "DJANGO_SUPERUSER_USERNAME": "director",
                "DJANGO_SUPERUSER_EMAIL": "director@example.invalid",
                "DJANGO_SUPERUSER_PASSWORD": "correct-horse-battery",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert made.returncode == 0, made.stderr
        run_in_own_loop(staff_token(server.base_url, "director", "correct-horse-battery"))
    finally:
        server.stop()


async def staff_token(base_url: str, username: str, password: str) -> None:
    async with aiohttp.ClientSession(base_url) as session:
        answer = await session.post(
            "/api/v1/auth/token/", json={"username": username, "password": password}
        )
        assert answer.status == 200, await answer.text()
        assert (await answer.json())["token"]


async def play_against_a_bot_while_streaming(base_url: str) -> None:
    async with aiohttp.ClientSession(base_url) as session:
        health = await (await session.get("/healthz")).json()
        assert health["checks"]["database"] == "ok"
        assert health["checks"]["broker"].startswith("not configured")
        async with session.get("/static/admin/css/base.css") as static:  # DEBUG: as runserver did
            assert static.status == 200

        registered = await session.post(
            "/api/v1/players/", json={"username": "solo", "password": "correct-horse-battery"}
        )
        token = (await registered.json())["token"]
        created = await session.post(
            "/api/v1/matches/",
            json={"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]},
            headers=auth(token),
        )
        match_id = (await created.json())["id"]
        feed = sse_messages(await open_stream(session, "/api/v1/players/me/stream/", token, 0))
        match = sse_messages(
            await open_stream(session, f"/api/v1/matches/{match_id}/stream/", token, 0)
        )

        async def next_event(stream: AsyncIterator[SseMessage], event_type: str) -> SseMessage:
            async for message in stream:
                if message.event == event_type:
                    return message
            raise AssertionError(f"the stream ended before {event_type}")

        async with asyncio.timeout(20):
            await session.post(f"/api/v1/matches/{match_id}/start/", headers=auth(token))
            assert (await next_event(feed, "your_turn")).id == "2"
            await next_event(match, "deal")
            view = await get_json(session, f"/api/v1/matches/{match_id}/", token)
            await session.post(
                f"/api/v1/matches/{match_id}/moves/",
                json=view["legal_moves"][0],
                headers=auth(token),
            )
            # The bot answered in the web process; our turn again reaches the feed.
            assert (await next_event(feed, "your_turn")).id == "3"

        # Nobody moves in a match with a five-second clock: the sweep, run by the web process
        # itself, plays the default action and counts a strike.
        clocked = await session.post(
            "/api/v1/matches/",
            json={
                "ruleset": "switch",
                "seats": 2,
                "bots": [{"seat": 1, "strategy": "random"}],
                "turn_seconds": 5,
            },
            headers=auth(token),
        )
        clocked_id = (await clocked.json())["id"]
        clocked_log = sse_messages(
            await open_stream(session, f"/api/v1/matches/{clocked_id}/stream/", token, 0)
        )
        async with asyncio.timeout(20):
            await session.post(f"/api/v1/matches/{clocked_id}/start/", headers=auth(token))
            timeout = await next_event(clocked_log, "timeout")
        assert json.loads(timeout.data or "")["data"] == {"strikes": 1}

"""Concurrent writes: the match row lock lets exactly one of many identical moves apply."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.models import Match, MatchEvent
from tests.api.test_matches import LAYOUT, started_match

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def post_concurrently(client, path: str, body: dict, headers: list[dict]) -> list:
    """Post the same request from several threads at once; returns the responses."""
    barrier = threading.Barrier(len(headers))
    responses: list = [None] * len(headers)

    def worker(index: int) -> None:
        try:
            barrier.wait()
            responses[index] = client.post(path, body, **headers[index])
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(headers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


def test_many_threads_posting_the_same_move_apply_it_once(staff, bob):
    match_id = started_match(staff, bob, layout=LAYOUT)
    version = Match.objects.get(pk=match_id).version
    body = {"action": "play", "card": "7H", "expected_version": version}

    responses = post_concurrently(staff, f"/api/v1/matches/{match_id}/moves/", body, [{}] * THREADS)

    statuses = Counter(r.status_code for r in responses)
    assert statuses == {201: 1, 409: THREADS - 1}, [r.json() for r in responses]
    assert {r.json()["code"] for r in responses if r.status_code == 409} <= {
        "stale_version",
        "not_your_turn",
    }
    assert Match.objects.get(pk=match_id).version == version + 1
    assert MatchEvent.objects.filter(match_id=match_id, type="play").count() == 1


def test_the_same_idempotency_key_from_many_threads_applies_once(staff, bob):
    match_id = started_match(staff, bob, layout=LAYOUT)
    version = Match.objects.get(pk=match_id).version
    headers = [{"HTTP_IDEMPOTENCY_KEY": "retry-storm"}] * THREADS

    responses = post_concurrently(
        staff, f"/api/v1/matches/{match_id}/moves/", {"action": "play", "card": "7H"}, headers
    )

    # A duplicate waits for the first request's transaction, then gets its answer.
    assert [r.status_code for r in responses] == [201] * THREADS, [r.json() for r in responses]
    assert all(r.json() == responses[0].json() for r in responses)
    assert sum(r.has_header("Idempotent-Replayed") for r in responses) == THREADS - 1
    assert Match.objects.get(pk=match_id).version == version + 1
    assert MatchEvent.objects.filter(match_id=match_id, type="play").count() == 1

"""GET /api/v1/matches/{id}/record/: the game record of a match that is over, for any signed-in
client, which verifies from itself alone (switchgame.records.gamerecord) — also offline, with
scripts/verify_record.py, which needs no database and no Django."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

import switchsite.tasks
from games import archive, selectors, services, tasks
from games.models import Match, MatchEvent, RecordDeals
from scripts.verify_record import main as verify_main
from switchgame.records.gamerecord import verify_record
from switchgame.records.notation import record_from_text
from tests.api.conftest import assert_problem
from tests.services.test_replay import play

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def streamed_chunks(response) -> list[bytes]:
    """The chunks of a streamed answer (an async iterator: the export is an async view)."""

    async def read() -> list[bytes]:
        return [chunk async for chunk in response.streaming_content]

    return async_to_sync(read)()


def record_url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/record/"


def test_a_finished_shedding_match_has_a_record_that_verifies(alice) -> None:
    match, _ = play("switch", 3, 2, timeouts=True, deals=2)
    assert match.status == Match.Status.FINISHED

    response = alice.get(record_url(match.pk))

    assert response.status_code == 200
    record = response.json()
    assert record["format"] == "switch-record/1"
    assert record["match"]["id"] == match.pk
    assert record["match"]["status"] == "finished"
    assert [p["player"] for p in record["players"]] == ["player0", "player1", "player2"]
    assert record["result"] == match.result
    assert [d["number"] for d in record["deals"]] == [1, 2]
    ends = MatchEvent.objects.filter(match=match, type="deal_end").order_by("seq")
    assert [d["seed"] for d in record["deals"]] == [e.data["seed"] for e in ends]
    verified = verify_record(record)
    assert verified.deals == 2
    assert verified.actions == sum(len(d["actions"]) for d in record["deals"])


def test_an_abbott_match_has_a_record_that_verifies(alice) -> None:
    match, _ = play("abbott", 4, 1, timeouts=True, target=10)

    record = alice.get(record_url(match.pk)).json()

    assert record["match"]["game"] == "abbott"
    assert verify_record(record).result == match.result


def test_an_abandoned_match_reveals_the_seed_of_its_last_deal(alice) -> None:
    match, _ = play("switch", 2, 3, timeouts=False, resign_at=6, on_resign="forfeit", deals=2)
    assert match.status == Match.Status.ABANDONED

    record = alice.get(record_url(match.pk)).json()

    assert record["result"]["abandoned"] is True
    assert record["deals"][-1]["seed"] == match.deal_seed
    assert [p["resigned"] for p in record["players"]].count(True) == 1
    verify_record(record)


def test_accept_text_plain_gives_the_record_in_the_text_notation(alice) -> None:
    match, _ = play("switch", 2, 4, timeouts=True)
    record = alice.get(record_url(match.pk)).json()

    response = alice.get(record_url(match.pk), HTTP_ACCEPT="text/plain")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert text.startswith('[Format "switch-record/1"]\n')
    assert record_from_text(text) == record
    assert alice.get(record_url(match.pk) + "?format=txt").content.decode() == text
    not_over = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]
    assert_problem(alice.get(record_url(not_over), HTTP_ACCEPT="text/plain"), 409, "match_not_over")


def test_a_match_not_over_has_no_record_yet(alice) -> None:
    created = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()

    assert_problem(alice.get(record_url(created["id"])), 409, "match_not_over")
    assert_problem(alice.get(record_url(999_999)), 404, "not_found")
    assert APIClient().get(record_url(created["id"])).status_code == 401


def test_the_offline_check_accepts_a_record_and_catches_a_tampered_one(alice, tmp_path) -> None:
    match, _ = play("switch", 2, 5, timeouts=False, deals=1)
    record = alice.get(record_url(match.pk)).json()
    good, bad, out = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "out.txt"
    good.write_text(json.dumps(record))
    text = tmp_path / "good.txt"
    text.write_text(alice.get(record_url(match.pk), HTTP_ACCEPT="text/plain").content.decode())
    record["deals"][0]["seed"] = "00" * 32
    bad.write_text(json.dumps(record))

    with out.open("w") as stream:
        assert verify_main([str(good)], out=stream) == 0
        assert verify_main([str(text)], out=stream) == 0
        assert verify_main([str(good), str(bad)], out=stream) == 1
    lines = out.read_text().splitlines()
    assert lines[0].startswith(f"{good}: match {match.pk}: valid (1 deal(s), ")
    assert lines[1].startswith(f"{text}: match {match.pk}: valid (1 deal(s), ")
    assert "NOT VALID — deal 1: its seed does not match its shuffle_commitment" in lines[-1]


def test_the_offline_check_runs_on_a_bare_python_and_says_what_it_could_not_check(
    alice, tmp_path
) -> None:
    """docs/api.md, "Checking a record offline": the script as written there, run by Python with
    nothing installed (no site-packages at all: no Django, no venv) from another directory; its
    exit code tells a record not valid (1) from one it could not check (2)."""
    match, _ = play("abbott-2", 2, 7, timeouts=False, target=5)
    record = alice.get(record_url(match.pk)).json()
    good, bad, export = tmp_path / "game.json", tmp_path / "bad.json", tmp_path / "all.ndjson"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps({**record, "result": {"abandoned": True}}))
    unavailable = {"code": "record_unavailable", "detail": "cannot be built", "match": 7}
    export.write_text(json.dumps(record) + "\n" + json.dumps(unavailable) + "\n")
    bare = getattr(sys, "_base_executable", sys.executable)  # the interpreter under the venv

    def verify(*files: Path | str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [bare, "-I", "-S", str(ROOT / "scripts" / "verify_record.py"), *map(str, files)],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
        )

    checked, refused, partly, unread = (
        verify(good),
        verify(good, bad),
        verify(export),
        verify(tmp_path / "missing.json"),
    )

    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"match {match.pk}: valid" in checked.stdout
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "NOT VALID" in refused.stdout
    assert partly.returncode == 2, partly.stdout + partly.stderr
    assert "match 7: NOT CHECKED — the server says: cannot be built" in partly.stdout
    assert unread.returncode == 2
    assert "cannot be read" in unread.stdout


def finished_against_a_bot(user, seed: int) -> Match:
    """A two-seat match of ``user`` against a random bot, played to its end."""
    rng = random.Random(seed)
    match = services.match_create(
        creator=user,
        ruleset="switch",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "random"}],
    )
    services.match_start(match_id=match.pk, user=user)
    for _ in range(3000):
        loaded = selectors.match_load(match_id=match.pk)
        if loaded.match.status != Match.Status.ACTIVE:
            return loaded.match
        if loaded.game.to_move == 0:
            legal = loaded.game.legal_actions()
            plays = [a for a in legal if a["action"] == "play"]
            action = rng.choice(plays if plays and rng.random() < 0.8 else legal)
            services.action_apply(match_id=match.pk, user=user, action=action)
        else:
            services.bot_turns_play(match_id=match.pk, limit=1)
    raise AssertionError("a match that does not end")


def export_url(username: str) -> str:
    return f"/api/v1/players/{username}/matches/export/"


@pytest.mark.slow
def test_the_export_streams_every_finished_match_as_ndjson(alice, bob, monkeypatch) -> None:
    monkeypatch.setattr(archive, "EXPORT_CHUNK", 2)
    users = get_user_model().objects
    ids = [finished_against_a_bot(users.get(username="alice"), seed).pk for seed in range(5)]
    alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2})  # waiting: not exported

    response = bob.get(export_url("alice"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response.streaming
    chunks = streamed_chunks(response)
    lines = b"".join(chunks).decode().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["match"]["id"] for r in records] == sorted(ids)
    assert all(r["match"]["status"] == "finished" for r in records)
    assert records[0] == alice.get(record_url(ids[0])).json()
    for record in records:
        verify_record(record)
    assert len(chunks) == 3  # chunks of two matches, sent as they were read


def test_the_export_of_an_unknown_player_is_404_and_of_one_without_matches_empty(alice) -> None:
    assert_problem(alice.get(export_url("nobody")), 404, "not_found")
    response = alice.get(export_url("alice"))
    assert response.status_code == 200
    assert streamed_chunks(response) == []
    assert_problem(
        alice.get(export_url("alice"), HTTP_ACCEPT="application/json"), 406, "not_acceptable"
    )


def test_a_match_that_ends_has_its_record_deals_kept(
    alice, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    published: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(
        switchsite.tasks, "publish", lambda task, *args: published.append((task, args))
    )
    with django_capture_on_commit_callbacks(execute=True):
        match, _ = play("switch", 3, 2, timeouts=True, deals=2)

    assert published.count(("games.tasks.keep_record_deals", (match.pk,))) == 1
    assert tasks.keep_record_deals(match.pk)
    kept = RecordDeals.objects.get(match=match)
    assert json.loads(kept.deals) == json.loads(replayed(alice, match.pk))["deals"]
    assert not tasks.keep_record_deals(match.pk)  # kept once: a second delivery does nothing


def test_the_sweep_keeps_the_deals_of_a_match_whose_task_was_lost(tasks_in_process) -> None:
    match, _ = play("switch", 2, 4, timeouts=False)  # its end's task never ran: nothing commits
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=1))

    assert tasks.sweep_stalled_matches() == 1
    assert RecordDeals.objects.filter(match=match).exists()
    assert tasks.sweep_stalled_matches() == 0
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(days=2))
    RecordDeals.objects.filter(match=match).delete()
    assert tasks.sweep_stalled_matches() == 0  # long ended: its record is replayed when read


def replayed(client, match_id: int) -> bytes:
    """The record of a match as its log replayed gives it: with no record deals kept."""
    deals = RecordDeals.objects.filter(match_id=match_id)
    kept = list(deals.values_list("deals", flat=True))
    deals.delete()
    answer = client.get(record_url(match_id)).content
    RecordDeals.objects.bulk_create(RecordDeals(match_id=match_id, deals=d) for d in kept)
    return answer


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "seats", "settings"),
    [
        ("switch", 3, {"deals": 2, "timeouts": True}),
        ("jacks-twos-eights", 4, {"timeouts": True}),
        ("abbott", 4, {"target": 10, "timeouts": True}),
        ("switch", 2, {"timeouts": False, "resign_at": 6, "on_resign": "forfeit"}),  # abandoned
    ],
)
def test_a_record_from_kept_deals_is_the_replayed_record_byte_for_byte(
    alice, ruleset, seats, settings
) -> None:
    match, _ = play(ruleset, seats, 11, **settings)
    from_log = replayed(alice, match.pk)

    assert services.record_deals_keep(match_id=match.pk)
    assert alice.get(record_url(match.pk)).content == from_log


@pytest.mark.slow
def test_the_export_reads_kept_deals_without_the_log(alice, bob) -> None:
    users = get_user_model().objects
    ids = [finished_against_a_bot(users.get(username="alice"), seed).pk for seed in range(3)]
    from_log = [replayed(alice, match_id) for match_id in ids]
    for match_id in ids[:2]:
        services.record_deals_keep(match_id=match_id)
    MatchEvent.objects.filter(match_id__in=ids[:2]).delete()  # what it reads is not the log

    lines = b"".join(streamed_chunks(bob.get(export_url("alice")))).splitlines()

    assert [json.loads(line) for line in lines] == [json.loads(record) for record in from_log]
    assert lines == [orjson.dumps(orjson.loads(record)) for record in from_log]


def test_a_match_whose_log_does_not_replay_spoils_neither_its_record_nor_the_export(
    alice, bob, client, caplog, tasks_in_process
) -> None:
    """Defence in depth, should the replay ever fail again: the record endpoint answers a problem
    (never 500), the export gives one line saying so and goes on, and the task that keeps the
    record's deals logs the failure once and stops, the match listed in the admin."""
    users = get_user_model().objects
    ids = [finished_against_a_bot(users.get(username="alice"), seed).pk for seed in range(3)]
    broken = ids[1]
    MatchEvent.objects.filter(match_id=broken, type="deal").update(data={"first": 99})
    Match.objects.filter(pk=broken).update(finished_at=timezone.now() - timedelta(minutes=1))

    problem = assert_problem(alice.get(record_url(broken)), 409, "record_unavailable")
    lines = [
        json.loads(line)
        for line in b"".join(streamed_chunks(bob.get(export_url("alice")))).splitlines()
    ]
    with caplog.at_level("ERROR", logger="games.services.records"):
        swept = [tasks.sweep_stalled_matches() for _ in range(3)]

    assert str(broken) in problem["detail"]
    assert [line.get("match", {}).get("id") for line in lines if "format" in line] == [
        ids[0],
        ids[2],
    ]
    assert lines[1] == {**problem, "match": broken}
    assert swept[1:] == [0, 0]  # tried once, then left alone
    assert [r.getMessage() for r in caplog.records].count(
        f"The record of match {broken} cannot be built; it is not tried again until its row "
        "among the records that cannot be built is deleted in the admin."
    ) == 1
    assert_problem(alice.get(record_url(broken)), 409, "record_unavailable")
    staff = users.create_superuser("root", "root@example.invalid", "pw")
    client.force_login(staff)
    listing = client.get("/admin/games/unbuildablerecord/")
    assert listing.context["cl"].result_count == 1
    assert "ReplayError: event" in listing.content.decode()


def test_a_record_read_while_the_task_keeps_its_deals_is_the_whole_record(alice) -> None:
    """The task keeps a match's record deals at the moment its record is read, between the read
    of the match (no deals kept yet) and that of its log: the record is still the whole game, as
    the log gives it (issue 34: a practice match's record came with no deals)."""
    match = finished_against_a_bot(get_user_model().objects.get(username="alice"), 7)
    whole = replayed(alice, match.pk)
    RecordDeals.objects.filter(match_id=match.pk).delete()
    kept_meanwhile: list[bool] = []
    keeping: list[bool] = []

    def keep_before_the_log_is_read(execute, sql, params, many, context):
        if "games_matchevent" in sql and not keeping:
            keeping.append(True)  # the task's own queries go through here too
            kept_meanwhile.append(services.record_deals_keep(match_id=match.pk))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep_before_the_log_is_read):
        answer = alice.get(record_url(match.pk)).content

    assert kept_meanwhile == [True]
    assert json.loads(answer) == json.loads(whole)

"""The bot kit (``clients/python``, package ``switchbot``) against a scripted service: what it does
when the service fails — a restart, 429, 503, 409 ``match_busy``, a proxy's page that is not JSON,
an expired cursor — and how it follows and resumes the feed. Its run against the real service is
in ``test_botkit_serving.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from switchbot import ApiError, Bot, Cursor, Runner, Unreachable
from switchbot.cli import Refused, ladder_id, load_bot
from switchbot.feed import EventStream, follow
from tests.clients.botkit_fakes import (
    FakeService,
    body,
    feed_event,
    problem,
    shedding_view,
    sse,
    your_turn,
)
from tests.serving.conftest import PROJECT_ROOT

KIT = PROJECT_ROOT / "clients" / "python"
PLAY = {"action": "play", "card": "8S"}
DRAW = {"action": "draw"}
MOVES = "/matches/7/moves/"


class FirstMove(Bot):
    def choose(self, view):
        return view["legal_moves"][0]


def runner(service: FakeService, bot: Bot | None = None, **settings) -> Runner:
    return Runner(bot or FirstMove(), service.client(), username="robo", **settings)


# The transport: what is tried again, and how a failure is read.


def test_a_503_with_a_page_that_is_not_json_is_waited_out_and_tried_again():
    service = FakeService()
    service.on(
        "GET",
        "/players/me/",
        httpx.Response(
            503, text="<html><h1>503 Service Unavailable</h1></html>", headers={"Retry-After": "7"}
        ),
        httpx.Response(200, json={"username": "robo"}),
    )

    assert service.client().me()["username"] == "robo"
    assert len(service.sleeps) == 1
    assert service.sleeps[0] >= 7  # never sooner than the server asked


def test_an_error_that_is_not_json_is_raised_with_its_text_not_a_decoding_error():
    service = FakeService()
    service.on("GET", "/matches/7/", httpx.Response(500, text="Internal Server Error\n"))

    with pytest.raises(ApiError) as raised:
        service.client().match(7)

    assert (raised.value.status, raised.value.code) == (500, "http_500")
    assert raised.value.detail == "Internal Server Error"
    assert not raised.value.transient
    assert service.sleeps == []


def test_a_write_is_tried_again_under_the_same_idempotency_key_until_it_is_answered():
    service = FakeService()
    service.on(
        "POST",
        "/challenges/3/accept/",
        httpx.ConnectError("refused"),
        problem(429, "throttled", retry_after=2),
        httpx.Response(200, json={"id": 3, "status": "accepted"}),
    )

    service.client().accept_challenge(3)

    keys = [
        request.headers["Idempotency-Key"]
        for request in service.sent("POST", "/challenges/3/accept/")
    ]
    assert len(keys) == 3
    assert len(set(keys)) == 1
    assert len(service.sleeps) == 2


def test_each_write_has_a_key_of_its_own():
    service = FakeService()
    service.on("POST", "/challenges/3/accept/", httpx.Response(200, json={"id": 3}))
    client = service.client()

    client.accept_challenge(3)
    client.accept_challenge(3)

    first, second = service.sent("POST", "/challenges/3/accept/")
    assert first.headers["Idempotency-Key"] != second.headers["Idempotency-Key"]


# A move: once, then a fresh read of the match before anything else.


@pytest.mark.parametrize(
    "failure",
    [
        problem(503, "service_unavailable", retry_after=2),
        problem(429, "throttled", retry_after=3),
        problem(409, "match_busy", retry_after=1),
        httpx.Response(502, text="<html>Bad Gateway</html>"),
        httpx.ConnectError("connection refused"),
        httpx.ReadTimeout("no answer"),
    ],
    ids=["503", "429", "match_busy", "502-html", "unreachable", "timeout"],
)
def test_a_move_that_failed_is_sent_again_with_its_key_after_a_fresh_read(failure):
    view = shedding_view(7, 4, [PLAY, DRAW])
    service = FakeService()
    service.on("POST", MOVES, failure, httpx.Response(201, json={"view": view}))
    service.on("GET", "/matches/7/", httpx.Response(200, json=view))  # the match has not moved

    runner(service).play(view)

    first, second = service.sent("POST", MOVES)
    assert body(first) == body(second) == {**PLAY, "expected_version": 4}
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]
    assert [r.method for r in service.requests] == ["POST", "GET", "POST"]
    assert len(service.sleeps) == 1


def test_after_a_failure_a_match_that_moved_on_gets_a_new_choice_under_a_new_key():
    before, after = shedding_view(7, 4, [PLAY, DRAW]), shedding_view(7, 6, [DRAW])
    service = FakeService()
    service.on(
        "POST", MOVES, problem(409, "match_busy", retry_after=1), httpx.Response(201, json={})
    )
    service.on("GET", "/matches/7/", httpx.Response(200, json=after))

    runner(service).play(before)

    first, second = service.sent("POST", MOVES)
    assert body(second) == {**DRAW, "expected_version": 6}
    assert first.headers["Idempotency-Key"] != second.headers["Idempotency-Key"]


def test_after_a_failure_no_move_is_sent_once_it_is_no_longer_the_bots_turn():
    service = FakeService()
    service.on("POST", MOVES, problem(503, "service_unavailable", retry_after=2))
    service.on("GET", "/matches/7/", httpx.Response(200, json=shedding_view(7, 5, [])))

    runner(service).play(shedding_view(7, 4, [PLAY]))

    assert len(service.sent("POST", MOVES)) == 1


def test_the_fresh_read_waits_for_a_server_that_is_down():
    view = shedding_view(7, 4, [PLAY])
    service = FakeService()
    service.on("POST", MOVES, httpx.ConnectError("refused"), httpx.Response(201, json={}))
    service.on(
        "GET",
        "/matches/7/",
        httpx.ConnectError("refused"),
        httpx.ConnectError("refused"),
        httpx.Response(200, json=view),
    )

    runner(service).play(view)

    assert len(service.sent("POST", MOVES)) == 2
    assert len(service.sleeps) == 3


@pytest.mark.parametrize("code", ["stale_version", "not_your_turn", "match_not_active"])
def test_a_move_overtaken_by_the_match_is_left_for_the_next_your_turn(code):
    service = FakeService()
    service.on("POST", MOVES, problem(409, code))

    runner(service).play(shedding_view(7, 4, [PLAY]))

    assert len(service.requests) == 1


class Broken(Bot):
    def choose(self, view):
        raise ZeroDivisionError


class Cheat(Bot):
    def choose(self, view):
        return {"action": "play", "card": "AS"}


@pytest.mark.parametrize(
    ("bot", "answers"),
    [
        (Broken(), [httpx.Response(201, json={})]),
        (Cheat(), [problem(422, "illegal_move"), httpx.Response(201, json={})]),
    ],
    ids=["raises", "illegal"],
)
def test_a_bot_that_fails_to_choose_plays_the_first_legal_move_instead(bot, answers):
    service = FakeService()
    service.on("POST", MOVES, *answers)

    runner(service, bot).play(shedding_view(7, 4, [DRAW, PLAY]))

    assert len(service.sent("POST", MOVES)) == len(answers)
    assert body(service.sent("POST", MOVES)[-1]) == {**DRAW, "expected_version": 4}


def test_a_your_turn_delivered_twice_is_answered_once():
    view = shedding_view(7, 4, [PLAY])
    service = FakeService()
    service.on("POST", MOVES, httpx.Response(201, json={}))
    played = runner(service)

    played.play(view)
    played.play(view)

    assert len(service.sent("POST", MOVES)) == 1


# The feed: Server-Sent Events, resumed.


def test_event_stream_messages_join_data_lines_skip_comments_and_keep_the_retry():
    stream = EventStream()
    lines = [
        "retry: 2500",
        "",
        ": keepalive",
        "",
        "id: 4",
        "event: x",
        "data: {",
        "data: }",
        "",
        "data:1",
        "",
    ]

    messages = list(stream.messages(lines))

    assert [(m.id, m.event, m.data) for m in messages] == [("4", "x", "{\n}"), ("4", None, "1")]
    assert stream.retry == 2.5


def test_the_feed_is_resumed_after_its_last_entry_in_its_incarnation():
    service = FakeService()
    first = [feed_event(5, "match_started", match=7, seat=0), feed_event(6, "match_end", match=7)]
    service.on(
        "GET",
        "/players/me/stream/",
        sse(*first, incarnation="inc-A"),
        httpx.ConnectError("refused"),
        sse(first[1], feed_event(7, "challenge", match=None, challenge=3), incarnation="inc-A"),
    )
    cursor = Cursor(after=4)
    feed = follow(service.client().transport, cursor)

    seqs = [next(feed)["seq"] for _ in range(3)]

    assert seqs == [5, 6, 7]  # 6 came twice: once only
    opened = service.sent("GET", "/players/me/stream/")
    assert [r.headers["Last-Event-ID"] for r in opened] == ["4", "6", "6"]
    assert opened[0].url.params.get("incarnation") is None
    assert [r.url.params["incarnation"] for r in opened[1:]] == ["inc-A", "inc-A"]
    assert service.sleeps[0] == 1.0  # the stream's own retry: 1000 after it ended


def test_a_revoked_token_stops_the_feed():
    service = FakeService()
    service.on("GET", "/players/me/stream/", problem(401, "authentication_failed"))

    with pytest.raises(ApiError, match="authentication_failed"):
        next(follow(service.client().transport, Cursor()))


@pytest.mark.parametrize(
    ("cursor", "problem_fields", "resumed"),
    [
        # retention removed entries after the cursor: what is kept from `oldest` is news
        (Cursor(after=3, incarnation="A"), {"oldest": 40, "last": 52, "incarnation": "A"}, 39),
        # a restore: same numbers, other entries — go on after the last
        (Cursor(after=30, incarnation="A"), {"oldest": 1, "last": 52, "incarnation": "B"}, 52),
        # a restore behind the cursor, seen without an incarnation
        (Cursor(after=60), {"oldest": 1, "last": 52, "incarnation": "B"}, 52),
    ],
    ids=["purged", "restored", "beyond-last"],
)
def test_an_expired_cursor_resumes_from_oldest_or_after_last(cursor, problem_fields, resumed):
    cursor.resume(problem_fields)

    assert (cursor.after, cursor.incarnation, cursor.history_until) == (
        resumed,
        "B" if resumed == 52 else "A",
        52,
    )


def test_after_a_410_the_bot_reads_its_matches_again_and_answers_no_turn_from_before():
    stale, fresh = shedding_view(7, 4, [PLAY]), shedding_view(7, 9, [DRAW])
    service = FakeService()
    service.on(
        "GET",
        "/players/me/stream/",
        problem(410, "cursor_expired", oldest=40, last=41, incarnation="A"),
        sse(your_turn(40, stale), your_turn(41, stale), feed_event(42, "match_end", match=7)),
    )
    service.on("GET", "/players/me/", httpx.Response(200, json={"username": "robo"}))
    service.on("GET", "/players/me/events/", httpx.Response(200, json={"count": 0, "results": []}))
    service.on(
        "GET", "/challenges/", httpx.Response(200, json={"count": 0, "next": None, "results": []})
    )
    service.on(
        "GET",
        "/matches/",
        httpx.Response(200, json={"count": 0, "next": None, "results": []}),  # at the start
        httpx.Response(
            200, json={"count": 1, "next": None, "results": [{"id": 7}]}
        ),  # after the 410
    )
    service.on("GET", "/matches/7/", httpx.Response(200, json=fresh))
    service.on("POST", MOVES, httpx.Response(201, json={}))

    runner(service, matches=1).run()

    assert [body(r) for r in service.sent("POST", MOVES)] == [{**DRAW, "expected_version": 9}]
    resumed = service.sent("GET", "/players/me/stream/")[-1]
    assert resumed.headers["Last-Event-ID"] == "39"


def test_a_challenge_in_the_feed_is_accepted_or_declined_as_the_bot_says():
    class Picky(FirstMove):
        def accepts(self, challenge):
            return challenge["ruleset"] == "switch"

    service = FakeService()
    for number, ruleset in ((3, "switch"), (4, "abbott")):
        challenge = {"id": number, "status": "pending", "from": "ann", "ruleset": ruleset}
        service.on("GET", f"/challenges/{number}/", httpx.Response(200, json=challenge))
    service.on("POST", "/challenges/3/accept/", httpx.Response(200, json={}))
    service.on("POST", "/challenges/4/decline/", httpx.Response(200, json={}))
    played, cursor = runner(service, Picky()), Cursor()

    for seq, number in ((1, 3), (2, 4)):
        played.handle(
            feed_event(seq, "challenge", match=None, challenge=number, **{"from": "ann"}), cursor
        )

    assert len(service.sent("POST", "/challenges/3/accept/")) == 1
    assert [body(r) for r in service.sent("POST", "/challenges/4/decline/")] == [
        {"reason": "generic"}
    ]


# The command: the bot's file and the ladder's name.


def test_the_command_loads_the_one_bot_of_a_file(tmp_path):
    mine = tmp_path / "mybot.py"
    mine.write_text(
        "from switchbot import Bot\n\nclass Mine(Bot):\n    def choose(self, view):\n        return {}\n"
    )
    two = tmp_path / "two.py"
    two.write_text(mine.read_text() + "\nclass Other(Bot):\n    pass\n")

    assert type(load_bot(mine)).__name__ == "Mine"
    with pytest.raises(Refused, match=r"exactly one subclass of switchbot\.Bot"):
        load_bot(two)


def test_a_ladder_is_named_by_its_id_or_its_ruleset_and_seats():
    service = FakeService()
    ladders = [
        {"id": 1, "ruleset": "switch", "seats": 2},
        {"id": 2, "ruleset": "switch", "seats": 4},
    ]
    service.on(
        "GET", "/ladders/", httpx.Response(200, json={"count": 2, "next": None, "results": ladders})
    )
    client = service.client()

    assert ladder_id(client, "switch-4") == 2
    assert ladder_id(client, "5") == 5
    with pytest.raises(Refused, match="switch-2, switch-4"):
        ladder_id(client, "abbott-4")


def test_unreachable_is_what_a_broken_connection_raises_on_a_move():
    service = FakeService()
    service.on("POST", MOVES, httpx.RemoteProtocolError("peer closed connection"))

    with pytest.raises(Unreachable):
        service.client().move(7, {"action": "draw", "expected_version": 4}, key="k")


def test_the_kits_types_are_those_of_the_committed_schema(tmp_path):
    """``make schema``'s two steps, into a file of the test's: the generator as the kit's
    pyproject configures it, then the project's formatter."""
    generated = tmp_path / "schema.py"
    tools = Path(sys.executable).parent
    subprocess.run([tools / "datamodel-codegen", "--output", generated], cwd=KIT, check=True)
    config = PROJECT_ROOT / "pyproject.toml"
    subprocess.run([tools / "ruff", "format", "--quiet", "--config", config, generated], check=True)

    committed = KIT / "src" / "switchbot" / "schema.py"
    assert committed.read_text() == generated.read_text(), (
        f"{committed} is stale: run `make schema`"
    )


@pytest.mark.parametrize(
    ("route", "refusal"),
    [
        (("POST", "/challenges/3/accept/"), problem(409, "challenge_not_pending")),
        (("GET", "/matches/7/"), problem(404, "not_found")),
        (("GET", "/matches/7/"), httpx.Response(500, text="Internal Server Error")),
    ],
    ids=["challenge-gone", "match-gone", "server-fault"],
)
def test_a_refusal_about_one_match_or_challenge_is_logged_and_the_bot_goes_on(route, refusal):
    service = FakeService()
    challenge = {"id": 3, "status": "pending", "from": "ann", "ruleset": "switch"}
    service.on("GET", "/challenges/3/", httpx.Response(200, json=challenge))
    service.on("POST", MOVES, problem(503, "service_unavailable", retry_after=2))
    service.on(route[0], route[1].removeprefix("/api/v1"), refusal)
    played, cursor = runner(service), Cursor()

    played.handle(feed_event(1, "challenge", match=None, challenge=3), cursor)
    played.handle(your_turn(2, shedding_view(7, 4, [PLAY])), cursor)

    assert len(service.sent("POST", MOVES)) == 1


def test_a_refused_token_stops_the_bot():
    service = FakeService()
    service.on("POST", MOVES, problem(401, "authentication_failed"))

    with pytest.raises(ApiError, match="authentication_failed"):
        runner(service).handle(your_turn(2, shedding_view(7, 4, [PLAY])), Cursor())

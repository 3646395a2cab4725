"""Every cursor, page number and path parameter that reaches ``int()`` or the database is checked
first: odd Unicode digits (``²``, ``٣``), numbers of thousands of digits, negative and fractional
ones, signs, spaces and NUL bytes are refused — 400 (``invalid`` in the API) for a cursor, a page
or a username, 404 for a path that names nothing — and never answer 500. The streams refuse a
cursor as the long polls do (docs/api.md, "Streams and long polls")."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from switchsite.api.parsing import WHOLE_NUMBER
from tests.api.conftest import assert_problem
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ODD = (
    "²",
    "٣",
    "١٢",
    "-5",
    "1.5",
    "1.0",
    "+1",
    " 1",
    "1_0",
    "1e3",
    "abc",
    "\x00",
    "1\x00",
    "9" * 19,
    "9" * 5000,
)
odd_text = st.one_of(
    st.sampled_from(ODD),
    st.integers(max_value=-1).map(str),
    st.integers(min_value=10**18).map(str),
    st.text(min_size=1).filter(lambda text: not WHOLE_NUMBER.fullmatch(text)),
)
# A path segment: no "/" (another path) nor what ends a path ("?", "#"), nor "%" (the client
# would read an escape).
odd_segment = odd_text.filter(lambda text: not re.search(r"[/?#%]", text))

# What an account's name may be (Django's username validator, at most 150 characters).
USERNAME = re.compile(r"[\w.@+-]{1,150}")

# Where a cursor or a page is read from a query or a header: 400 ``invalid``, naming it.
CURSORS = [
    ("/api/v1/matches/{match}/events/", "after"),
    ("/api/v1/matches/{match}/events/", "limit"),
    ("/api/v1/matches/{match}/stream/", "after"),
    ("/api/v1/matches/{match}/stream/", "Last-Event-ID"),
    ("/api/v1/players/me/events/", "after"),
    ("/api/v1/players/me/stream/", "after"),
    ("/api/v1/players/me/stream/", "Last-Event-ID"),
    ("/api/v1/matches/", "page"),
    ("/api/v1/matches/", "page_size"),
    ("/api/v1/players/alice/matches/", "page"),
    ("/api/v1/tournaments/", "page"),
]
# Paths whose parameters name something: 400 ``invalid`` for a username no account can have,
# 404 for an id or number that is not one.
PATHS = [
    "/api/v1/players/{}/",
    "/api/v1/players/{}/matches/",
    "/api/v1/players/{}/matches/export/",
    "/api/v1/matches/{}/",
    "/api/v1/matches/{}/events/",
    "/api/v1/matches/{}/record/",
    "/api/v1/tournaments/{}/",
    "/api/v1/tournaments/{tournament}/rounds/{}/tables/1/result/",
    "/api/v1/tournaments/{tournament}/rounds/1/tables/{}/result/",
    "/tournaments/{}/",
    "/play/matches/{}/",
]


@pytest.fixture
def world(alice, staff) -> dict[str, object]:
    """A match alice plays and a public tournament to point the requests at."""
    match = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]
    organiser = get_user_model().objects.get(username=staff.username)
    tournament = tournament_services.tournament_create(
        creator=organiser,
        name="Tuesday club",
        ruleset="switch",
        scoring="french",
        planned_rounds=1,
        table_size=2,
        deals_per_round=1,
        seating_mode="balanced",
    )
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    return {"alice": alice, "match": match, "tournament": tournament.pk}


ONCE_EACH = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@ONCE_EACH
@given(where=st.sampled_from(CURSORS), value=odd_text)
@example(where=("/api/v1/matches/{match}/stream/", "after"), value="²")
@example(where=("/api/v1/players/me/stream/", "Last-Event-ID"), value="9" * 5000)
def test_a_cursor_or_page_that_is_not_a_whole_number_is_refused(world, where, value) -> None:
    path, name = where
    url = path.format(match=world["match"])
    client = world["alice"]
    if name == "Last-Event-ID":
        response = client.http.get(url, HTTP_LAST_EVENT_ID=value)
    else:
        response = client.http.get(url, {name: value})

    problem = assert_problem(response, 400, "invalid")
    assert list(problem["errors"]) == [name]


@ONCE_EACH
@given(path=st.sampled_from(PATHS), value=odd_segment)
@example(path="/api/v1/players/{}/", value="a\x00b")
@example(path="/api/v1/matches/{}/", value="9" * 5000)
def test_a_path_parameter_that_names_nothing_is_400_or_404_never_500(world, path, value) -> None:
    url = path.replace("{tournament}", str(world["tournament"])).format(value)

    response = world["alice"].http.get(url)

    assert response["Content-Type"].startswith("application/problem+json")
    if "/players/" in url and not USERNAME.fullmatch(value):
        assert_problem(response, 400, "invalid")
        assert list(response.json()["errors"]) == ["username"]
    else:
        assert response.status_code == 404, (url, response.status_code)


@ONCE_EACH
@given(value=odd_text, header=st.booleans())
@example(value="²", header=False)
def test_a_public_page_stream_refuses_a_revision_that_is_not_a_whole_number(
    world, value, header
) -> None:
    url = f"/tournaments/{world['tournament']}/live/"
    client = Client()
    response = (
        client.get(url, HTTP_LAST_EVENT_ID=value) if header else client.get(url, {"after": value})
    )

    assert response.status_code == 400

"""the API guide "Seat links": guests of an online tournament play their seat through a token of
scope `seat` (the staff detail's `play_url`), which allows that seat's moves and views only."""

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from games.models import Match, Player, Seat
from games.selectors import seat_link_secrets
from switchsite.models import ApiToken
from tests.api.conftest import assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

GUESTS = ("Chloé", "Dan")


def seat_client(play_url: str) -> APIClient:
    client = APIClient()
    secret = play_url.rstrip("/").rsplit("/", 1)[1]
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


@pytest.fixture
def started(staff, alice, bob) -> dict:
    """An online tournament of two guests and two players at tables of two, round 1 started."""
    body = {**TOURNAMENT, "table_size": 2, "rounds": 1, "deals_per_round": 1}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    for client in (alice, bob):
        assert client.post(f"{path}/register/").status_code == 200
    for name in GUESTS:
        assert staff.post(f"{path}/register/", {"guest": name}).status_code == 200
    detail = staff.post(f"{path}/start/").json()
    assert detail["status"] == "running", detail
    return detail


def tables_by_name(detail: dict) -> dict[str, int]:
    """Each entrant's match in round 1."""
    return {
        seat["name"]: table["match"]
        for table in detail["rounds"][0]["tables"]
        for seat in table["seats"]
    }


def test_staff_see_a_seat_link_for_each_guest_and_nobody_else_does(staff, alice, started):
    urls = {e["name"]: e["play_url"] for e in started["entries"]}

    assert urls["alice"] is None
    assert urls["bob"] is None
    assert all(urls[name].startswith("http://testserver/play/seat/") for name in GUESTS)
    assert urls["Chloé"] != urls["Dan"]
    seen = alice.get(f"/api/v1/tournaments/{started['id']}/").json()["entries"]
    assert all(entry["play_url"] is None for entry in seen)
    page = staff.http.get(urls["Chloé"].removeprefix("http://testserver"))
    assert page.status_code == 200


def test_a_seat_link_views_and_moves_its_own_seat_only(started, alice, bob):
    links = {e["name"]: seat_client(e["play_url"]) for e in started["entries"] if e["play_url"]}
    matches = tables_by_name(started)
    chloe, own = links["Chloé"], matches["Chloé"]
    other = next(match for match in set(matches.values()) if match != own)

    me = chloe.get("/api/v1/players/me/").json()
    assert me["username"].startswith("Chloé")
    assert me["name"] == "Chloé"  # what the seat link's page says: "Playing as Chloé"
    feed = chloe.get("/api/v1/players/me/events/?after=0").json()["results"]
    assert [(e["type"], e["match"]) for e in feed if e["type"] == "round_seated"] == [
        ("round_seated", own)
    ]
    view = chloe.get(f"/api/v1/matches/{own}/").json()
    assert view["status"] == "active"
    assert view["you"]["seat"] is not None
    mine = view["seats"][view["you"]["seat"]]
    assert (mine["player"], mine["name"]) == (me["username"], "Chloé")  # never "(guest 3)"
    assert chloe.get(f"/api/v1/matches/{own}/events/?after=0").status_code == 200

    by_username = {"alice": alice.http, "bob": bob.http}
    for link in links.values():
        by_username[link.get("/api/v1/players/me/").json()["username"]] = link
    while view["to_move"] != view["you"]["seat"]:  # the others at the table play first
        mover = by_username[view["seats"][view["to_move"]]["player"]]
        other_view = mover.get(f"/api/v1/matches/{own}/").json()
        move = {**other_view["legal_moves"][0], "expected_version": other_view["version"]}
        assert mover.post(f"/api/v1/matches/{own}/moves/", move, format="json").status_code == 201
        view = chloe.get(f"/api/v1/matches/{own}/").json()
    move = {**view["legal_moves"][0], "expected_version": view["version"]}
    played = chloe.post(f"/api/v1/matches/{own}/moves/", move, format="json")
    assert played.status_code == 201, played.content

    for refused in (
        chloe.get(f"/api/v1/matches/{other}/"),
        chloe.get(f"/api/v1/matches/{other}/events/?after=0"),
        chloe.post(f"/api/v1/matches/{other}/moves/", move, format="json"),
        chloe.post(f"/api/v1/matches/{own}/resign/", {}, format="json"),
        chloe.get("/api/v1/matches/"),
        chloe.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}, format="json"),
        chloe.get("/api/v1/tournaments/"),
        chloe.get("/api/v1/auth/tokens/"),
    ):
        assert_problem(refused, 403, "insufficient_scope")
    # Its own tournament it may read (the seat page shows the guest's table from it).
    assert chloe.get(f"/api/v1/tournaments/{started['id']}/").status_code == 200


def test_guests_of_an_offline_tournament_get_no_user_and_no_link(staff):
    body = {**TOURNAMENT, "play": "offline"}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"

    entries = staff.post(f"{path}/register/", {"guest": "Chloé"}).json()["entries"]

    assert entries[0]["play_url"] is None


def test_the_desk_prints_a_card_per_guest_with_its_link_and_qr_code(started, admin_client):
    links = {e["name"]: e["play_url"] for e in started["entries"] if e["play_url"]}

    sheet = admin_client.get(
        f"/admin/tournaments/tournament/{started['id']}/print/seat_links/"
    ).content.decode()

    assert sheet.count('class="slip seat-link"') == len(GUESTS)
    for name, url in links.items():
        assert name in sheet
        assert url.removeprefix("http://testserver") in sheet
    assert sheet.count("<svg") >= len(GUESTS)
    assert "alice" not in sheet.split('class="sheet"')[1]


def test_deleting_the_tournament_revokes_its_seat_links(started, staff):
    links = [seat_client(e["play_url"]) for e in started["entries"] if e["play_url"]]

    assert staff.http.delete(f"/api/v1/tournaments/{started['id']}/").status_code == 204

    for link in links:
        assert_problem(link.get("/api/v1/players/me/"), 401, "authentication_failed")


def test_deleting_the_tournament_deletes_the_guests_users_no_match_seats(staff, alice, bob):
    """Chloé and Dan are seated in round 1's matches, which outlive the tournament (abandoned,
    kept for alice and bob): their users stay, inert. Eve, absent, never sat in one: her user
    goes, with its game profile and seat link."""
    body = {**TOURNAMENT, "table_size": 2, "rounds": 1, "deals_per_round": 1}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    for client in (alice, bob):
        assert client.post(f"{path}/register/").status_code == 200
    for name in (*GUESTS, "Eve"):
        assert staff.post(f"{path}/register/", {"guest": name}).status_code == 200
    assert staff.post(f"{path}/checkin/", {"name": "Eve", "present": False}).status_code == 200
    assert staff.post(f"{path}/start/").status_code == 200
    users = dict(Entry.objects.filter(guest_user__isnull=False).values_list("name", "guest_user"))
    assert set(users) == {*GUESTS, "Eve"}

    assert staff.http.delete(f"{path}/").status_code == 204

    assert not get_user_model().objects.filter(pk=users["Eve"]).exists()
    assert not Player.objects.filter(user_id=users["Eve"]).exists()
    kept = get_user_model().objects.filter(pk__in=[users[name] for name in GUESTS])
    assert len(kept) == len(GUESTS)
    assert not any(user.has_usable_password() for user in kept)
    assert not ApiToken.objects.filter(user__in=kept).exists()
    assert Seat.objects.filter(player__in=kept, match__status=Match.Status.ABANDONED).count() == 2


def guest_tokens() -> str:
    return str(list(ApiToken.objects.filter(scopes=["seat"]).values()))


def test_a_seat_links_secret_is_not_stored_and_the_desk_prints_the_same_link_again(started, staff):
    links = {e["name"]: e["play_url"] for e in started["entries"] if e["play_url"]}

    again = staff.get(f"/api/v1/tournaments/{started['id']}/").json()["entries"]

    assert {e["name"]: e["play_url"] for e in again if e["play_url"]} == links
    for url in links.values():
        secret = url.rstrip("/").rsplit("/", 1)[1]
        assert secret.startswith("swt_")
        assert secret not in guest_tokens()


def test_after_the_secret_key_changes_a_printed_card_still_plays_and_the_desk_prints_a_new_one(
    started, staff, admin_client, settings
):
    printed = next(e["play_url"] for e in started["entries"] if e["name"] == "Chloé")
    settings.SECRET_KEY = "another-secret-key"
    admin_client.force_login(get_user_model().objects.get(username="root"))  # sessions end

    unknown = staff.get(f"/api/v1/tournaments/{started['id']}/").json()["entries"]
    sheet = admin_client.get(
        f"/admin/tournaments/tournament/{started['id']}/print/seat_links/"
    ).content.decode()
    shown = staff.get(f"/api/v1/tournaments/{started['id']}/").json()["entries"]

    assert all(entry["play_url"] is None for entry in unknown)
    renewed = next(e["play_url"] for e in shown if e["name"] == "Chloé")
    assert renewed != printed
    assert renewed.removeprefix("http://testserver") in sheet
    assert printed.removeprefix("http://testserver") not in sheet
    for url in (printed, renewed):
        assert seat_client(url).get("/api/v1/players/me/").json()["username"].startswith("Chloé")


@pytest.mark.django_db(transaction=True)
def test_a_link_kept_in_plain_text_before_keeps_playing_and_its_guest_gets_a_derived_one(
    staff, alice, bob
):
    """Migrations switchsite/0007 and 0008: a seat link whose secret was kept as it is keeps only
    its hash, and its guest gets a link the desk can print again, beside it."""
    executor = MigrationExecutor(connection)
    before = [("switchsite", "0006_account_tokens_hashed")]
    executor.migrate(before)
    executor.loader.build_graph()
    user = get_user_model().objects.create_user("Chloé (guest 1)")
    printed = "swt_" + "A" * 43
    old_token = executor.loader.project_state(before).apps.get_model("switchsite", "ApiToken")
    old_token.objects.create(
        user_id=user.pk,
        name="seat link of Chloé",
        scopes=["seat"],
        key_hash=hashlib.sha256(printed.encode()).hexdigest(),
        seat_secret=printed,
    )

    executor.migrate(executor.loader.graph.leaf_nodes())

    assert printed not in guest_tokens()
    assert ApiToken.objects.filter(user=user).count() == 2
    (derived,) = seat_link_secrets(user_ids=[user.pk]).values()
    for secret in (printed, derived):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
        assert client.get("/api/v1/players/me/").json()["username"] == "Chloé (guest 1)"

"""The room of a club night: the round clock, and the live pages' revision that wakes them."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client, override_settings

from switchgame.tournament.clock import ClockError, RoundClock
from tests.api.conftest import assert_problem
from tests.api.test_moves import streamed_text
from tests.tournaments.test_club_night_django import french_deal, offline_event, seated_names
from tournaments import live
from tournaments.models import Round, Tournament
from tournaments.qr import qr_svg

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 25, 12, 0)


def test_the_pure_clock_starts_pauses_and_resumes_to_the_same_end():
    clock = RoundClock().start(NOON, 40)
    assert clock.ends_at == NOON + timedelta(minutes=40)

    paused = clock.pause(NOON + timedelta(minutes=10))
    assert paused.ends_at is None
    assert paused.paused_remaining == timedelta(minutes=30)
    assert paused.remaining(NOON + timedelta(hours=5)) == timedelta(minutes=30)

    resumed = paused.resume(NOON + timedelta(minutes=15))
    assert resumed.ends_at == NOON + timedelta(minutes=45)
    assert resumed.remaining(NOON + timedelta(hours=1)) == timedelta(0)


@pytest.mark.parametrize(
    ("clock", "action"),
    [
        (RoundClock(), lambda c: c.pause(NOON)),
        (RoundClock(), lambda c: c.resume(NOON)),
        (RoundClock().start(NOON, 5), lambda c: c.resume(NOON)),
        (RoundClock(), lambda c: c.start(NOON, 0)),
    ],
)
def test_the_pure_clock_refuses_what_its_state_does_not_allow(clock, action):
    with pytest.raises(ClockError):
        action(clock)


def test_the_desk_starts_pauses_and_resumes_the_round_clock(staff):
    path = offline_event(staff)
    clock_path = f"{path}/rounds/1/clock/"
    assert staff.get(f"{path}/").json()["rounds"][0]["clock"] == {
        "ends_at": None,
        "paused_remaining": None,
    }

    started = staff.post(clock_path, {"minutes": 40})
    assert started.status_code == 200
    ends_at = datetime.fromisoformat(started.json()["clock"]["ends_at"])
    published = datetime.fromisoformat(started.json()["published_at"])
    assert timedelta(minutes=39) < ends_at - published < timedelta(minutes=41)

    paused = staff.post(clock_path, {"pause": True}).json()["clock"]
    assert paused["ends_at"] is None
    assert 39 * 60 < paused["paused_remaining"] <= 40 * 60

    resumed = staff.post(clock_path, {"resume": True}).json()["clock"]
    assert resumed["paused_remaining"] is None
    assert staff.get(f"{path}/").json()["rounds"][0]["clock"] == resumed


def test_the_clock_refuses_bad_requests_with_clear_codes(staff, alice):
    path = offline_event(staff)
    clock_path = f"{path}/rounds/1/clock/"

    for body in (
        {},
        {"minutes": 0},
        {"minutes": 601},
        {"minutes": 40, "pause": True},
        {"pause": False},
    ):
        assert_problem(staff.post(clock_path, body), 400, "invalid")
    assert_problem(staff.post(clock_path, {"minutes": 40, "colour": "red"}), 400, "invalid")
    assert_problem(staff.post(clock_path, {"pause": True}), 409, "clock_not_running")
    assert_problem(staff.post(clock_path, {"resume": True}), 409, "clock_not_paused")
    assert_problem(staff.post(f"{path}/rounds/2/clock/", {"minutes": 40}), 404, "not_found")
    assert_problem(alice.post(clock_path, {"minutes": 40}), 403, "staff_only")
    assert staff.post(f"{path}/cancel/").status_code == 200
    assert_problem(staff.post(clock_path, {"minutes": 40}), 409, "tournament_cancelled")


def test_every_write_counts_a_revision_and_the_stream_reports_it(staff):
    path = offline_event(staff)
    tournament = Tournament.objects.get(pk=int(path.rsplit("/", 1)[1]))
    before = tournament.revision
    assert live.revision_events(tournament.pk, before) == ([], False)

    names = seated_names(staff, path)
    result = {"deals": [french_deal(names[0], names)] * 2}
    assert staff.post(f"{path}/rounds/1/tables/1/result/", result).status_code == 200
    refused = staff.post(f"{path}/rounds/1/tables/1/result/", result)  # no replace: rolled back
    assert refused.status_code == 409

    tournament.refresh_from_db()
    assert tournament.revision == before + 1
    events, over = live.revision_events(tournament.pk, before)
    assert events == [{"seq": before + 1, "type": "changed", "tournament": tournament.pk}]
    assert not over
    assert live.revision_events(tournament.pk + 1000, 0) == ([], True)


# --- the projector screen and the live pages --------------------------------------------------------


EIGHT = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_the_screen_shows_the_round_its_clock_and_the_standings(staff, client):
    path = offline_event(staff, guests=EIGHT, public=True)
    tournament_id = int(path.rsplit("/", 1)[1])
    names = seated_names(staff, path)
    staff.post(f"{path}/rounds/1/clock/", {"minutes": 40})
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(names[0], names)] * 2})

    page = client.get(f"/tournaments/{tournament_id}/screen/")

    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-live="/tournaments/{tournament_id}/live/"' in html
    assert 'class="clock" data-clock' in html
    assert "40:00" in html or "39:5" in html
    assert "Round 1 of 1" in html
    assert all(name in html for name in EIGHT)
    assert html.count("data-table=") == 2
    public = client.get(f"/tournaments/{tournament_id}/").content.decode()
    assert "Time left:" in public
    assert "tournaments/live.js" in public


def test_the_screen_of_a_private_tournament_is_for_staff_only(staff, admin_client):
    path = offline_event(staff)
    tournament_id = int(path.rsplit("/", 1)[1])
    client = Client()  # nobody logged in

    assert client.get(f"/tournaments/{tournament_id}/screen/").status_code == 404
    assert client.get(f"/tournaments/{tournament_id}/live/").status_code == 404
    assert admin_client.get(f"/tournaments/{tournament_id}/screen/").status_code == 200


def test_the_live_stream_sends_the_revisions_after_the_pages(staff, client, settings):
    settings.SSE_MAX_SECONDS = 0
    path = offline_event(staff, public=True)
    tournament = Tournament.objects.get(pk=int(path.rsplit("/", 1)[1]))

    def read(**headers) -> str:
        response = client.get(f"/tournaments/{tournament.pk}/live/", **headers)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        return streamed_text(response)

    behind = read(HTTP_LAST_EVENT_ID=str(tournament.revision - 1))
    current = read(HTTP_LAST_EVENT_ID=str(tournament.revision))

    assert f"id: {tournament.revision}\nevent: changed\n" in behind
    assert "event: changed" not in current


def test_printed_sheets_of_a_public_tournament_carry_the_public_pages_qr_code(staff, admin_client):
    public = int(offline_event(staff, guests=EIGHT, public=True).rsplit("/", 1)[1])
    private = int(offline_event(staff, guests=EIGHT).rsplit("/", 1)[1])
    sheets = "/admin/tournaments/tournament/{}/print/{}/"

    slips = admin_client.get(sheets.format(public, "slips")).content.decode()
    pairings = admin_client.get(sheets.format(public, "pairings")).content.decode()
    unlisted = admin_client.get(sheets.format(private, "slips")).content.decode()

    url = f"http://testserver/tournaments/{public}/"
    code = qr_svg(url, title="Tuesday club: tables and standings")
    assert slips.count(code) == 2  # one per table
    assert pairings.count(code) == 2  # the sheet by table and the one by name
    assert url in pairings
    assert 'class="qr"' not in unlisted


def test_the_desk_runs_the_round_clock_with_its_buttons(staff, admin_client):
    tournament_id = int(offline_event(staff, guests=EIGHT).rsplit("/", 1)[1])
    change = f"/admin/tournaments/tournament/{tournament_id}/change/"
    clock = f"/admin/tournaments/tournament/{tournament_id}/clock/"
    assert 'id="desk-clock"' in admin_client.get(change).content.decode()

    started = admin_client.post(clock, {"round": 1, "clock": "start", "minutes": 30}, follow=True)
    assert "The round clock is running." in started.content.decode()
    played = Tournament.objects.get(pk=tournament_id).rounds.get(number=1)
    assert played.clock_ends_at is not None

    admin_client.post(clock, {"round": 1, "clock": "pause"})
    played.refresh_from_db()
    assert played.clock_ends_at is None
    assert played.clock_paused_remaining is not None
    refused = admin_client.post(clock, {"round": 1, "clock": "pause"}, follow=True)
    assert "not running" in refused.content.decode()
    bad = admin_client.post(clock, {"round": 1, "clock": "start", "minutes": ""}, follow=True)
    assert "Give the clock&#x27;s minutes" in bad.content.decode()


# --- the club's time zone ----------------------------------------------------------------------------


SEATED_AT = datetime(2026, 11, 25, 19, 32, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "seated", "ends"),
    [("Europe/Paris", "20:32 CET", "21:12 CET"), ("America/New_York", "14:32 EST", "15:12 EST")],
)
def test_every_page_shows_times_in_the_clubs_time_zone_and_the_api_keeps_utc(
    staff, admin_client, zone, seated, ends
):
    path = offline_event(staff, guests=EIGHT, public=True)
    tournament_id = int(path.rsplit("/", 1)[1])
    Round.objects.filter(tournament_id=tournament_id).update(
        published_at=SEATED_AT, clock_ends_at=SEATED_AT + timedelta(minutes=40)
    )
    series_id = staff.post(
        "/api/v1/series/", {"name": "Autumn", "tournaments": [tournament_id], "public": True}
    ).json()["id"]
    sheet = f"/admin/tournaments/tournament/{tournament_id}/print/{{}}/"

    with override_settings(TIME_ZONE=zone):
        pages = {
            name: admin_client.get(url).content.decode()
            for name, url in {
                "public": f"/tournaments/{tournament_id}/",
                "screen": f"/tournaments/{tournament_id}/screen/",
                "series": f"/tournaments/series/{series_id}/",
                "index": "/tournaments/",
                "pairings": sheet.format("pairings"),
                "slips": sheet.format("slips"),
                "standings": sheet.format("standings"),
                "desk": f"/admin/tournaments/tournament/{tournament_id}/change/",
            }.items()
        }
        api = staff.get(f"{path}/").json()["rounds"][0]

    for name in ("public", "screen", "series", "pairings", "slips"):
        assert seated in pages[name], name
    for name in ("public", "screen", "desk"):
        assert ends in pages[name], name
    assert f'title="{zone}"' in pages["public"]
    assert "Wed 25 Nov 2026" in pages["index"]
    assert f'<a href="/tournaments/{tournament_id}/">' in pages["series"]  # a public night
    assert f'title="{zone}"' in pages["standings"]  # when it was printed
    assert api["published_at"] == "2026-11-25T19:32:00+00:00"
    assert api["clock"]["ends_at"] == "2026-11-25T20:12:00+00:00"

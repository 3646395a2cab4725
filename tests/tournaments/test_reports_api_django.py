"""the API guide "Results from the players' phones": reports, confirmations and disputes through
the API, by members and by guests' seat links, each refusal with its code, the same answer for a
retried request (``Idempotency-Key``), the rate limit, and self check-in."""

from __future__ import annotations

import pytest

from switchsite.api import throttling
from tests.api.conftest import assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tests.tournaments.test_seat_links_django import seat_client
from tournaments.models import ResultEntry, ResultReport

pytestmark = pytest.mark.django_db

GUESTS = ["Ann", "Bea", "Cal", "Dee"]


def offline_event(staff, **settings) -> str:
    """An offline tournament of four guests at one table of four, self-reporting, started."""
    body = {
        **TOURNAMENT,
        "play": "offline",
        "rounds": 2,
        "self_report": "confirm",
        **settings,
    }
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    register = {"entries": [{"guest": name} for name in GUESTS]}
    assert staff.post(f"{path}/register/", register).status_code == 200
    assert staff.post(f"{path}/start/").status_code == 200
    return path


def seat_links(staff, path: str) -> dict:
    """A seat-link API client per guest, by name."""
    detail = staff.get(f"{path}/").json()
    return {e["name"]: seat_client(e["play_url"]) for e in detail["entries"] if e["play_url"]}


def seated(staff, path: str) -> list[str]:
    table = staff.get(f"{path}/").json()["rounds"][0]["tables"][0]
    return [seat["name"] for seat in table["seats"]]


def french(names: list[str], tally: int = 10) -> dict:
    deal = {"winner": names[0], "points_left": dict.fromkeys(names[1:], tally)}
    return {"deals": [deal, deal]}


REPORTS = "rounds/1/tables/1/reports/"


def test_a_guest_reports_by_seat_link_and_another_confirms_it(staff):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    first, second = links[names[0]], links[names[1]]

    created = first.post(f"{path}/{REPORTS}", french(names), format="json")

    assert created.status_code == 201, created.content
    report = created.json()
    assert (report["by"], report["status"], report["result"]) == (
        names[0],
        "pending",
        french(names),
    )
    assert first.get(f"{path}/").json()["rounds"][0]["tables"][0]["report_status"] == "pending"
    listed = second.get(f"{path}/{REPORTS}").json()
    assert [r["id"] for r in listed] == [report["id"]]

    confirmed = second.post(f"{path}/{REPORTS}{report['id']}/confirm/", format="json")

    assert confirmed.status_code == 200, confirmed.content
    assert (confirmed.json()["status"], confirmed.json()["answered_by"]) == ("confirmed", names[1])
    table = staff.get(f"{path}/").json()["rounds"][0]["tables"][0]
    assert table["result"]["totals"][names[0]] == 60
    assert table["report_status"] is None
    assert [
        (v["entered_by"], v["reported_by"], v["confirmed_by"]) for v in table["result"]["history"]
    ] == [(names[1], names[0], names[1])]
    assert table["result"]["entered_by"] == names[1]  # a guest by their name, never "(guest 3)"


def test_each_refusal_has_its_code(staff, alice):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    first, second = links[names[0]], links[names[1]]
    report = first.post(f"{path}/{REPORTS}", french(names), format="json").json()

    # A member who is not at the table.
    assert_problem(alice.post(f"{path}/{REPORTS}", french(names)), 403, "not_at_table")
    assert_problem(alice.get(f"{path}/{REPORTS}"), 403, "not_at_table")
    # The reporter confirming their own report.
    own = first.post(f"{path}/{REPORTS}{report['id']}/confirm/", format="json")
    assert_problem(own, 403, "not_at_table")
    # The same result again while it is pending.
    again = second.post(f"{path}/{REPORTS}", french(names), format="json")
    assert_problem(again, 409, "report_pending")
    # The desk's checks, the same 400s.
    bad = second.post(f"{path}/{REPORTS}", french(names, tally=1), format="json")
    assert "smallest card counts 3" in str(assert_problem(bad, 400, "invalid_result")["errors"])
    high = second.post(f"{path}/{REPORTS}", french(names, tally=160), format="json")
    assert_problem(high, 400, "implausible_tally")
    assert_problem(
        second.post(f"{path}/{REPORTS}{report['id'] + 99}/confirm/", format="json"),
        404,
        "not_found",
    )
    assert second.post(f"{path}/{REPORTS}{report['id']}/confirm/", format="json").status_code == 200
    recorded = second.post(f"{path}/{REPORTS}", french(names), format="json")
    assert_problem(recorded, 409, "result_recorded")


def test_a_dispute_waits_for_the_desk(staff):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    report = links[names[0]].post(f"{path}/{REPORTS}", french(names), format="json").json()

    disputed = links[names[2]].post(
        f"{path}/{REPORTS}{report['id']}/dispute/", {"reason": "Bea held 20"}, format="json"
    )

    assert disputed.status_code == 200, disputed.content
    assert (disputed.json()["status"], disputed.json()["reason"]) == ("disputed", "Bea held 20")
    confirm = links[names[1]].post(f"{path}/{REPORTS}{report['id']}/confirm/", format="json")
    assert_problem(confirm, 409, "report_pending")
    table = staff.get(f"{path}/").json()["rounds"][0]["tables"][0]
    assert table["report_status"] == "disputed"
    entered = staff.post(f"{path}/rounds/1/tables/1/result/", french(names, tally=20))
    assert entered.status_code == 200
    assert ResultReport.objects.get(pk=report["id"]).status == "settled"


def test_with_self_reporting_off_players_are_refused(staff):
    path = offline_event(staff, self_report="off")
    names = seated(staff, path)
    # Without self-reporting the guests have no seat links: a member at the desk tries.
    assert_problem(staff.post(f"{path}/{REPORTS}", french(names)), 409, "self_report_off")


def test_a_seat_link_reads_and_reports_only_in_its_own_tournament(staff):
    path = offline_event(staff)
    other = offline_event(staff)
    link = seat_links(staff, path)[seated(staff, path)[0]]

    assert link.get(f"{path}/").status_code == 200
    assert_problem(link.get(f"{other}/"), 403, "insufficient_scope")
    names = seated(staff, other)
    assert_problem(
        link.post(f"{other}/{REPORTS}", french(names), format="json"), 403, "insufficient_scope"
    )
    assert_problem(link.delete(f"{path}/"), 403, "staff_only")


def test_a_retried_report_or_confirmation_is_applied_once(staff):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    first, second = links[names[0]], links[names[1]]
    key = {"HTTP_IDEMPOTENCY_KEY": "offline-report-1"}

    created = [
        first.post(f"{path}/{REPORTS}", french(names), format="json", **key) for _ in range(2)
    ]
    report = created[0].json()
    confirm = f"{path}/{REPORTS}{report['id']}/confirm/"
    key = {"HTTP_IDEMPOTENCY_KEY": "offline-confirm-1"}
    confirmed = [second.post(confirm, format="json", **key) for _ in range(2)]

    assert [r.status_code for r in created] == [201, 201]
    assert created[1].json() == report
    assert [r.status_code for r in confirmed] == [200, 200]
    assert confirmed[1].json() == confirmed[0].json()
    assert ResultReport.objects.count() == 1
    assert ResultEntry.objects.count() == 1


def test_reports_are_rate_limited_per_caller(staff, monkeypatch):
    path = offline_event(staff)
    link = seat_links(staff, path)[seated(staff, path)[0]]
    rates = {**throttling.ScopedRateThrottle.THROTTLE_RATES, "reports": "3/minute"}
    monkeypatch.setattr(throttling.ScopedRateThrottle, "THROTTLE_RATES", rates)

    answers = [link.get(f"{path}/{REPORTS}").status_code for _ in range(3)]

    assert answers == [200, 200, 200]
    assert_problem(link.get(f"{path}/{REPORTS}"), 429, "throttled")


def test_a_guest_checks_in_by_seat_link_until_the_round_is_seated(staff, alice):
    body = {**TOURNAMENT, "play": "offline", "rounds": 1, "self_checkin": True}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    staff.post(f"{path}/register/", {"entries": [{"guest": name} for name in GUESTS]})
    assert alice.post(f"{path}/register/").status_code == 200
    for name in [*GUESTS, "alice"]:
        staff.post(f"{path}/checkin/", {"name": name, "present": False})
    link = seat_links(staff, path)["Ann"]

    checked = link.post(f"{path}/checkin/self/", format="json")
    mine = alice.post(f"{path}/checkin/self/")

    assert checked.json() == {"tournament": tournament_id, "name": "Ann", "present": True}
    assert mine.json()["present"] is True
    present = {e["name"]: e["present"] for e in staff.get(f"{path}/").json()["entries"]}
    assert present == {"Ann": True, "Bea": False, "Cal": False, "Dee": False, "alice": True}
    for name in ("Bea", "Cal"):
        staff.post(f"{path}/checkin/", {"name": name, "present": True})
    assert staff.post(f"{path}/start/").status_code == 200
    assert_problem(link.post(f"{path}/checkin/self/", format="json"), 409, "checkin_closed")


def test_a_guest_finds_their_table_and_hears_of_its_reports(staff):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    first, second = links[names[0]], links[names[1]]

    (mine,) = first.get("/api/v1/tournaments/mine/").json()
    report = first.post(f"{path}/{REPORTS}", french(names), format="json").json()
    feed = second.get("/api/v1/players/me/events/?after=0").json()["results"]

    assert (mine["entry"], mine["play"], mine["self_report"]) == (names[0], "offline", "confirm")
    assert mine["table"] == {"round": 1, "table": 1, "seat": 0}
    assert [e["type"] for e in feed] == ["round_seated", "table_report"]
    assert feed[1]["data"] | {"report": report["id"]} == {
        "match": None,
        "tournament": mine["tournament"],
        "round": 1,
        "table": 1,
        "report": report["id"],
        "status": "pending",
    }

"""The pages of the players' reports (tournaments.md, "Results from the players' phones"): the
desk's list of tables waiting for the players and its live panel, the projector's "awaiting
confirmation", the history naming who reported and confirmed, the check-in poster, the desk's
form saved once however often a browser that was offline sends it, and the member's page."""

from __future__ import annotations

import pytest

from tests.tournaments.test_admin_django import ADD, NEW_EVENT
from tests.tournaments.test_reports_api_django import (
    REPORTS,
    french,
    offline_event,
    seat_links,
    seated,
)
from tournaments.models import ResultEntry, Tournament

pytestmark = pytest.mark.django_db


def desk_url(path: str) -> str:
    return f"/admin/tournaments/tournament/{path.rsplit('/', 1)[1]}/change/"


def test_the_desk_lists_the_tables_waiting_for_a_confirmation_or_disputed(staff, admin_client):
    path = offline_event(staff, public=True, table_size=2, deals_per_round=1)
    links = seat_links(staff, path)
    for number in (1, 2):
        names = seated_at(staff, path, number)
        links[names[0]].post(
            f"{path}/rounds/1/tables/{number}/reports/", one_deal(names), format="json"
        )
    names = seated_at(staff, path, 2)
    (report,) = links[names[1]].get(f"{path}/rounds/1/tables/2/reports/").json()
    links[names[1]].post(f"{path}/rounds/1/tables/2/reports/{report['id']}/dispute/", format="json")

    page = admin_client.get(desk_url(path)).content.decode()
    screen = admin_client.get(f"/tournaments/{path.rsplit('/', 1)[1]}/screen/").content.decode()

    waiting = page[page.index('id="desk-reports"') :]
    assert "Table 1: reported, awaiting an opponent's confirmation" in waiting
    assert "Table 2: disputed — enter the result to settle it" in waiting
    assert 'data-live-parts="#desk"' in page
    assert screen.count('class="awaiting"') == 2
    assert "awaiting confirmation" in screen
    assert "disputed: the desk settles it" in screen


def seated_at(staff, path: str, table: int) -> list[str]:
    tables = staff.get(f"{path}/").json()["rounds"][0]["tables"]
    return [seat["name"] for seat in tables[table - 1]["seats"]]


def one_deal(names: list[str]) -> dict:
    return {"deals": [{"winner": names[0], "points_left": dict.fromkeys(names[1:], 10)}]}


def test_the_desks_history_names_who_reported_and_who_confirmed(staff, admin_client):
    path = offline_event(staff)
    links = seat_links(staff, path)
    names = seated(staff, path)
    report = links[names[0]].post(f"{path}/{REPORTS}", french(names), format="json").json()
    links[names[2]].post(f"{path}/{REPORTS}{report['id']}/confirm/", format="json")
    tournament_id = path.rsplit("/", 1)[1]

    page = admin_client.get(
        f"/admin/tournaments/tournament/{tournament_id}/rounds/1/tables/1/result/"
    ).content.decode()

    assert f"reported by {names[0]}, confirmed by {names[2]}" in page


def test_a_desk_form_sent_again_is_saved_once(staff, admin_client):
    path = offline_event(staff, self_report="off", deals_per_round=1)
    names = seated(staff, path)
    tournament_id = path.rsplit("/", 1)[1]
    url = f"/admin/tournaments/tournament/{tournament_id}/rounds/1/tables/1/result/"
    page = admin_client.get(url).content.decode()
    key = page.split('name="submission" value="', 1)[1].split('"', 1)[0]
    form = {"submission": key, "d0-out-0": "on", "_save": "Save the result"}
    form |= {f"d0-tally-{seat}": "10" for seat in range(1, len(names))}

    answers = [admin_client.post(url, form) for _ in range(2)]

    assert [answer.status_code for answer in answers] == [302, 302]
    assert ResultEntry.objects.count() == 1
    assert ResultEntry.objects.get().submission == key


def test_the_check_in_poster_carries_the_check_in_pages_code(staff, admin_client):
    path = offline_event(staff, self_checkin=True)
    tournament_id = path.rsplit("/", 1)[1]

    desk = admin_client.get(desk_url(path)).content.decode()
    poster = admin_client.get(
        f"/admin/tournaments/tournament/{tournament_id}/print/checkin/"
    ).content.decode()

    assert "Print the check-in poster" in desk
    assert "<svg" in poster
    assert f"http://testserver/play/tournaments/{tournament_id}/" in poster
    assert "Check in here" in poster


def test_the_desk_counts_who_checked_in_themselves(staff, admin_client, alice):
    body = {"name": "Night", "ruleset": "switch", "scoring": "french", "rounds": 1}
    body |= {"table_size": 4, "play": "offline", "self_checkin": True}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    alice.post(f"{path}/register/")
    staff.post(f"{path}/checkin/", {"name": "alice", "present": False})
    before = admin_client.get(desk_url(path)).content.decode()

    alice.post(f"{path}/checkin/self/")

    after = admin_client.get(desk_url(path)).content.decode()
    assert "0 checked in" in before
    assert "1 checked in" in after


def test_a_members_table_page_is_the_web_clients(client):
    page = client.get("/play/tournaments/7/")

    assert page.status_code == 200
    assert 'id="mytable" data-tournament="7"' in page.content.decode()
    assert "play/mytable.js" in page.content.decode()


def test_the_director_turns_reports_and_self_check_in_on_when_creating_in_the_admin(
    admin_client,
):
    event = NEW_EVENT | {"play": "offline", "self_report": "trust", "self_checkin": "on"}

    admin_client.post(ADD, event)
    refused = admin_client.post(ADD, NEW_EVENT | {"name": "Online", "self_report": "confirm"})

    created = Tournament.objects.get(name=NEW_EVENT["name"])
    assert (created.self_report, created.self_checkin) == ("trust", True)
    assert "Players report results only at offline tables" in refused.content.decode()
    assert not Tournament.objects.filter(name="Online").exists()

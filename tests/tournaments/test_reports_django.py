"""Results from the players' phones (the API guide, "Results from the players' phones"): a report,
an opponent's confirmation or dispute, the trusted mode, the desk settling a dispute, and self
check-in — each rule and each refusal, through the services every door calls."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from games.models import FeedEvent
from switchsite.problems import ServiceError
from tests.tournaments.test_club_night_django import abbott_body
from tournaments import selectors, services
from tournaments.models import Entry, ResultEntry, ResultReport, Table, Tournament
from tournaments.services.seat_links import seat_holder

pytestmark = pytest.mark.django_db


def offline(human_event, count: int = 4, **settings: Any) -> Tournament:
    """An offline tournament of ``count`` members, round 1 published."""
    tournament = human_event(count, play="offline", **{"self_report": "confirm", **settings})
    services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    tournament.refresh_from_db()
    return tournament


def table_one(tournament: Tournament) -> Table:
    return Table.objects.get(round__tournament=tournament, round__number=1, number=1)


def players_at(table: Table) -> list[User]:
    """The users at the table, in seat order."""
    return [holder(seat.entry) for seat in table.seats.select_related("entry__player")]


def holder(entry: Entry) -> User:
    """Who acts for the entry: its player, or its guest's seat-link user."""
    user = seat_holder(entry)
    assert user is not None, "a bot entrant acts for nobody"
    return user


def names_at(table: Table) -> list[str]:
    return [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]


def french(names: list[str], tally: int = 10) -> dict[str, Any]:
    """Two deals: the first seat goes out in each, the others left holding ``tally``."""
    deal = {"winner": names[0], "points_left": dict.fromkeys(names[1:], tally)}
    return {"deals": [deal, deal]}


def report(tournament: Tournament, user: User, result: dict[str, Any], **more: Any):
    return services.report_create(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=user,
        result=result,
        **more,
    )


def answer(kind: str, tournament: Tournament, reported: ResultReport, user: User, **more: Any):
    act = services.report_confirm if kind == "confirm" else services.report_dispute
    return act(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        report_id=reported.pk,
        user=user,
        **more,
    )


def refused(code: str, call, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.detail
    return caught.value


def totals(tournament: Tournament) -> dict[str, float]:
    """Each entry's points in the standings, by name."""
    names = dict(tournament.entries.values_list("pk", "name"))
    return {
        names[row.entry]: row.points
        for row in selectors.tournament_standings(tournament=tournament)
    }


# --- confirm mode ----------------------------------------------------------------------------------


def test_a_report_waits_and_an_opponents_confirmation_records_it_as_the_desk_would(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    revision = tournament.revision

    reported = report(tournament, alice, french(names))

    assert reported.status == ResultReport.Status.PENDING
    table.refresh_from_db()
    assert table.recorded_at is None
    assert not table.score_lines.exists()
    assert (
        selectors.tournament_detail(tournament=tournament)["rounds"][0]["tables"][0][
            "report_status"
        ]
        == "pending"
    )

    confirmed = answer("confirm", tournament, reported, bob)

    assert confirmed.status == ResultReport.Status.CONFIRMED
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENTERED
    # French: the winner scores the others' tallies, two deals of 3 × 10.
    assert totals(tournament)[names[0]] == 60
    (entered,) = ResultEntry.objects.filter(table=table)
    assert (entered.entered_by, entered.report) == (bob, reported)
    history = selectors.table_detail(table=table)["result"]["history"]
    assert [(v["reported_by"], v["confirmed_by"]) for v in history] == [(names[0], names[1])]
    tournament.refresh_from_db()
    assert tournament.revision > revision  # the live pages were told (tournaments.live)


def test_the_reporter_cannot_confirm_their_own_report(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice = players_at(table)[0]
    reported = report(tournament, alice, french(names_at(table)))

    refused("not_at_table", answer, "confirm", tournament, reported, alice)
    refused("not_at_table", answer, "dispute", tournament, reported, alice)
    reported.refresh_from_db()
    assert reported.status == ResultReport.Status.PENDING


def test_only_players_at_the_table_or_the_desk_report_confirm_or_dispute(human_event):
    tournament = offline(human_event, count=8, table_size=4)
    table = table_one(tournament)
    seated = {seat.entry.player for seat in table.seats.select_related("entry__player")}
    elsewhere = next(
        e.player for e in tournament.entries.select_related("player") if e.player not in seated
    )
    stranger = get_user_model().objects.create_user("stranger")
    alice = players_at(table)[0]
    result = french(names_at(table))

    refused("not_at_table", report, tournament, elsewhere, result)
    refused("not_at_table", report, tournament, stranger, result)
    reported = report(tournament, alice, result)
    refused("not_at_table", answer, "confirm", tournament, reported, elsewhere)
    refused("not_at_table", answer, "dispute", tournament, reported, stranger)
    refused(
        "not_at_table",
        selectors.table_reports,
        tournament=tournament,
        round_number=1,
        table_number=1,
        user=elsewhere,
    )
    # The desk may confirm a player's report.
    assert answer("confirm", tournament, reported, tournament.created_by).status == "confirmed"


def test_a_dispute_leaves_the_table_to_the_desk_which_settles_it_by_entering_the_result(
    human_event,
):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, carol, _ = players_at(table)
    names = names_at(table)
    reported = report(tournament, alice, french(names))

    disputed = answer("dispute", tournament, reported, bob, reason="Ann held 20, not 10")

    assert (disputed.status, disputed.reason, disputed.answered_by) == (
        "disputed",
        "Ann held 20, not 10",
        bob,
    )
    refused("report_pending", answer, "confirm", tournament, reported, carol)
    refused("report_pending", report, tournament, carol, french(names, tally=20))
    services.table_result_enter(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=tournament.created_by,
        result=french(names, tally=20),
    )
    reported.refresh_from_db()
    assert reported.status == ResultReport.Status.SETTLED
    assert totals(tournament)[names[0]] == 120
    refused("result_recorded", report, tournament, carol, french(names))
    refused("result_recorded", answer, "confirm", tournament, reported, carol)


def test_a_different_report_while_one_is_pending_disputes_it(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    first = report(tournament, alice, french(names))

    second = report(tournament, bob, french(names, tally=20))

    first.refresh_from_db()
    assert (first.status, second.status) == ("disputed", "disputed")
    assert first.answered_by == bob
    assert (
        selectors.tournament_detail(tournament=tournament)["rounds"][0]["tables"][0][
            "report_status"
        ]
        == "disputed"
    )


def test_the_same_report_again_is_refused_while_one_is_pending(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    report(tournament, alice, french(names))

    refused("report_pending", report, tournament, alice, french(names, tally=20))
    refused("report_pending", report, tournament, bob, french(names))
    assert ResultReport.objects.count() == 1


def test_a_report_is_checked_exactly_as_the_desk_checks_a_result(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice = players_at(table)[0]
    names = names_at(table)

    error = refused("invalid_result", report, tournament, alice, french(names, tally=1))
    assert "smallest card counts 3" in str(error.errors)
    refused("implausible_tally", report, tournament, alice, french(names, tally=160))
    assert report(tournament, alice, french(names, tally=160), confirm=True).status == "pending"
    assert ResultReport.objects.count() == 1


def test_placement_and_abbott_tables_report_and_confirm_too(human_event):
    placement = offline(human_event, scoring="placement", deals_per_round=1)
    table = table_one(placement)
    alice, bob, *_ = players_at(table)
    reported = report(placement, alice, {"deals": [{"order": names_at(table)}]})
    answer("confirm", placement, reported, bob)
    assert table_one(placement).outcome == Table.Outcome.ENTERED

    abbott = offline(
        human_event, ruleset="abbott", scoring="abbott", deals_per_round=None, target=None
    )
    table = table_one(abbott)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    refused("invalid_result", report, abbott, alice, {"hands": [{"winner": "Zed"}]})
    reported = report(abbott, alice, abbott_body(names))
    answer("confirm", abbott, reported, bob)
    assert table_one(abbott).outcome == Table.Outcome.ENTERED


# --- modes -----------------------------------------------------------------------------------------


def test_a_trusted_report_is_recorded_at_once(human_event):
    tournament = offline(human_event, self_report="trust")
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)

    reported = report(tournament, alice, french(names))

    assert reported.status == ResultReport.Status.RECORDED
    assert totals(tournament)[names[0]] == 60
    history = selectors.table_detail(table=table)["result"]["history"]
    assert [(v["reported_by"], v["confirmed_by"]) for v in history] == [(names[0], None)]
    refused("result_recorded", report, tournament, bob, french(names))


def test_with_self_reporting_off_only_the_desk_enters_results(human_event):
    tournament = offline(human_event, self_report="off")
    table = table_one(tournament)

    refused("self_report_off", report, tournament, players_at(table)[0], french(names_at(table)))


def test_players_report_only_at_offline_tables(organiser):
    with pytest.raises(ServiceError) as caught:
        services.tournament_create(
            creator=organiser,
            name="Online",
            ruleset="switch",
            scoring="french",
            planned_rounds=1,
            table_size=4,
            self_report="confirm",
        )
    assert caught.value.code == "invalid"
    assert "self_report" in (caught.value.errors or {})


def test_a_cancelled_tournament_takes_no_report(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    services.tournament_cancel(tournament_id=tournament.pk, user=tournament.created_by)

    refused(
        "tournament_cancelled", report, tournament, players_at(table)[0], french(names_at(table))
    )


def test_the_desk_entering_over_a_pending_report_settles_it(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    reported = report(tournament, alice, french(names))

    services.table_result_enter(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=tournament.created_by,
        result=french(names, tally=20),
    )

    reported.refresh_from_db()
    assert reported.status == ResultReport.Status.SETTLED
    refused("result_recorded", answer, "confirm", tournament, reported, bob)
    assert totals(tournament)[names[0]] == 120


def test_a_guests_seat_link_user_acts_only_for_its_own_entry(organiser):
    tournament = services.tournament_create(
        creator=organiser,
        name="Guests",
        ruleset="switch",
        scoring="french",
        planned_rounds=1,
        table_size=2,
        deals_per_round=1,
        play="offline",
        self_report="confirm",
    )
    services.entries_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrants=[services.Entrant(guest=name) for name in ("Ann", "Bea", "Cal", "Dee")],
    )
    # Guests of an offline tournament that takes reports have seat links from their entry on.
    assert not Entry.objects.filter(tournament=tournament, guest_user__isnull=True).exists()
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    table = table_one(tournament)
    first, second = (seat.entry for seat in table.seats.order_by("seat"))
    other = Entry.objects.filter(tournament=tournament).exclude(seats__table=table).first()
    assert other is not None
    deal = {"deals": [{"winner": first.name, "points_left": {second.name: 10}}]}

    refused("not_at_table", report, tournament, holder(other), deal)
    reported = report(tournament, holder(first), deal)
    refused("not_at_table", answer, "confirm", tournament, reported, holder(first))
    answer("confirm", tournament, reported, holder(second))

    assert selectors.report_summary(reported)["by"] == first.name
    history = selectors.table_detail(table=table)["result"]["history"]
    assert [(v["reported_by"], v["confirmed_by"]) for v in history] == [(first.name, second.name)]


# --- self check-in ---------------------------------------------------------------------------------


def test_players_check_themselves_in_until_their_round_is_seated(human_event):
    tournament = human_event(4, play="offline", self_checkin=True)
    entry = tournament.entries.select_related("player").first()
    entry.present = False
    entry.save(update_fields=["present"])
    stranger = get_user_model().objects.create_user("stranger")

    checked = services.entry_checkin_self(tournament_id=tournament.pk, user=entry.player)

    assert checked.present is True
    refused(
        "not_registered", services.entry_checkin_self, tournament_id=tournament.pk, user=stranger
    )
    services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    refused(
        "checkin_closed",
        services.entry_checkin_self,
        tournament_id=tournament.pk,
        user=entry.player,
    )


def test_without_self_checkin_players_check_in_at_the_desk(human_event):
    tournament = human_event(4, play="offline")
    player = tournament.entries.select_related("player").first().player

    refused("checkin_closed", services.entry_checkin_self, tournament_id=tournament.pk, user=player)


def test_the_players_hear_when_the_desk_settles_their_table(human_event):
    tournament = offline(human_event)
    table = table_one(tournament)
    alice, bob, *_ = players_at(table)
    names = names_at(table)
    reported = report(tournament, alice, french(names))
    answer("dispute", tournament, reported, bob)

    services.table_result_enter(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=tournament.created_by,
        result=french(names, tally=20),
    )

    told = FeedEvent.objects.filter(player__user=bob, type="table_report").order_by("seq")
    assert [event.data["status"] for event in told] == ["pending", "disputed", "settled"]

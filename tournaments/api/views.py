"""The tournaments API: one class per operation. Views parse, call a service or selector, and
serialise; the director's permission checks and every rule live in the services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import get_language
from drf_orjson_renderer.renderers import ORJSONRenderer
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from switchsite.api.idempotency import idempotent
from switchsite.api.pagination import ListPagination, PageQuerySerializer
from switchsite.api.parsing import parsed, parsed_query
from switchsite.api.schema import IDEMPOTENCY_KEY, problems
from switchsite.requests import AuthenticatedRequest
from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.powers import Power, has_power


def detail(request: Request, tournament_id: int) -> dict[str, Any]:
    """The tournament as it is now (re-read: tables played in-process after commit are included)."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    return selectors.tournament_detail(
        tournament=tournament,
        absolute=request.build_absolute_uri,
        seat_links=has_power(request.user, Power.SEAT_LINKS),
    )


class TournamentListView(APIView):
    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: s.TournamentPageSerializer, **problems(401, 404)},
        summary="List tournaments, newest first",
        operation_id="tournaments_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        parsed_query(PageQuerySerializer, request.query_params)
        paginator = ListPagination()
        page = paginator.paginate_queryset(selectors.tournament_list(), request, view=self)
        return paginator.get_paginated_response(s.TournamentSummarySerializer(page, many=True).data)

    @extend_schema(
        request=s.TournamentCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.TournamentSerializer, **problems(400, 401, 403)},
        summary="Create a tournament (staff)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.TournamentCreateSerializer, request.data)
        tournament = services.tournament_create(
            creator=request.user,
            name=data["name"],
            ruleset=data["ruleset"],
            scoring=data["scoring"],
            planned_rounds=data["rounds"],
            table_size=data["table_size"],
            deals_per_round=data["deals_per_round"],
            target=data["target"],
            seating_mode=data["seating"],
            bye_policy=data["bye_policy"],
            options=data["options"],
            play=data["play"],
            public=data["public"],
            language=data["language"],
            fill_with_bots=data["fill_with_bots"],
            ranking=data["ranking"],
            self_report=data["self_report"],
            self_checkin=data["self_checkin"],
        )
        return Response(detail(request, tournament.pk), status=201)


class SeatLinkOwnTournament:
    """A guest's seat link may use this view for its own tournament (the services then let it
    act only for its own entry: 403 ``not_at_table`` at another table)."""

    kwargs: dict[str, Any]

    def seat_link_allows(self, user: User) -> bool:
        return selectors.holds_guest_entry(user, tournament_id=self.kwargs["tournament_id"])


class OwnEntriesView(APIView):
    """A seat link may read its own guest's entries, as a member reads theirs."""

    def seat_link_allows(self, user: User) -> bool:
        return True

    @extend_schema(
        responses={200: s.OwnEntrySerializer(many=True), **problems(401)},
        summary="Your entries (or your seat link's) in tournaments not cancelled, with your table",
        operation_id="tournaments_mine",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        return Response(selectors.own_entries(user=request.user))


class TournamentDetailView(SeatLinkOwnTournament, APIView):
    @extend_schema(
        responses={200: s.TournamentSerializer, **problems(401, 404)},
        summary="The tournament with its entries, rounds, tables and seats",
    )
    def get(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        return Response(detail(request, tournament_id))

    @extend_schema(
        request=None,
        responses={204: None, **problems(401, 403, 404, 409)},
        summary="Delete a tournament without recorded results (staff); 409 has_results",
    )
    def delete(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        services.tournament_delete(tournament_id=tournament_id, user=request.user)
        return Response(status=204)


def _entrant(data: dict[str, Any]) -> services.Entrant:
    return services.Entrant(
        player=data["player"], guest=data["guest"], bot=data["bot"], name=data["name"]
    )


class TournamentRegisterView(APIView):
    @extend_schema(
        request=s.RegisterSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Register yourself, or (staff) a player, a guest, a bot, or many at once",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        data = parsed(s.RegisterSerializer, request.data)
        if data["entries"] is not None:
            services.entries_register(
                tournament_id=tournament_id,
                user=request.user,
                entrants=[_entrant(item) for item in data["entries"]],
            )
        else:
            services.entry_register(
                tournament_id=tournament_id, user=request.user, entrant=_entrant(data)
            )
        return Response(detail(request, tournament_id))


class TournamentWithdrawView(APIView):
    @extend_schema(
        request=s.WithdrawSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Withdraw yourself, or (staff) a player or any entry by its display name",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        data = parsed(s.WithdrawSerializer, request.data)
        services.entry_withdraw(
            tournament_id=tournament_id, user=request.user, player=data["player"], name=data["name"]
        )
        return Response(detail(request, tournament_id))


class TournamentStartView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Seat round 1 and start its tables (staff)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        services.tournament_start(tournament_id=tournament_id, user=request.user)
        return Response(detail(request, tournament_id))


class TournamentNextRoundView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Seat the next round and start its tables (staff)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        services.round_next(tournament_id=tournament_id, user=request.user)
        return Response(detail(request, tournament_id))


class TournamentCheckinView(APIView):
    @extend_schema(
        request=s.CheckinSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Check an entry in, or mark it absent (staff): only present entries are seated",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        data = parsed(s.CheckinSerializer, request.data)
        services.entry_checkin(
            tournament_id=tournament_id,
            user=request.user,
            name=data["name"],
            present=data["present"],
        )
        return Response(detail(request, tournament_id))


class TournamentCancelView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(401, 403, 404, 409)},
        summary="Cancel a tournament (staff): open matches abandoned, off the public index",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        services.tournament_cancel(tournament_id=tournament_id, user=request.user)
        return Response(detail(request, tournament_id))


class RoundUnpublishView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(401, 403, 404, 409)},
        summary="Withdraw the latest round back to a draft, before any result (staff)",
    )
    @idempotent
    def post(
        self, request: AuthenticatedRequest, tournament_id: int, round_number: int
    ) -> Response:
        services.round_unpublish(
            tournament_id=tournament_id, user=request.user, round_number=round_number
        )
        return Response(detail(request, tournament_id))


class TableResultView(APIView):
    @extend_schema(
        request=s.TableResultSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TableSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Enter or correct a table's result (staff); adjudicates an online table",
    )
    @idempotent
    def post(
        self,
        request: AuthenticatedRequest,
        tournament_id: int,
        round_number: int,
        table_number: int,
    ) -> Response:
        data = parsed(s.TableResultSerializer, request.data)
        table = services.table_result_enter(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            user=request.user,
            result={key: data[key] for key in ("deals", "hands") if key in data},
            replace=data["replace"],
            confirm=data["confirm"],
            reason=data["reason"],
        )
        return Response(selectors.table_detail(table=table))


class TableReportsView(SeatLinkOwnTournament, APIView):
    throttle_scope = "reports"

    @extend_schema(
        responses={200: s.ReportSerializer(many=True), **problems(401, 403, 404)},
        summary="A table's reports from the players' phones (its players and staff)",
        operation_id="tournaments_table_reports_list",
    )
    def get(
        self,
        request: AuthenticatedRequest,
        tournament_id: int,
        round_number: int,
        table_number: int,
    ) -> Response:
        reports = selectors.table_reports(
            tournament=selectors.tournament_get(tournament_id=tournament_id),
            round_number=round_number,
            table_number=table_number,
            user=request.user,
        )
        return Response([selectors.report_summary(report) for report in reports])

    @extend_schema(
        request=s.ReportCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.ReportSerializer, **problems(400, 401, 403, 404, 409, 429)},
        summary="Report a table's result (a player at it, or staff): pending, or recorded if trusted",
    )
    @idempotent
    def post(
        self,
        request: AuthenticatedRequest,
        tournament_id: int,
        round_number: int,
        table_number: int,
    ) -> Response:
        data = parsed(s.ReportCreateSerializer, request.data)
        report = services.report_create(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            user=request.user,
            result={key: data[key] for key in ("deals", "hands") if key in data},
            confirm=data["confirm"],
        )
        return Response(selectors.report_summary(report), status=201)


class ReportConfirmView(SeatLinkOwnTournament, APIView):
    throttle_scope = "reports"

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.ReportSerializer, **problems(401, 403, 404, 409, 429)},
        summary="Confirm another player's report: the table's result is recorded",
    )
    @idempotent
    def post(
        self,
        request: AuthenticatedRequest,
        tournament_id: int,
        round_number: int,
        table_number: int,
        report_id: int,
    ) -> Response:
        report = services.report_confirm(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            report_id=report_id,
            user=request.user,
        )
        return Response(selectors.report_summary(report))


class ReportDisputeView(SeatLinkOwnTournament, APIView):
    throttle_scope = "reports"

    @extend_schema(
        request=s.ReportDisputeSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.ReportSerializer, **problems(400, 401, 403, 404, 409, 429)},
        summary="Dispute another player's report: the desk settles the table",
    )
    @idempotent
    def post(
        self,
        request: AuthenticatedRequest,
        tournament_id: int,
        round_number: int,
        table_number: int,
        report_id: int,
    ) -> Response:
        data = parsed(s.ReportDisputeSerializer, request.data)
        report = services.report_dispute(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            report_id=report_id,
            user=request.user,
            reason=data["reason"],
        )
        return Response(selectors.report_summary(report))


class SelfCheckinView(SeatLinkOwnTournament, APIView):
    throttle_scope = "reports"

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.SelfCheckinSerializer, **problems(401, 403, 404, 409, 429)},
        summary="Check yourself in (your own entry, or your seat link's) before the round is seated",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        entry = services.entry_checkin_self(tournament_id=tournament_id, user=request.user)
        return Response({"tournament": tournament_id, "name": entry.name, "present": entry.present})


class RoundClockView(APIView):
    @extend_schema(
        request=s.ClockRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.RoundSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Start, pause or resume a round's clock (staff)",
    )
    @idempotent
    def post(
        self, request: AuthenticatedRequest, tournament_id: int, round_number: int
    ) -> Response:
        data = parsed(s.ClockRequestSerializer, request.data)
        services.round_clock(
            tournament_id=tournament_id,
            round_number=round_number,
            user=request.user,
            minutes=data.get("minutes"),
            pause=data.get("pause", False),
            resume=data.get("resume", False),
        )
        rounds = detail(request, tournament_id)["rounds"]
        return Response(next(r for r in rounds if r["number"] == round_number))


class StandingsCSVRenderer(BaseRenderer):
    """``?format=csv``: the view's CSV text as it is; a problem document as JSON."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, dict) and "code" in data:
            return ORJSONRenderer().render(data)
        return data.encode()


class StandingsXLSXRenderer(BaseRenderer):
    """``?format=xlsx``: the view's spreadsheet as it is; a problem document as JSON."""

    media_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, dict) and "code" in data:
            return ORJSONRenderer().render(data)
        return bytes(data)


class TournamentStandingsView(APIView):
    renderer_classes = (ORJSONRenderer, StandingsCSVRenderer, StandingsXLSXRenderer)

    # DRF calls ``options`` with its own Request; its stubs narrow Django's signature the same way.
    def options(  # type: ignore[override]
        self, request: Request, *args: Any, **kwargs: Any
    ) -> Response:
        """OPTIONS describes the endpoint in JSON, even when ``?format=csv`` asks for CSV."""
        request.accepted_renderer = ORJSONRenderer()
        request.accepted_media_type = ORJSONRenderer.media_type
        return super().options(request, *args, **kwargs)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=["json", "csv", "xlsx"],
                description="`csv` for a CSV file, `xlsx` for a spreadsheet with typed cells.",
            ),
            OpenApiParameter(
                "dialect",
                str,
                enum=list(selectors.CSV_DIALECTS),
                description="The CSV's dialect: `excel` (comma, decimal point, English words) or "
                "`excel-fr` (semicolon, decimal comma, French words); by default the one of the "
                "request's language.",
            ),
        ],
        responses={
            (200, "application/json"): s.StandingRowSerializer(many=True),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="The same columns as CSV."
            ),
            (
                200,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ): OpenApiResponse(OpenApiTypes.BINARY, description="The same columns, typed."),
            **problems(401, 404),
        },
        summary="Standings: rank, score, points, tie-breaks and rating per entry",
        operation_id="tournaments_standings",
    )
    def get(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        standings = selectors.standings_table(tournament=tournament)
        query = parsed_query(s.ExportQuerySerializer, request.query_params)
        exported = request.accepted_renderer.format
        if exported == "csv":
            dialect = query.get("dialect", selectors.csv_dialect(get_language()))
            response = Response(selectors.standings_csv(standings=standings, dialect=dialect))
        elif exported == "xlsx":
            response = Response(selectors.standings_xlsx(standings=standings))
        else:
            return Response(standings.rows)
        filename = selectors.standings_filename(tournament=tournament, extension=exported)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

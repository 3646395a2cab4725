"""The tournaments API: one class per operation. Views parse, call a service or selector, and
serialise; the staff-only checks and every rule live in the services."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from switchsite.api.idempotency import idempotent
from switchsite.api.pagination import ListPagination
from switchsite.api.parsing import parsed
from switchsite.api.schema import IDEMPOTENCY_KEY, problems
from tournaments import selectors, services
from tournaments.api import serializers as s


def detail(tournament_id: int) -> dict[str, Any]:
    """The tournament as it is now (re-read: tables played in-process after commit are included)."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    return selectors.tournament_detail(tournament=tournament)


class TournamentListView(APIView):
    @extend_schema(
        responses={200: s.TournamentPageSerializer, **problems(401)},
        summary="List tournaments, newest first",
        operation_id="tournaments_list",
    )
    def get(self, request: Request) -> Response:
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
    def post(self, request: Request) -> Response:
        data = parsed(s.TournamentCreateSerializer, request.data)
        tournament = services.tournament_create(
            creator=request.user,
            name=data["name"],
            ruleset=data["ruleset"],
            scoring=data["scoring"],
            rounds=data["rounds"],
            table_size=data["table_size"],
            deals_per_round=data["deals_per_round"],
            target=data["target"],
            seating_mode=data["seating"],
            bye_policy=data["bye_policy"],
            options=data["options"],
        )
        return Response(detail(tournament.pk), status=201)


class TournamentDetailView(APIView):
    @extend_schema(
        responses={200: s.TournamentSerializer, **problems(401, 404)},
        summary="The tournament with its entries, rounds, tables and seats",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(detail(tournament_id))


class TournamentRegisterView(APIView):
    @extend_schema(
        request=s.EntrantSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Register yourself, or (staff) a player or a bot entrant",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        data = parsed(s.EntrantSerializer, request.data)
        services.entry_register(
            tournament_id=tournament_id,
            user=request.user,
            player=data["player"],
            bot=data["bot"],
            name=data["name"],
        )
        return Response(detail(tournament_id))


class TournamentWithdrawView(APIView):
    @extend_schema(
        request=s.EntrantSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Withdraw yourself, or (staff) a player or a bot entrant (by name)",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        data = parsed(s.EntrantSerializer, request.data)
        services.entry_withdraw(
            tournament_id=tournament_id, user=request.user, player=data["player"], name=data["name"]
        )
        return Response(detail(tournament_id))


class TournamentStartView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Seat round 1 and start its tables (staff)",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        services.tournament_start(tournament_id=tournament_id, user=request.user)
        return Response(detail(tournament_id))


class TournamentNextRoundView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.TournamentSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Seat the next round and start its tables (staff)",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        services.round_next(tournament_id=tournament_id, user=request.user)
        return Response(detail(tournament_id))


class StandingsCSVRenderer(BaseRenderer):
    """``?format=csv``: the standings rows as CSV; anything else (a problem document) as JSON."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, dict) and "code" in data:
            return JSONRenderer().render(data)
        return selectors.standings_csv(standings_rows=data).encode()


class TournamentStandingsView(APIView):
    renderer_classes = (JSONRenderer, StandingsCSVRenderer)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", str, enum=["json", "csv"], description="`csv` for a CSV file."
            )
        ],
        responses={
            (200, "application/json"): s.StandingRowSerializer(many=True),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="The same columns as CSV."
            ),
            **problems(401, 404),
        },
        summary="Standings: rank, score, points, tie-breaks and rating per entry",
        operation_id="tournaments_standings",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        standings = selectors.standings_table(tournament=tournament)
        response = Response(standings.rows)
        if request.accepted_renderer.format == "csv":
            response["Content-Disposition"] = (
                f'attachment; filename="standings-{tournament.pk}.csv"'
            )
        return response

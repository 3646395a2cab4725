"""The series API: tournaments ranked together (monthly nights)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from switchsite.api.idempotency import idempotent
from switchsite.api.parsing import parsed
from switchsite.api.schema import IDEMPOTENCY_KEY, problems
from switchsite.requests import AuthenticatedRequest
from tournaments import series, services
from tournaments.api import serializers as s


class SeriesListView(APIView):
    @extend_schema(
        request=s.SeriesCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.SeriesSerializer, **problems(400, 401, 403)},
        summary="Create a series of tournaments (staff)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.SeriesCreateSerializer, request.data)
        made = services.series_create(
            user=request.user,
            name=data["name"],
            tournament_ids=data["tournaments"],
            public=data["public"],
        )
        return Response(
            series.series_detail(series=made, absolute=request.build_absolute_uri), status=201
        )


class SeriesDetailView(APIView):
    @extend_schema(
        responses={200: s.SeriesSerializer, **problems(401, 404)},
        summary="A series and its tournaments",
    )
    def get(self, request: AuthenticatedRequest, series_id: int) -> Response:
        found = series.series_get(series_id=series_id)
        return Response(series.series_detail(series=found, absolute=request.build_absolute_uri))


class SeriesStandingsView(APIView):
    @extend_schema(
        responses={200: s.SeriesStandingRowSerializer(many=True), **problems(401, 404)},
        summary="A series' standings: each person's results added up",
        operation_id="series_standings",
    )
    def get(self, request: AuthenticatedRequest, series_id: int) -> Response:
        found = series.series_get(series_id=series_id)
        return Response(series.series_standings_rows(series=found))

"""The ladders and quick play API: one class per operation; views parse, call, serialise."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matchmaking import selectors, services
from matchmaking.api import serializers as s
from switchsite.api.idempotency import idempotent
from switchsite.api.pagination import ListPagination, PageQuerySerializer
from switchsite.api.parsing import parsed, parsed_query
from switchsite.api.schema import IDEMPOTENCY_KEY, problems
from switchsite.requests import AuthenticatedRequest


def _page(view: APIView, request: Request, rows: Any) -> Response:
    parsed_query(PageQuerySerializer, request.query_params)
    paginator = ListPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(page)


class LadderListView(APIView):
    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: s.LadderPageSerializer, **problems(400, 401, 404)},
        summary="The ladders: one per ruleset and table size",
        operation_id="ladders_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        return _page(
            self, request, [selectors.ladder_summary(ladder) for ladder in selectors.ladder_list()]
        )

    @extend_schema(
        request=s.LadderCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.LadderSerializer, **problems(400, 401, 403, 409)},
        summary="Create a ladder (matchmaking.add_ladder)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.LadderCreateSerializer, request.data)
        ladder = services.ladder_create(user=request.user, **data)
        summary = selectors.ladder_summary(selectors.ladder_get(ladder_id=ladder.pk))
        return Response(s.LadderSerializer(summary).data, status=201)


class LadderDetailView(APIView):
    @extend_schema(responses={200: s.LadderSerializer, **problems(401, 404)}, summary="One ladder")
    def get(self, request: AuthenticatedRequest, ladder_id: int) -> Response:
        summary = selectors.ladder_summary(selectors.ladder_get(ladder_id=ladder_id))
        return Response(s.LadderSerializer(summary).data)


class LadderJoinView(APIView):
    throttle_scope = "ladder_membership"

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MembershipSerializer, **problems(401, 403, 404, 429)},
        summary="Join a ladder (bot accounts; again: active again)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, ladder_id: int) -> Response:
        membership = services.ladder_join(ladder_id=ladder_id, user=request.user)
        joined = {
            "ladder": membership.ladder_id,
            "player": request.user.get_username(),
            "active": membership.active,
            "joined_at": membership.joined_at,
        }
        return Response(s.MembershipSerializer(joined).data)


class LadderLeaveView(APIView):
    throttle_scope = "ladder_membership"

    @extend_schema(
        request=None,
        responses={204: None, **problems(401, 404, 429)},
        summary="Leave a ladder (your matches in it go on)",
    )
    def post(self, request: AuthenticatedRequest, ladder_id: int) -> Response:
        services.ladder_leave(ladder_id=ladder_id, user=request.user)
        return Response(status=204)


class LadderStandingsView(APIView):
    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: s.StandingsPageSerializer, **problems(400, 401, 404)},
        summary="A ladder's standings, best first",
    )
    def get(self, request: AuthenticatedRequest, ladder_id: int) -> Response:
        ladder = selectors.ladder_get(ladder_id=ladder_id)
        return _page(self, request, selectors.ladder_standings(ladder=ladder))


class PoolView(APIView):
    throttle_scope = "pool"

    @extend_schema(
        request=s.PoolEnterSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={202: s.PoolEntrySerializer, **problems(400, 401, 409, 429)},
        summary="Quick play: wait for a match of a ruleset and size",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.PoolEnterSerializer, request.data)
        entry = services.pool_enter(user=request.user, **data)
        entry.refresh_from_db()  # matched at once when the others were waiting (no broker)
        return Response(s.PoolEntrySerializer(selectors.pool_entry_summary(entry)).data, status=202)


class PoolEntryView(APIView):
    throttle_scope = "pool"

    def get_throttles(self) -> list[Any]:
        """Reading an entry is not limited beyond the caller's own rate; leaving is."""
        return super().get_throttles() if self.request.method == "DELETE" else []

    @extend_schema(
        responses={200: s.PoolEntrySerializer, **problems(401, 404)},
        summary="Your quick-play entry: waiting, or matched with its match",
    )
    def get(self, request: AuthenticatedRequest, entry_id: int) -> Response:
        entry = services.pool_entry_get(entry_id=entry_id, user=request.user)
        return Response(s.PoolEntrySerializer(selectors.pool_entry_summary(entry)).data)

    @extend_schema(
        responses={204: None, **problems(401, 404, 409, 429)},
        summary="Stop waiting",
    )
    def delete(self, request: AuthenticatedRequest, entry_id: int) -> Response:
        services.pool_leave(entry_id=entry_id, user=request.user)
        return Response(status=204)

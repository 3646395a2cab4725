"""The games API: one class per operation. Views parse, call a service or selector, and serialise."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api import schema_shapes, tier, waiting
from games.api import serializers as s
from games.models import Seat
from switchgame import bots, catalog
from switchsite import grip, incarnation
from switchsite.api.asyncviews import AsyncAPIView
from switchsite.api.authentication import TierLinks
from switchsite.api.idempotency import idempotent
from switchsite.api.pagination import ListPagination, PageQuerySerializer
from switchsite.api.parsing import WHOLE_NUMBER, parsed, parsed_cursor, parsed_query
from switchsite.api.schema import IDEMPOTENCY_KEY, INCARNATION_HEADER, SSE_EVENT, problems
from switchsite.asyncdb import run_shared, run_sync
from switchsite.encoding import json_bytes
from switchsite.requests import AuthenticatedRequest
from switchsite.serving import notifier, streamcaps
from switchsite.serving.arrivals import judged_on_arrival

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    # Empty: no cursor, as when the header is not sent.
    {"type": "string", "pattern": f"^({WHOLE_NUMBER.pattern})?$"},
    OpenApiParameter.HEADER,
    description="Resume after this event's seq.",
)
LOBBY_EVENT = OpenApiResponse(
    SSE_EVENT.response,
    description='Server-Sent Events: `changed` (data `{"seq", "type": "changed"}`) when the '
    "stream opens and whenever a match is created, a seat is taken or freed before the start, or a "
    "match starts or ends: read the lobby's lists then. `id` counts on from `Last-Event-ID`; the "
    "stream keeps no history.",
)
INCARNATION = OpenApiParameter(
    "incarnation",
    str,
    OpenApiParameter.QUERY,
    description=f"The `{INCARNATION_HEADER}` your cursor came with: a cursor of another incarnation "
    "of the database (it was restored) is answered 410 `cursor_expired`.",
)


async def cursor_incarnation(request: Request) -> str:
    """The incarnation of the database the caller's cursor was numbered in: the one it sent back,
    else the current one (checked at every read: a restore during the request is then seen)."""
    return request.query_params.get("incarnation") or await incarnation.current_async()


def view_of(loaded: selectors.LoadedMatch, request: AuthenticatedRequest) -> dict[str, Any]:
    """The match as the caller sees it, built from what the request already holds."""
    seat = selectors.viewer_seat(seats=loaded.seats, user=request.user)
    return selectors.match_view(loaded=loaded, seat=seat)


class SeatLinkOwnFeed:
    """A seat link (a token of scope ``seat``) may use this view: its guest's profile and feed."""

    def seat_link_allows(self, user: User) -> bool:
        return True


class SeatLinkOwnSeat:
    """A seat link may use this view for a match where its guest holds a seat, and no other."""

    kwargs: dict[str, Any]

    def seat_link_allows(self, user: User) -> bool:
        return selectors.holds_seat(user=user, match_id=self.kwargs["match_id"])


# --- players -----------------------------------------------------------------------------------


class PlayerRegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_scope = "registration"

    @extend_schema(
        request=s.RegistrationSerializer,
        responses={201: s.RegisteredSerializer, **problems(400, 403, 409, 429)},
        auth=[],
        summary="Register a player",
    )
    def post(self, request: Request) -> Response:
        data = parsed(s.RegistrationSerializer, request.data)
        user, token = services.player_register(
            username=data["username"], password=data["password"], bot=data["bot"]
        )
        return Response(
            {"id": user.pk, "username": user.get_username(), "bot": data["bot"], "token": token},
            status=201,
        )


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_scope = "registration"

    @extend_schema(
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer, **problems(400, 429)},
        auth=[],
        summary="Get the API token for a username and password (or rotate it)",
    )
    def post(self, request: Request) -> Response:
        data = parsed(s.TokenRequestSerializer, request.data)
        token = services.token_obtain(
            request=request._request,  # the attempt django-axes counts and marks as locked out
            username=data["username"],
            password=data["password"],
            rotate=data["rotate"],
        )
        return Response({"token": token})


class PlayerMeView(SeatLinkOwnFeed, APIView):
    @extend_schema(responses={200: s.PlayerSerializer, **problems(401)}, summary="The caller")
    def get(self, request: AuthenticatedRequest) -> Response:
        player = services.player_profile(user=request.user)
        return Response(selectors.player_summary(player=player))


def username_in_path(username: str) -> str:
    """A username from the path, if an account could have it; else 400 ``invalid``."""
    return str(parsed(s.UsernameSerializer, {"username": username})["username"])


class PlayerPageView(APIView):
    @extend_schema(
        responses={200: s.PlayerPageSerializer, **problems(400, 401, 404)},
        summary="A player's public page: ratings per game, matches played and won",
    )
    def get(self, request: AuthenticatedRequest, username: str) -> Response:
        page = selectors.player_page(username=username_in_path(username))
        return Response(s.PlayerPageSerializer(page).data)


class PlayerMatchesView(APIView):
    @extend_schema(
        parameters=[s.PlayerMatchesQuerySerializer],
        responses={200: s.MatchPageSerializer, **problems(400, 401, 404)},
        summary="A player's matches, newest first",
    )
    def get(self, request: AuthenticatedRequest, username: str) -> Response:
        query = parsed_query(s.PlayerMatchesQuerySerializer, request.query_params)
        matches = selectors.player_matches(
            username=username_in_path(username), status=query.get("status")
        )
        paginator = ListPagination()
        page = paginator.paginate_queryset(matches, request, view=self)
        return paginator.get_paginated_response(s.MatchSummarySerializer(page, many=True).data)


class LeaderboardView(APIView):
    @extend_schema(
        parameters=[s.LeaderboardQuerySerializer],
        responses={200: s.LeaderboardPageSerializer, **problems(400, 401, 404)},
        summary="The best ratings of a game (at least 5 rated matches; server bots included)",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query = parsed_query(s.LeaderboardQuerySerializer, request.query_params)
        paginator = ListPagination()
        page = paginator.paginate_queryset(
            selectors.leaderboard(game=query["game"]), request, view=self
        )
        return paginator.get_paginated_response([selectors.leaderboard_row(r) for r in page or []])


class PlayersOnlineView(APIView):
    @extend_schema(
        parameters=[s.OnlineQuerySerializer],
        responses={200: s.OnlinePageSerializer, **problems(400, 401, 404)},
        summary="Who is online: a feed stream or long poll open now or within the last minute",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query = parsed_query(s.OnlineQuerySerializer, request.query_params)
        paginator = ListPagination()
        page = paginator.paginate_queryset(
            selectors.players_online(bot=query["bot"]), request, view=self
        )
        return paginator.get_paginated_response([selectors.online_row(p) for p in page or []])


# --- rulesets ----------------------------------------------------------------------------------


class RulesetListView(APIView):
    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: s.RulesetPageSerializer, **problems(401, 404)},
        summary="Every ruleset",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        parsed_query(PageQuerySerializer, request.query_params)
        paginator = ListPagination()
        rulesets = [
            {
                **vars(info),
                # The library's English, marked for the catalogue: in the request's language.
                "title": gettext(info.title),
                "description": gettext(info.description),
                "players": list(info.players),
                "bots": bots.strategies_for(info.game),
            }
            for info in catalog.RULESETS.values()
        ]
        # DRF pages any sequence (Django's Paginator does); the stubs accept only querysets.
        page: list[dict[str, Any]] | None = paginator.paginate_queryset(
            rulesets,  # type: ignore[arg-type]
            request,
            view=self,
        )
        return paginator.get_paginated_response(page)


# --- matches -----------------------------------------------------------------------------------


class MatchListView(APIView):
    @extend_schema(
        parameters=[s.MatchListQuerySerializer],
        responses={200: s.MatchPageSerializer, **problems(400, 401, 404)},
        summary="List matches",
        operation_id="matches_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query = parsed_query(s.MatchListQuerySerializer, request.query_params)
        matches = selectors.match_list(
            user=request.user,
            status=query.get("status"),
            mine=query.get("player") == "me",
            open=query["open"],
        )
        paginator = ListPagination()
        page = paginator.paginate_queryset(matches, request, view=self)
        return paginator.get_paginated_response(s.MatchSummarySerializer(page, many=True).data)

    @extend_schema(
        request=s.MatchCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: schema_shapes.VIEW, **problems(400, 401, 403, 409, 429)},
        summary="Create a match (the creator takes seat 0)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.MatchCreateSerializer, request.data)
        match = services.match_create(
            creator=request.user,
            ruleset=data["ruleset"],
            seats=data["seats"],
            options=data["options"],
            bots_wanted=data["bots"],
            deals=data["deals"],
            target=data["target"],
            turn_seconds=data["turn_seconds"],
            layout=data["layout"],
            on_resign=data["on_resign"],
            auto_start=data["auto_start"],
            rated=data["rated"],
            practice_seed=data["practice_seed"],
        )
        return Response(selectors.match_view_for(match_id=match.pk, user=request.user), status=201)


class MatchDetailView(SeatLinkOwnSeat, APIView):
    @extend_schema(
        responses={200: schema_shapes.VIEW, **problems(401, 404)},
        summary="The match as you may see it",
    )
    def get(self, request: AuthenticatedRequest, match_id: int) -> Response:
        return Response(selectors.match_view_for(match_id=match_id, user=request.user))


class MatchJoinView(APIView):
    @extend_schema(
        request=s.JoinSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: schema_shapes.VIEW, **problems(400, 401, 404, 409)},
        summary="Take a seat",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, match_id: int) -> Response:
        data = parsed(s.JoinSerializer, request.data)
        loaded = services.match_join(match_id=match_id, user=request.user, seat=data["seat"])
        return Response(view_of(loaded, request))


class MatchStartView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: schema_shapes.VIEW, **problems(401, 403, 404, 409)},
        summary="Deal the first hand (its creator, or games.start_any_match)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, match_id: int) -> Response:
        loaded = services.match_start(match_id=match_id, user=request.user)
        return Response(view_of(loaded, request))


@judged_on_arrival
class MatchMovesView(SeatLinkOwnSeat, APIView):
    malformed_input_code = "invalid_action"

    @extend_schema(
        request=schema_shapes.ACTION,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.MoveResultSerializer, **problems(400, 401, 403, 404, 409, 422, 429)},
        summary="Apply one action",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, match_id: int) -> Response:
        action, expected_version = s.posted_action(request.data)
        result = services.action_apply(
            match_id=match_id, user=request.user, action=action, expected_version=expected_version
        )
        events = [selectors.event_as_seen(e, seat=result.seat) for e in result.events]
        view = selectors.match_view(loaded=result.loaded, seat=result.seat)
        return Response({"event": events[0], "events": events, "view": view}, status=201)


class MatchResignView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: schema_shapes.VIEW, **problems(401, 403, 404, 409)},
        summary="Leave the match",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, match_id: int) -> Response:
        loaded = services.match_resign(match_id=match_id, user=request.user)
        return Response(view_of(loaded, request))


def _page(request: Request, page: waiting.Page, limit: int, of_incarnation: str) -> Response:
    """The list envelope for event logs: ``next`` resumes after the last event returned; the
    answer says which incarnation of the database the events are of."""
    results, count = page
    next_url = None
    if count > len(results):
        next_url = request.build_absolute_uri(
            f"{request.path}?after={results[-1]['seq']}&limit={limit}&incarnation={of_incarnation}"
        )
    envelope = {"count": count, "next": next_url, "previous": None, "results": results}
    return Response(envelope, headers={INCARNATION_HEADER: of_incarnation})


class MatchEventsView(SeatLinkOwnSeat, AsyncAPIView):
    @extend_schema(
        parameters=[s.EventsQuerySerializer, INCARNATION],
        responses={200: s.EventPageSerializer, **problems(400, 401, 404, 410)},
        summary="Events after a sequence number (long poll with wait)",
    )
    async def get(self, request: AuthenticatedRequest, match_id: int) -> Response:
        query = parsed_query(s.EventsQuerySerializer, request.query_params)
        of_incarnation = await cursor_incarnation(request)

        seats: tuple[Seat, ...] = ()

        async def read() -> waiting.Page:
            nonlocal seats
            page = await run_shared(
                selectors.match_log_page,
                match_id=match_id,
                after=query["after"],
                incarnation=of_incarnation,
                limit=query["limit"],
            )
            assert page.count is not None  # counted: the default
            seats = page.seats
            return selectors.events_seen(page, user=request.user), page.count

        if grip.from_tier(request):
            found = await read()
            answer = _page(request, found, query["limit"], of_incarnation)
            if found[0] or query["wait"] <= 0:
                return answer
            seat = selectors.viewer_seat(seats=seats, user=request.user)
            channel = tier.match_channel(match_id, seat, request.user)
            return tier.hold_long_poll(answer, channel=channel, **_hold_query(query))
        page = await waiting.long_poll(
            read, [notifier.match_topic(match_id)], query["wait"], present=request.user.pk
        )
        return _page(request, page, query["limit"], of_incarnation)


class FeedEventsView(SeatLinkOwnFeed, AsyncAPIView):
    @extend_schema(
        parameters=[s.EventsQuerySerializer, INCARNATION],
        responses={200: s.FeedPageSerializer, **problems(400, 401, 410)},
        summary="Your own feed across all matches (long poll with wait)",
    )
    async def get(self, request: AuthenticatedRequest) -> Response:
        query = parsed_query(s.EventsQuerySerializer, request.query_params)
        of_incarnation = await cursor_incarnation(request)
        player = await run_sync(services.player_profile, user=request.user)

        async def read() -> waiting.Page:
            results, count = await run_shared(
                selectors.feed_events,
                player=player,
                after=query["after"],
                incarnation=of_incarnation,
                limit=query["limit"],
            )
            assert count is not None  # counted: the default
            return results, count

        if grip.from_tier(request):
            await run_sync(tier.seen, request.user)
            found = await read()
            answer = _page(request, found, query["limit"], of_incarnation)
            if found[0] or query["wait"] <= 0:
                return answer
            channel = tier.feed_channel(request.user.pk)
            return tier.hold_long_poll(answer, channel=channel, **_hold_query(query))
        page = await waiting.long_poll(
            read, [notifier.feed_topic(request.user.pk)], query["wait"], present=request.user.pk
        )
        return _page(request, page, query["limit"], of_incarnation)


def _hold_query(query: dict[str, Any]) -> dict[str, Any]:
    """What a long poll held by the tier waits for: the events after its cursor, as many as its
    ``limit``, for ``wait`` seconds."""
    return {"after": query["after"], "limit": query["limit"], "wait": query["wait"]}


class EventStreamRenderer(BaseRenderer):
    """The streams' only renderer: their answers are text/event-stream (errors: problem+json)."""

    media_type = "text/event-stream"
    format = "sse"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return json_bytes(data)


def _resume_point(request: Request) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnection), else ``after`` (0)."""
    if last_id := request.headers.get("Last-Event-ID"):
        return parsed_cursor("Last-Event-ID", last_id)
    return parsed_cursor("after", request.query_params.get("after", "0"))


def _revoked(request: Request) -> notifier.Topic | None:
    """What ends a stream early: its token revoked (a session's stream has none)."""
    return notifier.revoked_topic(request.auth.pk) if request.auth is not None else None


async def _stream_response(
    request: Request, events: AsyncIterator[str], of_incarnation: str | None = None
) -> StreamingHttpResponse:
    """The stream, counted against its token's ``STREAMS_PER_TOKEN`` (429 beyond it) while open."""
    holder = f"token:{request.auth.pk}" if request.auth is not None else f"user:{request.user.pk}"
    end = await streamcaps.open_streams.hold(
        holder, settings.STREAMS_PER_TOKEN, "STREAMS_PER_TOKEN"
    )
    response = streamcaps.counted(
        StreamingHttpResponse(events, content_type="text/event-stream"), end
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    if of_incarnation is not None:
        response[INCARNATION_HEADER] = of_incarnation
    return response


class StreamView(AsyncAPIView):
    """A stream is never JSON: ``?format=json``, as a JSON-only ``Accept``, is refused with 406."""

    renderer_classes = [EventStreamRenderer]


class MatchStreamView(SeatLinkOwnSeat, TierLinks, StreamView):
    @extend_schema(
        parameters=[LAST_EVENT_ID, INCARNATION],
        responses={(200, "text/event-stream"): SSE_EVENT, **problems(400, 401, 404, 406, 410)},
        summary="The match's events as Server-Sent Events",
    )
    async def get(self, request: AuthenticatedRequest, match_id: int) -> HttpResponseBase:
        of_incarnation = await cursor_incarnation(request)

        async def read(after: int, limit: int = waiting.STREAM_BATCH) -> waiting.Batch:
            page = await run_shared(
                selectors.match_log_page,
                match_id=match_id,
                after=after,
                incarnation=of_incarnation,
                limit=limit,
                counted=False,
            )
            return selectors.events_seen(page, user=request.user), page.over

        if grip.from_tier(request):
            after = tier.stream_cursor(request, lambda: _resume_point(request))

            def answer() -> tuple[list[dict[str, Any]], bool, str]:
                page = selectors.match_log_page(
                    match_id=match_id,
                    after=after,
                    incarnation=of_incarnation,
                    limit=tier.ANSWER_EVENTS,
                    counted=False,
                )
                seat = selectors.viewer_seat(seats=page.seats, user=request.user)
                seen = [
                    selectors.event_as_seen(e, seat=seat, reveal_all=page.over)
                    for e in page.records
                ]
                return seen, page.over, tier.match_channel(match_id, seat, request.user)

            seen, over, channel = await run_sync(answer)
            return tier.stream_answer(
                request,
                events=seen,
                over=over,
                channel=channel,
                after=after,
                of_incarnation=of_incarnation,
            )
        after = _resume_point(request)
        await read(after, 1)  # 404 or 410 before the stream starts
        events = waiting.event_stream(
            read,
            [notifier.match_topic(match_id)],
            after,
            ends_with=_revoked(request),
            present=request.user.pk,
        )
        return await _stream_response(request, events, of_incarnation)


class FeedStreamView(SeatLinkOwnFeed, TierLinks, StreamView):
    @extend_schema(
        parameters=[LAST_EVENT_ID, INCARNATION],
        responses={(200, "text/event-stream"): SSE_EVENT, **problems(400, 401, 406, 410)},
        summary="Your own feed as Server-Sent Events",
    )
    async def get(self, request: AuthenticatedRequest) -> HttpResponseBase:
        of_incarnation = await cursor_incarnation(request)
        player = await run_sync(services.player_profile, user=request.user)

        async def read(after: int, limit: int = waiting.STREAM_BATCH) -> waiting.Batch:
            events, _ = await run_shared(
                selectors.feed_events,
                player=player,
                after=after,
                incarnation=of_incarnation,
                limit=limit,
                counted=False,
            )
            return events, False

        if grip.from_tier(request):
            await run_sync(tier.seen, request.user)
            after = tier.stream_cursor(request, lambda: _resume_point(request))
            seen, _ = await run_sync(
                selectors.feed_events,
                player=player,
                after=after,
                incarnation=of_incarnation,
                limit=tier.ANSWER_EVENTS,
                counted=False,
            )
            return tier.stream_answer(
                request,
                events=seen,
                over=False,
                channel=tier.feed_channel(request.user.pk),
                after=after,
                of_incarnation=of_incarnation,
            )
        after = _resume_point(request)
        await read(after, 1)  # 410 before the stream starts
        events = waiting.event_stream(
            read,
            [notifier.feed_topic(request.user.pk)],
            after,
            ends_with=_revoked(request),
            present=request.user.pk,
        )
        return await _stream_response(request, events, of_incarnation)


class LobbyStreamView(StreamView):
    @extend_schema(
        parameters=[LAST_EVENT_ID],
        responses={(200, "text/event-stream"): LOBBY_EVENT, **problems(401, 406)},
        summary="The lobby's changes as Server-Sent Events",
    )
    async def get(self, request: AuthenticatedRequest) -> StreamingHttpResponse:
        events = waiting.change_stream(
            [notifier.lobby_topic()], _resume_point(request), ends_with=_revoked(request)
        )
        return await _stream_response(request, events)  # no history, so no incarnation to check


# --- challenges --------------------------------------------------------------------------------


def challenge_answer(challenge_id: int, request: AuthenticatedRequest) -> dict[str, Any]:
    challenge = selectors.challenge_get(challenge_id=challenge_id, user=request.user)
    return selectors.challenge_summary(challenge=challenge)


class ChallengeListView(APIView):
    @extend_schema(
        parameters=[s.ChallengeListQuerySerializer],
        responses={200: s.ChallengePageSerializer, **problems(400, 401, 404)},
        summary="Your challenges, sent and received, newest first",
        operation_id="challenges_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query = parsed_query(s.ChallengeListQuerySerializer, request.query_params)
        paginator = ListPagination()
        challenges = selectors.challenge_list(user=request.user, status=query.get("status"))
        page = paginator.paginate_queryset(challenges, request, view=self)
        assert page is not None  # ListPagination always has a page size
        return paginator.get_paginated_response(
            [selectors.challenge_summary(challenge=c) for c in page]
        )

    @extend_schema(
        request=s.ChallengeCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.ChallengeSerializer, **problems(400, 401, 429)},
        summary="Challenge players to a match (you take seat 0, they seats 1, 2, …)",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parsed(s.ChallengeCreateSerializer, request.data)
        invitees, expires_in = data.pop("to"), data.pop("expires_in")
        challenge = services.challenge_create(
            challenger=request.user,
            invitees=invitees,
            settings=services.MatchSettings(**data),
            expires_in=expires_in,
        )
        return Response(challenge_answer(challenge.pk, request), status=201)


class ChallengeDetailView(APIView):
    @extend_schema(
        responses={200: s.ChallengeSerializer, **problems(401, 404)}, summary="One challenge"
    )
    def get(self, request: AuthenticatedRequest, challenge_id: int) -> Response:
        return Response(challenge_answer(challenge_id, request))


class ChallengeAcceptView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.ChallengeSerializer, **problems(401, 403, 404, 409)},
        summary="Accept (an invitee); the last acceptance starts the match",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, challenge_id: int) -> Response:
        services.challenge_accept(challenge_id=challenge_id, user=request.user)
        return Response(challenge_answer(challenge_id, request))


class ChallengeDeclineView(APIView):
    @extend_schema(
        request=s.DeclineSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.ChallengeSerializer, **problems(400, 401, 403, 404, 409)},
        summary="Decline (an invitee), saying why: the challenge ends",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, challenge_id: int) -> Response:
        data = parsed(s.DeclineSerializer, request.data)
        services.challenge_decline(
            challenge_id=challenge_id, user=request.user, reason=data["reason"]
        )
        return Response(challenge_answer(challenge_id, request))


class ChallengeCancelView(APIView):
    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.ChallengeSerializer, **problems(401, 403, 404, 409)},
        summary="Cancel (the challenger): the challenge ends",
    )
    @idempotent
    def post(self, request: AuthenticatedRequest, challenge_id: int) -> Response:
        services.challenge_cancel(challenge_id=challenge_id, user=request.user)
        return Response(challenge_answer(challenge_id, request))

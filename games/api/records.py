"""Game records: one match's (JSON, or the text notation for ``Accept: text/plain``), and a
player's finished matches streamed as NDJSON."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from django.http import StreamingHttpResponse
from drf_orjson_renderer.renderers import ORJSONRenderer
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from games import archive
from games.api import serializers as s
from games.api.views import username_in_path
from switchgame.records.notation import record_text
from switchsite.api.asyncviews import AsyncAPIView
from switchsite.api.schema import problems
from switchsite.asyncdb import run_sync
from switchsite.encoding import json_bytes
from switchsite.requests import AuthenticatedRequest


class RecordTextRenderer(BaseRenderer):
    """``Accept: text/plain``: the record in the text notation; a problem document as JSON."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, dict) and "format" in data:
            return record_text(data).encode()
        return ORJSONRenderer().render(data)


class MatchRecordView(APIView):
    renderer_classes = (ORJSONRenderer, RecordTextRenderer)

    @extend_schema(
        responses={
            (200, "application/json"): s.GameRecordSerializer,
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="The same game in the text notation."
            ),
            **problems(401, 404, 406, 409),
        },
        summary="The game record of a finished or abandoned match (switch-record/1)",
    )
    def get(self, request: AuthenticatedRequest, match_id: int) -> Response:
        return Response(archive.match_record(match_id=match_id))


class NDJSONRenderer(BaseRenderer):
    """The export's only renderer: one JSON record per line (errors: problem+json)."""

    media_type = "application/x-ndjson"
    format = "ndjson"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return json_bytes(data)


async def _record_lines(user_id: int) -> AsyncIterator[bytes]:
    """Each record as a line, read a chunk of matches at a time (keyset pages), so the answer
    holds one chunk whatever the number of matches; an async iterator, which the ASGI server
    sends as it comes (Django would read a synchronous one whole before sending it)."""
    after = 0
    while chunk := await run_sync(archive.finished_records, user_id=user_id, after=after):
        yield b"".join(json_bytes(record) + b"\n" for _, record in chunk)
        after, _ = chunk[-1]


class PlayerExportView(AsyncAPIView):
    renderer_classes = [NDJSONRenderer]

    @extend_schema(
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                s.GameRecordSerializer,
                description=(
                    "One game record (switch-record/1) per line, oldest match first; a match "
                    "whose record cannot be built has in its place a problem document "
                    "(`record_unavailable`) with its `match` id."
                ),
            ),
            **problems(400, 401, 404, 406),
        },
        summary="Every finished match of a player, as game records streamed one per line (NDJSON)",
    )
    async def get(self, request: AuthenticatedRequest, username: str) -> StreamingHttpResponse:
        username = username_in_path(username)
        user_id = await run_sync(
            archive.player_id_named, username=username
        )  # 404 before the stream starts
        response = StreamingHttpResponse(
            _record_lines(user_id), content_type="application/x-ndjson"
        )
        response["Content-Disposition"] = f'attachment; filename="{username}-matches.ndjson"'
        return response

"""Game records: one match's (JSON, or the text notation for ``Accept: text/plain``)."""

from __future__ import annotations

from typing import Any

from drf_orjson_renderer.renderers import ORJSONRenderer
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from games import archive
from games.api import serializers as s
from games.notation import record_text
from switchsite.api.schema import problems
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

"""The tokens API (``auth/tokens/``): named tokens with scopes, created, listed and revoked with the
account's own credentials (see :mod:`switchsite.api.authentication` for what each scope allows)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from switchsite.api.pagination import ListPagination, PageQuerySerializer
from switchsite.api.parsing import parsed, parsed_query
from switchsite.api.schema import body_schema, page_of, problems
from switchsite.models import ApiToken
from switchsite.requests import AuthenticatedRequest

READ, PLAY = ApiToken.Scope.READ.value, ApiToken.Scope.PLAY.value
# The scopes a named token may be given, each once, in either order.
SCOPE_SETS = ([READ], [READ, PLAY], [PLAY, READ])


@body_schema(
    {"required": ["scopes"], "properties": {"scopes": {"items": {"enum": [PLAY]}}}},  # no read
    fields={"scopes": {"minItems": 1, "maxItems": 2, "uniqueItems": True}},
)
class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="What the token is for.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=[READ, PLAY]),
        help_text='`["read"]` (reads only) or `["read", "play"]` (every write of a player too).',
    )

    def validate_scopes(self, scopes: list[str]) -> list[str]:
        if scopes not in SCOPE_SETS:
            raise serializers.ValidationError(gettext('Give ["read"] or ["read", "play"].'))
        return [READ, PLAY] if PLAY in scopes else [READ]


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=[READ, PLAY]))
    created_at = serializers.DateTimeField()


class NewApiTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text="The secret: shown this once, never again.")


ApiTokenPageSerializer = page_of(ApiTokenSerializer, "ApiTokenPageSerializer")


def _token(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "scopes": token.scopes,
        "created_at": token.created_at,
    }


class TokenListView(APIView):
    account_credentials_only = True

    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: ApiTokenPageSerializer, **problems(401, 403, 404)},
        summary="Your named tokens (without their secrets)",
        operation_id="auth_tokens_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        parsed_query(PageQuerySerializer, request.query_params)
        paginator = ListPagination()
        page = paginator.paginate_queryset(
            selectors.api_tokens(user=request.user), request, view=self
        )
        return paginator.get_paginated_response([_token(token) for token in page or ()])

    @extend_schema(
        request=TokenCreateSerializer,
        responses={201: NewApiTokenSerializer, **problems(400, 401, 403)},
        summary="Create a named token with scopes",
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        # Not idempotent by key: a stored answer would keep the secret, which is never stored.
        data = parsed(TokenCreateSerializer, request.data)
        token, secret = services.token_create(
            user=request.user, name=data["name"], scopes=data["scopes"]
        )
        return Response({**_token(token), "token": secret}, status=201)


class TokenDetailView(APIView):
    account_credentials_only = True

    @extend_schema(responses={204: None, **problems(401, 403, 404)}, summary="Revoke a named token")
    def delete(self, request: AuthenticatedRequest, token_id: int) -> Response:
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=204)

"""List pagination shared by every list of the API, and its query parameters."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination

from switchsite.api.parsing import WholeNumberField


class ListPagination(PageNumberPagination):
    """Pages of matches, tournaments and other lists that can grow."""

    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100


class PageQuerySerializer(serializers.Serializer):
    """The query parameters of a paged list (the schema lists them; out of range is 400)."""

    page = WholeNumberField(
        min_value=1, required=False, help_text="The page to answer: 1, 2, … (`next` links it)."
    )
    page_size = WholeNumberField(
        min_value=1,
        max_value=ListPagination.max_page_size,
        required=False,
        help_text=f"Results a page (default {ListPagination.page_size}).",
    )

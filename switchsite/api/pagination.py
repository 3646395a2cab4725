"""List pagination shared by every list of the API."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class ListPagination(PageNumberPagination):
    """Pages of matches, tournaments and other lists that can grow."""

    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100

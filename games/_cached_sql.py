"""The SQL of the selectors' hottest read, built once per connection (private to ``games.selectors``).

Django turns a queryset into SQL each time it is evaluated. For the read that every view and every
move starts from — a match's seats with the match, its creator and the seats' players, four tables
— that took about as much CPU as running the query and building the objects together (0.67 ms of
1.2–1.4 ms). A :class:`CachedSqlQuery` has Django's SQL compiler build its queryset's SQL once per
database connection; afterwards it only runs that SQL with a new key and builds the model instances
the way Django's own ``ModelIterable`` does, from the same compiler's description of the columns.

**Django internals it relies on** (none documented; check them when Django is upgraded — the pin
in ``pyproject.toml`` points here): ``Query.get_compiler()``; ``SQLCompiler.as_sql()``,
``.select``, ``.klass_info`` (``"model"``, ``"select_fields"``), ``.annotation_col_map``,
``.has_extra_select``, ``.get_converters()`` and ``.apply_converters()``;
``django.db.models.query.get_related_populators()`` and the populators' ``populate()``. The tests
(``tests/test_cached_sql.py``) compare its instances with the ORM's own, so an upgrade that
changes any of them fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]

M = TypeVar("M", bound=Model)

_ON_CONNECTION = "games_cached_sql_queries"


@dataclass(frozen=True)
class _CachedSql:
    sql: str
    compiler: Any
    converters: dict[int, Any]
    fields: slice
    field_names: list[str]
    related_populators: list[Any]


class CachedSqlQuery(Generic[M]):
    """``queryset_for(key)`` turned into SQL once per connection, evaluated for any key.

    The queryset must take the key as its only parameter (a filter on one column, no constant
    filters, annotations or ``extra``); building its SQL checks that and refuses otherwise. Only the
    default database is used, as everywhere in this project.
    """

    def __init__(self, queryset_for: Callable[[Any], QuerySet[M]]) -> None:
        self._queryset_for = queryset_for

    def __call__(self, key: Any) -> list[M]:
        connection = connections[DEFAULT_DB_ALIAS]
        # Kept on the connection object, which each thread has its own of: a compiler refers to its
        # connection, so a cache beside it would keep the connections of finished threads open.
        cached_here: dict[CachedSqlQuery[Any], _CachedSql] = vars(connection).setdefault(
            _ON_CONNECTION, {}
        )
        cached = cached_here.get(self)
        if cached is None:
            cached = cached_here[self] = self._build(key, connection)
        with connection.cursor() as cursor:
            cursor.execute(cached.sql, (key,))
            rows = cursor.fetchall()
        if cached.converters:
            rows = list(cached.compiler.apply_converters(rows, cached.converters))
        model = cached.compiler.klass_info["model"]
        instances = []
        for row in rows:
            instance = model.from_db(DEFAULT_DB_ALIAS, cached.field_names, row[cached.fields])
            for populator in cached.related_populators:
                populator.populate(row, instance)
            instances.append(instance)
        return instances

    def _build(self, key: Any, connection: BaseDatabaseWrapper) -> _CachedSql:
        compiler = self._queryset_for(key).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if tuple(params) != (key,) or compiler.annotation_col_map or compiler.has_extra_select:
            raise ValueError(f"{sql!r} must take the key as its only parameter and no extras")
        select, klass_info = compiler.select, compiler.klass_info
        columns = klass_info["select_fields"]
        fields = slice(columns[0], columns[-1] + 1)
        return _CachedSql(
            sql=sql,
            compiler=compiler,
            converters=compiler.get_converters([column[0] for column in select]),
            fields=fields,
            field_names=[column[0].target.attname for column in select[fields]],
            related_populators=get_related_populators(klass_info, select, DEFAULT_DB_ALIAS),
        )

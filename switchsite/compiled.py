"""Querysets compiled to SQL once, for the hottest read.

Django compiles a queryset to SQL each time it is evaluated. For the read that every view and every
move starts from — a match's seats with the match, its creator and the seats' players, four tables
— compiling took about as much CPU as running the query and building the objects together (0.67 ms
of 1.2–1.4 ms). A :class:`CompiledQuery` has Django compile its queryset once per database
connection; afterwards it only runs that SQL with a new key and builds the model instances the way
Django's own ``ModelIterable`` does, from the same compiler's description of the columns.

It leans on the SQL compiler's attributes (``select``, ``klass_info``) and on
``get_related_populators``, which Django does not document; the tests compare its instances with
the ORM's own, so a Django upgrade that changes them fails there.
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

_ON_CONNECTION = "switchsite_compiled_queries"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    compiler: Any
    converters: dict[int, Any]
    fields: slice
    field_names: list[str]
    related_populators: list[Any]


class CompiledQuery(Generic[M]):
    """``queryset_for(key)`` compiled once per connection, evaluated for any key.

    The queryset must take the key as its only parameter (a filter on one column, no constant
    filters, annotations or ``extra``); compiling checks that and refuses otherwise. Only the
    default database is used, as everywhere in this project.
    """

    def __init__(self, queryset_for: Callable[[Any], QuerySet[M]]) -> None:
        self._queryset_for = queryset_for

    def __call__(self, key: Any) -> list[M]:
        connection = connections[DEFAULT_DB_ALIAS]
        # Kept on the connection object, which each thread has its own of: a compiler refers to its
        # connection, so a cache beside it would keep the connections of finished threads open.
        compiled_here: dict[CompiledQuery[Any], _Compiled] = vars(connection).setdefault(
            _ON_CONNECTION, {}
        )
        compiled = compiled_here.get(self)
        if compiled is None:
            compiled = compiled_here[self] = self._compile(key, connection)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, (key,))
            rows = cursor.fetchall()
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        model = compiled.compiler.klass_info["model"]
        instances = []
        for row in rows:
            instance = model.from_db(DEFAULT_DB_ALIAS, compiled.field_names, row[compiled.fields])
            for populator in compiled.related_populators:
                populator.populate(row, instance)
            instances.append(instance)
        return instances

    def _compile(self, key: Any, connection: BaseDatabaseWrapper) -> _Compiled:
        compiler = self._queryset_for(key).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if tuple(params) != (key,) or compiler.annotation_col_map or compiler.has_extra_select:
            raise ValueError(f"{sql!r} must take the key as its only parameter and no extras")
        select, klass_info = compiler.select, compiler.klass_info
        columns = klass_info["select_fields"]
        fields = slice(columns[0], columns[-1] + 1)
        return _Compiled(
            sql=sql,
            compiler=compiler,
            converters=compiler.get_converters([column[0] for column in select]),
            fields=fields,
            field_names=[column[0].target.attname for column in select[fields]],
            related_populators=get_related_populators(klass_info, select, DEFAULT_DB_ALIAS),
        )

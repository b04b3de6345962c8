"""Rows of plain values into a table at once: PostgreSQL's COPY, else executemany in batches.

The ingest writes series, results and statistics as tuples of the columns' values, each value
adapted once the way the ORM adapts it for its column, rather than through model instances.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import orjson
import psycopg
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Lookup, Q, QuerySet

# Rows a non-PostgreSQL database is sent per executemany.
INSERT_BATCH = 5000
_MISSING = object()


class JsonText(str):
    """A JSON value already written as text (a series' `params_key`): `insert_rows` stores
    it as it is instead of dumping it again."""


class _AnyOf(Lookup):
    """`field = ANY(%s::bigint[])`, the array given as its text ('{1,2,3}')."""

    lookup_name = "any_of"
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        lhs, params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s::bigint[])", [*params, self.rhs]


def in_ids(field: str, ids: Collection[int] | QuerySet) -> Q | Lookup:
    """A filter on `field` being one of `ids`, which may be a hundred thousand long (an
    import's series): on PostgreSQL `field = ANY(array)`, the array one parameter written as
    text here, rather than `IN` with a parameter per id, which psycopg took seconds to write
    into the query (issue 56); an index scan whether or not the table was analysed yet.
    Elsewhere, or for a query of ids, `field__in`."""
    if connection.vendor != "postgresql" or isinstance(ids, QuerySet):
        return Q(**{f"{field}__in": ids})
    return _AnyOf(F(field), "{" + ",".join(map(str, ids)) + "}")


def stored_params(texts: Sequence[str], params: Sequence[dict[str, Any]]) -> list[Any]:
    """What `insert_rows` writes for params whose `params_key`s are `texts`.

    On PostgreSQL the canonical texts themselves (jsonb keeps no key order, so nothing changes
    but the dumping saved); elsewhere each dict as the JSON field writes it, its keys in the
    parser's order: dumped once per dict, which the results of one parameter set may share
    (the bundled demo's do).
    """
    if connection.vendor == "postgresql":
        return [JsonText(text) for text in texts]
    dumped: dict[int, JsonText] = {}
    stored = []
    for value in params:
        text = dumped.get(id(value))
        if text is None:
            text = dumped[id(value)] = JsonText(json.dumps(value))
        stored.append(text)
    return stored


# Django's JSONField writes json.dumps(value) (no encoder is set on our fields); an empty
# list (a statistics row's flags, mostly) is written once.
_EMPTY_LIST = JsonText("[]")


def insert_rows(
    model, columns: tuple[str, ...], rows: Iterable[tuple], *, ignore_conflicts: bool = False
) -> bool:
    """Insert rows of plain values (tuples of `columns`): with COPY on PostgreSQL, else one
    executemany per INSERT_BATCH rows. Returns whether this call inserted every row itself
    (False when, ignoring conflicts, some rows may have been there already).

    `rows` may be an iterator: on PostgreSQL each row is then built and adapted while the
    server stores the ones before it (an import's statistics rows: their merge and JSON
    overlap the server's index inserts, issue 56). It must not query the database.

    Each value is adapted once, the way the ORM adapts it for the column's type, without the
    ORM's per-field work of bulk_create. JSON is passed to COPY as text, which PostgreSQL
    reads as jsonb, rather than wrapped in psycopg's Jsonb.
    """
    if isinstance(rows, Sequence) and not rows:
        return True
    ops = connection.ops
    fields = [model._meta.get_field(column.removesuffix("_id")) for column in columns]
    json_columns = []
    adapters = []
    for index, model_field in enumerate(fields):
        kind = model_field.get_internal_type()
        if kind == "JSONField":
            json_columns.append(index)
        # PostgreSQL's adapters give dates and times back as they are (psycopg writes them):
        # looking each up cost an import's 200,000 statistics rows a second (issue 56).
        elif kind == "DateField" and connection.vendor != "postgresql":
            adapters.append((index, ops.adapt_datefield_value))
        elif kind == "DateTimeField" and connection.vendor != "postgresql":
            adapters.append((index, ops.adapt_datetimefield_value))

    # Dates and times recur across rows (a batch's `now`, a run's day): each is adapted once.
    adapted: list[dict] = [{} for _ in adapters]

    def adapt(row: tuple) -> tuple:
        values = list(row)
        for index in json_columns:
            value = values[index]
            if type(value) is not JsonText:
                # orjson: the same JSON, a fifth of json.dumps' time (an import's merged
                # rows, issue 56); jsonb and Django's JSONField read either alike.
                values[index] = _EMPTY_LIST if value == [] else orjson.dumps(value).decode()
        for (index, adapter), seen in zip(adapters, adapted, strict=True):
            value = values[index]
            text = seen.get(value, _MISSING)
            if text is _MISSING:
                text = seen[value] = adapter(value)
            values[index] = text
        return tuple(values)

    quote = ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(column) for column in columns)
    if connection.vendor == "postgresql":
        return _copy(table, names, map(adapt, rows), ignore_conflicts=ignore_conflicts)
    rows = list(rows)
    sql = "INSERT INTO {} ({}) VALUES ({}){}".format(
        table,
        names,
        ", ".join(["%s"] * len(columns)),
        " ON CONFLICT DO NOTHING" if ignore_conflicts else "",
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), INSERT_BATCH):
            cursor.executemany(sql, [adapt(row) for row in rows[start : start + INSERT_BATCH]])
    # SQLite has one writer: a transaction that has read a row missing cannot commit a write
    # after another connection inserted it, so ON CONFLICT never skips a row we looked for.
    return True


def _copy(table: str, names: str, rows: Iterable[tuple], *, ignore_conflicts: bool) -> bool:
    """PostgreSQL's COPY, which sends the rows as one stream rather than binding and quoting
    every value in Python as executemany does.

    COPY cannot skip conflicts. Rows that may conflict (series another transaction may be
    creating) are copied in a savepoint; only when that meets a conflict do they go through a
    temporary table and an INSERT ... ON CONFLICT DO NOTHING.
    """
    if not ignore_conflicts:
        _copy_into(table, names, rows)
        return True
    rows = list(rows)  # copied a second time after a conflict
    try:
        with transaction.atomic():
            _copy_into(table, names, rows)
        return True
    except (IntegrityError, psycopg.errors.IntegrityError):
        pass
    temporary = connection.ops.quote_name("pricebench_copy")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {temporary} AS SELECT {names} FROM {table} WITH NO DATA"
        )
        _copy_into(temporary, names, rows)
        cursor.execute(
            f"INSERT INTO {table} ({names}) SELECT {names} FROM {temporary} ON CONFLICT DO NOTHING"
        )
        cursor.execute(f"DROP TABLE {temporary}")
    return False


def _copy_into(table: str, names: str, rows: Iterable[tuple]) -> None:
    with connection.cursor() as cursor:
        # Django's cursor wraps psycopg's, which alone speaks COPY.
        with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

"""Renderers: JSON through orjson, and CSV (the rows of a list or of price-performance)."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from typing import Any

import orjson
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

# A cell starting with one of these is a formula to a spreadsheet: it is written quoted
# behind an apostrophe so that opening an export never runs it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class FastJSONRenderer(JSONRenderer):
    """DRF's JSON answer, encoded by orjson: a 1,000-row answer in a few milliseconds.

    Types orjson does not know (Decimal, lazy strings) go through DRF's own encoder; NaN and
    infinities, which JSON cannot carry, come out as null.
    """

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        # Indented when asked (the browsable API asks for 4; orjson indents by 2 only): one
        # field a line, where the browsable API showed a whole answer on one line.
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        option = orjson.OPT_INDENT_2 if indent else 0
        default = JSONEncoder().default
        try:
            return orjson.dumps(data, default=default, option=option)
        except orjson.JSONEncodeError:
            # DRF keys a list's errors by position ({"figures": {1: {"value": [...]}}}):
            # written as "1", as json.dumps would, not a 500. Only then: orjson's option for
            # it took a thousand-row answer 1.2 ms instead of 0.7 (docs/performance.md).
            return orjson.dumps(data, default=default, option=option | orjson.OPT_NON_STR_KEYS)


def safe_cell(value: Any) -> Any:
    """A value as a CSV cell: numbers as they are, text never read as a formula."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, int | float):
        return value
    if isinstance(value, dict) and all(isinstance(count, int) for count in value.values()):
        value = "; ".join(f"{key} ({count})" for key, count in value.items())  # counts
    elif isinstance(value, dict):
        # An object (a row's `estimate`): each field named, lists spaced.
        value = "; ".join(f"{key}: {_plain(item)}" for key, item in value.items())
    elif isinstance(value, list):
        value = "; ".join("" if item is None else str(item) for item in value)
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return "" if value is None else str(value)


def rows_of(data: Any) -> list[dict]:
    """The rows an answer carries: its `results`, a list, or the object itself."""
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return data["results"]
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        # An error answer ({field: [messages]}) or one object.
        return [{key: value for key, value in data.items()}]
    return [{"value": data}]


# Top-level fields of an answer that name its question, kept on each CSV row.
CONTEXT = ("region", "purchase_option", "basis", "at")


def question_context(data: Any) -> dict:
    """The answer's question as columns (only for answers of rows that carry one)."""
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return {}
    return {name: data[name] for name in CONTEXT if isinstance(data.get(name), str)}


# Parts of the question that name a CSV download, in this order, from the answer or the query.
FILENAME_PARTS = ("benchmark", "profile", "instance_type", "region", "purchase_option", "at")


def csv_filename(request, data: Any) -> str:
    """pricebench_<endpoint>_<question>_<date>.csv: a download that says what it holds."""
    endpoint = [part for part in request.path.split("/") if part][-1]
    answer = data if isinstance(data, dict) else {}
    parts = ["pricebench", endpoint]
    for name in FILENAME_PARTS:
        value = answer.get(name) if isinstance(answer.get(name), str) else None
        value = value or request.query_params.get(name)
        if value:
            parts.append(value[:10] if name == "at" else value)
    if not (answer.get("at") or request.query_params.get("at")):
        parts.append(date.today().isoformat())
    name = "_".join(re.sub(r"[^A-Za-z0-9.-]+", "-", part).strip("-") for part in parts)
    return f"{name[:180]}.csv"


class CSVRenderer(BaseRenderer):
    """`?format=csv`: the answer's rows with a header of every column met, in order."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        rows = rows_of(data)
        columns: dict[str, None] = {}
        for row in rows:
            columns.update(dict.fromkeys(row))
        # The question's context, repeated on every row: a CSV read alone still says on which
        # basis, at which prices and where its figures were computed.
        context = question_context(data)
        if context:
            rows = [{**row, **context} for row in rows]
            columns.update(dict.fromkeys(context))
        request = (renderer_context or {}).get("request")
        response = (renderer_context or {}).get("response")
        if request is not None and response is not None:
            filename = csv_filename(request, data)
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(list(columns))
        for row in rows:
            writer.writerow([safe_cell(row.get(column)) for column in columns])
        return out.getvalue().encode("utf-8")

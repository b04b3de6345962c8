"""Lookups by name that answer a DomainError suggesting the closest names."""

from __future__ import annotations

import datetime
import difflib
from dataclasses import dataclass
from typing import Protocol

import orjson
from django.db import connections, router
from django.db.models import Case, JSONField, Q, Subquery, When

from benchmarks import freshness
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region, Vendor
from benchmarks.reference import AWS_REGIONS

REGION_CODES = frozenset(region.code for region in AWS_REGIONS)


def did_you_mean(name: str, choices) -> str:
    """`; did you mean a, b?`, naming up to three of `choices` close to `name`; else ""."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else ""


def _unknown(what: str, name: str, choices: list[str], field: str) -> DomainError:
    return DomainError(f"unknown {what} {name!r}{did_you_mean(name, choices)}", field=field)


def vendor_and_name(text: str) -> tuple[str | None, str]:
    """(vendor, name) of `hcloud:cax11`; (None, name) of a bare name. Only a vendor's id
    before the colon counts: `c7a.xlarge:base` (a type and its variant) stays whole."""
    vendor, colon, name = text.partition(":")
    if colon and vendor in Vendor.values:
        return vendor, name
    return None, text


def type_and_variant(text: str) -> tuple[str | None, str, str]:
    """(vendor, name, variant) of a row as a question names it: `hcloud:cax11` ("hcloud",
    "cax11", ""), `c7a.xlarge:base` (None, "c7a.xlarge", "base"), `hcloud:cax11:base`."""
    vendor, rest = vendor_and_name(text)
    name, _, variant = rest.partition(":")
    return vendor, name, variant


def names_type(text: str, vendor: str, name: str) -> bool:
    """Whether `text` (`vendor:name` or a bare name) names `vendor`'s type `name`."""
    named_vendor, named = vendor_and_name(text)
    return named == name and named_vendor in (None, vendor)


def types_named(names, prefix: str = "") -> Q:
    """The instance types `names` name (`vendor:name`, or a bare name: any vendor's type of
    that name), as a filter on the type (`prefix`: the path to it, e.g. `instance_type__`)."""
    wanted = Q(pk__in=[]) if not names else Q()
    by_vendor: dict[str | None, list[str]] = {}
    for text in names:
        vendor, name = vendor_and_name(text)
        by_vendor.setdefault(vendor, []).append(name)
    # One condition per vendor, not per name: SQLite refuses `a OR b OR ...` 1,000 deep.
    for vendor, named in by_vendor.items():
        same_vendor = {f"{prefix}vendor": vendor} if vendor is not None else {}
        wanted |= Q(**same_vendor, **{f"{prefix}name__in": named})
    return wanted


def named_types(text: str):
    """The instance types `text` names (`vendor:name` or a bare name), AWS's first: a bare
    name belongs to AWS when AWS has it, else to the one vendor that does."""
    vendor, name = vendor_and_name(text)
    found = InstanceType.objects.filter(name=name)
    if vendor is not None:
        return found.filter(vendor=vendor)
    return found.order_by(Case(When(vendor=Vendor.AWS, then=0), default=1), "vendor")


def get_instance_type(name: str, *, field: str = "instance_type") -> InstanceType:
    """The instance type called `name` (or `vendor:name`), or a DomainError that suggests the
    closest names."""
    found = named_types(name).first()
    if found is None:
        names = list(InstanceType.objects.values_list("name", flat=True))
        raise _unknown("instance type", name, names, field)
    return found


def types_found(names) -> dict[str, InstanceType]:
    """The instance type each of `names` names (as `named_types` reads a name), in one query;
    a name no type has is left out."""
    rows = list(InstanceType.objects.filter(types_named(names)))
    found = {}
    for text in names:
        vendor, name = vendor_and_name(text)
        matches = [row for row in rows if row.name == name and vendor in (None, row.vendor)]
        if matches:
            found[text] = min(matches, key=lambda row: (row.vendor != Vendor.AWS, row.vendor))
    return found


def types_by_names(names, *, field: str = "instance_type") -> dict[str, InstanceType]:
    """The instance type each of `names` names (`types_found`), in one query; an unknown name
    raises `get_instance_type`'s DomainError, which suggests the closest (or finds the type,
    if an import made it since)."""
    found = types_found(names)
    return {text: found.get(text) or get_instance_type(text, field=field) for text in names}


def get_region(code: str, *, field: str = "region") -> Region:
    """The region with AWS code `code`, or a DomainError that suggests the closest codes."""
    found = Region.objects.filter(code=code).first()
    if found is None:
        raise _unknown("region", code, list(Region.objects.values_list("code", flat=True)), field)
    return found


def region_code(text: str, *, field: str = "region") -> str:
    """The code of the region `text` names: `fsn1`, or `hcloud:fsn1` as `regions=` writes it
    (then one query: the vendor must have it, else a DomainError naming its closest codes)."""
    vendor, code = vendor_and_name(text)
    if vendor is None:
        return text
    codes = list(Region.objects.filter(vendor=vendor).values_list("code", flat=True))
    if code not in codes:
        raise _unknown(f"region of {vendor}", code, codes, field)
    return code


def region_vendor(text: str) -> str:
    """The vendor of the region `text` names: `hcloud:fsn1`'s, an AWS code's (no query), else
    the vendor's that has the code (one query; AWS's when none has it, as `get_region` then
    refuses it)."""
    vendor, code = vendor_and_name(text)
    if vendor is not None or code in REGION_CODES:
        return vendor or Vendor.AWS
    found = Region.objects.filter(code=code).order_by("vendor").values_list("vendor", flat=True)
    return found.first() or Vendor.AWS


def get_benchmark(key: str, *, field: str = "benchmark") -> Benchmark:
    """The benchmark with `key`, or a DomainError that suggests the closest keys."""
    found = Benchmark.objects.filter(key=key).first()
    if found is None:
        raise _unknown(
            "benchmark", key, list(Benchmark.objects.values_list("key", flat=True)), field
        )
    return found


def by_name(model, field: str, names: set[str], lookup) -> dict:
    """Rows by name in one query; an unknown name raises the lookup's DomainError, which
    suggests the closest names (or finds the row, if an import made it since)."""
    found = {getattr(row, field): row for row in model.objects.filter(**{f"{field}__in": names})}
    for name in sorted(names - found.keys()):
        found[name] = lookup(name)
    return found


@dataclass(frozen=True)
class BenchmarkInRegion:
    """The benchmark and the region a question names, looked up once."""

    benchmark: Benchmark
    region: Region

    @property
    def changed_at(self) -> datetime.datetime | None:
        """When the data behind the answer last changed: the results, their noise (measured
        again after the results changed, without moving their stamp) or the region's prices."""
        stamps = [
            self.benchmark.stats_updated_at,
            self.benchmark.noise_measured_at,
            self.region.prices_updated_at,
        ]
        return max((stamp for stamp in stamps if stamp), default=None)


def prices_stamp(region: Region) -> datetime.datetime | None:
    """When the region's prices or any type's specifications last changed, as the question
    read its region (None: not read with it, and no query for it here)."""
    if "prices_updated_at" in region.get_deferred_fields():
        return None
    return region.prices_updated_at


class BenchmarkQuestion(Protocol):
    """What `benchmark_in_region` reads of a question (a PricePerformanceQuery): named here
    rather than imported, as the questions' forms look names up through this module."""

    benchmark: str
    region: str
    measured_in: str | None


def benchmark_in_region(
    query: BenchmarkQuestion,
    *,
    benchmark: Benchmark | None = None,
    region: Region | None = None,
) -> BenchmarkInRegion:
    """The question's benchmark and region, or a DomainError naming the field.

    One query, remembered for a few seconds (benchmarks.freshness): a cached answer then
    costs none; none either when the caller read both already (a page's menus; the region
    with REGION_FIELDS). What was read is kept as it is (`freshness.kept_read`), not pickled
    in a cache: the benchmark carries its noise per parameter set, and unpickling it twice an
    answer cost 1.3 ms for stress-ng:cpu, 7 for static_web:http (docs/performance.md). Its
    readers share it: nobody changes it.
    """
    if query.measured_in and query.measured_in not in REGION_CODES:
        raise DomainError(f"unknown region {query.measured_in!r}", field="measured_in")
    if benchmark is not None and region is not None:
        return BenchmarkInRegion(benchmark=benchmark, region=region)
    return freshness.kept_read(
        _cache_key(query.benchmark, query.region),
        lambda: _read_benchmark_in_region(query.benchmark, query.region),
    )


def cached_benchmark_in_region(benchmark_key: str, region_code: str) -> BenchmarkInRegion | None:
    """What `benchmark_in_region` read for these names a few seconds ago, or None: no query."""
    return freshness.kept(_cache_key(benchmark_key, region_code))


def _cache_key(benchmark_key: str, region_code: str) -> str:
    return f"benchmark-in-region:{benchmark_key}|{region_code}"


# What a question reads of its region.
REGION_FIELDS = ("pk", "vendor", "code", "name", "pricing_location", "prices_updated_at")


def _read_benchmark_in_region(benchmark_key: str, region_code: str) -> BenchmarkInRegion:
    connection = connections[router.db_for_read(Benchmark)]
    if connection.vendor == "postgresql":
        found = _written_benchmark_in_region(connection, benchmark_key, region_code)
    else:
        found = _orm_benchmark_in_region(benchmark_key, region_code)
    if found is None:
        # One is unknown: its own lookup raises, naming the closest names. Should both be
        # found now (an import made the missing one after the read above), they answer.
        return BenchmarkInRegion(
            benchmark=get_benchmark(benchmark_key), region=get_region(region_code)
        )
    return found


# `_orm_benchmark_in_region`'s read written out: every column of the benchmark (its JSON as
# text, for orjson) and the region's REGION_FIELDS, or no row.
_BENCHMARK_FIELDS = Benchmark._meta.concrete_fields
_BENCHMARK_IN_REGION = (
    'SELECT {benchmark}, {region} FROM "{benchmarks}" b '
    'LEFT JOIN "{regions}" r ON r."code" = %s WHERE b."key" = %s'
).format(
    benchmarks=Benchmark._meta.db_table,
    regions=Region._meta.db_table,
    benchmark=", ".join(
        f'CAST(b."{field.column}" AS text)'
        if isinstance(field, JSONField)
        else f'b."{field.column}"'
        for field in _BENCHMARK_FIELDS
    ),
    region=", ".join(
        f'r."{Region._meta.pk.column if name == "pk" else Region._meta.get_field(name).column}"'
        for name in REGION_FIELDS
    ),
)
_BENCHMARK_JSON = [
    index for index, field in enumerate(_BENCHMARK_FIELDS) if isinstance(field, JSONField)
]


def _written_benchmark_in_region(
    connection, benchmark_key: str, region_code: str
) -> BenchmarkInRegion | None:
    """`_orm_benchmark_in_region` on PostgreSQL in one statement written out: the same
    values (the driver's own, as the ORM's are there; the JSON read by orjson), without the
    ORM building six subqueries, which took 2.3 of its 2.7 ms at 10M (docs/performance.md).
    None where either is unknown."""
    with connection.cursor() as cursor:
        cursor.execute(_BENCHMARK_IN_REGION, [region_code, benchmark_key])
        row = cursor.fetchone()
    count = len(_BENCHMARK_FIELDS)
    if row is None or row[count] is None:
        return None
    values = list(row[:count])
    for index in _BENCHMARK_JSON:
        if values[index] is not None:
            values[index] = orjson.loads(values[index])
    benchmark = Benchmark.from_db(
        connection.alias, [field.attname for field in _BENCHMARK_FIELDS], values
    )
    region = Region(**dict(zip(REGION_FIELDS, row[count:], strict=True)))
    return BenchmarkInRegion(benchmark=benchmark, region=region)


def _orm_benchmark_in_region(benchmark_key: str, region_code: str) -> BenchmarkInRegion | None:
    region_rows = Region.objects.filter(code=region_code)
    benchmark = (
        Benchmark.objects.filter(key=benchmark_key)
        .annotate(
            **{f"region_{name}": Subquery(region_rows.values(name)[:1]) for name in REGION_FIELDS}
        )
        .order_by()
        .first()
    )
    if benchmark is None or benchmark.region_pk is None:
        return None
    region = Region(**{name: getattr(benchmark, f"region_{name}") for name in REGION_FIELDS})
    return BenchmarkInRegion(benchmark=benchmark, region=region)

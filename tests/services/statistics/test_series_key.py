"""Each statistics row names its series' instance type and variant (copied at ingest, so that
a peer group's rows are read without the series): on every path that writes rows, and by
the migration that added the copy."""

import importlib

import pytest
from django.db import connection

from benchmarks.models import InstanceType, Series, SeriesStatistics
from benchmarks.services.statistics import check_statistics
from tests.services.statistics.common import upload

COPY = importlib.import_module("benchmarks.migrations.0026_statistics_name_their_type").COPY


def _named() -> list[tuple]:
    return sorted(
        SeriesStatistics.objects.values_list(
            "series_id", "measured_in", "instance_type_id", "variant"
        )
    )


def _from_series() -> list[tuple]:
    return sorted(
        SeriesStatistics.objects.values_list(
            "series_id", "measured_in", "series__instance_type_id", "series__variant"
        )
    )


@pytest.mark.django_db
def test_every_row_names_its_series_type_and_variant_new_merged_or_recomputed():
    for name in ("c7g.large", "t2.nano"):
        InstanceType.objects.get_or_create(name=name)
    base = {"benchmark": "tool:x", "unit": "op/s", "param.block_size": "16"}
    # New series, one measured in two regions (rows per region too).
    upload(
        [{**base, "instance_type": "c7g.large", "region": "us-east-1", "value": 3},
         {**base, "instance_type": "c7g.large", "region": "eu-west-1", "value": 5},
         {**base, "instance_type": "t2.nano", "region": "us-east-1", "value": 7}]
    )  # fmt: skip
    # A tuned variant: a series of its own.
    upload([{**base, "instance_type": "c7g.large", "region": "us-east-1", "value": 4}],
           variant="accp")  # fmt: skip
    # Measured again in its one region: the kept row merged with the values in hand.
    upload([{**base, "instance_type": "t2.nano", "region": "us-east-1", "value": 8}])
    # Measured again where it has several regions: recomputed from the database.
    upload([{**base, "instance_type": "c7g.large", "region": "eu-west-1", "value": 6}])
    named = _named()
    assert named == _from_series()
    assert {(type_id, variant) for _, _, type_id, variant in named} == {
        (InstanceType.objects.get(name="c7g.large").pk, ""),
        (InstanceType.objects.get(name="c7g.large").pk, "accp"),
        (InstanceType.objects.get(name="t2.nano").pk, ""),
    }
    assert len(named) == 5  # c7g.large: all regions and two; accp; t2.nano
    assert check_statistics().clean
    # A copy that no longer names its series is what `rebuild_stats --check` reports.
    SeriesStatistics.objects.filter(variant="accp").update(variant="")
    [difference] = check_statistics().differences
    assert (difference.field, difference.kept, difference.recomputed) == ("variant", "", "accp")


@pytest.mark.django_db
def test_the_migration_copies_each_series_type_and_variant_into_its_rows():
    InstanceType.objects.get_or_create(name="c7g.large")
    InstanceType.objects.get_or_create(name="t2.nano")
    base = {"benchmark": "tool:x", "unit": "op/s"}
    upload([{**base, "instance_type": "c7g.large", "region": "us-east-1", "value": 3}])
    upload([{**base, "instance_type": "t2.nano", "region": "eu-west-1", "value": 5}],
           variant="accp")  # fmt: skip
    expected = _from_series()
    # As rows kept before the copy existed would stand once the columns were added.
    SeriesStatistics.objects.update(instance_type_id=0, variant="")
    with connection.cursor() as cursor:
        cursor.execute(COPY)
    assert _named() == expected
    assert Series.objects.count() == 2 and len(expected) == 2

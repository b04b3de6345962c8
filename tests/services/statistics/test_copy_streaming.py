"""Kept statistics written as COPY reads them: an ingest's merges and JSON built while the
server stores the rows before (issue 56), the same rows as a recomputation."""

import psycopg
import pytest
from django.db import connection

from benchmarks.models import InstanceType, SeriesStatistics
from benchmarks.services import statistics
from tests.services.statistics.common import kept, upload


@pytest.mark.django_db
def test_merged_rows_are_built_while_the_server_stores_the_ones_before(monkeypatch):
    # An import's statistics rows are merged and written as COPY reads them, so that the
    # merge overlaps the server's index inserts (issue 56): each merge runs with the COPY
    # in progress, and the rows are those of a recomputation.
    from benchmarks.services.statistics import keep

    InstanceType.objects.get_or_create(name="c7g.large")
    states = []
    merged_from = keep.merged_from

    def observed(*args):
        states.append(connection.connection.info.transaction_status)
        return merged_from(*args)

    monkeypatch.setattr(keep, "merged_from", observed)

    def rows(values: list[float]) -> list[dict]:
        return [
            {"benchmark": "tool:stream", "instance_type": "c7g.large", "region": "us-east-1",
             "value": value, "unit": "op/s", "cpu_model": "Neoverse-V1", "param.block_size": size}
            for value in values for size in (1, 2, 3)
        ]  # fmt: skip

    upload(rows([20.0]))
    upload(rows([30.0]))
    assert states == [psycopg.pq.TransactionStatus.ACTIVE] * 3
    after_ingest = kept()
    statistics.rebuild_statistics()
    assert kept() == after_ingest


@pytest.mark.django_db
def test_rows_given_one_at_a_time_are_adapted_as_copy_reads_them():
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "tool:rows", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 1.0, "unit": "op/s", "cpu_model": ""}]
    )  # fmt: skip
    row = SeriesStatistics.objects.get(series__benchmark__key="tool:rows")
    columns = statistics.STATISTICS_COLUMNS
    values = [getattr(row, column) for column in columns]
    values[columns.index("measured_in")] = "eu-west-1"
    states = []

    def one_at_a_time():
        states.append(connection.connection.info.transaction_status)
        yield tuple(values)

    statistics.insert_rows(SeriesStatistics, columns, one_at_a_time())
    assert states == [psycopg.pq.TransactionStatus.ACTIVE]
    assert SeriesStatistics.objects.filter(series_id=row.series_id).count() == 2

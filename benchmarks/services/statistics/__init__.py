"""The statistics kept at ingest: what the pages and the API read instead of the results.

Every result belongs to a series (benchmark, instance type, variant, parameters). Whenever a
run's results arrive, go or are parsed again, the series they touch are recomputed from their
results, in the caller's transaction and in a fixed number of queries whatever the number of
series: lock the series, read their values, delete their statistics, insert the new ones,
and merge each touched benchmark's summary (its parameters' values and its families). A
series the ingest itself created holds only the results in hand: its statistics are computed
from them without reading anything back (`refresh_stored`), the bulk of a first import.

One module per step: `attach` (results -> their series), `compute` (samples -> statistics
rows), `merge` (a series measured again: its rows from its kept one and the values in
hand), `keep` (refresh the series a write touched, and the benchmarks' summaries), `rebuild`
(everything again, from the results), `check` (compare what is kept with a recomputation,
writing nothing), `noise` (how much one run of each benchmark varies, measured from the
statistics, again once they change) and `rows` (plain rows into a table at once). Callers
import the names below from `benchmarks.services.statistics`.
"""

from benchmarks.models import Series, SeriesStatistics

from .attach import attach_series, params_key
from .check import Difference, StatisticsCheck, check_statistics
from .compute import (
    ALL_REGIONS,
    FLAGGED_RUN_IDS_KEPT,
    STATISTICS_COLUMNS,
    compute_statistics,
)
from .keep import lock_kept, param_order, refresh_series, refresh_stored, series_of_runs
from .noise import keep_noise, measure_benchmark
from .rebuild import REBUILD_BATCH, analyze_tables, needs_rebuild, rebuild_statistics
from .rows import JsonText, in_ids, insert_rows, stored_params

__all__ = [
    "ALL_REGIONS",
    "Difference",
    "FLAGGED_RUN_IDS_KEPT",
    "REBUILD_BATCH",
    "STATISTICS_COLUMNS",
    "JsonText",
    "Series",
    "SeriesStatistics",
    "StatisticsCheck",
    "analyze_tables",
    "attach_series",
    "check_statistics",
    "in_ids",
    "compute_statistics",
    "insert_rows",
    "keep_noise",
    "lock_kept",
    "measure_benchmark",
    "needs_rebuild",
    "param_order",
    "params_key",
    "rebuild_statistics",
    "refresh_series",
    "refresh_stored",
    "series_of_runs",
    "stored_params",
]

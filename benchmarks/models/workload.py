"""The workload model's benchmark matrix, kept from the statistics
(selectors/subjects/workload_vectors)."""

from __future__ import annotations

from django.db import models


class WorkloadMatrix(models.Model):
    """The benchmark matrix the workload model learns from, kept in one row.

    As last read from the kept statistics, its arrays packed (benchmarks/workload/matrix.py).

    A process's first workload question reads it in one query instead of every kept median
    (seconds at the full demo). `stamps` says what it was read at (the newest statistics,
    noise and specifications, and how it was read); when they are not the data's, answers use
    it while the statistics are read again behind them, and the read is written back here.
    Derived only: deleting it costs the next first question the read.
    """

    # The single row's key: the matrix is the database's, not a question's.
    SOLE = 1

    stamps = models.CharField(max_length=200)
    arrays = models.BinaryField()
    kept_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"workload matrix read at {self.stamps}"

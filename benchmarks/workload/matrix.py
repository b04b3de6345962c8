"""The workload model's benchmark matrix as it is stored: plain arrays to bytes and back.

Pure: no ORM. What selectors/workload_vectors.py reads from the kept statistics (a million
medians, seconds to hand over) is kept in one row (models.WorkloadMatrix) as these arrays, so
that a process's first question reads one value instead of every median. Sparse: only the
figures there are (a type has about a third of the columns), each as (type row, column, log).
NumPy's own format without pickles: reading the row runs no code from the database.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, fields

import numpy as np


@dataclass(frozen=True)
class Matrix:
    """Benchmark figures over types, as read from the kept statistics (no vCPU column)."""

    type_ids: np.ndarray  # int64, ascending: the rows
    # Per column (benchmark and parameter set), ordered by benchmark key then parameter key.
    benchmark_ids: np.ndarray  # int64
    benchmark_keys: np.ndarray  # str
    tools: np.ndarray  # str
    params_keys: np.ndarray  # str
    higher_is_better: np.ndarray  # bool
    reaches: np.ndarray  # float64: its 90% repeat reach (ratio - 1)
    # Per figure: its row, its column, and its log (turned so that higher is better).
    entry_rows: np.ndarray  # int32
    entry_columns: np.ndarray  # int32
    entry_logs: np.ndarray  # float64

    def logs(self, extra_columns: int = 0) -> np.ndarray:
        """The dense types x columns logs (NaN: no figure), with `extra_columns` more (NaN)
        on the right, for the caller to fill."""
        dense = np.full((len(self.type_ids), len(self.benchmark_ids) + extra_columns), np.nan)
        dense[self.entry_rows, self.entry_columns] = self.entry_logs
        return dense

    def pack(self) -> bytes:
        """The arrays in NumPy's .npz format (uncompressed: logs hardly compress, and the
        read is what is timed)."""
        out = io.BytesIO()
        np.savez(out, **{field.name: getattr(self, field.name) for field in fields(self)})
        return out.getvalue()

    @classmethod
    def unpack(cls, data: bytes) -> Matrix:
        """The arrays `pack` wrote; ValueError when they are not (an older format)."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as stored:
                return cls(**{field.name: stored[field.name] for field in fields(cls)})
        except (KeyError, OSError, EOFError, ValueError, zipfile.BadZipFile) as error:
            raise ValueError(f"not a stored workload matrix: {error}") from error

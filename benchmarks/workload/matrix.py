"""The workload model's benchmark matrix as it is stored: plain arrays to bytes and back.

Pure: no ORM. What selectors/subjects/workload_vectors.py reads from the kept statistics (a million
medians, seconds to hand over) is kept in one row (models.WorkloadMatrix) as these arrays, so
that a process's first question reads one value instead of every median. Sparse: only the
figures there are (a type has about a third of the columns): one bit per (type, column) saying
whether it has a figure, and the figures' logs in that order (row by row), 15 MB on the full
demo instead of the dense matrix's 90. NumPy's own format without pickles: reading the row
runs no code from the database.
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
    # Which (type, column) has a figure: a bit each, row by row (np.packbits).
    present: np.ndarray  # uint8
    # The figures' logs (turned so that higher is better), in the order of their bits.
    figure_logs: np.ndarray  # float64

    @classmethod
    def of_figures(cls, rows: np.ndarray, columns: np.ndarray, logs: np.ndarray, **described):
        """The matrix of figures given as (row, column, log), in any order (each pair once),
        and `described`: every field but `present` and `figure_logs`."""
        width = len(described["benchmark_ids"])
        flat = np.asarray(rows, np.int64) * width + np.asarray(columns, np.int64)
        order = np.argsort(flat, kind="stable")
        mask = np.zeros(len(described["type_ids"]) * width, bool)
        mask[flat] = True
        return cls(**described, present=np.packbits(mask), figure_logs=np.asarray(logs)[order])

    def logs(self, extra_columns: int = 0) -> np.ndarray:
        """The dense types x columns logs (NaN: no figure), with `extra_columns` more (NaN)
        on the right, for the caller to fill."""
        shape = (len(self.type_ids), len(self.benchmark_ids))
        mask = np.unpackbits(self.present, count=shape[0] * shape[1]).view(bool).reshape(shape)
        dense = np.full((shape[0], shape[1] + extra_columns), np.nan)
        dense[:, : shape[1]][mask] = self.figure_logs
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

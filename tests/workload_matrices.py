"""Small benchmark matrices for the workload model's tests: `Vectors` from logs alone."""

import numpy as np

from benchmarks.workload import model


def vectors(logs, *, reaches=None, groups=None) -> model.Vectors:
    """`logs` (types x columns) as the model reads them: each column's noise reach 1% unless
    `reaches` says, and each its own benchmark unless `groups` names them."""
    logs = np.asarray(logs, float)
    count = logs.shape[1]
    return model.Vectors(
        types=list(range(logs.shape[0])),
        columns=list(range(count)),
        logs=logs,
        reaches=np.asarray(reaches if reaches is not None else [0.01] * count, float),
        groups=None if groups is None else np.asarray(groups),
    )

"""The workload matrix's stored form (benchmarks/workload/matrix.py): arrays to bytes and back."""

import numpy as np
import pytest

from benchmarks.workload.matrix import Matrix


def _matrix() -> Matrix:
    # Three figures, given out of order: (row 2, column 0), (row 0, column 0), (row 1, column 2).
    return Matrix.of_figures(
        np.array([2, 0, 1]),
        np.array([0, 0, 2]),
        np.array([-0.25, 1.5, 0.1 + 0.2]),
        type_ids=np.array([3, 7, 9], np.int64),
        benchmark_ids=np.array([1, 1, 2], np.int64),
        benchmark_keys=np.array(["a:x", "a:x", "b:y"]),
        tools=np.array(["a", "a", "b"]),
        params_keys=np.array(['{"threads": 1}', '{"threads": 2}', ""]),
        higher_is_better=np.array([True, True, False]),
        reaches=np.array([0.01, 0.02, 0.05]),
    )


def test_it_packs_and_unpacks_every_array_exactly():
    matrix = _matrix()
    back = Matrix.unpack(matrix.pack())
    for name in matrix.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(back, name), getattr(matrix, name))
        assert getattr(back, name).dtype == getattr(matrix, name).dtype
    assert back.figure_logs.tolist() == [1.5, 0.1 + 0.2, -0.25]  # row by row, not rounded
    assert back.present.nbytes == 2  # a bit per (type, column): 9 bits


def test_its_logs_are_dense_with_nan_where_no_figure_and_room_on_the_right():
    logs = _matrix().logs(extra_columns=1)
    assert logs.shape == (3, 4)
    assert logs[0, 0] == 1.5 and logs[2, 0] == -0.25 and logs[1, 2] == 0.1 + 0.2
    assert np.isnan(logs[:, 3]).all()
    assert np.isnan(logs).sum() == 12 - 3


def test_bytes_that_are_not_a_packed_matrix_are_a_value_error():
    with pytest.raises(ValueError, match="not a stored workload matrix"):
        Matrix.unpack(b"not arrays")
    with pytest.raises(ValueError):
        Matrix.unpack(_matrix().pack()[:100])

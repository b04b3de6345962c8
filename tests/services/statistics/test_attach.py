"""Results find their series: one per benchmark, machine, variant and parameter set, created
once."""

import pytest

from benchmarks.models import Benchmark, InstanceType, Result, Run, Series
from benchmarks.services import statistics


def test_a_parameter_set_has_one_key_whatever_the_order_of_its_names():
    assert statistics.params_key({"processes": 4, "block_size": 16}) == statistics.params_key(
        {"block_size": 16, "processes": 4}
    )
    assert statistics.params_key({"op": "sign"}) != statistics.params_key({"op": "verify"})


def test_values_equal_in_python_but_not_in_json_keep_their_own_keys():
    # The keys are remembered across calls under each value and its type.
    keys = [statistics.params_key({"n": value}) for value in (1, 1.0, True, "1", 1, True)]
    assert keys == ['{"n":1}', '{"n":1.0}', '{"n":true}', '{"n":"1"}', '{"n":1}', '{"n":true}']
    assert statistics.params_key({"sizes": [1, 2], "op": "x"}) == '{"op":"x","sizes":[1,2]}'
    assert statistics.params_key({"é": "ü"}) == '{"é":"ü"}'


@pytest.mark.django_db
def test_results_get_their_series_and_only_the_missing_ones_are_created():
    machine = InstanceType.objects.create(name="c7g.large")
    benchmark = Benchmark.objects.create(key="tool:x", unit="op/s")
    run = Run.objects.create(instance_type=machine, status=Run.Status.DONE)

    def results(*block_sizes: int) -> list[Result]:
        return [
            Result(run=run, benchmark=benchmark, params={"block_size": size}, value=1.0)
            for size in block_sizes
        ]

    first = results(16, 16, 8192)
    created = statistics.attach_series(first)
    assert Series.objects.count() == 2 and len(created) == 2
    assert first[0].series_id == first[1].series_id != first[2].series_id
    assert created == {first[0].series_id, first[2].series_id}

    again = results(8192, 64)
    created_again = statistics.attach_series(again)
    assert again[0].series_id == first[2].series_id
    assert created_again == {again[1].series_id}
    assert Series.objects.count() == 3


@pytest.mark.django_db
def test_another_variant_is_another_series():
    machine = InstanceType.objects.create(name="c7g.large")
    benchmark = Benchmark.objects.create(key="tool:x", unit="op/s")
    plain = Run.objects.create(instance_type=machine, status=Run.Status.DONE)
    tuned = Run.objects.create(instance_type=machine, variant="accp", status=Run.Status.DONE)
    pair = [Result(run=run, benchmark=benchmark, params={}, value=1.0) for run in (plain, tuned)]
    statistics.attach_series(pair)
    assert pair[0].series_id != pair[1].series_id
    assert set(Series.objects.values_list("variant", flat=True)) == {"", "accp"}

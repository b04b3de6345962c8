"""Compare: chosen types side by side on every benchmark they share, as percentages of the
baseline's figures and per dollar, in a fixed number of queries."""

import pytest

from benchmarks import units
from benchmarks.errors import DomainError
from benchmarks.questions.compare import CompareQuery
from benchmarks.selectors.compare_types.compare import compare_types
from tests.api.test_price_performance_at_scale import fleet

pytestmark = pytest.mark.django_db

S2_TYPES = ("c7g.xlarge", "c7a.xlarge", "c7i.xlarge")


@pytest.mark.usefixtures("demo_rolled_back")
class TestOnTheDemo:
    def test_the_baselines_own_figures_are_all_one_hundred_percent(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7a.xlarge"))
        assert [column.name for column in comparison.columns] == list(S2_TYPES)
        assert comparison.baseline.name == "c7a.xlarge"
        assert comparison.benchmarks
        for group in comparison.benchmarks:
            base = group.main.cells[1]
            if base is not None and base.per_dollar is not None:
                assert base.relative_throughput == 1.0
                assert base.relative_per_dollar == 1.0

    def test_every_shared_benchmark_has_a_percentage_and_a_per_dollar_figure(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7a.xlarge"))
        shared = [group.main for group in comparison.benchmarks if group.main.shared_by_all]
        assert len(shared) > 50
        assert {"openssl:aes-256-cbc", "passmark:cpu-mark"} <= {line.benchmark for line in shared}
        for line in shared:
            for cell in line.cells:
                assert cell.relative_throughput is not None
                if line.reading.per_dollar is not None:
                    assert cell.per_dollar is not None and cell.relative_per_dollar is not None

    def test_the_best_latency_is_the_lowest_and_a_dollar_buys_none_of_it(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7a.xlarge"))
        lines = {group.benchmark: group.main for group in comparison.benchmarks}
        for key in ("redis:set-latency", "static_web:http-latency"):
            line = lines[key]
            medians = [cell.median for cell in line.cells]
            assert line.best_index == medians.index(min(medians)), key
            assert line.best_by == "best latency (lower is better)"
            assert line.best_per_dollar is None
            assert {(cell.per_dollar, cell.relative_per_dollar) for cell in line.cells} == {
                (None, None)
            }

    def test_a_compression_ratio_has_no_per_dollar_and_a_tie_no_best_mark(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7a.xlarge"))
        [line] = [g.main for g in comparison.benchmarks if g.benchmark == "compression:gzip-ratio"]
        # The same input compresses to the same size on every type.
        assert len({cell.median for cell in line.cells}) == 1
        assert line.best_index is None
        assert all(cell.per_dollar is None and cell.relative_per_dollar is None
                   for cell in line.cells)  # fmt: skip
        throughput = [group.main for group in comparison.benchmarks
                      if group.benchmark == "openssl:aes-256-cbc"][0]  # fmt: skip
        per_dollar = [cell.per_dollar for cell in throughput.cells]
        assert throughput.best_index == per_dollar.index(max(per_dollar))
        assert throughput.best_by == "most per dollar"

    def test_study_s2s_keycloak_runs_keep_each_variant_on_its_own_line(self):
        comparison = compare_types(
            CompareQuery(types=S2_TYPES, baseline="c7a.xlarge", region="ap-northeast-1")
        )
        keycloak = {
            group.variant: group.main
            for group in comparison.benchmarks
            if group.benchmark == "keycloak:oauth2-login"
        }
        assert set(keycloak) == {"base", "accp"}
        base = keycloak["base"]
        # Study S2: c7a is faster than c7g, c7g buys more per dollar; the demo keeps no
        # figure of c7i (the study published none), so it is listed as not measured.
        c7g, c7a, c7i = base.cells
        assert c7a.relative_throughput == 1.0 > c7g.relative_throughput
        assert c7g.per_dollar > c7a.per_dollar and c7g.relative_per_dollar > 1
        assert c7i is None and not base.shared_by_all
        assert base.best_per_dollar == "c7g.xlarge"

    def test_the_answer_names_the_leader_and_each_type_against_the_baseline(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7a.xlarge"))
        assert comparison.summary.startswith("On the ")
        assert "all 3 types share" in comparison.summary
        assert "against c7a.xlarge" in comparison.summary
        assert "c7g.xlarge" in comparison.summary and "c7i.xlarge" in comparison.summary

    def test_prices_are_shown_for_on_demand_and_spot(self):
        comparison = compare_types(CompareQuery(types=S2_TYPES, baseline="c7g.xlarge"))
        assert comparison.price_options[0] == "on_demand"
        assert all(column.usd_per_hour for column in comparison.columns)

    def test_an_unknown_type_is_refused_with_the_closest_names(self):
        with pytest.raises(DomainError, match="did you mean c7g.xlarge") as refused:
            compare_types(CompareQuery(types=("c7g.xlarg", "c7a.xlarge"), baseline="c7a.xlarge"))
        assert refused.value.field == "types"

    def test_types_that_share_nothing_say_so(self):
        comparison = compare_types(
            CompareQuery(types=("fargate-16vcpu-120gb", "c7a.xlarge"), baseline="c7a.xlarge")
        )
        assert comparison.benchmarks == []
        assert "share no benchmark yet" in comparison.summary


@pytest.mark.parametrize("count", [10, 1000])
def test_it_reads_in_a_fixed_number_of_queries(count, django_assert_max_num_queries):
    names = fleet(count)
    with django_assert_max_num_queries(8):
        comparison = compare_types(CompareQuery(types=tuple(names[:8]), baseline=names[0]))
    [group] = comparison.benchmarks
    assert group.main.shared_by_all and len(group.main.cells) == 8


def test_a_line_marks_no_best_where_the_lead_is_inside_the_noise():
    from benchmarks.noise import Noise
    from benchmarks.selectors.compare_types.compare import _best
    from benchmarks.selectors.compare_types.compare_lines import Cell

    reading = units.reading("openssl:aes-256-cbc", "B/s", True)
    cells = [
        Cell(median=100.0, runs=1, per_dollar=102.0),
        Cell(median=100.0, runs=1, per_dollar=100.0),
        Cell(median=90.0, runs=1, per_dollar=90.0),
    ]
    # A 2% lead within a 2.8% margin: no best, both striped; the third is clearly behind.
    assert _best(cells, reading, Noise(0.01, 10, "")) == (None, True, [0, 1])
    assert _best(cells, reading, Noise(0.001, 10, "")) == (0, True, [])
    assert _best(cells, reading, None) == (0, True, [])
    latency = units.reading("redis:set-latency", "s", False)
    timed = [
        Cell(median=0.001, runs=1, per_dollar=None),
        Cell(median=0.00102, runs=1, per_dollar=None),
    ]
    assert _best(timed, latency, Noise(0.01, 10, "")) == (None, False, [0, 1])
    assert _best(timed, latency, Noise(0.001, 10, "")) == (0, False, [])

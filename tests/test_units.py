"""Units people read: every benchmark unit of docs/benchmarks.md, formatted in one place."""

import re

import pytest

from benchmarks import units


@pytest.mark.parametrize(
    ("value", "small", "expected"),
    [
        (3150184080.0, False, ("3.15", "G")),
        (999.7e3, False, ("1", "M")),  # rounding reaches the next prefix
        (999.4, False, ("999", "")),
        (1.125, False, ("1.13", "")),  # ties away from zero, as JavaScript's toFixed
        (0.00004346, True, ("43.5", "µ")),
        (0.9996, True, ("1", "")),
        (0.019, False, ("0.019", "")),
        (-5e9, False, ("-5", "G")),
        (0, False, ("0", "")),
    ],
)
def test_significant_gives_three_digits_and_a_prefix(value, small, expected):
    assert units.significant(value, small=small) == expected


def read(key, unit, higher_is_better=True):
    return units.reading(key, unit, higher_is_better)


def test_bytes_per_second_read_as_bytes_per_dollar():
    reading = read("openssl:aes-256-cbc", "B/s")
    assert reading.value.format(3150184080.0) == "3.15 GB/s"
    assert reading.per_dollar.format(5.97e14) == "597 TB per dollar"
    assert reading.per_dollar_name == "Data processed per dollar"


def test_bits_per_second_read_as_gbit_per_second_per_dollar_hour():
    reading = read("iperf3:tcp", "bit/s")
    # 9.4 Gbit/s for 0.2 USD/h: the API's per_dollar is 9.4e9 * 3600 / 0.2.
    assert reading.per_dollar.format(9.4e9 * 3600 / 0.2) == "47 Gbit/s per dollar-hour"


def test_requests_read_per_dollar_like_every_other_figure_and_cost_per_million():
    reading = read("static_web:http", "req/s")
    per_dollar = 45707 * 3600 / 0.05
    assert reading.value.format(45707) == "45.7 k req/s"
    # Per dollar, as the columns, the percentages and the charts around it say.
    assert reading.per_dollar.format(per_dollar) == "3.29 G requests per dollar"
    assert reading.per_dollar_name == "Requests per dollar"
    assert reading.cost(per_dollar) == pytest.approx(1e6 * 0.05 / (45707 * 3600))
    assert reading.cost_per == (1e6, "1 M requests")


def test_tokens_operations_and_other_rates_read_per_dollar():
    assert read("llama-bench:generate", "token/s").per_dollar.format(88_560) == (
        "88.6 k tokens per dollar"
    )
    assert read("stress-ng:cpu", "bogo-op/s").per_dollar.format(2.22e9) == (
        "2.22 G bogo operations per dollar"
    )
    assert read("user:thing", "widget/s").per_dollar_name == "Widgets per dollar"


def test_scores_and_sizes_read_per_dollar_hour():
    geekbench = read("geekbench:single-core", "score")
    assert geekbench.value.format(1834) == "1.83 k"
    assert geekbench.per_dollar.format(1834 * 3600 / 0.2) == "9.17 k per dollar-hour"
    keycloak = read("keycloak:oauth2-login", "relative throughput")
    assert keycloak.value.format(97) == "97"
    assert read("passmark:me-large", "B").per_dollar.format(8e9 * 3600 / 0.2) == (
        "40 GB per dollar-hour"
    )


def test_a_latency_is_shown_as_what_it_is_and_not_per_dollar():
    for key, unit in [
        ("redis:set-latency", "s"),
        ("wrk:http:latency_p99", "ms"),
        ("iperf3:udp:jitter", "ms"),
        ("sysbench:oltp_read_write:latency_p95", "ms"),
        ("compression:gzip-ratio", "%"),
    ]:
        reading = read(key, unit, False)
        assert reading.per_dollar is None, key
        assert reading.direction == "lower is better"
    assert read("redis:set-latency", "s", False).value.format(0.00004346) == "43.5 µs"
    assert read("wrk:http:latency_p99", "ms", False).value.format(12.5) == "12.5 ms"
    assert read("compression:gzip-ratio", "%", False).value.format(37.12) == "37.1 %"


def test_a_job_timed_in_seconds_reads_as_jobs_per_dollar():
    reading = read("spark:oauth2-job", "s", False)
    per_dollar = 3600 / (123.4 * 0.2)
    assert reading.per_dollar.format(per_dollar) == "146 jobs per dollar"
    assert reading.cost(per_dollar) == pytest.approx(123.4 * 0.2 / 3600)


def test_every_unit_of_docs_benchmarks_md_has_a_reading():
    for unit in ["B/s", "op/s", "req/s", "token/s", "bogo-op/s", "score", "%", "s", "ms",
                 "bit/s", "tx/s", "query/s", "event/s", "prime/s", "string/s", "frame/s",
                 "matrix/s", "B", "percent"]:  # fmt: skip
        for higher in (True, False):
            reading = units.reading("tool:test", unit, higher)
            assert reading.value.format(1234.5), unit
            assert "×" not in reading.value_name and "hours per USD" not in reading.explanation


# Every unit the full demo stores (the four Spare Cores files, the studies, the parsers).
DEMO_UNITS = [
    ("%", False), ("B", True), ("B/s", True), ("bogo-op/s", True), ("frame/s", True),
    ("matrix/s", True), ("ms", False), ("op/s", True), ("prime/s", True), ("req/s", True),
    ("requests/s", True), ("s", False), ("s/s", True), ("score", True), ("string/s", True),
    ("token/s", True), ("tokens/s", True), ("bit/s", True), ("relative throughput", True),
    ("tx/s", True), ("query/s", True), ("event/s", True),
]  # fmt: skip


@pytest.mark.parametrize(("unit", "higher_is_better"), DEMO_UNITS)
def test_every_demo_unit_reads_as_words_with_one_plural(unit, higher_is_better):
    reading = read("tool:test", unit, higher_is_better)
    shown = [reading.value_name, reading.value.format(2.23e6)]
    if reading.per_dollar is not None:
        shown += [reading.per_dollar_name, reading.per_dollar.format(2.23e6), reading.explanation]
    for text in shown:
        # "tokenss", "ss per dollar": a plural made of a unit written in the plural already.
        assert not re.search(r"[a-z]ss\b|\bss\b", text), (unit, text)


def test_plural_units_read_as_their_singular_spelling():
    assert read("vllm:output-throughput", "tokens/s").per_dollar.format(2.23e6) == (
        "2.23 M tokens per dollar"
    )
    assert read("vllm:output-throughput", "tokens/s").cost_per == (1e6, "1 M tokens")
    assert read("vllm:request-throughput", "requests/s").per_dollar_name == "Requests per dollar"
    assert read("ffmpeg:aac_128k", "s/s").per_dollar.format(401e3) == (
        "401 k seconds of audio per dollar"
    )
    assert read("user:thing", "widgets/s").per_dollar.format(5) == "5 widgets per dollar"

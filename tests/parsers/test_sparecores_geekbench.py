"""The geekbench parser against Spare Cores' Geekbench 6 results.json files."""

import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, geekbench

FORMAT = "geekbench"
WORKLOADS = {
    "geekbench:asset-compression",
    "geekbench:background-blur",
    "geekbench:clang",
    "geekbench:file-compression",
    "geekbench:hdr",
    "geekbench:horizon-detection",
    "geekbench:html5-browser",
    "geekbench:navigation",
    "geekbench:object-detection",
    "geekbench:object-remover",
    "geekbench:pdf-renderer",
    "geekbench:photo-filter",
    "geekbench:photo-library",
    "geekbench:ray-tracer",
    "geekbench:structure-from-motion",
    "geekbench:text-processing",
}


def find(output, benchmark, **params):
    (found,) = [r for r in output.results if r.benchmark == benchmark and r.params == params]
    return found


def test_it_reads_the_overall_scores_and_every_workload_of_a_graviton3(inspector):
    # Single-Core Score 1437, HTML5 Browser 1685 "34.5 pages/sec"; Multi-Core Score 2580,
    # Ray Tracer 2332 "2.26 Mpixels/sec"
    output = geekbench.parse(inspector.text("c7g.large", "geekbench", "results.json"))

    assert output.format == "geekbench"
    assert output.warnings == []
    assert len(output.results) == 34
    single = find(output, "geekbench:single-core")
    assert (single.value, single.unit, single.higher_is_better) == (1437, "score", True)
    assert find(output, "geekbench:multi-core").value == 2580
    browser = find(output, "geekbench:html5-browser", cores="single")
    assert (browser.value, browser.notes) == (1685, "34.5 pages/sec")
    ray_tracer = find(output, "geekbench:ray-tracer", cores="multi")
    assert (ray_tracer.value, ray_tracer.notes) == (2332, "2.26 Mpixels/sec")
    assert {r.benchmark for r in output.results} == WORKLOADS | {
        "geekbench:single-core",
        "geekbench:multi-core",
    }


def test_it_reads_an_intel_machine(inspector):
    # m5.large: Single-Core 1023, Multi-Core 1212, Structure from Motion (multi) 1374
    output = geekbench.parse(inspector.text("m5.large", "geekbench", "results.json"))

    assert find(output, "geekbench:single-core").value == 1023
    assert find(output, "geekbench:multi-core").value == 1212
    motion = find(output, "geekbench:structure-from-motion", cores="multi")
    assert (motion.value, motion.notes) == (1374, "43.5 Kpixels/sec")


def test_every_results_json_in_the_archive_is_detected_and_read(inspector):
    for instance_type, text in inspector.texts("geekbench", "results.json"):
        assert parsers.detect_format(text) == "geekbench", instance_type
        output = parsers.parse(text, format=FORMAT)
        assert len(output.results) == 34, instance_type
        assert output.warnings == [], instance_type


def test_folders_that_ran_without_results_hold_only_their_meta_json(inspector):
    # The README: 9 geekbench folders have exit_code 0 but no results.json.
    empty = [
        name
        for name in inspector.instance_types("geekbench", "meta.json")
        if not inspector.has(name, "geekbench", "results.json")
        and json.loads(inspector.text(name, "geekbench", "meta.json"))["exit_code"] == 0
    ]

    assert empty == [
        "c8g.medium",
        "c8gb.medium",
        "c8gd.medium",
        "c8gn.medium",
        "t2.nano",
        "t3.nano",
        "t3.small",
        "t3a.small",
        "t4g.micro",
    ]
    meta = inspector.text("t2.nano", "geekbench", "meta.json")
    assert not geekbench.looks_like(meta)
    with pytest.raises(ParseError) as error:
        geekbench.parse(meta)
    assert error.value.line == 1
    assert "no Geekbench section" in error.value.message


def test_a_score_that_is_not_a_number_is_refused_with_its_line(inspector):
    text = inspector.text("c7g.large", "geekbench", "results.json")
    garbled = text.replace('"score": 1685', '"score": "1685"')

    with pytest.raises(ParseError) as error:
        geekbench.parse(garbled)

    assert error.value.line == 15
    assert error.value.message == (
        "Single-Core Performance, HTML5 Browser: the score is not a number: '1685'"
    )


def test_a_section_without_its_overall_score_is_refused_with_its_line(inspector):
    document = json.loads(inspector.text("m5.large", "geekbench", "results.json"))
    del document["Multi-Core Performance"]["Score"]
    text = json.dumps(document, indent=2)

    with pytest.raises(ParseError) as error:
        geekbench.parse(text)

    assert error.value.line == text.split("\n").index('  "Multi-Core Performance": {') + 1
    assert error.value.message == "Multi-Core Performance: no overall Score"

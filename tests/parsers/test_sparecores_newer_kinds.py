"""The parsers of Spare Cores' newer kinds (more/aws.tar.xz), against their real files."""

import json

import pytest

from benchmarks import inspector as inspector_module
from benchmarks import parsers
from benchmarks.parsers import (
    ParseError,
    ffmpeg,
    membench,
    nvbandwidth,
    stressng_longrun,
    stressngfull,
    vllm,
)


def by_key(output):
    return {(r.benchmark, tuple(sorted(r.params.items()))): r for r in output.results}


# ---- stressngfull ---------------------------------------------------------------------------


def test_stressngfull_gives_the_stressng_folders_key_at_every_worker_count(newer_kinds):
    # c7g.xlarge: 1,1532.58 / 2,3065.67 / 3,4595.49 / 4,6111.85
    output = parsers.parse(
        newer_kinds.data("c7g.xlarge", "stressngfull"), format="stressngfull", cpu_method="div16"
    )

    assert [(r.params, r.value) for r in output.results] == [
        ({"method": "div16", "workers": 1}, 1532.58),
        ({"method": "div16", "workers": 2}, 3065.67),
        ({"method": "div16", "workers": 3}, 4595.49),
        ({"method": "div16", "workers": 4}, 6111.85),
    ]
    assert {(r.benchmark, r.unit, r.higher_is_better) for r in output.results} == {
        ("stress-ng:cpu", "bogo-op/s", True)
    }
    assert output.warnings == []


def test_stressngfull_refuses_a_worker_count_twice_and_a_line_not_its_own():
    with pytest.raises(ParseError, match="line 2: 1 workers measured twice"):
        stressngfull.parse("1,10.5\n1,11.0\n", cpu_method="div16")
    with pytest.raises(ParseError, match="line 2: not a `workers,bogo_ops_per_second` line"):
        stressngfull.parse("1,10.5\nstress-ng: fail\n", cpu_method="div16")


def test_every_stressngfull_file_is_detected_and_read(newer_kinds):
    texts = list(newer_kinds.texts("stressngfull"))
    assert len(texts) > 1000
    for name, text in texts:
        assert parsers.detect_format(text) == "stressngfull", name
        assert stressngfull.parse(text, cpu_method="div16").results, name


# ---- membench -------------------------------------------------------------------------------


def test_membench_bandwidth_is_in_bytes_per_second_of_mebibytes(newer_kinds):
    # c4.xlarge: 16,read,158006.49,0,0,0,4,215517,0.085248; sc-membench's MB is 2^20 bytes
    output = parsers.parse(newer_kinds.data("c4.xlarge", "membench"), format="membench")
    results = by_key(output)

    read = results[("membench:read", (("size_kb", 16), ("threads", 4)))]
    assert read.value == pytest.approx(158006.49 * 1048576)
    assert (read.unit, read.higher_is_better) == ("B/s", True)
    assert {r.benchmark for r in output.results} == {
        "membench:read",
        "membench:write",
        "membench:copy",
        "membench:latency",
    }


def test_membench_latency_is_in_seconds_lower_is_better_with_one_thread(newer_kinds):
    # c4.xlarge: 16,latency,0,1.29,0.07,21,1,21,0.280899
    output = membench.parse(newer_kinds.text("c4.xlarge", "membench"))
    latency = by_key(output)[("membench:latency", (("size_kb", 16),))]

    assert latency.value == pytest.approx(1.29e-9)
    assert (latency.unit, latency.higher_is_better) == ("s", False)
    assert latency.notes == "median of 21 samples, standard deviation 0.07 ns"


def test_membench_keeps_the_threads_each_size_ran_with(newer_kinds):
    # i7ie.48xlarge (192 vCPUs, the older header without latency_stddev_ns): its largest
    # buffers ran on 96 threads
    output = membench.parse(newer_kinds.text("i7ie.48xlarge", "membench"))
    threads = {r.params["threads"] for r in output.results if r.benchmark != "membench:latency"}

    assert threads == {96, 192}
    assert all(r.notes is None for r in output.results)


def test_membench_refuses_an_unknown_operation():
    text = "size_kb,operation,bandwidth_mb_s,latency_ns,threads,iterations,elapsed_s\n"
    with pytest.raises(ParseError, match="line 2: operation 'fill'"):
        membench.parse(text + "16,fill,100.0,0,1,1,0.1\n")


# ---- vllm -----------------------------------------------------------------------------------


def test_vllm_stores_each_line_in_the_agreed_shape(newer_kinds):
    # g5.16xlarge (one A10G), llama-8b chat, the synchronous load: p95 TTFT 137.59 ms, 29.67
    # output tokens/s
    text = newer_kinds.text("g5.16xlarge", "vllm")
    output = vllm.parse(text)
    load = {"model": "llama-8b", "workload": "chat", "mode": "gpu", "strategy": "synchronous"}
    load["concurrency"] = 1.0
    results = by_key(output)

    ttft = results[("vllm:ttft", tuple(sorted({**load, "percentile": "p95"}.items())))]
    tokens = results[("vllm:output-throughput", tuple(sorted(load.items())))]
    assert (ttft.value, ttft.unit, ttft.higher_is_better) == (137.5868320465088, "ms", False)
    assert (tokens.value, tokens.unit, tokens.higher_is_better) == (
        29.667066857608635,
        "tokens/s",
        True,
    )
    assert len(output.results) == sum(1 for line in text.splitlines() if line.strip())
    assert {r.benchmark for r in output.results} == {
        "vllm:ttft",
        "vllm:tpot",
        "vllm:itl",
        "vllm:e2el",
        "vllm:output-throughput",
        "vllm:total-throughput",
        "vllm:request-throughput",
    }
    assert {r.unit for r in output.results if r.benchmark == "vllm:request-throughput"} == {
        "requests/s"
    }
    assert output.tool_version == "vllm=0.27.1 guidellm=0.7.3"


def test_vllm_refuses_a_measurement_it_does_not_know(newer_kinds):
    line = json.loads(newer_kinds.text("c4.xlarge", "vllm").splitlines()[0])
    line["measurement"] = "goodput"
    with pytest.raises(ParseError, match="line 1: measurement 'goodput'"):
        vllm.parse(json.dumps(line))


def test_every_vllm_file_is_detected_and_read(newer_kinds):
    for name, text in newer_kinds.texts("vllm"):
        assert parsers.detect_format(text) == "vllm", name
        assert vllm.parse(text).results, name


# ---- nvbandwidth, ffmpeg, stressnglongrun ----------------------------------------------------


def test_nvbandwidth_stores_each_passed_copy_in_bytes_per_second(newer_kinds):
    # g5.8xlarge (one A10G): host_to_device_memcpy_ce sum 13.465873535 GB/s; latency 921.441 ns
    output = parsers.parse(newer_kinds.data("g5.8xlarge", "nvbandwidth"), format="nvbandwidth")
    results = by_key(output)

    copy = results[("nvbandwidth:host_to_device_memcpy_ce", ())]
    assert copy.value == pytest.approx(13.465873535e9)
    assert copy.unit == "B/s"
    latency = results[("nvbandwidth:host_device_latency_sm", ())]
    assert latency.value == pytest.approx(921.441e-9)
    assert (latency.unit, latency.higher_is_better) == ("s", False)
    # Waived testcases (device to device on one GPU) are not figures
    assert ("nvbandwidth:device_to_device_memcpy_read_ce", ()) not in results
    assert output.tool_version == "v0.5"


def test_nvbandwidth_reads_past_the_driver_notices_and_refuses_a_run_with_no_gpu(newer_kinds):
    # g4dn.metal's output starts with two lines of notices
    assert nvbandwidth.parse(newer_kinds.text("g4dn.metal", "nvbandwidth")).results
    with pytest.raises(ParseError, match="nvbandwidth reports: .CUDA_ERROR_SYSTEM_NOT_READY"):
        nvbandwidth.parse(newer_kinds.text("p4d.24xlarge", "nvbandwidth"))


def test_ffmpeg_stores_frames_per_second_per_repetition_and_worker_count(newer_kinds):
    # c8i.4xlarge: cpu_h264_encode at 1 worker, first repetition 14.8577 fps; GPU scenarios
    # skipped (no CUDA GPU)
    output = parsers.parse(newer_kinds.data("c8i.4xlarge", "ffmpeg"), format="ffmpeg")
    encode = [r for r in output.results if r.benchmark == "ffmpeg:cpu_h264_encode"]

    assert encode[0].params == {"workers": 1}
    assert (encode[0].value, encode[0].unit) == (14.8577, "frame/s")
    assert not any(r.benchmark.startswith("ffmpeg:gpu_") for r in output.results)
    assert {r.unit for r in output.results if r.benchmark == "ffmpeg:opus_128k"} == {"s/s"}
    assert ffmpeg.looks_like(newer_kinds.text("c8i.4xlarge", "ffmpeg"))


def test_the_longrun_is_a_day_of_hourly_series_at_rising_load(newer_kinds):
    # t4g.medium: 1,440 minutes from 2024-07-09T12:02:12,5.000058,3005.565246
    text = newer_kinds.text("t4g.medium", "stressnglongrun", "parsed.csv")
    output = parsers.parse(text, format="stressnglongrun")

    assert len(output.results) == 1440
    first = output.results[0]
    assert (first.benchmark, first.params, first.value) == (
        "stress-ng:longrun",
        {"hour": 0, "cpu_load_percent": 5},
        3005.565246,
    )
    assert {r.params["hour"] for r in output.results} == set(range(24))
    assert max(r.params["cpu_load_percent"] for r in output.results) == 55
    with pytest.raises(ParseError, match="line 1"):
        stressng_longrun.parse("time,cpu_load_percent,bogo_ops_per_second\n")


def test_the_inspector_reads_the_newer_folders_with_their_result_files():
    newer = {"stressngfull", "membench", "vllm", "nvbandwidth", "ffmpeg", "stressnglongrun"}
    assert newer <= set(inspector_module.KINDS)
    assert inspector_module.KINDS["stressnglongrun"].files == ("parsed.csv",)
    assert inspector_module.KINDS["stressngfull"].cpu_method == "div16"

"""`manage.py import_sparecores`: Spare Cores' inspector data, read in place, stored once, its
figures answered by the API exactly as the raw files give them.

The suite imports a sample of ten types (tests/inspector_data.py) cut from the shared
archive; bench/import.py imports the whole archive and checks the rankings.
"""

import csv
import io
import json
import re
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count
from rest_framework.test import APIClient

from benchmarks import inspector
from benchmarks.models import Benchmark, InstanceType, Result, Run, SeriesStatistics
from benchmarks.services import prices as price_services
from tests import inspector_data
from tests.inspector_data import SAMPLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample_archive(tmp_path):
    return inspector_data.write_archive(
        tmp_path / "sample.tar.xz", inspector_data.files_of(SAMPLE), compression="xz"
    )


@pytest.fixture
def priced():
    """The bundled price snapshot: prices in us-east-1 for every sample type but three
    (hpc7a.12xlarge, and the m9g types, newer than the demo's specifications)."""
    price_services.import_snapshot()


def run_import(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_sparecores", *map(str, args), "--jobs", "1", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def figure(summary: str, pattern: str) -> int:
    """A number of the summary, e.g. figure(text, r"runs: ([\\d,]+) stored")."""
    match = re.search(pattern, summary)
    assert match, f"{pattern!r} not in:\n{summary}"
    return int(match[1].replace(",", ""))


def test_it_stores_every_run_once_and_its_summary_counts_the_files(sample_archive, priced):
    files = inspector_data.files_of(SAMPLE)
    expected = inspector_data.expected_outcome(files)
    runs = sum(counts["runs"] for kind, counts in expected.items() if kind != "lscpu")
    skipped = sum(counts["skipped"] for counts in expected.values())

    first, progress = run_import(sample_archive)

    assert Run.objects.count() == runs
    assert figure(first, r"runs: ([\d,]+) stored") == runs
    assert figure(first, r"lscpu read for ([\d,]+) types") == expected["lscpu"]["runs"]
    assert figure(first, r"skipped: ([\d,]+) folders") == skipped
    assert figure(first, r"results: ([\d,]+) stored") == Result.objects.count()
    assert figure(first, r"instance types: ([\d,]+) read") == len(SAMPLE)
    for kind, counts in expected.items():
        if kind != "lscpu":
            row = re.search(rf"^  {kind} +([\d,]+) +([\d,]+) +([\d,]+)$", first, re.MULTILINE)
            assert (int(row[1]), int(row[3])) == (counts["runs"], counts["skipped"]), kind
    # A bar per kind on stderr, each at its total.
    assert re.search(r"^redis +\[#+\] +10/10 +100%$", progress, re.MULTILINE), progress
    assert Run.objects.filter(status="failed").count() == 0

    counts = (Run.objects.count(), Result.objects.count(), SeriesStatistics.objects.count())
    second, _ = run_import(sample_archive)
    assert (Run.objects.count(), Result.objects.count(), SeriesStatistics.objects.count()) == counts
    assert figure(second, r"runs: ([\d,]+) stored, ([\d,]+) already present") == 0
    assert figure(second, r"stored, ([\d,]+) already present") == runs
    assert figure(second, r"([\d,]+) already imported") == len(SAMPLE) - 1  # x8i ran nothing
    assert figure(second, r"skipped: ([\d,]+) folders") == skipped


def test_each_skipped_folder_is_listed_with_its_reason(sample_archive):
    summary, _ = run_import(sample_archive)

    assert "aws/x8i.64xlarge/redis: exit_code -1 (creating EC2 Instance:" in summary
    assert "VcpuLimitExceeded" in summary
    assert "aws/t4g.micro/compression_text: exit_code -2 (Task doesn't need to run" in summary
    assert "aws/m9g.12xlarge/geekbench: exit_code -4 (Inspect ended before task completed)" in (
        summary
    )
    assert "aws/m9g.2xlarge/geekbench: exit_code null (the run never finished)" in summary
    assert "aws/c5.9xlarge/llm: exit_code 0 but no result file (llm/ holds no stdout)" in summary
    assert "aws/c8g.medium/geekbench: exit_code 0 but no result file" in summary
    # t4g.micro's stdout of an earlier compression run is not imported under the -2.
    assert not Run.objects.filter(filename__startswith="aws/t4g.micro/compression_text").exists()

    counted, _ = run_import(sample_archive)
    assert re.search(r"^ +\d+  exit_code -1$", counted, re.MULTILINE)


def test_a_run_keeps_its_date_version_cpu_source_and_no_region(sample_archive):
    run_import(sample_archive)

    run = Run.objects.get(filename="aws/c7g.large/redis/stdout")
    document = inspector_data.meta("c7g.large", "redis")
    assert run.measured_at.isoformat() == document["start"][:10]
    assert run.tool_version == document["version"]  # 95 characters, kept whole
    assert run.cpu_model == "Neoverse-V1"
    assert run.region is None
    assert run.source == "Spare Cores (sparecores.com), sc-inspector-data"
    assert run.licence == "CC BY-SA 4.0"
    assert run.status == "done"
    assert run.format == "redis"
    assert Run.objects.get(filename="aws/c7g.large/openssl/parsed.json").tool_version == "3.3.0"


def test_types_it_does_not_know_are_created_from_lscpu(sample_archive, priced):
    assert not InstanceType.objects.filter(name="hpc7a.12xlarge").exists()
    assert InstanceType.objects.get(name="g4dn.xlarge").vcpus is None  # a price brings no specs
    c7g_before = InstanceType.objects.filter(name="c7g.large").values().get()

    summary, _ = run_import(sample_archive)

    hpc = InstanceType.objects.get(name="hpc7a.12xlarge")
    assert (hpc.kind, hpc.vcpus, hpc.architecture) == ("ec2", 24, "x86_64")
    assert "lscpu" in hpc.source and "Spare Cores" in hpc.source
    # Its memory is what PassMark saw, its vCPUs dedicated: it is not a T type.
    assert (hpc.memory_gib, hpc.cpu_allocation, hpc.burstable) == (768, "dedicated", False)
    assert "PassMark" in hpc.source
    assert hpc.spec_sources["memory_gib"] == "sparecores_lscpu"
    m9g = InstanceType.objects.get(name="m9g.2xlarge")  # Graviton: no memory modules listed
    assert (m9g.vcpus, m9g.memory_gib, m9g.architecture) == (8, 32, "arm64")
    # hpc7a.12xlarge; the price snapshot knows the two m9g types already.
    assert figure(summary, r"([\d,]+) created") == 1
    # A known type's missing specifications are filled in; known ones are left alone.
    g4dn = InstanceType.objects.get(name="g4dn.xlarge")
    assert (g4dn.vcpus, g4dn.architecture, g4dn.physical_cores, g4dn.threads_per_core) == (
        4,
        "x86_64",
        2,
        2,
    )
    assert InstanceType.objects.filter(name="c7g.large").values().get() == c7g_before
    # x8i.64xlarge ran nothing: it gets no run, and no specification is made up for it.
    x8i = InstanceType.objects.get(name="x8i.64xlarge")  # known from the price snapshot
    assert not x8i.runs.exists() and x8i.vcpus is None


def test_a_checkout_a_folder_and_an_archive_import_the_same_runs(tmp_path):
    files = inspector_data.files_of(("c7g.large", "t2.micro"))
    checkout = inspector_data.write_folder(tmp_path / "sc-inspector-data", {
        f"data/{name}": content for name, content in files.items()
    })  # fmt: skip
    # What a checkout holds beyond the ten kinds: other folders and vendors, logs.
    (checkout / "data/aws/c7g.large/dmidecode").mkdir()
    (checkout / "data/aws/c7g.large/dmidecode/meta.json").write_text('{"exit_code": 0}')
    (checkout / "data/aws/c7g.large/redis/stderr").write_text("a log, not a result")
    (checkout / "data/gcp/e2-small/redis").mkdir(parents=True)
    (checkout / "data/gcp/e2-small/redis/stdout").write_bytes(files["aws/c7g.large/redis/stdout"])

    summary, _ = run_import(checkout)
    from_checkout = sorted(Run.objects.values_list("upload_key", "filename"))
    assert {filename.split("/")[2] for _, filename in from_checkout} == {"c7g.large", "t2.micro"}
    assert all(filename.startswith("data/aws/") for _, filename in from_checkout)
    assert "data/aws/c7g.large/dmidecode: benchmark folder 'dmidecode' is not one" in summary

    Run.objects.all().delete()
    folder = inspector_data.write_folder(tmp_path / "folder", files)
    run_import(folder)
    assert sorted(Run.objects.values_list("upload_key", flat=True)) == [
        key for key, _ in from_checkout
    ]

    # A .tar.gz of the checkout finds everything stored already.
    archive = inspector_data.write_archive(
        tmp_path / "checkout.tar.gz", files, prefix="sc-inspector-data-main/data/"
    )
    again, _ = run_import(archive)
    assert figure(again, r"([\d,]+) already imported") == 2


def test_an_interrupted_import_continues_where_it_stopped(tmp_path):
    first_types = ("c7g.large", "t2.micro")
    part = inspector_data.write_archive(
        tmp_path / "part.tar.gz", inspector_data.files_of(first_types)
    )
    run_import(part)
    stored = set(Run.objects.values_list("pk", flat=True))
    whole = inspector_data.write_archive(
        tmp_path / "whole.tar.gz", inspector_data.files_of(("c7g.large", "t2.micro", "t4g.micro"))
    )

    summary, _ = run_import(whole)

    assert figure(summary, r"([\d,]+) already imported") == 2
    assert set(Run.objects.values_list("pk", flat=True)) > stored
    assert set(
        Run.objects.exclude(pk__in=stored).values_list("instance_type__name", flat=True)
    ) == {"t4g.micro"}


def test_finished_types_are_found_in_one_query(tmp_path, django_assert_num_queries):
    from benchmarks.services import sparecores

    archive = inspector_data.write_archive(
        tmp_path / "s.tar.gz", inspector_data.files_of(("c7g.large", "t2.micro", "t4g.micro"))
    )
    run_import(archive)
    plans = [inspector.plan_machine(machine) for machine in inspector.read_source(archive)]
    with django_assert_num_queries(1):
        finished = sparecores.finished_machines(plans)
    assert finished == {"c7g.large", "t2.micro", "t4g.micro"}


def test_only_imports_the_kinds_named(tmp_path):
    archive = inspector_data.write_archive(
        tmp_path / "s.tar.gz", inspector_data.files_of(("c7g.large",))
    )
    run_import(archive, "--only", "redis,bw_mem")
    assert set(Run.objects.values_list("format", flat=True)) == {"redis", "bw_mem"}
    # lscpu is still read: bw_mem's processes are the type's vCPUs.
    params = Result.objects.filter(benchmark__key="bw_mem:rd").values_list("params", flat=True)
    assert {p["processes"] for p in params} == {2}

    with pytest.raises(CommandError, match="unknown kind reddis; choose among openssl, redis"):
        run_import(archive, "--only", "reddis")


def test_a_path_that_is_not_inspector_data_is_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        run_import(tmp_path / "missing.tar.xz")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CommandError, match="holds neither data/aws/ nor aws/"):
        run_import(tmp_path / "empty")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(CommandError, match="neither a folder nor a tar archive"):
        run_import(tmp_path / "notes.txt")
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(CommandError, match="not a readable tar archive"):
        run_import(broken)


def test_a_malformed_file_is_skipped_with_its_reason_and_nothing_half_written(tmp_path):
    files = inspector_data.files_of(("c7g.large",))
    redis = files["aws/c7g.large/redis/stdout"].decode().splitlines()
    # A cut line after two good rows: the parser refuses the file naming line 4.
    files["aws/c7g.large/redis/stdout"] = "\n".join([*redis[:3], '"SET",1,16']).encode()
    files["aws/c7g.large/bw_mem/meta.json"] = b'{"exit_code": 0, "start": '
    archive = inspector_data.write_archive(tmp_path / "broken.tar.gz", files)

    summary, _ = run_import(archive)

    assert re.search(
        r"aws/c7g.large/redis/stdout: the output could not be parsed \(line 4: .+\)", summary
    ), summary
    assert "aws/c7g.large/bw_mem/meta.json: meta.json unreadable" in summary
    failed = Run.objects.get(filename="aws/c7g.large/redis/stdout")
    assert failed.status == "failed" and "line 4" in failed.error
    assert not failed.results.exists()
    assert not Run.objects.filter(filename__contains="bw_mem").exists()
    assert not Benchmark.objects.filter(key__startswith="redis:").exists()
    # The type's eight other benchmark folders are stored whole.
    assert Run.objects.filter(status="done").count() == 8
    assert Run.objects.filter(status="done").aggregate(n=Count("results"))["n"] > 300
    # Stored as failed, it is not parsed again.
    again, _ = run_import(archive)
    assert figure(again, r"([\d,]+) already imported") == 1


# ---- the figures, as the API answers them ------------------------------------------------


@pytest.fixture
def imported(sample_archive, priced):
    run_import(sample_archive)
    return APIClient()


def api_results(client, filename: str) -> list[dict]:
    run = Run.objects.get(filename=filename)
    body = client.get(f"/api/v1/runs/{run.pk}/").json()
    assert body["region"] is None and body["instance_type"] == filename.split("/")[1]
    return body["results"]


def ranked(client, benchmark: str, **params) -> dict[str, dict]:
    query = {"benchmark": benchmark, "region": "us-east-1", **params}
    response = client.get("/api/v1/price-performance/", query)
    assert response.status_code == 200, response.json()
    return {row["instance_type"]: row for row in response.json()["results"]}


def test_redis_requests_and_latency_are_the_raw_figures_in_base_units(imported):
    rows = list(
        csv.DictReader(io.StringIO(inspector_data.data("c7g.large", "redis", "stdout").decode()))
    )
    results = api_results(imported, "aws/c7g.large/redis/stdout")
    for row in rows:
        params = {"threads": int(row["threads"]), "pipeline": int(row["pipeline"])}
        rps = next(r for r in results if r["benchmark"] == "redis:set" and r["params"] == params)
        latency = next(
            r for r in results if r["benchmark"] == "redis:set-latency" and r["params"] == params
        )
        assert (rps["value"], rps["unit"]) == (float(row["rps"]), "op/s")
        assert (latency["value"], latency["unit"]) == (float(row["latency"]) / 1000, "s")
    table = ranked(imported, "redis:set", threads=1, pipeline=16)
    assert table["c7g.large"]["median"] == 923936.0
    assert table["c7g.large"]["measured_in"] == [None]
    assert table["c7g.large"]["cpu_models"] == {"Neoverse-V1": 1}


def test_bw_mem_sizes_and_bandwidths_are_bytes(imported):
    lines = inspector_data.data("c7g.large", "bw_mem", "stdout").decode().split()
    op, size, bandwidth = lines[3:6]  # rd 0.262144 136654.77
    results = api_results(imported, "aws/c7g.large/bw_mem/stdout")
    expected_size = int(Decimal(size) * 10**6)
    found = next(
        r
        for r in results
        if r["benchmark"] == f"bw_mem:{op}" and r["params"]["size"] == expected_size
    )
    assert found["value"] == float(Decimal(bandwidth) * 10**6) == 136654770000.0
    assert found["params"] == {"size": 262144, "processes": 2}
    assert ranked(imported, "bw_mem:rd", size=262144)["c7g.large"]["median"] == 136654770000.0


def test_openssl_passmark_geekbench_llm_and_compression_keep_their_figures(imported):
    openssl = json.loads(inspector_data.data("c7g.large", "openssl", "parsed.json"))
    sha256 = next(r for r in openssl if r["algo"] == "sha256" and r["block_size"] == 16384)
    table = ranked(imported, "openssl:sha256", block_size=16384)
    assert table["c7g.large"]["median"] == sha256["speed"]

    report = inspector_data.data("c7g.large", "passmark", "stdout").decode()
    kilobytes = float(re.search(r"CPU_COMPRESSION: ([\d.]+)", report)[1])
    passmark = api_results(imported, "aws/c7g.large/passmark/stdout")
    compression = next(r for r in passmark if r["benchmark"] == "passmark:cpu-compression")
    assert (compression["value"], compression["unit"]) == (kilobytes * 1024, "B/s")
    cpu_mark = float(re.search(r"SUMM_CPU: ([\d.]+)", report)[1])
    assert ranked(imported, "passmark:cpu-mark")["c7g.large"]["median"] == cpu_mark

    scores = json.loads(inspector_data.data("g4dn.xlarge", "geekbench", "results.json"))
    single = scores["Single-Core Performance"]["Score"]["score"]
    assert ranked(imported, "geekbench:single-core")["g4dn.xlarge"]["median"] == single

    tests = [
        json.loads(line)
        for line in inspector_data.data("c7g.large", "llm", "stdout").split(b"\n")
        if line.strip()
    ]
    generation = next(t for t in tests if t["n_gen"] == 128 and "SmolLM" in t["model_filename"])
    llm = ranked(
        imported,
        "llama-bench:generate",
        model="SmolLM-135M.Q4_K_M.gguf",
        tokens=128,
        gpu_layers=0,
    )
    assert llm["c7g.large"]["median"] == generation["avg_ts"]

    runs = json.loads(inspector_data.data("c7g.large", "compression_text", "stdout"))
    zstd = runs["zstd"]["1"][0]
    ratio = ranked(imported, "compression:zstd-ratio", level=1, threads=zstd["threads"])
    assert ratio["c7g.large"]["median"] == zstd["ratio"]
    # The ratio is a percentage where lower is better: a dollar buys compressions, not ratio.
    assert Benchmark.objects.get(key="compression:zstd-ratio").higher_is_better is False


def test_each_kind_ranks_types_wherever_they_were_measured(imported):
    cases = {
        "stress-ng:cpu": {"workers": 1},
        "redis:set": {"threads": 1, "pipeline": 16},
        "static_web:http": {"size": 1024, "threads": 4, "connections": 4},
        "compression:zstd-compress": {"level": 1, "threads": 1},
        "bw_mem:rd": {"size": 262144},
        "llama-bench:prompt": {"model": "SmolLM-135M.Q4_K_M.gguf", "tokens": 16, "gpu_layers": 0},
        "geekbench:multi-core": {},
        "passmark:cpu-mark": {},
        "openssl:aes-256-cbc": {"block_size": 16384},
    }
    for benchmark, params in cases.items():
        table = ranked(imported, benchmark, **params)
        assert len(table) >= 2, (benchmark, table)
        assert all(row["per_dollar"] for row in table.values()), benchmark
    # Results measured somewhere named are kept apart from these region-less ones.
    assert ranked(imported, "passmark:cpu-mark", measured_in="us-east-1") == {}
    # hpc7a.12xlarge has no price in the snapshot: listed as unpriced, not dropped.
    response = imported.get(
        "/api/v1/price-performance/", {"benchmark": "passmark:cpu-mark", "region": "us-east-1"}
    ).json()
    assert "hpc7a.12xlarge" in {row["instance_type"] for row in response["unpriced"]}


def test_benchmarks_are_listed_with_their_kind_and_description(imported):
    body = imported.get("/api/v1/benchmarks/", {"limit": 500}).json()["results"]
    kinds = {row["key"]: (row["group"], row["description"]) for row in body}
    assert kinds["redis:set"][0] == "Key-value store"
    assert "op/s; higher is better" in kinds["redis:set"][1]
    assert kinds["redis:set-latency"][1].endswith("in s; lower is better.")
    assert {group for group, _ in kinds.values()} >= {
        "Cryptography",
        "Key-value store",
        "Web server",
        "Compression",
        "Memory bandwidth",
        "CPU",
        "LLM inference",
        "Geekbench 6",
        "PassMark",
    }
    assert "Other" not in {group for group, _ in kinds.values()}
    filtered = imported.get("/api/v1/benchmarks/", {"group": "Compression", "limit": 500}).json()
    assert {row["key"].split(":")[0] for row in filtered["results"]} == {"compression"}


def test_the_planner_knows_the_imported_results_afterwards(sample_archive, priced):
    # Left to autovacuum, freshly filled tables are planned as empty for a while.
    run_import(sample_archive)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'benchmarks_result'")
        [(rows,)] = cursor.fetchall()
    assert rows >= Result.objects.count() * 0.9 > 0

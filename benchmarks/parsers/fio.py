"""fio `--output-format=json` -> storage results (format `fio`).

Reads fio 2.x (`clat` in microseconds) and 3.x (`clat_ns`) JSON, after any lines of text fio
printed first; a key repeated within one object keeps its last value. Jobs that share a name
and group (fio without `group_reporting` lists each of `numjobs` clones) are summed.

Keys, units and params, per job and per direction that did I/O (read, write, trim):
- `fio:<rw>`: I/O operations per second (`op/s`), where `<rw>` is the job's `rw` option
  (job options, else global options): `randread`, `randwrite`, `read`, `write`, `randrw`,
  `rw`, ... An output that does not state `rw` (fio 2.1 prints no job options) gives
  `fio:unknown`, with a warning.
- `fio:<rw>:bandwidth`: bytes per second (`B/s`).
- `fio:<rw>:clat_p99`: the 99th percentile of completion latency (`ms`, lower is better),
  the worst of the summed clones.
Params: `direction` (`read`/`write`/`trim`), `job` (its name) and, where the output lists the
job's options, `block_size` (bytes), `iodepth` and `numjobs` (fio's defaults, 4096/1/1, when
an option is not given).
"""

from __future__ import annotations

from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import load_document
from benchmarks.parsers.units import size_in_bytes

_DIRECTIONS = ("read", "write", "trim")
_MODE_ALIASES = {"readwrite": "rw"}
# Which directions each rw mode does I/O in; I/O elsewhere is worth a warning.
_MODE_DIRECTIONS = {
    "read": {"read"},
    "randread": {"read"},
    "write": {"write"},
    "randwrite": {"write"},
    "rw": {"read", "write"},
    "randrw": {"read", "write"},
    "trim": {"trim"},
    "randtrim": {"trim"},
    "trimwrite": {"trim", "write"},
}
_P99_PERCENTILE_KEY = "99.000000"


def looks_like(text: str) -> bool:
    """True for fio's JSON output (its `"fio version"` and `"jobs"` keys)."""
    return '"fio version"' in text and '"jobs"' in text


def parse(text: str) -> ParsedOutput:
    """One result set per job and direction that did I/O."""
    document, first_line, end = load_document(text)
    if not isinstance(document, dict) or not isinstance(document.get("jobs"), list):
        raise ParseError(
            "not fio JSON: expected an object with a `jobs` list (fio --output-format=json)",
            line=first_line,
        )
    version = str(document.get("fio version") or "").removeprefix("fio-") or None
    output = ParsedOutput(format="fio", tool_version=version)
    if text[end:].strip():
        output.warnings.append("only the first JSON document is read; the text after it is not")

    global_options = _mapping(document.get("global options"))
    groups = list(_job_groups(document["jobs"]).values())
    unstated = [
        _name(jobs[0]) for jobs in groups if _mode(_options(jobs[0], global_options)) is None
    ]
    if unstated:
        output.warnings.append(
            "the output does not state the rw mode of job(s) "
            f"{', '.join(map(repr, unstated))} (fio 2.1 prints no job options): keyed fio:unknown"
        )
    for jobs in groups:
        output.results.extend(_job_results(jobs, global_options, output.warnings))
    if not output.results:
        raise ParseError("no job in the fio output did any I/O", line=first_line)
    return output


def _job_groups(jobs: list[Any]) -> dict[tuple[str, Any], list[dict]]:
    groups: dict[tuple[str, Any], list[dict]] = {}
    for index, job in enumerate(jobs):
        if not isinstance(job, dict):
            raise ParseError(f"fio job {index} is not an object")
        groups.setdefault((_name(job), job.get("groupid")), []).append(job)
    return groups


def _job_results(jobs: list[dict], global_options: dict, warnings: list[str]) -> list:
    name = _name(jobs[0])
    options = _options(jobs[0], global_options)
    mode = _mode(options)
    if len(jobs) > 1:
        warnings.append(f"job {name!r}: {len(jobs)} clones without group_reporting, summed")
    for job in jobs:
        if job.get("error"):
            warnings.append(f"job {name!r} reported error {job['error']}")

    results = []
    for direction in _DIRECTIONS:
        stats = [job.get(direction) for job in jobs]
        if not all(isinstance(item, dict) for item in stats) or not _did_io(stats):
            continue
        if mode in _MODE_DIRECTIONS and direction not in _MODE_DIRECTIONS[mode]:
            warnings.append(f"job {name!r}: rw={mode} but the output reports {direction} I/O")
        params = _params(options, direction, name, has_options=bool(options))
        results.extend(_direction_results(f"fio:{mode or 'unknown'}", params, stats))
    return results


def _name(job: dict) -> str:
    return str(job.get("jobname", ""))


def _options(job: dict, global_options: dict) -> dict:
    return {**global_options, **_mapping(job.get("job options"))}


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _mode(options: dict) -> str | None:
    rw = options.get("rw") or options.get("readwrite")
    if not rw:
        return None
    # `randread:8` sets an offset modifier; the mode is the part before the colon.
    mode = str(rw).split(":", 1)[0].strip().lower()
    return _MODE_ALIASES.get(mode, mode)


def _did_io(stats: list[dict]) -> bool:
    return any(_number(item.get("io_bytes")) > 0 or _number(item.get("iops")) > 0 for item in stats)


def _params(options: dict, direction: str, name: str, *, has_options: bool) -> dict:
    params: dict[str, Any] = {"direction": direction, "job": name}
    if not has_options:
        return params
    block_size = _block_size(options, direction)
    if block_size is not None:
        params["block_size"] = block_size
    params["iodepth"] = _integer_option(options.get("iodepth", 1))
    params["numjobs"] = _integer_option(options.get("numjobs", 1))
    return params


def _block_size(options: dict, direction: str) -> int | None:
    text = options.get("bs") or options.get("blocksize")
    if text is None:
        ranged = {"bsrange", "blocksize_range", "bssplit"} & options.keys()
        return None if ranged else 4096
    # `bs=4k,64k` gives read, write (and trim) sizes; a missing one repeats the last.
    sizes = [part for part in str(text).split(",") if part.strip()]
    index = min(_DIRECTIONS.index(direction), len(sizes) - 1)
    return size_in_bytes(sizes[index]) if sizes else None


def _integer_option(value: Any) -> int | str:
    text = str(value).strip()
    return int(text) if text.isdecimal() else text


def _direction_results(key: str, params: dict, stats: list[dict]) -> list[ParsedResult]:
    for item in stats:
        if _number(item.get("iops"), default=None) is None:
            raise ParseError(
                f"job {params['job']!r}: its {params['direction']} figures lack `iops`"
            )
    iops = sum(_number(item["iops"]) for item in stats)
    bandwidth = sum(_bytes_per_second(item) for item in stats)
    results = [
        ParsedResult(key, dict(params), iops, "op/s"),
        ParsedResult(f"{key}:bandwidth", dict(params), bandwidth, "B/s"),
    ]
    latencies = [
        latency for item in stats if (latency := _completion_latency_p99_ms(item)) is not None
    ]
    if latencies:
        results.append(
            ParsedResult(
                f"{key}:clat_p99", dict(params), max(latencies), "ms", higher_is_better=False
            )
        )
    return results


def _bytes_per_second(stats: dict) -> float:
    if "bw_bytes" in stats:
        return _number(stats["bw_bytes"])
    # fio 2.x gives only `bw`, in KiB/s.
    return _number(stats.get("bw")) * 1024


def _completion_latency_p99_ms(stats: dict) -> float | None:
    for name, per_millisecond in (("clat_ns", 1e6), ("clat", 1e3)):
        percentiles = _mapping(_mapping(stats.get(name)).get("percentile"))
        if _P99_PERCENTILE_KEY in percentiles:
            return _number(percentiles[_P99_PERCENTILE_KEY]) / per_millisecond
    return None


def _number(value: Any, default: float | None = 0.0) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return float(value)

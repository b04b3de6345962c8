"""Spare Cores' ffmpeg transcoding benchmark (benchmark-ffmpeg's JSON) -> ParsedOutput
(format `ffmpeg`).

The document (`"benchmark": "ffmpeg_transcoding"`) has `scenarios`: each a video encode or
decode (libx264, libx265; on the CPU or, where a CUDA GPU is found, on it) or an audio
encode, with `scaling_steps` at 1, the physical cores, then doubling `workers` (ffmpeg
processes of one thread each, run together), each step `repetitions` times. A repetition's
`aggregate_fps` is the frames all workers processed per second of wall time; an audio
scenario's `audio_seconds_per_sec`, the seconds of audio encoded per second. A scenario the
machine cannot run is `skipped` with its reason (`no_cuda_gpu_detected`).

Keys `ffmpeg:<scenario>` (`ffmpeg:cpu_h264_encode`, `ffmpeg:gpu_h265_decode`,
`ffmpeg:opus_128k`), higher is better, param `workers`, one result per repetition (the
statistics of a step are those of its repetitions): video in frames per second (`frame/s`),
audio in seconds of audio per second (`s/s`). Repetitions with an error, failed or timed-out
workers are left out with a warning.
"""

from __future__ import annotations

import math
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import load_document

FORMAT = "ffmpeg"
_FIGURES = {"video": ("aggregate_fps", "frame/s"), "audio": ("audio_seconds_per_sec", "s/s")}


def looks_like(text: str) -> bool:
    """True for a JSON object of benchmark-ffmpeg."""
    head = text.lstrip()[:200]
    return head.startswith("{") and '"ffmpeg_transcoding"' in head


def parse(text: str) -> ParsedOutput:
    """One result per good repetition of each step of each scenario that ran."""
    document, first_line, _end = load_document(text, openers="{")
    if not isinstance(document, dict) or document.get("benchmark") != "ffmpeg_transcoding":
        raise ParseError('expected benchmark-ffmpeg\'s "ffmpeg_transcoding" object', line=1)
    scenarios = document.get("scenarios")
    if not isinstance(scenarios, list):
        raise ParseError("no scenarios list", line=first_line)
    ffmpeg = document.get("ffmpeg") if isinstance(document.get("ffmpeg"), dict) else {}
    version = ffmpeg.get("version")
    output = ParsedOutput(
        format=FORMAT,
        tool_version=f"benchmark-ffmpeg={document.get('version')} ffmpeg={version}"
        if version
        else None,
    )
    left_out: list[str] = []
    for scenario in scenarios:
        if not isinstance(scenario, dict) or scenario.get("skipped"):
            continue
        output.results.extend(_scenario(scenario, first_line, left_out))
    if not output.results:
        raise ParseError("no scenario ran (every one skipped or failed)", line=first_line)
    if left_out:
        output.warnings.append(
            f"{len(left_out)} repetitions with an error or failed workers left out: "
            + ", ".join(left_out)
        )
    return output


def _scenario(scenario: dict[str, Any], line: int, left_out: list[str]) -> list[ParsedResult]:
    name, media = scenario.get("name"), scenario.get("media_type")
    if not isinstance(name, str) or media not in _FIGURES:
        raise ParseError(f"scenario {name!r} of media type {media!r}", line=line)
    field, unit = _FIGURES[media]
    results = []
    for step in scenario.get("scaling_steps") or []:
        workers = step.get("workers")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ParseError(f"{name}: workers {workers!r} is not a count", line=line)
        for repetition in step.get("repetitions") or []:
            if (
                repetition.get("error")
                or repetition.get("failed_workers")
                or repetition.get("timed_out_workers")
            ):
                left_out.append(f"{name} at {workers} workers")
                continue
            value = repetition.get(field)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ParseError(f"{name}: {field} {value!r} is not a figure", line=line)
            if not math.isfinite(value):
                raise ParseError(f"{name}: {field} {value!r} is not a figure", line=line)
            results.append(ParsedResult(f"ffmpeg:{name}", {"workers": workers}, float(value), unit))
    return results

"""Named sets of instance type families, for picking many at once: the five the comparison opens
on, the latest generation, Graviton, burstable.

Pure: family names in, families out. A family name reads class, generation, then letters that
name the processor and extras (`c7gn`: class c, generation 7, Graviton, network). The letters
after the generation say the processor: `g` Graviton, `a` AMD, anything else Intel (AWS's
naming, https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html). Names
that do not read so (fargate) belong to no generation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks.questions.price_performance import DEFAULT_FAMILIES

_NAME = re.compile(r"^(?P<series>[a-z]+?)(?P<generation>\d+)(?P<extras>[a-z-]*)$")
# a1 is the first Graviton, named before the `g` letter was.
_GRAVITON_WITHOUT_G = frozenset({"a1"})


@dataclass(frozen=True)
class Preset:
    """A named set of families: its key (as the page names it), its label, its families."""

    key: str
    label: str
    families: tuple[str, ...]


def processor(family: str) -> str | None:
    """'graviton', 'amd' or 'intel' from a family's name, e.g. 'amd' for c7a; None for fargate."""
    match = _NAME.match(family)
    if match is None:
        return None
    if family in _GRAVITON_WITHOUT_G or "g" in match["extras"]:
        return "graviton"
    return "amd" if match["extras"].startswith("a") else "intel"


def latest_generation(families: list[str]) -> tuple[str, ...]:
    """The families of the newest generation of each series and processor among `families`
    (c8g, c7a, c7i and their variants such as c7gn, when c8a and c8i are not there)."""
    newest: dict[tuple[str, str | None], int] = {}
    for family in families:
        match = _NAME.match(family)
        if match:
            line = (match["series"], processor(family))
            newest[line] = max(newest.get(line, 0), int(match["generation"]))
    return tuple(
        family
        for family in families
        if (match := _NAME.match(family))
        and newest[(match["series"], processor(family))] == int(match["generation"])
    )


def is_burstable(family: str) -> bool:
    """A T family (t2, t3, t3a, t4g): CPU credits, a baseline share of each vCPU."""
    match = _NAME.match(family)
    return match is not None and match["series"] == "t"


def presets(families: list[str]) -> list[Preset]:
    """The presets over `families` (those with results), each with at least one of them."""
    available = list(families)
    candidates = [
        Preset(
            "named",
            "Fargate, t2, c7g, c7a, c7i",
            tuple(family for family in DEFAULT_FAMILIES if family in available),
        ),
        Preset("latest", "Latest generation", latest_generation(available)),
        Preset(
            "graviton",
            "Graviton",
            tuple(family for family in available if processor(family) == "graviton"),
        ),
        Preset(
            "burstable", "Burstable", tuple(family for family in available if is_burstable(family))
        ),
    ]
    return [preset for preset in candidates if preset.families]

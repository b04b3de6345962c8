"""Named sets of instance type families, for picking many at once: the five the comparison opens
on, the latest generation, Graviton, burstable.

Pure: families and what their types say of them (`FamilyFacts`, read by
`selectors.pages.family_facts`) in, families out. A family name reads class, generation, then
letters that name the processor and extras (`c7gn`: class c, generation 7, Graviton, network); AWS's
letters after the generation say the processor: `g` Graviton, `a` AMD, anything else Intel
(https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html). Another
cloud's processor is read from its types (Arm, AMD or Intel). Names that do not read so
(fargate, Hetzner's cax, Azure's Dpsv6) belong to no generation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks.models import Vendor
from benchmarks.questions.price_performance import DEFAULT_FAMILIES

_NAME = re.compile(r"^(?P<series>[a-z]+?)(?P<generation>\d+)(?P<extras>[a-z-]*)$")
# a1 is the first Graviton, named before the `g` letter was.
_GRAVITON_WITHOUT_G = frozenset({"a1"})
# A series' newest generation counts as the latest while it is at most this many behind the
# newest its vendor sells with that maker's processors: c8g beside m9g, not t4g or a1.
LATEST_BEHIND = 1


@dataclass(frozen=True)
class Preset:
    """A named set of families: its key (as the page names it), its label, its families."""

    key: str
    label: str
    families: tuple[str, ...]


@dataclass(frozen=True)
class FamilyFacts:
    """What a family's instance types say of it: whose they are (one name may be two clouds'
    families: AWS's and Google Cloud's f1), their processors, whether every one is burstable."""

    family: str
    vendors: tuple[str, ...] = (Vendor.AWS,)
    cpu_models: tuple[str, ...] = ()
    arm: bool = False
    # None while no type's CPU allocation is known: an AWS family is then read by its name.
    burstable: bool | None = None

    @property
    def search_text(self) -> str:
        """What the picker's search matches besides the name: vendors, processors, kinds."""
        words = [Vendor(vendor).label for vendor in self.vendors]
        makers = {maker(self.family, vendor, self) for vendor in self.vendors}
        words += [name for name in makers if name]
        burstable = is_burstable(self.family, {self.family: self})
        words += ["arm"] * self.arm + ["burstable"] * burstable + list(self.cpu_models)
        return " ".join(words)


def processor(family: str) -> str | None:
    """'graviton', 'amd' or 'intel' from an AWS family's name, e.g. 'amd' for c7a; None for
    fargate."""
    match = _NAME.match(family)
    if match is None:
        return None
    if family in _GRAVITON_WITHOUT_G or "g" in match["extras"]:
        return "graviton"
    return "amd" if match["extras"].startswith("a") else "intel"


def maker(family: str, vendor: str, facts: FamilyFacts | None) -> str | None:
    """Whose processors a vendor's family has: AWS's by its name (`processor`), another cloud's
    by its types ('arm', 'amd', 'intel'; None when they do not say)."""
    if vendor == Vendor.AWS:
        return processor(family)
    if facts is None:
        return None
    if facts.arm:
        return "arm"
    models = " ".join(facts.cpu_models).lower()
    return next((name for name in ("amd", "intel") if name in models), None)


def latest_generation(
    families: list[str], facts: dict[str, FamilyFacts], vendors=()
) -> tuple[str, ...]:
    """The families of the latest generation: for each vendor (of `vendors`, when given),
    series and processor maker, the newest generation, when it is at most LATEST_BEHIND behind
    the newest that vendor sells with that maker's processors (c8g, c8a, c8i and m9g; not a1,
    t3, p3 or f1, the last of series that stopped)."""
    lines: dict[tuple[str, str, str | None], int] = {}
    for family in families:
        for line, generation in _lines(family, facts, vendors):
            lines[line] = max(lines.get(line, 0), generation)
    makers: dict[tuple[str, str | None], int] = {}
    for (vendor, _, made_by), generation in lines.items():
        makers[(vendor, made_by)] = max(makers.get((vendor, made_by), 0), generation)
    return tuple(
        family
        for family in families
        if any(
            lines[line] == generation and generation + LATEST_BEHIND >= makers[line[0], line[2]]
            for line, generation in _lines(family, facts, vendors)
        )
    )


def _lines(family: str, facts: dict[str, FamilyFacts], vendors=()):
    """((vendor, series, maker), generation) of each vendor's family of this name (of
    `vendors` only, when given)."""
    match = _NAME.match(family)
    if match is None:
        return
    known = facts.get(family)
    for vendor in known.vendors if known else (Vendor.AWS,):
        if vendors and vendor not in vendors:
            continue
        line = (vendor, match["series"], maker(family, vendor, known))
        yield line, int(match["generation"])


def is_graviton(family: str, facts: dict[str, FamilyFacts], vendors=()) -> bool:
    """An AWS family of Graviton processors (c7g, a1); none when `vendors` (the question's)
    leave AWS out."""
    known = facts.get(family)
    theirs = Vendor.AWS in (known.vendors if known else ()) and Vendor.AWS in (
        vendors or (Vendor.AWS,)
    )
    return theirs and processor(family) == "graviton"


def is_burstable(family: str, facts: dict[str, FamilyFacts], vendors=()) -> bool:
    """A family (of one of `vendors`, when given) whose every type is burstable (t3, Azure's
    Bsv2, Google Cloud's g1): CPU credits or a baseline share of each vCPU. Google Cloud's
    t2a and t2d are not. While its types' allocation is unknown, an AWS family of the T
    series is."""
    known = facts.get(family)
    if known is None or (vendors and not set(vendors) & set(known.vendors)):
        return False
    if known.burstable is not None:
        return known.burstable
    match = _NAME.match(family)
    return Vendor.AWS in known.vendors and match is not None and match["series"] == "t"


def presets(families: list[str], facts: dict[str, FamilyFacts], vendors=()) -> list[Preset]:
    """The presets over `families` (those with results), each with at least one of them; the
    latest and burstable ones of the question's `vendors` only, when given. The five families
    are all five, those without results too (the answer names them)."""
    available = list(families)
    named = DEFAULT_FAMILIES if set(DEFAULT_FAMILIES) & set(available) else ()
    candidates = [
        Preset("named", "Fargate, t2, c7g, c7a, c7i", named),
        Preset("latest", "Latest generation", latest_generation(available, facts, vendors)),
        Preset(
            "graviton",
            "Graviton",
            tuple(family for family in available if is_graviton(family, facts, vendors)),
        ),
        Preset(
            "burstable",
            "Burstable",
            tuple(family for family in available if is_burstable(family, facts, vendors)),
        ),
    ]
    return [preset for preset in candidates if preset.families]

"""CPU model names: one name per model, whatever string lscpu or an upload gave.

lscpu prints the processor's brand string, which says the same model several ways:
"AMD EPYC 9R14" and "AMD EPYC 9R14 96-Core Processor", "INTEL(R) XEON(R) PLATINUM 8559C" and
"Intel(R) Xeon(R) Platinum 8559C". Statistics count machines by the name `normalise` gives
(a run counts as many as it stands for, `Run.observations`); each run keeps the string it came
with (`Run.cpu_model`). `odds` says how often each model was met: the processor lottery.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

UNKNOWN = "unknown"

# Marks and words that say nothing about the model: trademarks, the clock speed printed
# after '@' (the base clock of the same model), core counts, "CPU" and "Processor".
_NOISE = [
    re.compile(r"\((?:r|tm|c)\)", re.IGNORECASE),
    re.compile(r"@\s*\d+(?:\.\d+)?\s*[gm]hz", re.IGNORECASE),
    re.compile(r"\b\d+-core\b", re.IGNORECASE),
    re.compile(r"\b(?:cpu|processor|default string)\b", re.IGNORECASE),
    # Intel's brand strings of the first Xeon E5 generation carry a lone 0 ("E5-2665 0 @").
    re.compile(r"(?<=\s)0(?=\s|$)"),
]

# Words whose case varies between brand strings, in the makers' own spelling.
_SPELLING = {
    word.lower(): word
    for word in (
        "Intel",
        "Xeon",
        "Platinum",
        "Gold",
        "Silver",
        "Bronze",
        "Core",
        "AMD",
        "EPYC",
        "Opteron",
        "Ryzen",
        "AWS",
        "Graviton",
        "Graviton2",
        "Graviton3",
        "Graviton4",
        "Ampere",
        "Altra",
    )
}


def normalise(raw: str | None) -> str:
    """The model's one name: 'AMD EPYC 9R14 96-Core Processor' -> 'AMD EPYC 9R14'."""
    text = raw or ""
    for pattern in _NOISE:
        text = pattern.sub(" ", text)
    words = [_SPELLING.get(word.lower(), word) for word in text.split()]
    return " ".join(words) or UNKNOWN


def odds(models: Mapping[str, int], kind: str) -> list[tuple[str, str]]:
    """(model, how often it was met) for a series' `cpu_models` (machines per model), most
    first: ("Intel Xeon E5-2676 v3", "4 of 5 tasks ran on Intel Xeon E5-2676 v3"). `kind` is
    the instance type's (InstanceType.Kind): a Fargate task lands on a processor, anything
    else is an instance. Empty for one model: there was no lottery to show."""
    if len(models) < 2:
        return []
    machines = "tasks" if kind == "fargate" else "instances"
    total = sum(models.values())
    ordered = sorted(models.items(), key=lambda item: (-item[1], item[0]))
    return [
        (model, f"{count} of {total} {machines} ran on {_named(model)}") for model, count in ordered
    ]


def _named(model: str) -> str:
    return "a processor not recorded" if model == UNKNOWN else model

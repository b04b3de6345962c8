"""CPU model names: one name per model, whatever string lscpu or an upload gave.

lscpu prints the processor's brand string, which says the same model several ways:
"AMD EPYC 9R14" and "AMD EPYC 9R14 96-Core Processor", "INTEL(R) XEON(R) PLATINUM 8559C" and
"Intel(R) Xeon(R) Platinum 8559C". Statistics count runs by the name `normalise` gives; each
run keeps the string it came with (`Run.cpu_model`).
"""

from __future__ import annotations

import re

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

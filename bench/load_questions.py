"""The questions bench/load.py asks: 10,000 distinct ones read from what the served data
holds, ranked so that a Zipf-like draw asks the first ones most.

Each question is (kind, path). The kinds: price-performance across benchmarks, their
parameters, regions, families and ways to buy (JSON and CSV), instance pages, the finder,
compare, llm-serving, unit-prices and page loads. Which benchmarks, parameters, regions,
families and types exist is read from the API of the server under load before it starts.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
import urllib.parse
import urllib.request

DISTINCT = 10_000
# The Zipf exponent: s = 1 gives the classic shape (the first question asked about 10% of the
# time out of 10,000).
ZIPF_S = 1.0
PURCHASE_OPTIONS = ("on_demand", "spot")
FAMILY_SETS = ("", "c7g,c7a,c7i", "m7g,m7i", "t2,t3", "c6g,c7g")
PAGES = ("/", "/benchmarks/", "/llm-serving/", "/volumes/", "/network/", "/databases/")


def fetch(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read())


def everything(base: str, path: str) -> list[dict]:
    """Every item of a paginated list of the API."""
    items, url = [], base + path
    while url:
        with urllib.request.urlopen(url, timeout=30) as response:
            page = json.loads(response.read())
        items.extend(page["results"])
        url = page.get("next")
    return items


def _query(path: str, **params) -> str:
    return path + "?" + urllib.parse.urlencode({k: v for k, v in params.items() if v != ""})


def price_performance(base: str, regions: list[str]) -> list[tuple[str, str]]:
    """Questions of every benchmark at each of its parameter values, in each region, family
    set and way to buy; JSON and CSV."""
    questions = []
    for benchmark in everything(base, "/api/v1/benchmarks/"):
        detail = fetch(base, f"/api/v1/benchmarks/{urllib.parse.quote(benchmark['key'])}/")
        params = detail.get("params") or {}
        # Each parameter at each of its values, the others at their first.
        settings = [{name: values[0] for name, values in params.items()}]
        for name, values in params.items():
            for value in values[1:4]:
                settings.append({**settings[0], name: value})
        for setting, region, families, option, fmt in itertools.product(
            settings, regions, FAMILY_SETS, PURCHASE_OPTIONS, ("json", "csv")
        ):
            kind = "price-performance csv" if fmt == "csv" else "price-performance"
            path = _query("/api/v1/price-performance/", benchmark=detail["key"], region=region,
                          families=families, purchase_option=option,
                          format="csv" if fmt == "csv" else "", **setting)  # fmt: skip
            questions.append((kind, path))
    return questions


def universe(base: str, seed: int = 59) -> list[tuple[str, str]]:
    """DISTINCT questions in the order of their popularity (a seeded shuffle of the kinds
    mixed, so that every kind has popular and rare questions)."""
    rng = random.Random(seed)
    regions = ["us-east-1", "ap-northeast-1", "eu-west-1"]
    types = [item["name"] for item in everything(base, "/api/v1/instance-types/?limit=1000")]
    by_kind = {
        "price-performance": price_performance(base, regions),
        "instance page": [("instance page", f"/instance-types/{name}/") for name in types],
        "finder": [
            ("finder", _query("/instance-types/", vcpus=vcpus, family=family))
            for vcpus in (2, 4, 8, 16, 32)
            for family in ("", "c7g", "m7i", "r7a", "t3")
        ],
        "compare": [
            ("compare", _query("/compare/", types=",".join(rng.sample(types, 3))))
            for _ in range(600)
        ],
        "unit-prices": [
            ("unit-prices", _query("/api/v1/unit-prices/", region=region, purchase_option=option))
            for region in regions
            for option in PURCHASE_OPTIONS
        ],
        "page": [("page", path) for path in PAGES],
        "llm-serving": [("llm-serving", "/api/v1/llm-serving/models/")]
        + [
            (
                "llm-serving",
                _query("/api/v1/llm-serving/", workload=model["workload"], region=region),
            )  # fmt: skip
            for model in fetch(base, "/api/v1/llm-serving/models/")["results"]
            if "workload" in model
            for region in regions
        ],
    }
    # Price-performance and its CSV are the busiest questions, and most of the 10,000.
    reads = []
    for questions in by_kind.values():
        rng.shuffle(questions)
        reads.extend(questions)
    reads = list(dict.fromkeys(reads))
    price = [q for q in reads if q[0].startswith("price-performance")]
    # The instance pages last: with thousands of types (3,434 in the 10M database) they
    # would otherwise fill the third and leave out the finder, compare and the rest.
    other = sorted((q for q in reads if not q[0].startswith("price-performance")),
                   key=lambda q: q[0] == "instance page")  # fmt: skip
    chosen = other[: DISTINCT // 3] + price[: DISTINCT - min(len(other), DISTINCT // 3)]
    rng.shuffle(chosen)
    return chosen


class ZipfDraw:
    """Draws indexes 0..n-1 with probability proportional to 1 / (rank + 1) ** s."""

    def __init__(self, n: int, s: float = ZIPF_S, seed: int | None = None):
        weights = [1 / (rank + 1) ** s for rank in range(n)]
        total = sum(weights)
        self.cumulative = list(itertools.accumulate(w / total for w in weights))
        self.random = random.Random(seed)

    def __call__(self) -> int:
        index = bisect.bisect_left(self.cumulative, self.random.random())
        return min(index, len(self.cumulative) - 1)

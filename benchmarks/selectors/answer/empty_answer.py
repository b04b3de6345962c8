"""Why a comparison answer has no row, in one sentence that names the control to change (the
page's labels: Prices of region, Price, Families, Workload or benchmark, and those under
More): an empty answer is never left without a way on."""

from __future__ import annotations

from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer.answer_sentence import option_words
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceTable

# The controls an empty answer's sentence may name, as the page labels them.
CONTROLS = (
    "Prices of region",
    "Price",
    "Families",
    "Workload or benchmark",
    "Measured in",
    "Runs counted",
    "vCPUs busy",
    "vCPUs",
    "Memory",
)


def empty_because(
    query: PricePerformanceQuery, table: PricePerformanceTable, purchase_options: list[str]
) -> str | None:
    """None while the table has rows; else why not, and which control to change."""
    if table.results:
        return None
    benchmark, region = table.benchmark.key, table.region_code
    if table.unpriced:
        count = len(table.unpriced)
        others = [option for option in purchase_options if option != table.purchase_option]
        price = " or another price under Price" if others else ""
        return (
            f"{count} instance type{'s' if count != 1 else ''} measured with {benchmark} "
            f"{'have' if count != 1 else 'has'} no {option_words(table.purchase)} price in "
            f"{region} on {table.at}: they are listed below with the reason. Choose another "
            f"region under Prices of region{price}."
        )
    if table.measured_in:
        return (
            f"No results of {benchmark} were measured in {table.measured_in}: choose any region "
            "under More, Measured in."
        )
    if query.verified_only:
        return (
            f"No run of {benchmark} here is verified (its cloud's identity proof naming its "
            "type): choose every run under More, Runs counted."
        )
    if query.busy is not None:
        return (
            f"No type was measured with {benchmark} at busy={query.busy.normalize():f} of its "
            "vCPUs: choose another share, or none, under More, vCPUs busy."
        )
    if query.vcpus is not None or query.memory_gib is not None:
        return (
            f"No type of this shape has results for {benchmark}: clear vCPUs or Memory under More."
        )
    if query.instance_types:
        return (
            f"None of {', '.join(query.instance_types)} has results for {benchmark}: choose "
            "another under Workload or benchmark."
        )
    if query.families:
        return (
            f"None of {', '.join(query.families)} has results for {benchmark} here: choose "
            "others under Families, or another benchmark under Workload or benchmark."
        )
    return (
        f"No results for {benchmark} with these choices: choose another under Workload or "
        "benchmark."
    )

"""The comparison page asked about a workload profile (`/?profile=KEY`): the profile's ranking
per dollar with the menus around it, as the page shows a benchmark's.

The profile's table (`selectors.subjects.profiles`), its sentence, the bars the chart draws, the
families its members were measured on (for the family picker: those every member covers), and
the question resolved for the permalink, the API and the CSV. At most ten queries: the
benchmark menu, the price menu and the profile table's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks import profiles as definitions
from benchmarks.errors import DomainError
from benchmarks.questions.profiles import ProfileQuery
from benchmarks.selectors.answer import answer_sentence
from benchmarks.selectors.costs import prices
from benchmarks.selectors.pages import demo
from benchmarks.selectors.pages.comparison import (
    BARS_CHARTED,
    AnswerLinks,
    BenchmarkGroup,
    menu_benchmarks,
    menu_groups,
)
from benchmarks.selectors.subjects.profiles import ProfileRow, ProfileTable, profile_table

# The page's benchmark menu names a profile with this prefix (`profile:crypto`).
MENU_PREFIX = "profile:"


@dataclass
class ProfileComparison(AnswerLinks):
    """What the page shows for a profile: its table (None when refused), menus and charts."""

    query: ProfileQuery
    groups: list[BenchmarkGroup]
    # Regions with prices, each with its purchase options that have a price.
    price_menu: dict[str, list[str]]
    profiles: tuple[definitions.Profile, ...] = definitions.PROFILES
    table: ProfileTable | None = None
    summary: str = ""
    # The rows the chart draws, best per dollar first.
    bars: list[ProfileRow] = field(default_factory=list)
    # The families every member was measured on, and those shown.
    families: list[str] = field(default_factory=list)
    families_shown: list[str] = field(default_factory=list)
    purchase_options: list[str] = field(default_factory=list)
    resolved: dict[str, str] = field(default_factory=dict)
    demo_note: str | None = None
    error: tuple[str | None, str] | None = None
    # Why no type is ranked, naming the control to change.
    empty_because: str | None = None

    @property
    def menu_value(self) -> str:
        return MENU_PREFIX + self.query.profile

    @property
    def families_missing(self) -> list[str]:
        return [family for family in self.query.families if family not in self.families]

    @property
    def bars_left_out(self) -> int:
        return len(self.table.results) - len(self.bars) if self.table else 0


def profile_comparison(query: ProfileQuery) -> ProfileComparison:
    """The page's answer to a profile's question; a refused one (an unknown region) keeps the
    menus and says why in `error`."""
    # No benchmark's noise: a profile's members' is read with its table.
    benchmarks = menu_benchmarks(None)
    result = ProfileComparison(
        query=query, groups=menu_groups(benchmarks), price_menu=prices.price_menu()
    )
    result.demo_note = demo.loading_note()
    profile = definitions.get_profile(query.profile)
    measured = {benchmark.key: set(benchmark.families) for benchmark in benchmarks}
    covered = [measured.get(member.benchmark, set()) for member in profile.members]
    result.families = sorted(set.intersection(*covered)) if covered else []
    try:
        table = profile_table(query)
    except DomainError as error:
        result.error = (error.field, error.message)
        return result
    result.table = table
    result.purchase_options = result.price_menu.get(table.region.code, [])
    result.families_shown = sorted({row.family for row in table.results})
    result.summary = answer_sentence.profile_summary(table)
    if not table.results:
        result.empty_because = (
            f"No type here has a price and every benchmark of {profile.name}: choose another "
            "region under Prices of region, another price under Price, or another workload "
            "under Workload or benchmark."
        )
    result.bars = table.results[:BARS_CHARTED]
    result.resolved = {
        "profile": profile.key,
        "region": table.region.code,
        "purchase_option": table.purchase.option,
        **{name: value for name, value in table.purchase.answer_fields().items() if value},
        "at": table.at.isoformat(),
        "basis": table.basis,
        "families": ",".join(query.families),
        **({"estimates": query.estimates} if query.estimates != "include" else {}),
    }
    return result

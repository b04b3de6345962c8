"""A seeded random walk over the controls of the comparison page, the finder and compare, as a
buyer clicks them (issue 54, item 8): what each step may do, and what must hold after it.

`Walk` keeps what the walk chose (the families it ticked or picked, whether it unticked
Fargate), so that the checks can tell a family nobody chose from one the page was asked for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlparse

from benchmarks.questions.price_performance import DEFAULT_FAMILIES
from benchmarks.selectors.answer.empty_answer import CONTROLS

DATES = ("", "2017-12-13", "2024-01-01", "2025-06-01")
# The finder's and compare's own words for the controls an empty answer sends a buyer to.
OTHER_PAGES_CONTROLS = ("filters", "Instance types", "region", "benchmark")

# What the form holds against the address: every parameter of the address is in the form and
# the form shows its value; the families and the clouds ranked are compared as sets.
FORM_AGAINST_ADDRESS = """
(formId) => {
  const form = document.getElementById(formId);
  if (!form) return ["no form #" + formId];
  const asked = new URL(window.location.href).searchParams;
  const problems = [];
  const fields = [...form.elements].filter((field) => field.name);
  const named = (name) => fields.filter((field) => field.name === name);
  for (const name of new Set(asked.keys())) {
    // A workload profile is asked as `profile=KEY` and chosen in the benchmark menu.
    if (name === "profile" && formId === "comparison-form") {
      if (form.querySelector("#benchmark").value !== "profile:" + asked.get(name))
        problems.push("profile=" + asked.get(name) + " is not the menu's choice");
      continue;
    }
    const mine = named(name);
    if (!mine.length) { problems.push(name + " is in the address but not in the form"); continue; }
    // A list may come as one comma-separated value or as several (a form sent as it is).
    const value = asked.getAll(name).join(",");
    if (name === "families") {
      const picker = document.getElementById("family-picker");
      const ticked = mine.filter((box) => box.type === "hidden" || box.checked)
        .flatMap((box) => box.value.split(",")).filter(Boolean).sort().join(",");
      const wanted = value.split(",").filter(Boolean).sort().join(",");
      const every = picker && picker.hasAttribute("data-all");
      if (wanted ? ticked !== wanted || every : !every)
        problems.push("families: the form holds " + (every ? "every family" : ticked)
          + ", the address asks " + (wanted || "every family"));
      continue;
    }
    if (name === "regions") {
      const ticked = mine.filter((box) => box.checked).map((box) => box.value);
      const wanted = value.split(",");
      ticked.filter((region) => !wanted.includes(region))
        .forEach((region) => problems.push("regions: " + region + " ticked, not asked"));
      continue;
    }
    const shown = mine.filter((field) => field.type !== "checkbox" || field.checked);
    if (!shown.some((field) => field.value === value))
      problems.push(name + ": the form shows " + shown.map((field) => field.value).join("|")
        + ", the address asks " + value);
  }
  return problems;
}
"""


@dataclass
class Walk:
    """One walk: its random numbers, the address it started from, what it chose so far."""

    rng: random.Random
    base: str
    chosen: set[str] = field(default_factory=lambda: set(DEFAULT_FAMILIES))
    fargate_unticked: bool = False
    log: list[str] = field(default_factory=list)

    def pick(self, choices):
        return self.rng.choice(list(choices))


def kind_of(url: str) -> str:
    path = urlparse(url).path
    return {"/": "landing", "/instance-types/": "finder", "/compare/": "compare"}.get(path, "other")


def options(page, selector: str) -> list[str]:
    return page.locator(f"{selector} option").evaluate_all("os => os.map(o => o.value)")


def navigate(page, action) -> None:
    """Do `action`, which sends the page somewhere, and wait until it is there."""
    with page.expect_navigation(wait_until="load", timeout=60000):
        action()


def open_more(page) -> None:
    page.evaluate("() => document.getElementById('more-options')?.setAttribute('open', '')")


def choose(page, walk: Walk, selector: str) -> str | None:
    """A random other value of a menu, chosen as a person would (the page reloads); None
    when the page has no such menu or no other value."""
    if page.locator(selector).count() == 0:
        return None
    current = page.locator(selector).input_value()
    values = [value for value in options(page, selector) if value != current]
    if not values:
        return None
    value = walk.pick(values)
    navigate(page, lambda: page.select_option(selector, value))
    return value


# --- the comparison page's steps ---------------------------------------------------------


def benchmark_step(page, walk: Walk) -> str:
    return f"benchmark {choose(page, walk, '#benchmark')}"


def region_step(page, walk: Walk) -> str:
    return f"region {choose(page, walk, '#region')}"


def price_step(page, walk: Walk) -> str:
    return f"price {choose(page, walk, '#purchase_option')}"


def currency_step(page, walk: Walk) -> str:
    return f"currency {choose(page, walk, '#currency')}"


def more_menu_step(page, walk: Walk) -> str:
    """One of the menus under More: the way to buy's details, the date's fallback, the
    method, a parameter, estimates, busy, verified, the order."""
    open_more(page)
    menus = page.locator(
        "#more-options select[name]:not([data-region-of]), #comparison-form select#term, "
        "#comparison-form select#payment, #comparison-form select#spot_zone, "
        "#comparison-form select#offering_class, #comparison-form select#plan"
    ).evaluate_all("ms => ms.filter(m => !m.disabled).map(m => '#' + m.id)")
    menu = walk.pick(sorted(set(menus)))
    return f"{menu} {choose(page, walk, menu)}"


def date_step(page, walk: Walk) -> str:
    open_more(page)
    date = walk.pick(DATES) or page.evaluate("() => new Date().toISOString().slice(0, 10)")
    if page.locator("#at").input_value() == date:
        return f"date {date} (already)"
    page.fill("#at", date)
    navigate(page, lambda: page.press("#at", "Enter"))
    return f"date {date}"


def cloud_step(page, walk: Walk) -> str:
    """A cloud's box ticked or cleared, its region chosen, or a cross-cloud preset."""
    open_more(page)
    boxes = page.locator("#clouds input[name=regions]")
    if boxes.count() == 0:
        return "no clouds box"
    what = walk.pick(("box", "box", "region", "preset"))
    if what == "preset":
        presets = page.locator("#cloud-presets a")
        link = presets.nth(walk.rng.randrange(presets.count()))
        families = parse_qs(urlparse(link.get_attribute("href")).query).get("families", [""])[0]
        _chose_families(walk, families.split(",") if families else None)
        navigate(page, link.click)
        return f"cloud preset {link.get_attribute('data-preset')}"
    index = walk.rng.randrange(boxes.count())
    if what == "region":
        select = page.locator("#clouds select[data-region-of]").nth(index)
        value = walk.pick(select.locator("option").evaluate_all("os => os.map(o => o.value)"))
        navigate(page, lambda: select.select_option(value))
        return f"cloud region {value}"
    box = boxes.nth(index)
    value = box.get_attribute("value")
    navigate(page, box.click)
    return f"cloud box {value}"


def _chose_families(walk: Walk, families: list[str] | None) -> None:
    """What a preset or box asks: every family (None) or these."""
    if families is None:
        walk.fargate_unticked = False
        return
    walk.chosen.update(families)
    walk.fargate_unticked = "fargate" not in families


def _answer_redrawn(page) -> None:
    page.wait_for_function("() => !document.body.dataset.answerLoading", timeout=60000)


def family_step(page, walk: Walk) -> str:
    """A family box ticked or cleared, or a family preset: the answer is redrawn in place."""
    picker = page.locator("#family-picker")
    if picker.count() == 0:
        return "no family picker"
    page.evaluate("() => { document.getElementById('family-picker').open = true; }")
    presets = page.locator("#family-presets a")
    if presets.count() and walk.rng.random() < 0.3:
        link = presets.nth(walk.rng.randrange(presets.count()))
        families = link.get_attribute("data-families")
        if families is None or families == "":
            _chose_families(walk, None)
            walk.chosen.update(
                page.locator("#families input[type=checkbox]").evaluate_all(
                    "bs => bs.map(b => b.value)"
                )
            )
        else:
            _chose_families(walk, families.split(","))
        link.click()
        _answer_redrawn(page)
        return f"family preset {link.get_attribute('data-preset')}"
    boxes = page.locator("#families input[type=checkbox]")
    # The first boxes (the question's vendors' defaults) more often than the hundreds after.
    count = boxes.count()
    index = walk.rng.randrange(min(count, 12) if walk.rng.random() < 0.8 else count)
    box = boxes.nth(index)
    value = box.get_attribute("value")
    every = page.locator("#family-picker[data-all]").count() == 1
    if every:
        walk.chosen.update(boxes.evaluate_all("bs => bs.map(b => b.value)"))
    ticking = not box.is_checked()
    box.scroll_into_view_if_needed()
    box.click()
    _answer_redrawn(page)
    if ticking:
        walk.chosen.add(value)
        if value == "fargate":
            walk.fargate_unticked = False
    elif value == "fargate":
        walk.fargate_unticked = True
    return f"family {'ticked' if ticking else 'cleared'} {value}"


def toggle_step(page, walk: Walk) -> str:
    """The charts' toggles (per vCPU, log scale) and the rows shown."""
    toggles = [
        selector for selector in ("#per-vcpu", "#log-scale") if page.locator(selector).count()
    ]
    rows = page.locator("#show-all-rows, #show-best-rows")
    if rows.count() and walk.rng.random() < 0.25:
        navigate(page, rows.first.click)
        return "rows toggled"
    if not toggles:
        return "no toggle"
    selector = walk.pick(toggles)
    page.click(selector)
    return f"toggle {selector}"


def to_finder_step(page, walk: Walk) -> str:
    page.goto(f"{walk.base}/instance-types/")
    return "to the finder"


def to_compare_step(page, walk: Walk) -> str:
    page.goto(f"{walk.base}/compare/?types=c7g.large,c7a.large,t2.medium")
    return "to compare"


LANDING_STEPS = (
    (benchmark_step, 4),
    (region_step, 3),
    (price_step, 2),
    (currency_step, 1),
    (more_menu_step, 4),
    (date_step, 1),
    (cloud_step, 2),
    (family_step, 4),
    (toggle_step, 1),
    (to_finder_step, 1),
    (to_compare_step, 1),
)


# --- the finder's and compare's steps ----------------------------------------------------


def finder_step(page, walk: Walk) -> str:
    """A filter of the finder changed, then applied."""
    page.evaluate(
        "() => { const box = document.getElementById('finder-filters'); if (box) box.open = true; }"
    )
    menus = ["#architecture", "#burstable", "#benchmark", "#region", "#purchase_option"]
    what = walk.pick([*menus, "vcpus", "family", "date"])
    if what == "vcpus":
        page.fill("#vcpus_min", str(walk.pick((0, 1, 2, 4))))
    elif what == "family":
        page.fill("#family", walk.pick(("", "c7g", "c7a,c7i", "fargate", "t2,cax")))
    elif what == "date":
        page.fill("#at", walk.pick(DATES[1:]))
    else:
        values = options(page, what)
        page.select_option(what, walk.pick(values))
    navigate(page, lambda: page.click("#apply"))
    return f"finder {what}"


def compare_step(page, walk: Walk) -> str:
    """Compare's region, price, method or date changed, then asked."""
    what = walk.pick(("region", "#purchase_option", "#basis", "date"))
    if what == "date":
        page.fill("#at", walk.pick(DATES[1:]))
    elif what == "region":
        # One menu per compared cloud (each type priced in its own vendor's region), or the
        # one region menu before any type is compared.
        menus = page.locator("#compare-choices select[name=regions], #compare-choices #region")
        menu = menus.nth(walk.pick(range(menus.count())))
        values = menu.locator("option").evaluate_all("os => os.map(o => o.value)")
        menu.select_option(walk.pick(values))
    else:
        page.select_option(what, walk.pick(options(page, what)))
    navigate(page, lambda: page.click("#show"))
    return f"compare {what}"


def to_landing_step(page, walk: Walk) -> str:
    navigate(page, lambda: page.click("a.brand"))
    # The landing's own question: the five families, Fargate among them.
    walk.fargate_unticked = False
    return "to the landing"


OTHER_STEPS = {
    "finder": ((finder_step, 6), (to_landing_step, 2), (to_compare_step, 1)),
    "compare": ((compare_step, 4), (to_landing_step, 2), (to_finder_step, 1)),
}


def next_step(page, walk: Walk):
    kind = kind_of(page.url)
    steps = LANDING_STEPS if kind == "landing" else OTHER_STEPS.get(kind, ((to_landing_step, 1),))
    actions, weights = zip(*steps, strict=True)
    return walk.rng.choices(actions, weights=weights)[0]


# --- what must hold after each step ------------------------------------------------------


def problems_after(page, walk: Walk, statuses: list[tuple[int, str]]) -> list[str]:
    """Everything wrong with the page the step left: statuses, console errors, the form
    against the address, Fargate and the families, an empty answer without a way on."""
    problems = [f"{status} from {url}" for status, url in statuses if status >= 400]
    problems += [f"console: {error}" for error in page.console_errors]
    kind = kind_of(page.url)
    form = {"landing": "comparison-form", "finder": "finder-form", "compare": "compare-choices"}
    if kind in form:
        problems += page.evaluate(FORM_AGAINST_ADDRESS, form[kind])
    if kind == "landing":
        problems += _landing_problems(page, walk)
    elif kind == "finder" and page.locator("#no-rows").count():
        text = page.locator("#no-rows").inner_text()
        if not any(word in text for word in OTHER_PAGES_CONTROLS):
            problems.append(f"an empty finder says only: {text}")
    return problems


def _landing_problems(page, walk: Walk) -> list[str]:
    problems = []
    asked = parse_qs(urlparse(page.url).query, keep_blank_values=True)
    if "families" in asked and "profile" not in asked:
        families = [family for family in asked["families"][0].split(",") if family]
        if families and not walk.fargate_unticked and "fargate" not in families:
            problems.append(f"Fargate left the question: families={','.join(families)}")
        strangers = sorted(set(families) - walk.chosen)
        if strangers:
            problems.append(f"families nobody chose: {', '.join(strangers[:10])}")
    rows = page.locator("#results-table tbody tr")
    if rows.count() == 0:
        said = " ".join(
            page.locator("#empty-because, #comparison-answer .error, #notes").all_inner_texts()
        )
        if not any(control in said for control in CONTROLS):
            answer = " ".join(page.locator("[data-role=answer]").all_inner_texts())
            problems.append(f"an empty answer names no control: {answer} {said}".strip())
    return problems


def keep_static_files(page) -> None:
    """Static files fetched once a walk: runserver sends each again for every page, and a
    dozen of them would double the time of a step."""
    kept: dict[str, dict] = {}

    def serve(route) -> None:
        url = route.request.url
        if url not in kept:
            response = route.fetch()
            kept[url] = {
                "status": response.status,
                "headers": response.headers,
                "body": response.body(),
            }
        route.fulfill(**kept[url])

    page.route("**/static/**", serve)

"""One colour per instance type family, the same on every chart and page.

Okabe and Ito's palette, then Paul Tol's muted one: colours people with the common
colour-vision deficiencies tell apart. The families of the default comparison and of the
published studies have fixed colours; every other family gets one from its name (so c6g is
the same colour on every page and in every session). With more families than colours some
share one: charts name every bar, and the tables carry names. `family_colours` keeps the
families shown together apart: a family whose colour another one on screen already has takes
the next free colour (the same on every chart of that page), until all seventeen are in use.
"""

from __future__ import annotations

import zlib

OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#0072B2",  # blue
    "#CC79A7",  # reddish purple
    "#999999",  # grey
    "#F0E442",  # yellow
)
# Paul Tol's "muted" scheme, also told apart with the common deficiencies: colours for the
# families beyond Okabe and Ito's eight.
TOL_MUTED = (
    "#332288",  # indigo
    "#88CCEE",  # cyan
    "#44AA99",  # teal
    "#117733",  # green
    "#999933",  # olive
    "#DDCC77",  # sand
    "#CC6677",  # rose
    "#882255",  # wine
    "#AA4499",  # purple
)
FIXED = {
    # The families the comparison opens on.
    "fargate": OKABE_ITO[0],
    "t2": OKABE_ITO[1],
    "c7g": OKABE_ITO[2],
    "c7a": OKABE_ITO[3],
    "c7i": OKABE_ITO[4],
    # The other families of the published studies (S1), apart from those above.
    "c4": TOL_MUTED[7],
    "c5": OKABE_ITO[5],
    "m4": TOL_MUTED[4],
}
# Every other family draws from the colours the fixed ones leave, by its name.
_OTHERS = tuple(colour for colour in (*OKABE_ITO, *TOL_MUTED) if colour not in FIXED.values())


def family_colour(family: str) -> str:
    """The colour of a family, e.g. '#009E73' for c7g."""
    if family in FIXED:
        return FIXED[family]
    return _OTHERS[zlib.crc32(family.encode()) % len(_OTHERS)]


def family_colours(families: list[str]) -> dict[str, str]:
    """Colours for families shown together, e.g. on one page's charts: each family's own
    colour (`family_colour`) unless one shown before it has it, then the first colour no
    family shown has; the fixed families always keep theirs."""
    palette = (*OKABE_ITO, *TOL_MUTED)
    colours: dict[str, str] = {}
    taken = {FIXED[family] for family in families if family in FIXED}
    for family in families:
        if family in colours:
            continue
        colour = family_colour(family)
        if family not in FIXED:
            if colour in taken:
                free = [other for other in palette if other not in taken]
                colour = free[0] if free else colour
            taken.add(colour)
        colours[family] = colour
    return colours

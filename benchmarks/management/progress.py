"""Progress bars for long commands: one per kind, on stderr."""

from __future__ import annotations

import time
from typing import TextIO


class ProgressBars:
    """One bar per kind: redrawn in place on a terminal; elsewhere (a log) a line per kind
    each time it passes a quarter of its total."""

    WIDTH = 30
    REDRAW_SECONDS = 0.1

    def __init__(self, stream: TextIO, totals: dict[str, int]) -> None:
        self.stream = stream
        self.totals = {kind: total for kind, total in totals.items() if total}
        self.done = dict.fromkeys(self.totals, 0)
        self.interactive = stream.isatty()
        self.label_width = max((len(kind) for kind in self.totals), default=0)
        self._drawn = False
        self._last_draw = 0.0
        self._quarters = dict.fromkeys(self.totals, 0)

    def advance(self, counts: dict[str, int]) -> None:
        """Add finished items, by kind."""
        for kind, count in counts.items():
            if kind in self.done:
                self.done[kind] = min(self.totals[kind], self.done[kind] + count)
        if self.interactive:
            if time.monotonic() - self._last_draw >= self.REDRAW_SECONDS:
                self._draw()
        else:
            for kind in self.totals:
                quarter = 4 * self.done[kind] // self.totals[kind]
                if quarter > self._quarters[kind]:
                    self._quarters[kind] = quarter
                    self.stream.write(self._line(kind) + "\n")
            self.stream.flush()

    def close(self) -> None:
        """Draw the final state."""
        if self.interactive:
            self._draw()

    def _line(self, kind: str) -> str:
        done, total = self.done[kind], self.totals[kind]
        filled = self.WIDTH * done // total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        return (
            f"{kind:<{self.label_width}} [{bar}] {done:>6,}/{total:<6,} {100 * done // total:3d}%"
        )

    def _draw(self) -> None:
        if self._drawn:
            # Back to the first bar's line, then each line cleared and rewritten.
            self.stream.write(f"\x1b[{len(self.totals)}F")
        self.stream.write("".join(f"\x1b[2K{self._line(kind)}\n" for kind in self.totals))
        self.stream.flush()
        self._drawn = True
        self._last_draw = time.monotonic()

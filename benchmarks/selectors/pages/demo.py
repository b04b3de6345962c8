"""The bundled demo's state as the pages show it."""

from __future__ import annotations

import json
import time

from django.conf import settings

# A progress file this old belongs to a load that died without removing it.
STALE_SECONDS = 300


def loading_note() -> str | None:
    """The note the comparison page shows while `loaddemo` loads Spare Cores' figures in
    the background (make run); None when no load is running."""
    try:
        state = json.loads(settings.PRICEBENCH_DEMO_PROGRESS_FILE.read_text())
        done, total, results = int(state["done"]), int(state["total"]), int(state["results"])
        fresh = time.time() - float(state["updated_at"]) < STALE_SECONDS
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not fresh or done >= total:
        return None
    return (
        f"Spare Cores' benchmark data is still loading in the background: {done:,} of "
        f"{total:,} more instance types so far ({results:,} results). Reload to see more."
    )

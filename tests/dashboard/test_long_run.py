"""An instance type's page charts Spare Cores' day of stress-ng at rising load beside what the
burstable model expects in standard mode: t4g.medium's credits (24 an hour, none at launch)
run out in hour 7 as the load passes its 20% baseline; a fixed-performance type is never held
back."""

import json
import re

import pytest

from tests.selectors.test_price_performance import make_type, run_with

pytestmark = pytest.mark.django_db


def _day(name, figure=3000.0, hours=12):
    for hour in range(hours):
        load = min(55, 5 * (hour + 1))
        params = {"hour": hour, "cpu_load_percent": load}
        run_with(name, [figure], key="stress-ng:longrun", params=params)
        # The hour's last minute, already at the next step: not the hour's load.
        run_with(
            name,
            [figure * 2],
            key="stress-ng:longrun",
            params={**params, "cpu_load_percent": load + 5},
        )


def _chart(client, name):
    page = client.get(f"/instance-types/{name}/").content.decode()
    return page, json.loads(re.search(r'id="long-run-data"[^>]*>(.*?)</script>', page).group(1))


def test_a_burstable_type_is_drawn_beside_the_models_standard_mode(client):
    make_type("t4g.medium", vcpus=2, burstable=True, baseline_share="0.2")
    _day("t4g.medium")
    page, data = _chart(client, "t4g.medium")
    assert data["load_percent"][:4] == [5, 10, 15, 20] and data["measured"][0] == 3000
    assert data["credits_per_hour"] == 24
    # Hours 0-3 bank 18, 12, 6 and 0 credits; 25% and 30% spend 6 and 12; 35% empties the
    # balance in hour 6; in hour 7 (40% of 2 vCPUs asks 48 credits) the 24 earned pay half.
    assert data["credits_run_out_at"] == 7
    assert data["standard_mode"][6] == 3000 and data["standard_mode"][7] == pytest.approx(1500)
    assert "the credits run out in hour 7" in page and "long-run.js" in page


def test_a_fixed_performance_type_has_no_model_line(client):
    make_type("c7g.large", vcpus=2)
    _day("c7g.large", hours=3)
    page, data = _chart(client, "c7g.large")
    assert data["burstable"] is False and set(data["standard_mode"]) == {None}
    assert "nothing holds the load back" in page

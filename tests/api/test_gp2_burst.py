"""`gp2-burst/`: the gp2 token bucket of study S4 under a constant load."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

URL = "/api/v1/gp2-burst/"


def test_a_300_gb_volume_bursts_2571_seconds_over_a_900_iops_baseline(
    django_assert_num_queries,
):
    with django_assert_num_queries(0):
        response = APIClient().get(URL, {"size_gb": 300, "iops": 3000})
    assert response.status_code == 200
    body = response.json()
    assert (body["baseline_iops"], body["burst_seconds"]) == (900, 2571)
    assert body["credits_run_out"] is True
    assert body["timeline"] == [[0, 3000], [2571, 3000], [2571, 900], [14400, 900]]


def test_a_100_gb_volume_gives_300_iops_after_the_burst():
    body = APIClient().get(URL, {"size_gb": 100}).json()
    assert body["iops"] == 3000  # the default load
    assert body["iops_once_credits_run_out"] == 300
    assert body["timeline"][-1] == [14400, 300]
    assert body["burst_seconds"] == 2000


def test_a_volume_whose_baseline_meets_the_load_never_runs_out():
    body = APIClient().get(URL, {"size_gb": 1000, "iops": 3000, "seconds": 600}).json()
    assert body["burst_seconds"] is None
    assert body["credits_run_out"] is False
    assert body["timeline"] == [[0, 3000], [600, 3000]]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({}, "size_gb", "required"),
        ({"size_gb": 0}, "size_gb", "1 to 16,384 GB"),
        ({"size_gb": 20_000}, "size_gb", "1 to 16,384 GB"),
        ({"size_gb": 100, "iops": 0}, "iops", "1 to 16,000 IOPS"),
        ({"size_gb": 100, "seconds": -1}, "seconds", "1 to 2,592,000 seconds"),
        ({"size_gb": "x"}, "size_gb", "valid integer"),
    ],
)
def test_a_bad_query_is_a_400_naming_the_field(query, field, message):
    response = APIClient().get(URL, query)
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert message in response.json()[field][0]

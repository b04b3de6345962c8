"""Similar types on an instance type's page: same vCPUs, same memory class, best per dollar
first, from the finder's answer."""

import pytest

from benchmarks.models import InstanceType
from benchmarks.selectors.pages.similar import similar_types

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]


def test_similar_types_share_the_vcpus_and_memory_class_and_rank_per_dollar():
    c7g = InstanceType.objects.get(name="c7g.xlarge")
    similar = similar_types(c7g)
    assert similar.benchmark.key == "openssl:aes-256-cbc"
    assert similar.memory_class.startswith("compute")
    names = [row.name for row in similar.rows]
    assert "c7a.xlarge" in names or similar.total > len(names)
    assert all(row.vcpus == 4 and row.memory_gib <= 10 for row in similar.rows)
    per_dollar = [row.per_dollar for row in similar.rows]
    assert per_dollar == sorted(per_dollar, reverse=True)
    assert "vcpus_min=4&vcpus_max=4" in similar.finder_url
    assert "memory_max=10" in similar.finder_url
    assert similar.compare_url.startswith("/compare/?types=c7g.xlarge%2C")
    assert similar.compare_url.endswith("&baseline=c7g.xlarge")


def test_a_general_purpose_type_is_compared_with_general_purpose_types():
    m = InstanceType.objects.filter(name__startswith="m7g.", vcpus=4).first()
    similar = similar_types(m)
    assert similar.memory_class.startswith("general purpose")
    assert all(10 < row.memory_gib <= 20 for row in similar.rows)


def test_a_type_without_a_known_size_has_none():
    assert similar_types(InstanceType(name="x9.huge")) is None


def test_the_instance_type_page_lists_them(client):
    response = client.get("/instance-types/c7g.xlarge/")
    assert response.status_code == 200
    assert b'id="similar-table"' in response.content
    assert b'<tr data-instance-type="c7g.xlarge" class="current">' in response.content
    # Marked so that, on a phone, it stays in view while the other columns scroll.
    page = response.content.decode()
    assert '<th scope="col" class="per-dollar">Per dollar</th>' in page
    assert page.count('<td class="per-dollar">') == page.count("<tr data-instance-type=")


@pytest.mark.parametrize("count", [10, 1000])
def test_they_read_in_a_fixed_number_of_queries(count, django_assert_max_num_queries):
    from tests.api.test_price_performance_at_scale import fleet

    names = fleet(count)
    InstanceType.objects.filter(name__in=names).update(memory_gib=4)
    subject = InstanceType.objects.get(name=names[0])
    with django_assert_max_num_queries(10):
        similar = similar_types(subject)
    assert similar.benchmark.key == "tool:x"
    assert similar.total >= count and len(similar.rows) == 10

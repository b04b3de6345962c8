"""The memory a machine was sold with, read from its PassMark report, against Spare Cores'
server table of AWS (the shared data, read in place)."""

import csv
from decimal import Decimal

import pytest

from benchmarks import inspector
from benchmarks.parsers.passmark import nominal_memory_gib
from tests.conftest import SHARED_DATA
from tests.inspector_data import data

SERVERS = SHARED_DATA / "sparecores-servers" / "aws.csv"


def report(name: str) -> str:
    return data(name, "passmark", "stdout").decode()


def test_the_memory_modules_total_is_the_memory_sold():
    # c8id.large: the system sees 3,816 MiB; one 4 GB module.
    assert nominal_memory_gib(report("c8id.large")) == 4


def test_without_modules_the_memory_seen_is_rounded_up_to_a_size_sold():
    # m9g.large (Graviton lists no modules): 7,726 MiB seen, 8 GiB sold; 1.5 x 2^k sizes too.
    assert nominal_memory_gib(report("m9g.large")) == 8
    assert nominal_memory_gib(report("m9g.12xlarge")) == 192
    # t4g.nano: 0.5 GiB, the smallest size.
    assert nominal_memory_gib(report("t4g.nano")) == Decimal("0.5")


def test_modules_counted_in_megabytes_are_read_as_such():
    # c4.large's report gives its module in MB (3,840): 3.75 GiB.
    assert nominal_memory_gib(report("c4.large")) == Decimal("3.75")


@pytest.mark.parametrize(
    "text",
    ["", "Results:\n  CPU_PRIME: 21.8\n", "SystemInformation:\n  Memory: 0\n"],
)
def test_a_report_without_the_memory_says_nothing(text):
    assert nominal_memory_gib(text) is None


def test_it_agrees_with_spare_cores_table_for_every_nitro_type():
    with open(SERVERS, newline="", encoding="utf-8") as file:
        table = {row["api_reference"]: row for row in csv.DictReader(file)}
    agree, differ = 0, []
    for machine in inspector.read_source(SHARED_DATA / "sparecores-inspector" / "aws.tar.xz"):
        row = table.get(machine.name)
        memory = inspector.plan_machine(machine, kinds=()).memory_gib
        if row is None or memory is None:
            continue
        if memory == Decimal(row["memory_amount"]) / 1024:
            agree += 1
        else:
            differ.append((machine.name, row["hypervisor"]))
    assert agree >= 825
    # Only some Xen-era types (3.75, 7.5, 30.5 GiB ...) differ; all are in the table.
    assert all(hypervisor != "nitro" for _, hypervisor in differ)
    assert len(differ) <= 9

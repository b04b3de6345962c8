"""CPU model names: one name per model, from the brand strings lscpu really prints."""

import tarfile

import pytest

from benchmarks.cpu_models import UNKNOWN, normalise, odds
from benchmarks.parsers import decode, lscpu
from tests.conftest import SHARED_DATA


@pytest.fixture(scope="module")
def brand_strings() -> set[str]:
    """Every `Model name` of the 890 lscpu outputs in Spare Cores' archive, read in place."""
    archive = SHARED_DATA / "sparecores-inspector" / "aws.tar.xz"
    assert archive.is_file(), f"{archive} is missing: tests read it in place"
    names = set()
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            if member.isfile() and member.name.endswith("/lscpu/stdout"):
                info = lscpu.parse(decode(tar.extractfile(member).read())).cpu
                if info is not None and info.model_name:
                    names.add(info.model_name)
    return names


def test_it_gives_the_two_spellings_of_an_epyc_one_name():
    assert normalise("AMD EPYC 9R14 96-Core Processor") == "AMD EPYC 9R14"
    assert normalise("AMD EPYC 9R14") == "AMD EPYC 9R14"
    assert normalise("AMD EPYC 7R13 Processor") == normalise("AMD EPYC 7R13 48-Core Processor")


def test_it_drops_trademarks_the_clock_and_the_word_cpu_from_intel_brand_strings():
    assert normalise("Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz") == "Intel Xeon E5-2686 v4"
    assert normalise("Intel(R) Xeon(R) Platinum 8124M CPU @ 3.00GHz") == (
        "Intel Xeon Platinum 8124M"
    )
    assert normalise("Intel(R) Xeon(R) CPU E5-2665 0 @ 2.40GHz") == "Intel Xeon E5-2665"


def test_it_spells_an_upper_case_brand_string_the_makers_way():
    assert normalise("INTEL(R) XEON(R) PLATINUM 8559C") == normalise(
        "Intel(R) Xeon(R) Platinum 8559C"
    )
    assert normalise("INTEL(R) XEON(R) PLATINUM 8559C") == "Intel Xeon Platinum 8559C"


def test_it_keeps_arm_core_names_and_calls_nothing_unknown():
    assert normalise("Neoverse-V1") == "Neoverse-V1"
    assert normalise("") == UNKNOWN
    assert normalise(None) == UNKNOWN
    assert normalise("  (R) CPU @ 2.3GHz ") == UNKNOWN


def test_every_model_of_the_spare_cores_archive_gets_one_clean_name(brand_strings):
    assert len(brand_strings) > 30
    names = {normalise(raw) for raw in brand_strings}
    for name in names:
        assert "(R)" not in name and "GHz" not in name and "Processor" not in name, name
        assert "  " not in name and name == name.strip(), name
    # The 36 strings of the archive name 31 models: four EPYCs are spelt two ways, one Intel
    # part in two cases.
    assert (len(brand_strings), len(names)) == (36, 31), sorted(names)


def test_the_odds_say_how_many_tasks_of_all_ran_on_each_processor():
    # Study S1's smallest Fargate task: 4 of its 5 tasks on an E5-2676 v3, 1 on an E5-2686 v4.
    models = {"Intel Xeon E5-2686 v4": 1, "Intel Xeon E5-2676 v3": 4}
    assert odds(models, "fargate") == [
        ("Intel Xeon E5-2676 v3", "4 of 5 tasks ran on Intel Xeon E5-2676 v3"),
        ("Intel Xeon E5-2686 v4", "1 of 5 tasks ran on Intel Xeon E5-2686 v4"),
    ]
    assert odds({"AWS Graviton3": 2, UNKNOWN: 1}, "ec2") == [
        ("AWS Graviton3", "2 of 3 instances ran on AWS Graviton3"),
        (UNKNOWN, "1 of 3 instances ran on a processor not recorded"),
    ]
    # One processor: no lottery.
    assert odds({"Intel Xeon E5-2676 v3": 5}, "ec2") == []

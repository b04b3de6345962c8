"""Family presets read from family names and what their types say (vendor, processors,
burstable)."""

from benchmarks.family_presets import (
    FamilyFacts,
    is_burstable,
    latest_generation,
    presets,
    processor,
)

FAMILIES = [
    "fargate",
    "t2",
    "t3",
    "t3a",
    "t4g",
    "c5",
    "c6g",
    "c6i",
    "c7a",
    "c7g",
    "c7gn",
    "c7i",
    "c8g",
    "m5zn",
    "a1",
    "x2gd",
    "g4dn",
    "m8i",
    "p3",
    "f1",
]
BURSTABLE = {"t2", "t3", "t3a", "t4g"}
AWS = {family: FamilyFacts(family, burstable=family in BURSTABLE) for family in FAMILIES}
# Burstable by its name alone while its types' allocation is unknown.
AWS["t2"] = FamilyFacts("t2")
# Google Cloud's: t2a (Arm) and t2d (AMD), whose types are not burstable, and its burstable
# f1-micro, whose family shares its name with AWS's f1.
GOOGLE = {
    "t2a": FamilyFacts("t2a", vendors=("gcp",), cpu_models=("ARMv8 Neoverse-N1",), arm=True),
    "t2d": FamilyFacts("t2d", vendors=("gcp",), cpu_models=("AMD EPYC 7B13",)),
    "f1": FamilyFacts("f1", vendors=("aws", "gcp")),
    "g1": FamilyFacts("g1", vendors=("gcp",), burstable=True),
    "e2": FamilyFacts("e2", vendors=("gcp",)),
}
FACTS = {**AWS, **GOOGLE}


def test_the_processor_is_read_from_the_letters_after_the_generation():
    assert [processor(name) for name in ("c7g", "c7gn", "a1", "x2gd", "t4g")] == ["graviton"] * 5
    assert [processor(name) for name in ("c7a", "t3a", "c7i", "c5", "m5zn", "g4dn")] == [
        "amd",
        "amd",
        "intel",
        "intel",
        "intel",
        "intel",
    ]
    assert processor("fargate") is None


def test_the_latest_generation_leaves_out_the_last_of_series_that_stopped():
    latest = latest_generation(FAMILIES, FACTS, ("aws",))
    assert latest == ("c7a", "c7i", "c8g", "m8i")
    assert not {"a1", "p3", "f1", "t3", "t4g", "x2gd"} & set(latest)


def test_the_latest_generation_is_each_vendors_own():
    assert latest_generation(["t2a", "t2d", "c8g"], FACTS) == ("t2a", "t2d", "c8g")
    assert latest_generation(["t2a", "t2d", "c8g"], FACTS, ("aws",)) == ("c8g",)


def test_burstable_families_are_those_whose_types_are_burstable():
    families = [*FAMILIES, "t2a", "t2d", "g1", "e2"]
    assert [name for name in families if is_burstable(name, FACTS)] == [
        "t2",
        "t3",
        "t3a",
        "t4g",
        "g1",
    ]
    assert [name for name in families if is_burstable(name, FACTS, ("aws",))] == [
        "t2",
        "t3",
        "t3a",
        "t4g",
    ]


def test_the_search_text_names_the_vendor_and_processor():
    assert "Google Cloud" in GOOGLE["t2a"].search_text and "arm" in GOOGLE["t2a"].search_text
    assert "graviton" in AWS["c7g"].search_text and "Amazon" in AWS["c7g"].search_text


def test_presets_name_only_families_that_have_results_but_the_five_whole():
    by_key = {
        preset.key: preset.families
        for preset in presets(["t2", "c7g", "c6g", "m5", "t2a", "t2d"], FACTS, ("aws",))
    }
    assert by_key == {
        "named": ("fargate", "t2", "c7g", "c7a", "c7i"),
        "latest": ("c7g", "m5"),
        "graviton": ("c7g", "c6g"),
        "burstable": ("t2",),
    }


def test_a_preset_with_no_family_is_left_out():
    assert [preset.key for preset in presets(["c5"], FACTS)] == ["latest"]


def test_a_question_of_another_cloud_gets_no_graviton_preset():
    keys = [preset.key for preset in presets(["c7g", "t2a", "t2d"], FACTS, ("gcp",))]
    assert keys == ["named", "latest"]

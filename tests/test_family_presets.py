"""Family presets read from family names alone."""

from benchmarks.family_presets import is_burstable, latest_generation, presets, processor

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
]


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


def test_the_latest_generation_is_the_newest_of_each_series_and_processor():
    assert latest_generation(FAMILIES) == (
        "t3",
        "t3a",
        "t4g",
        "c7a",
        "c7i",
        "c8g",
        "m5zn",
        "a1",
        "x2gd",
        "g4dn",
    )


def test_burstable_families_are_the_t_series():
    assert [name for name in FAMILIES if is_burstable(name)] == ["t2", "t3", "t3a", "t4g"]


def test_presets_name_only_families_that_have_results():
    by_key = {preset.key: preset.families for preset in presets(["t2", "c7g", "c6g", "m5"])}
    assert by_key == {
        "named": ("t2", "c7g"),
        "latest": ("t2", "c7g", "m5"),
        "graviton": ("c7g", "c6g"),
        "burstable": ("t2",),
    }


def test_a_preset_with_no_family_is_left_out():
    assert [preset.key for preset in presets(["c5"])] == ["latest"]

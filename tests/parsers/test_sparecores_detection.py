"""Auto-detection with the Spare Cores formats in the table: each output is claimed by its
own parser only, and the other tools' outputs keep their formats."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import (
    bw_mem,
    compression_text,
    decode,
    geekbench,
    llama_bench,
    passmark,
    redis_benchmark,
    static_web,
    stressng,
)
from tests.conftest import SHARED_DATA

SPARE_CORES = {
    "redis": redis_benchmark,
    "static_web": static_web,
    "compression_text": compression_text,
    "bw_mem": bw_mem,
    "stressng": stressng,
    "llm": llama_bench,
    "geekbench": geekbench,
    "passmark": passmark,
}
FILES = {
    "redis": ("redis", "stdout"),
    "static_web": ("static_web", "stdout"),
    "compression_text": ("compression_text", "stdout"),
    "bw_mem": ("bw_mem", "stdout"),
    "stressng": ("stressngsinglecore", "stdout"),
    "llm": ("llm", "stdout"),
    "geekbench": ("geekbench", "results.json"),
    "passmark": ("passmark", "stdout"),
}
OTHER_TOOLS = sorted(
    str(path.relative_to(SHARED_DATA))
    for folder in ("parsers", "seed-studies")
    for path in (SHARED_DATA / folder).rglob("*")
    if path.is_file()
)


def test_the_generic_tables_are_tried_last():
    assert parsers.FORMATS[-2:] == ("json", "csv")
    assert {"redis", "static_web", "compression_text", "bw_mem", "stressng"} < set(parsers.FORMATS)
    assert {"stressngsinglecore", "llm", "geekbench", "passmark"} < set(parsers.FORMATS)


@pytest.mark.parametrize("instance_type", ["c7g.large", "m5.large", "t2.micro", "c7a.xlarge"])
def test_each_output_is_claimed_by_its_own_parser_only(inspector, instance_type):
    for name, (folder, file) in FILES.items():
        if not inspector.has(instance_type, folder, file):
            continue
        text = inspector.text(instance_type, folder, file)
        claimed = [other for other, module in SPARE_CORES.items() if module.looks_like(text)]
        assert claimed == [name], (instance_type, folder)
        assert parsers.detect_format(text) == name


@pytest.mark.parametrize("folder", ["lscpu", "bw_mem", "passmark", "openssl", "llm"])
def test_no_meta_json_is_mistaken_for_an_output(inspector, folder):
    text = inspector.text("c7g.large", folder, "meta.json")

    with pytest.raises(parsers.ParseError, match="could not recognise"):
        parsers.detect_format(text)


@pytest.mark.parametrize("name", OTHER_TOOLS)
def test_no_spare_cores_parser_claims_another_tools_output(name):
    text = decode((SHARED_DATA / name).read_bytes())

    assert [fmt for fmt, module in SPARE_CORES.items() if module.looks_like(text)] == []

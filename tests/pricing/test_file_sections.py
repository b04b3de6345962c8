"""Parts of a big file: progress reported, a byte range read as JSON, a top-level key found."""

import json

import ijson

from benchmarks.pricing.file_sections import CountingFile, JsonSection, top_level_key_offset


def test_a_counting_file_reports_what_it_has_read(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_bytes(b"a,b\n" * 1000)
    reports = []
    with CountingFile(path, lambda *report: reports.append(report), "rows") as file:
        assert len(file.read()) == 4000
    assert reports[0] == (0, 4000, "rows") and reports[-1][:2] == (4000, 4000)


def test_the_terms_of_a_file_read_from_their_key_are_a_document_of_their_own(tmp_path):
    path = tmp_path / "index.json"
    path.write_text(
        json.dumps({"products": {"A": {"x": "terms"}}, "terms": {"OnDemand": {"A": 1}}})
    )
    at = top_level_key_offset(path, b'"terms"')
    assert path.read_bytes()[at : at + 7] == b'"terms"'
    with JsonSection(path, None, "terms", start=at, lead=b"{") as file:
        assert dict(ijson.kvitems(file, "terms.OnDemand")) == {"A": 1}
    with JsonSection(path, None, "products", end=at, tail=b'"terms":{}}') as file:
        assert dict(ijson.kvitems(file, "products")) == {"A": {"x": "terms"}}


def test_a_key_that_is_only_a_value_is_not_taken_for_the_top_level_key(tmp_path):
    path = tmp_path / "index.json"
    path.write_text('{"products": {"A": {"x": "terms"}}}')
    assert top_level_key_offset(path, b'"terms"') is None

"""The bundled snapshot: our own CSVs, read strictly, and built from the shared data."""

import csv
import importlib.util
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.pricing import snapshot

ROOT = snapshot.DEMO_DIR.parent.parent


def build_script():
    spec = importlib.util.spec_from_file_location("build", ROOT / "scripts/build_demo_prices.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bundled(name: str) -> list[dict]:
    with open(snapshot.DEMO_DIR / name, newline="") as file:
        return list(csv.DictReader(file))


def as_text(rows: list[dict]) -> list[dict]:
    return [{key: str(value) for key, value in row.items()} for row in rows]


def test_the_bundled_files_are_what_the_script_builds_from_the_shared_data(shared_data):
    script = build_script()
    pricing = shared_data / "pricing"
    kept, left_out = script.demo_price_rows(pricing)
    assert bundled("prices.csv") == as_text(kept)
    # Types newer than the bundled specifications are left out, not priced without them.
    assert "c8ib.2xlarge" in left_out and len(left_out) == 176
    assert bundled("fargate_rates.csv") == as_text(script.fargate_rows(pricing))
    assert bundled("instance_types.csv") == as_text(script.instance_type_rows(pricing))


def test_every_row_keeps_its_source_and_its_licence_where_one_is_known():
    for row in bundled("prices.csv"):
        assert "Apache-2.0" in row["source"] or row["source"].startswith("Quoted in study"), row
    assert all(row["source"] for row in bundled("fargate_rates.csv"))
    undated = [row for row in bundled("prices.csv") if row["region"] == "ap-northeast-1"]
    assert all("assumed in force from 2026-07-20" in row["source"] for row in undated)


def test_the_readers_give_typed_records():
    prices = list(snapshot.read_prices(snapshot.DEMO_DIR / "prices.csv"))
    nano = next(p for p in prices if (p.instance_type, p.region) == ("t2.nano", "us-east-1"))
    assert (nano.usd_per_hour, nano.effective_to) == (Decimal("0.0058"), None)
    specs = {
        s.name: s for s in snapshot.read_instance_types(snapshot.DEMO_DIR / "instance_types.csv")
    }
    assert specs["t2.xlarge"].baseline_share == Decimal("0.225")
    assert specs["c7i.xlarge"].cpu_family == "Intel Xeon 4th gen (Sapphire Rapids)"


def test_a_file_with_other_columns_is_refused(tmp_path):
    path = tmp_path / "prices.csv"
    path.write_text("instance_type,region,usd\nc7g.large,us-east-1,0.1\n")
    with pytest.raises(DomainError, match="prices.csv: line 1: expected the columns"):
        list(snapshot.read_prices(path))


def test_a_bad_value_names_its_line(tmp_path):
    path = tmp_path / "prices.csv"
    path.write_text(
        ",".join(snapshot.PRICE_COLUMNS)
        + "\nc7g.large,us-east-1,on_demand,,0.1,2026-07-20,,ok"
        + "\nc7g.large,us-east-1,on_demand,,cheap,2026-07-21,,bad\n"
    )
    with pytest.raises(DomainError, match=r"prices.csv: line 3: 'cheap' is not a price"):
        list(snapshot.read_prices(path))

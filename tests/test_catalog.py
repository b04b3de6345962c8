"""The benchmark catalog: one table in benchmarks/catalog.csv, the first matching row wins."""

import pytest

from benchmarks import catalog


@pytest.mark.parametrize(
    ("key", "kind", "starts"),
    [
        ("openssl:rsa2048", "Cryptography", "OpenSSL RSA operations"),
        ("openssl:aes-256-cbc", "Cryptography", "OpenSSL speed: bytes encrypted"),
        ("sysbench:cpu", "CPU", "sysbench CPU events"),  # before the catch-all sysbench:*
        ("sysbench:oltp_read_write", "Database", "sysbench OLTP transactions"),
        ("sysbench:fileio-seqrd", "Storage", "sysbench file I/O"),
        ("keycloak:login", "Identity server", "Keycloak OAuth2"),
        ("my-tool:score", catalog.OTHER, "Results uploaded as a table"),
    ],
)
def test_it_describes_a_key_by_the_first_row_that_matches(key, kind, starts):
    found_kind, description = catalog.describe(key, "op/s", True)
    assert found_kind == kind
    assert description.startswith(starts)
    assert description.endswith(", in op/s; higher is better.")


def test_the_table_is_read_whole_and_in_order():
    assert len(catalog.CATALOG) == 52
    assert catalog.CATALOG[0] == (
        "openssl:rsa*",
        "Cryptography",
        "OpenSSL RSA operations per second (`op`)",
    )
    assert catalog.CATALOG[-1][0] == "keycloak:*"


def test_it_refuses_a_table_with_a_short_row_and_names_the_line(tmp_path):
    path = tmp_path / "catalog.csv"
    path.write_text("pattern,kind,measures\nfio:*,Storage,fio IOPS\nwrk:*,Web server\n")
    with pytest.raises(ValueError, match="catalog.csv: line 3: expected three filled cells"):
        catalog.read_catalog(path)


def test_it_refuses_a_table_with_other_columns(tmp_path):
    path = tmp_path / "catalog.csv"
    path.write_text("pattern,group\nfio:*,Storage\n")
    with pytest.raises(ValueError, match="line 1: expected the columns pattern,kind,measures"):
        catalog.read_catalog(path)

"""What each benchmark measures: its kind (the menu's group) and a one-line description.

One table, keyed by the benchmark key's tool prefix and, where one tool measures several
things, by a pattern of the key (`fnmatch`, `*` matches anything). The first row that
matches describes the key; a key no row matches is "Other". Benchmarks get their group and
description from here when an ingest creates them (services/runs.py), and the migration that
added the group filled it in for the benchmarks that existed.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

OTHER = "Other"

# (pattern, kind, what it measures). The unit and direction are appended by `describe`.
CATALOG: tuple[tuple[str, str, str], ...] = (
    # Spare Cores' ten kinds (docs/benchmarks.md) and the agent's openssl runs.
    ("openssl:rsa*", "Cryptography", "OpenSSL RSA operations per second (`op`)"),
    ("openssl:dsa*", "Cryptography", "OpenSSL DSA operations per second (`op`)"),
    ("openssl:ffdh*", "Cryptography", "OpenSSL finite-field Diffie-Hellman key derivations"),
    ("openssl:ecd*", "Cryptography", "OpenSSL elliptic-curve operations per second (`op`)"),
    ("openssl:eddsa*", "Cryptography", "OpenSSL EdDSA operations per second (`op`)"),
    ("openssl:sm2", "Cryptography", "OpenSSL SM2 operations per second (`op`)"),
    (
        "openssl:*",
        "Cryptography",
        "OpenSSL speed: bytes encrypted or hashed per second, all processes together",
    ),
    ("redis:*-latency", "Key-value store", "Mean latency of Redis SET requests (memtier)"),
    (
        "redis:*",
        "Key-value store",
        "Redis SET requests per second, one redis-server per vCPU loaded by memtier_benchmark",
    ),
    (
        "static_web:*-latency",
        "Web server",
        "Mean latency of HTTP requests for static files (binserve, loaded by wrk)",
    ),
    (
        "static_web:*",
        "Web server",
        "HTTP requests per second for static files of `size` bytes (binserve, loaded by wrk)",
    ),
    ("wrk:*latency*", "Web server", "wrk HTTP request latency"),
    ("wrk:*:transfer", "Web server", "wrk HTTP bytes transferred per second"),
    ("wrk:*", "Web server", "wrk HTTP requests per second"),
    (
        "compression:*-decompress",
        "Compression",
        "Bytes of original text restored per second (Silesia corpus `dickens`)",
    ),
    (
        "compression:*-compress",
        "Compression",
        "Bytes of text compressed per second (Silesia corpus `dickens`)",
    ),
    ("compression:*-ratio", "Compression", "Compressed size as a percentage of the original"),
    ("bw_mem:rd", "Memory bandwidth", "Memory read bandwidth (lmbench bw_mem), all processes"),
    ("bw_mem:wr", "Memory bandwidth", "Memory write bandwidth (lmbench bw_mem), all processes"),
    (
        "bw_mem:rdwr",
        "Memory bandwidth",
        "Memory read-and-write bandwidth (lmbench bw_mem), all processes",
    ),
    ("bw_mem:*", "Memory bandwidth", "Memory bandwidth (lmbench bw_mem), all processes"),
    (
        "stress-ng:*",
        "CPU",
        "stress-ng bogo operations per second of real time, `workers` processes",
    ),
    (
        "llama-bench:prompt",
        "LLM inference",
        "llama.cpp prompt processing: prompt tokens read per second",
    ),
    ("llama-bench:generate", "LLM inference", "llama.cpp text generation: tokens per second"),
    ("geekbench:single-core", "Geekbench 6", "Geekbench 6 single-core score"),
    ("geekbench:multi-core", "Geekbench 6", "Geekbench 6 multi-core score"),
    ("geekbench:*", "Geekbench 6", "Geekbench 6 workload score (`cores`: single or multi)"),
    ("passmark:cpu-mark", "PassMark", "PassMark CPU Mark"),
    ("passmark:memory-mark", "PassMark", "PassMark Memory Mark"),
    ("passmark:me-latency", "PassMark", "PassMark memory latency"),
    ("passmark:me-large", "PassMark", "PassMark available RAM"),
    ("passmark:me-*", "PassMark", "PassMark memory test"),
    ("passmark:cpu-enc*", "PassMark", "PassMark encryption test"),
    ("passmark:cpu-compression", "PassMark", "PassMark compression test"),
    ("passmark:cpu-*", "PassMark", "PassMark CPU test"),
    ("passmark:*", "PassMark", "PassMark PerformanceTest result"),
    # The other tools pricebench reads.
    ("iperf3:*:jitter", "Network", "iperf3 UDP jitter"),
    ("iperf3:*:loss", "Network", "iperf3 UDP datagrams lost"),
    ("iperf3:*", "Network", "iperf3 network throughput (`direction`, `streams`)"),
    ("sysbench:*latency*", "Database", "sysbench latency percentile"),
    ("sysbench:oltp*:queries", "Database", "sysbench OLTP queries per second"),
    ("sysbench:oltp*", "Database", "sysbench OLTP transactions per second"),
    ("sysbench:cpu", "CPU", "sysbench CPU events per second"),
    ("sysbench:threads", "CPU", "sysbench thread scheduling events per second"),
    ("sysbench:mutex", "CPU", "sysbench mutex events per second"),
    ("sysbench:memory*", "Memory bandwidth", "sysbench memory transfer"),
    ("sysbench:fileio*", "Storage", "sysbench file I/O"),
    ("sysbench:*", "Database", "sysbench result"),
    ("fio:*:clat*", "Storage", "fio completion latency percentile"),
    ("fio:*:bandwidth", "Storage", "fio storage bandwidth"),
    ("fio:*", "Storage", "fio storage I/O operations per second"),
    # Study S2's user-defined benchmark.
    ("keycloak:*", "Identity server", "Keycloak OAuth2 login throughput (study S2)"),
)


def describe(key: str, unit: str, higher_is_better: bool) -> tuple[str, str]:
    """(kind, one-line description with the unit and direction) of a benchmark key."""
    kind, what = next(
        ((kind, what) for pattern, kind, what in CATALOG if fnmatchcase(key, pattern)),
        (OTHER, "Results uploaded as a table"),
    )
    direction = "higher" if higher_is_better else "lower"
    return kind, f"{what}, in {unit}; {direction} is better."

"""Tests on a running `make cluster`, collected only by `make test-cluster`
(scripts/cluster/test.sh sets PRICEBENCH_CLUSTER_URL)."""

import os

if not os.environ.get("PRICEBENCH_CLUSTER_URL"):
    collect_ignore_glob = ["test_*.py"]

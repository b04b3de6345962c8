#!/usr/bin/env bash
# `make test-cluster`: tests/cluster on the running cluster (pytest with its settings).
source "$(dirname "$0")/lib.sh"
wait_port "${ADDRESS[lb]}" 80 5 || { echo "no cluster: run make cluster first" >&2; exit 2; }
cd "$ROOT"
export $(app_env | tr '\n' ' ')
export PRICEBENCH_CLUSTER_URL="http://${ADDRESS[lb]}" PRICEBENCH_FRESHNESS_SECONDS=${PRICEBENCH_FRESHNESS_SECONDS:-2}
exec "$ROOT/.venv/bin/pytest" -p no:randomly -p no:xdist tests/cluster "$@"

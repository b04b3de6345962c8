#!/usr/bin/env bash
# The cluster's hosts, their addresses and small helpers; sourced by the other scripts here.
# Each host is a network namespace `pb-NAME` with one veth to the bridge `pbbr0`
# (10.59.0.0/24, the machine itself at .1): nothing leaves the machine.
set -euo pipefail
# Close every descriptor inherited past stderr (but bash's own 255): the hosts' daemons would
# otherwise keep them, e.g. the lock of `flock /work/bench.lock make cluster`, held then
# until the cluster stops.
for fd in $(ls /proc/$$/fd); do
  if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STATE=${CLUSTER_STATE:-$ROOT/var/cluster}
BRIDGE=pbbr0
NET=10.59.0
declare -A ADDRESS=(
  [lb]=$NET.2 [db1]=$NET.10 [db2]=$NET.11 [redis]=$NET.12
  [web1]=$NET.21 [web2]=$NET.22 [web3]=$NET.23
  [worker1]=$NET.31 [worker2]=$NET.32 [beat]=$NET.40
)
WEB_HOSTS=${CLUSTER_WEB_HOSTS:-"web1 web2 web3"}
WORKER_HOSTS="worker1 worker2"
HOSTS="db1 db2 redis $WEB_HOSTS $WORKER_HOSTS beat lb"
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PYTHON=$ROOT/.venv/bin/python

ns() { echo "pb-$1"; }
in_host() { local host=$1; shift; ip netns exec "$(ns "$host")" "$@"; }
as_pg() { runuser -u postgres -- "$@"; }

# The settings every pricebench process of the cluster runs with: production's (DEBUG off,
# gunicorn, collected static files), plain http behind the load balancer (one trusted proxy:
# the client's address is the X-Forwarded-For entry HAProxy appends). The API's rates are
# high unless given: bench/load.py's clients all come from the machine's one address. The
# One gunicorn worker per web host: on the machine's 2 cores, 2 per host held no more
# (docs/scaling.md). The throttles' counts and the rendered answers are in Redis (databases 1 and 2; an empty
# PRICEBENCH_THROTTLE_REDIS_URL= or PRICEBENCH_ANSWER_CACHE_REDIS_URL= keeps them per process).
app_env() {
  cat <<ENV
DATABASE_URL=postgres://pricebench@${ADDRESS[db1]}:5432/pricebench
DATABASE_REPLICA_URL=postgres://pricebench@${ADDRESS[db2]}:5432/pricebench
DATABASE_CONN_MAX_AGE=60
CELERY_BROKER_URL=redis://${ADDRESS[redis]}:6379/0
PRICEBENCH_THROTTLE_REDIS_URL=${PRICEBENCH_THROTTLE_REDIS_URL-redis://${ADDRESS[redis]}:6379/1}
PRICEBENCH_ANSWER_CACHE_REDIS_URL=${PRICEBENCH_ANSWER_CACHE_REDIS_URL-redis://${ADDRESS[redis]}:6379/2}
PRICEBENCH_TRUSTED_PROXIES=${PRICEBENCH_TRUSTED_PROXIES:-1}
SECRET_KEY=$(cat "$STATE/secret_key")
DEBUG=false
PRICEBENCH_HTTPS=false
ALLOWED_HOSTS=*
PRICEBENCH_LOG_FORMAT=json
LOG_LEVEL=WARNING
GUNICORN_WORKERS=${CLUSTER_GUNICORN_WORKERS:-1}
PRICEBENCH_THROTTLE_ANON=${PRICEBENCH_THROTTLE_ANON:-1000000/minute}
PRICEBENCH_THROTTLE_USER=${PRICEBENCH_THROTTLE_USER:-1000000/minute}
PRICEBENCH_THROTTLE_UPLOADS=${PRICEBENCH_THROTTLE_UPLOADS:-1000000/minute}
PRICEBENCH_THROTTLE_ADMIN_LOGIN=${PRICEBENCH_THROTTLE_ADMIN_LOGIN:-10/minute}
ENV
  # Other settings given to `make cluster` reach every host.
  env | grep -E '^(PRICEBENCH_|GUNICORN_|CELERY_VISIBILITY)' |
    grep -v -E '^PRICEBENCH_(THROTTLE_|ANSWER_CACHE_REDIS_URL|TRUSTED_PROXIES)' || true
}

# Run a command on a host in the background, its output to var/cluster/log/HOST.log.
start_on() {
  local host=$1; shift
  mkdir -p "$STATE/log"
  cd "$ROOT"
  ip netns exec "$(ns "$host")" env $(app_env | tr '\n' ' ') setsid "$@" \
    >>"$STATE/log/$host.log" 2>&1 </dev/null &
}

# Wait until HOST:PORT accepts connections (from the machine, over the bridge).
wait_port() {
  local address=$1 port=$2 seconds=${3:-60}
  for _ in $(seq $((seconds * 5))); do
    if (exec 3<>"/dev/tcp/$address/$port") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing answers on $address:$port after ${seconds}s" >&2
  return 1
}

# Every process running in a host's namespace (all of them started by these scripts).
host_pids() { ip netns pids "$(ns "$1")" 2>/dev/null || true; }

#!/usr/bin/env bash
# Runs the whole test suite against real services: a throwaway PostgreSQL cluster and a
# Redis server on free loopback ports (installed from Debian's packages when missing),
# stopped again on exit. Arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v chromium >/dev/null || missing+=(chromium)
# Validates docker-compose.yml without a Docker engine.
command -v docker-compose >/dev/null || missing+=(docker-compose)
# The benchmark agent's tests run the real tools it drives.
command -v openssl >/dev/null || missing+=(openssl)
command -v lscpu >/dev/null || missing+=(util-linux)
command -v iperf3 >/dev/null || missing+=(iperf3)
command -v sysbench >/dev/null || missing+=(sysbench)
command -v fio >/dev/null || missing+=(fio)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing from Debian: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Known vulnerabilities in the pinned dependencies (policy in docs/guide.md, "Dependency audit").
.venv/bin/python scripts/audit.py

pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
free_port() { .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pg_port=$(free_port)
redis_port=$(free_port)

work=$(mktemp -d /tmp/pricebench-test.XXXXXX)
chmod 755 "$work"
mkdir "$work/pg"
# PostgreSQL refuses to run as root: the cluster belongs to the postgres user then.
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$work/pg"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

cleanup() {
  as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  if [ -f "$work/redis.pid" ]; then kill "$(cat "$work/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

as_pg "$pg_bin/initdb" -D "$work/pg" -U pricebench -A trust -E UTF8 --no-sync >"$work/initdb.log"
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w -o \
  "-p $pg_port -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null
# A database for each pytest-xdist worker (tests/worker.py, REDIS_DATABASES).
redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --databases 64 --dir "$work" --pidfile "$work/redis.pid" --logfile "$work/redis.log"

export DATABASE_URL="postgres://pricebench@127.0.0.1:$pg_port/pricebench"
# Tests that need a broker (a real Celery worker) read this, each xdist worker on a database
# number of its own (tests/worker.py); all others run tasks in-process.
export PRICEBENCH_TEST_REDIS_URL="redis://127.0.0.1:$redis_port/0"
export DJANGO_ALLOW_ASYNC_UNSAFE=true
export PRICEBENCH_REQUIRE_SERVICES=1
# Production settings (DEBUG off) without https: the test client and the browser speak plain
# http to the test server. tests/test_security_settings.py checks the https settings.
export SECRET_KEY="test-only-$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(40))')"
export PRICEBENCH_HTTPS=false
# No test trips a throttle by accident; tests/api/test_throttling.py sets low rates itself.
export PRICEBENCH_THROTTLE_ANON=1000000/minute PRICEBENCH_THROTTLE_USER=1000000/minute
export PRICEBENCH_THROTTLE_UPLOADS=1000000/minute PRICEBENCH_THROTTLE_ADMIN_LOGIN=1000000/minute
echo "PostgreSQL on port $pg_port, Redis on port $redis_port"

.venv/bin/pytest "$@"

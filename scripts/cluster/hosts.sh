#!/usr/bin/env bash
# `hosts.sh start|kill HOST`: start one host's process, or kill every process on it at once
# (SIGKILL, as a host that loses power). bench/load.py kills and revives hosts with it.
# Redis evicts only keys that expire (the rendered answers, the throttles' counts) when
# full, never the queued tasks.
source "$(dirname "$0")/lib.sh"

start() {
  local host=$1
  case $host in
    db1|db2)
      in_host "$host" runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/$host" \
        -l "$STATE/$host/server.log" -w start >/dev/null
      ;;
    redis)
      in_host redis redis-server --bind "${ADDRESS[redis]}" --port 6379 --daemonize yes \
        --protected-mode no --appendonly yes --dir "$STATE/redis" \
        --maxmemory 512mb --maxmemory-policy volatile-lru \
        --logfile "$STATE/log/redis.log"
      ;;
    # No control socket: every gunicorn would share $HOME/.gunicorn/gunicorn.ctl.
    web*) start_on "$host" "$ROOT/.venv/bin/gunicorn" --no-control-socket dashboard.wsgi ;;
    worker*)
      start_on "$host" "$ROOT/.venv/bin/celery" -A dashboard worker --loglevel=warning \
        --concurrency="${CLUSTER_WORKER_CONCURRENCY:-2}" -n "$host@%h"
      ;;
    beat)
      start_on beat "$ROOT/.venv/bin/celery" -A dashboard beat --loglevel=warning \
        --schedule="$STATE/celerybeat-schedule"
      ;;
    lb)
      in_host lb haproxy -D -f "$STATE/haproxy.cfg" -p "$STATE/haproxy.pid" \
        >>"$STATE/log/lb.log" 2>&1 </dev/null
      ;;
    *) echo "no host $host (hosts: $HOSTS)" >&2; exit 2 ;;
  esac
}

kill_host() {
  local pids
  pids=$(host_pids "$1")
  [ -n "$pids" ] && kill -9 $pids
  true
}

case $1 in
  start) start "$2" ;;
  kill) kill_host "$2" ;;
  *) echo "usage: hosts.sh start|kill HOST" >&2; exit 2 ;;
esac

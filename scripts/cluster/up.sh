#!/usr/bin/env bash
# `make cluster`: every host of docker-compose.yml as a network namespace on this machine.
# CLUSTER_DEMO=first (default, the comparison page's data, as the tests load) or all (the
# whole demo, minutes); CLUSTER_RESTORE=FILE restores a `make backup` file instead;
# CLUSTER_PGDATA=DIR starts db1 on an existing stopped data directory instead (used in place,
# not copied: uploads are written into it; e.g. the 10M-result database of
# bench/ten_million.py), migrated, nothing loaded.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")

if [ -d "$STATE" ]; then
  echo "$STATE exists: run make cluster-down first" >&2
  exit 2
fi
missing=()
[ -n "$PG_BIN" ] || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v haproxy >/dev/null || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing from Debian: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

mkdir -p "$STATE/log" "$STATE/redis"
chmod 755 "$STATE" "$STATE/log"
$PYTHON -c 'import secrets; print(secrets.token_urlsafe(50))' >"$STATE/secret_key"
bash "$here/net.sh" up
echo "hosts: $HOSTS (bridge $BRIDGE, $NET.0/24)"

if [ -n "${CLUSTER_PGDATA:-}" ]; then
  bash "$here/db.sh" adopt "$CLUSTER_PGDATA"
else
  bash "$here/db.sh" primary
fi
bash "$here/hosts.sh" start redis
app() { (cd "$ROOT" && env $(app_env | tr '\n' ' ') "$@"); }
app $PYTHON manage.py migrate --noinput --verbosity 0
if [ -n "${CLUSTER_PGDATA:-}" ]; then
  echo "db1 on $CLUSTER_PGDATA (its data as it is)"
elif [ -n "${CLUSTER_RESTORE:-}" ]; then
  app $PYTHON scripts/backup.py restore "$CLUSTER_RESTORE"
else
  echo "loading the demo (--part ${CLUSTER_DEMO:-first})"
  app $PYTHON manage.py loaddemo --part "${CLUSTER_DEMO:-first}"
fi
# The replica is cloned once the data is in: it then only streams what changes.
bash "$here/db.sh" replica
# The real static files, collected once into var/static, which every web host serves.
app $PYTHON manage.py collectstatic --noinput --verbosity 0

for host in $WEB_HOSTS $WORKER_HOSTS beat; do bash "$here/hosts.sh" start "$host"; done
for host in $WEB_HOSTS; do wait_port "${ADDRESS[$host]}" 8000 120; done
bash "$here/haproxy.sh"
bash "$here/hosts.sh" start lb
wait_port "${ADDRESS[lb]}" 80
echo "pricebench cluster: http://${ADDRESS[lb]}/ (logs in $STATE/log; make cluster-down stops it)"

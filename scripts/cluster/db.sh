#!/usr/bin/env bash
# PostgreSQL on host db1 (the primary) and a streaming replica of it on db2, cloned with
# pg_basebackup; its replication slot keeps the WAL it has not replayed while it is down.
# Both trust the bridge's addresses (nothing outside the machine reaches it).
# `db.sh primary` makes a new database; `db.sh adopt DIR` starts db1 on an existing stopped
# data directory (CLUSTER_PGDATA), used in place: var/cluster/db1 links to it.
source "$(dirname "$0")/lib.sh"

# The cluster's settings in cluster.conf, which postgresql.conf includes (once): a data
# directory adopted again, or cloned, gets them rewritten rather than appended twice.
settings() {
  local host=$1
  # Sockets outside the data directory, which pg_basebackup copies.
  mkdir -p "$STATE/$host.sock" && chown postgres "$STATE/$host.sock"
  grep -qxF "include_if_exists 'cluster.conf'" "$STATE/$host/postgresql.conf" ||
    echo "include_if_exists 'cluster.conf'" >>"$STATE/$host/postgresql.conf"
  cat >"$STATE/$host/cluster.conf" <<CONF
listen_addresses = '${ADDRESS[$host]}'
port = 5432
unix_socket_directories = '$STATE/$host.sock'
max_connections = 200
shared_buffers = 256MB
wal_level = replica
max_wal_senders = 5
hot_standby = on
# The replica tells the primary what it still reads, so that its queries are not cancelled.
hot_standby_feedback = on
CONF
  chown postgres "$STATE/$host/cluster.conf"
}

trust_bridge() {
  local line="host all,replication all $NET.0/24 trust"
  grep -qxF "$line" "$STATE/db1/pg_hba.conf" || echo "$line" >>"$STATE/db1/pg_hba.conf"
}

primary() {
  mkdir -p "$STATE/db1" && chown postgres "$STATE/db1"
  as_pg "$PG_BIN/initdb" -D "$STATE/db1" -U pricebench -A trust -E UTF8 >"$STATE/log/initdb.log"
  settings db1
  trust_bridge
  bash "$(dirname "$0")/hosts.sh" start db1
  as_pg "$PG_BIN/createdb" -h "$STATE/db1.sock" -U pricebench pricebench
}

# An existing data directory (stopped, owned by postgres, holding the database `pricebench`
# of the user `pricebench`): no copy, so a 10M-result database needs no second 7 GB.
adopt() {
  local dir
  dir=$(realpath "$1")
  [ -f "$dir/PG_VERSION" ] || { echo "$dir is no PostgreSQL data directory" >&2; exit 2; }
  [ ! -f "$dir/postmaster.pid" ] || { echo "$dir is in use (postmaster.pid): stop it" >&2; exit 2; }
  chown -R postgres "$dir" && chmod 700 "$dir"
  ln -s "$dir" "$STATE/db1"
  settings db1
  trust_bridge
  bash "$(dirname "$0")/hosts.sh" start db1
  # A slot left by an earlier cluster on this directory would hold WAL for a replica gone.
  as_pg "$PG_BIN/psql" -h "$STATE/db1.sock" -U pricebench -d pricebench -qAt -c \
    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'db2'" \
    >/dev/null
}

replica() {
  mkdir -p "$STATE/db2" && chown postgres "$STATE/db2" && chmod 700 "$STATE/db2"
  in_host db2 runuser -u postgres -- "$PG_BIN/pg_basebackup" -h "${ADDRESS[db1]}" \
    -U pricebench -D "$STATE/db2" -R -X stream --checkpoint=fast -C -S db2
  # The clone carries the primary's settings; the replica listens on its own address.
  settings db2
  bash "$(dirname "$0")/hosts.sh" start db2
}

"$@"

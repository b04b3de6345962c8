#!/usr/bin/env bash
# PostgreSQL on host db1 (the primary) and a streaming replica of it on db2, cloned with
# pg_basebackup; its replication slot keeps the WAL it has not replayed while it is down. Both trust the bridge's addresses (nothing outside the machine reaches it).
source "$(dirname "$0")/lib.sh"

settings() {
  local host=$1
  # Sockets outside the data directory, which pg_basebackup copies.
  mkdir -p "$STATE/$host.sock" && chown postgres "$STATE/$host.sock"
  cat >>"$STATE/$host/postgresql.conf" <<CONF
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
}

primary() {
  mkdir -p "$STATE/db1" && chown postgres "$STATE/db1"
  as_pg "$PG_BIN/initdb" -D "$STATE/db1" -U pricebench -A trust -E UTF8 >"$STATE/log/initdb.log"
  settings db1
  echo "host all,replication all $NET.0/24 trust" >>"$STATE/db1/pg_hba.conf"
  bash "$(dirname "$0")/hosts.sh" start db1
  as_pg "$PG_BIN/createdb" -h "$STATE/db1.sock" -U pricebench pricebench
}

replica() {
  mkdir -p "$STATE/db2" && chown postgres "$STATE/db2" && chmod 700 "$STATE/db2"
  in_host db2 runuser -u postgres -- "$PG_BIN/pg_basebackup" -h "${ADDRESS[db1]}" \
    -U pricebench -D "$STATE/db2" -R -X stream --checkpoint=fast -C -S db2
  # The clone carries the primary's settings; the replica listens on its own address.
  settings db2
  bash "$(dirname "$0")/hosts.sh" start db2
}

"$1"

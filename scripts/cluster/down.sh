#!/usr/bin/env bash
# `make cluster-down`: stop PostgreSQL cleanly (a data directory adopted with CLUSTER_PGDATA
# is then ready to start again), kill every other process on the cluster's hosts, remove the
# namespaces, the bridge and var/cluster (a link to an adopted directory, not the directory).
source "$(dirname "$0")/lib.sh"
for db in db2 db1; do
  if [ -f "$STATE/$db/postmaster.pid" ] && ip netns list | grep -qw "$(ns "$db")"; then
    in_host "$db" runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/$db" -m fast -w stop \
      >/dev/null || true
  fi
done
for host in $HOSTS; do bash "$(dirname "$0")/hosts.sh" kill "$host"; done
bash "$(dirname "$0")/net.sh" down
rm -rf "$STATE"
echo "cluster down"

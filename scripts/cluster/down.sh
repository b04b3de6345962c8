#!/usr/bin/env bash
# `make cluster-down`: kill every process on the cluster's hosts, remove the namespaces, the
# bridge and var/cluster.
source "$(dirname "$0")/lib.sh"
for host in $HOSTS; do bash "$(dirname "$0")/hosts.sh" kill "$host"; done
bash "$(dirname "$0")/net.sh" down
rm -rf "$STATE"
echo "cluster down"

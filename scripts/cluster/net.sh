#!/usr/bin/env bash
# `net.sh up|down`: the bridge and one network namespace per host, each with a veth on it.
source "$(dirname "$0")/lib.sh"

up() {
  ip link show "$BRIDGE" >/dev/null 2>&1 || ip link add "$BRIDGE" type bridge
  ip addr replace "$NET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for host in $HOSTS; do
    ip netns list | grep -qw "$(ns "$host")" && continue
    ip netns add "$(ns "$host")"
    ip link add "pbv-$host" type veth peer name eth0 netns "$(ns "$host")"
    ip link set "pbv-$host" master "$BRIDGE" up
    in_host "$host" ip addr add "${ADDRESS[$host]}/24" dev eth0
    in_host "$host" ip link set eth0 up
    in_host "$host" ip link set lo up
  done
}

down() {
  for host in $HOSTS; do
    ip netns list | grep -qw "$(ns "$host")" || continue
    ip netns delete "$(ns "$host")"
  done
  ip link show "$BRIDGE" >/dev/null 2>&1 && ip link delete "$BRIDGE"
  true
}

"$1"

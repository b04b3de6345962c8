#!/usr/bin/env bash
# Writes var/cluster/haproxy.cfg: the load balancer on :80 in front of the web hosts, each
# checked on /healthz every CLUSTER_CHECK_MS (a host is out after three failed checks, in
# again after two good ones). A request that could not connect is sent to another host.
# A check waits up to 3 s: a busy host answers /healthz only after the requests queued
# before it, and with a shorter wait every busy host was taken out at once (503 for all).
source "$(dirname "$0")/lib.sh"
check=${CLUSTER_CHECK_MS:-1000}
{
  cat <<CFG
global
    maxconn 4096

defaults
    mode http
    option forwardfor
    option redispatch
    retries 2
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    timeout check 3s

frontend pricebench
    bind ${ADDRESS[lb]}:80
    default_backend web

backend web
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
    default-server inter ${check}ms fall 3 rise 2
CFG
  for host in $WEB_HOSTS; do
    echo "    server $host ${ADDRESS[$host]}:8000 check"
  done
} >"$STATE/haproxy.cfg"

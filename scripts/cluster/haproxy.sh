#!/usr/bin/env bash
# Writes var/cluster/haproxy.cfg: the load balancer on :80 in front of the web hosts, each
# checked on /healthz every CLUSTER_CHECK_MS (a host is out after three failed checks, in
# again after two good ones). A request that could not connect is sent to another host, and
# that host is taken out at once (`on-error mark-down`) rather than after three checks: with
# `leastconn`, a host that refuses at once looks the least busy and drew every request
# (37 answers 503 in the 2 s after a web host was killed, before this).
# A check waits up to 3 s: a busy host answers /healthz only after the requests queued
# before it, and with a shorter wait every busy host was taken out at once (503 for all).
# Each host is sent at most as many requests at once as it has gunicorn workers
# (CLUSTER_SERVER_MAXCONN, default CLUSTER_GUNICORN_WORKERS, 1), the rest wait in the
# balancer's queue for the first free worker of any host (`leastconn`): in a host's own
# backlog a quick answer waited behind a slow page while another host's worker was free.
# 0: no limit, round robin (as before).
source "$(dirname "$0")/lib.sh"
check=${CLUSTER_CHECK_MS:-1000}
maxconn=${CLUSTER_SERVER_MAXCONN:-${CLUSTER_GUNICORN_WORKERS:-1}}
if [ "$maxconn" -gt 0 ]; then
  balance="leastconn" limit=" maxconn $maxconn"
else
  balance="roundrobin" limit=""
fi
{
  cat <<CFG
global
    maxconn 4096

defaults
    mode http
    option forwardfor
    option redispatch 1
    retries 2
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    timeout check 3s
    timeout queue 30s

frontend pricebench
    bind ${ADDRESS[lb]}:80
    default_backend web

backend web
    balance $balance
    option httpchk GET /healthz
    http-check expect status 200
    default-server inter ${check}ms fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down$limit
CFG
  for host in $WEB_HOSTS; do
    echo "    server $host ${ADDRESS[$host]}:8000 check"
  done
} >"$STATE/haproxy.cfg"

#!/usr/bin/env bash
# `manage.sh COMMAND ...`: a Django management command with the cluster's settings (from the
# machine, over the bridge): e.g. create_upload_token, revoke_upload_token, shell.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
exec env $(app_env | tr '\n' ' ') "$PYTHON" manage.py "$@"

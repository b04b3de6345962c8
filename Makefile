# pricebench: the README's commands. Everything a fresh machine needs is installed from here.
PYTHON ?= python3
VENV := .venv
PORT ?= 8000
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: install run test lint audit bench worker clean backup restore cluster cluster-down test-cluster

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.lock
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet -r requirements.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# SQLite under var/, tasks in-process, demo data loaded: what the first page shows first,
# then Spare Cores' other instance types in the background while the server runs.
run: install
	mkdir -p var
	DEBUG=$${DEBUG:-true} $(VENV)/bin/python manage.py migrate --verbosity 0
	DEBUG=$${DEBUG:-true} $(VENV)/bin/python manage.py loaddemo --part first
	@echo
	@echo "pricebench is running at http://127.0.0.1:$(PORT)/  (API: http://127.0.0.1:$(PORT)/api/v1/)"
	@echo
	DEBUG=$${DEBUG:-true} $(VENV)/bin/python manage.py loaddemo --part rest & loader=$$!; \
	trap 'kill $$loader 2>/dev/null' EXIT INT TERM; \
	DEBUG=$${DEBUG:-true} $(VENV)/bin/python manage.py runserver 127.0.0.1:$(PORT)

# Real PostgreSQL and Redis (installed from Debian when missing), a real Celery worker,
# headless Chromium. pytest-xdist runs the suite on TEST_WORKERS processes, each with a test
# database of its own, each in pytest-django's order (transactional tests, which empty the
# tables, after the others): so `--dist load`, not loadfile. PYTEST_ARGS="-n 0" runs serially.
TEST_WORKERS ?= 2
test: install
	bash scripts/test.sh -n $(TEST_WORKERS) --dist load $(PYTEST_ARGS)

# The deployment of docker-compose.yml as separate hosts on this machine (network namespaces
# on a bridge, root needed): PostgreSQL and its streaming replica, Redis, web hosts behind
# HAProxy, worker hosts and beat (scripts/cluster/, docs/scaling.md). CLUSTER_DEMO=all loads
# the whole demo; CLUSTER_RESTORE=FILE a `make backup` file; CLUSTER_PGDATA=DIR starts db1 on an
# existing stopped PostgreSQL data directory, in place (the 10M-result database).
cluster: install
	bash scripts/cluster/up.sh

cluster-down:
	bash scripts/cluster/down.sh

# The correctness tests across hosts (tests/cluster/), on a running `make cluster`.
test-cluster: install
	bash scripts/cluster/test.sh $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Known vulnerabilities in requirements.lock and package-lock.json (scripts/test.sh runs it).
audit: install
	$(VENV)/bin/python scripts/audit.py

bench: install
	$(VENV)/bin/python bench/offer_file.py

# The database DATABASE_URL names (unset: SQLite under var/) to one file and back:
# `make backup [FILE=path]`, `make restore FILE=path` (scripts/backup.py; docs/guide.md "Backups").
# No install step: a backup must not wait for, or depend on, the package index.
backup:
	$(VENV)/bin/python scripts/backup.py backup $(FILE)

restore:
	@test -n "$(FILE)" || { echo "make restore FILE=path/to/backup" >&2; exit 2; }
	$(VENV)/bin/python scripts/backup.py restore $(FILE)

clean:
	rm -rf $(VENV) node_modules var

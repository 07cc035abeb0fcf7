# The two commands a new user needs: `make run` (serve the table's phones on port 5000) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 0.0.0.0
PORT   ?= 5000
SUDO   := $(if $(filter 0,$(shell id -u)),,sudo)
export FLASK_APP := companion

.PHONY: run dev test install db system-deps chromium zbar postgresql nginx lint bench load clean translations messages

# Python packages, into .venv; redone when pyproject.toml changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,deploy]'
	touch $@

install: $(STAMP) system-deps translations

# Translations: French literals are the message ids; companion/translations/<lang>/LC_MESSAGES/
# messages.po holds the other languages. `make messages` extracts every string (code and templates)
# into messages.pot and merges it into each .po; translate the new entries, then `make translations`
# compiles the .mo files (never committed; `make install` compiles them).
POT := companion/translations/messages.pot

translations: $(STAMP)
	$(BIN)/pybabel compile -d companion/translations -D messages

messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k N_ --no-location --sort-output \
	  --project companion -o $(POT) .
	$(BIN)/pybabel update -i $(POT) -d companion/translations -D messages --no-fuzzy-matching

# WeasyPrint needs Pango; Debian's packages, installed only when missing.
system-deps:
	@if ! ldconfig -p | grep -q libpango-1.0; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0; \
	fi

# The tests also run the app on a throw-away PostgreSQL server (Debian's package).
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; \
	fi

# Headless Chromium for the browser tests: Debian's package, never a browser download.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; \
	fi

# zbarimg decodes the QR codes the pages draw, in the browser tests (Debian's zbar-tools).
zbar:
	@if ! command -v zbarimg >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq zbar-tools; \
	fi

# The deployment's proxy (deploy/nginx/companion.conf): `make run` starts its own in front of gunicorn
# (companion/server/front.py), tests/server/test_proxy.py too. Debian's package; the system service the package
# starts is stopped and disabled again (nothing of it stays listening on port 80). Without apt-get
# (macOS...), `make run` serves with gunicorn alone and says so.
nginx:
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nginx \
	    && { $(SUDO) systemctl disable --now nginx >/dev/null 2>&1 \
	         || $(SUDO) service nginx stop >/dev/null 2>&1 || true; }; \
	  else echo "nginx: no apt-get here; install nginx with your package manager (make run works without it)"; fi; \
	fi

# Database schema through migrations, so a stored game survives upgrades.
db: install
	$(BIN)/flask db upgrade

# gunicorn (gunicorn.conf.py) behind nginx (which waits for slow clients) on every interface: prints
# the address the phones open and its QR code. `HOST=127.0.0.1 make run` keeps it to this machine; a
# PORT another program holds moves to the next free one (this clone's previous run is waited for).
run: db nginx
	$(BIN)/python -m companion.server.serve --host $(HOST) --port $(PORT)

# Flask's development server with its reloader and debugger: never for a table or a club, so it
# stays on this machine unless HOST is given.
dev: db
	$(BIN)/python -m companion.server.serve --dev --port $(PORT) \
	  --host $(if $(filter command line environment,$(origin HOST)),$(HOST),127.0.0.1)

lint: install
	$(BIN)/ruff check companion tests bench migrations

# Bounded: a test that hangs fails the run (with faulthandler's stacks) instead of holding it.
test: install chromium zbar postgresql nginx lint
	timeout 3600 $(BIN)/python -m pytest

bench: install
	@for b in bench/bench_*.py; do $(BIN)/python -m bench.$$(basename $$b .py); done

# A few minutes: gunicorn under Locust on loopback, SQLite then PostgreSQL (docs/benchmarks.md, "Under load").
load: install postgresql
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis test-artifacts

# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the pub page's browser tests launch Debian's chromium; Playwright never downloads its own
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test lint browser broker sound docs bench bench-pi bench-scale soak install-pi clean odds \
	tables openings

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# the whole device on a PC: OLED frames, LED tracks and keys in the terminal
run: $(STAMP)
	$(BIN)/pegboard run --simulate

lint: $(STAMP)
	$(BIN)/ruff check pegboard tests bench tools
	$(BIN)/ruff format --check pegboard tests bench tools
	$(BIN)/mypy pegboard

# the pub page's tests need a real browser: Debian's chromium, installed with apt-get when
# missing (as root or with sudo that asks no password), else one line says what to install;
# and DejaVu Sans, the font the golden screenshots were drawn with (the page's system-ui)
browser:
	tools/need_system_packages.sh chromium=chromium \
		/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf=fonts-dejavu-core

# the league's tests run a real MQTT broker: Debian's mosquitto, installed the same way
broker:
	tools/need_system_packages.sh mosquitto=mosquitto

# the spoken calls' tests render speech with Debian's espeak-ng and check it with sox (into WAV
# files: no sound card needed), installed the same way
sound:
	tools/need_system_packages.sh espeak-ng=espeak-ng sox=sox

# pytest on every core (-n auto): the exhaustive checks run side by side
test: lint browser broker sound
	$(BIN)/pytest -n auto

# the README's pictures from the current screens: docs/screens/*.png (compared by
# tests/test_docs_screens.py, so they cannot go stale), the session GIF, and a deal's spoken
# calls, docs/spoken-deal.wav (16 kHz, 8-bit: a few hundred KB; tests/test_docs_speech.py)
docs: $(STAMP) sound
	$(BIN)/pytest -q tests/test_docs_screens.py --update-golden
	out=$$(mktemp -d) && $(BIN)/pegboard run --simulate --headless \
		--keys tests/keys/readme-session.keys --out $$out --gif docs/session.gif && rm -r $$out
	out=$$(mktemp -d) && $(BIN)/pegboard run --simulate --headless \
		--keys tests/keys/spoken-deal.keys --out $$out --speech $$out/deal.wav \
		&& sox $$out/deal.wav -r 16000 -b 8 docs/spoken-deal.wav && rm -r $$out

# benchmarks print figures; cribbage-scorer is the reference for the scoring comparison only
bench: $(STAMP)
	$(BIN)/pip install --quiet cribbage-scorer
	$(BIN)/python bench/run_all.py

# the Pi Zero 2 W figures: every process under a 10% CPU quota (a cgroup; needs root); then
# key -> first spoken word under the Pi 4 (30%) and Pi Zero 2 W (10%) stand-ins
bench-pi: $(STAMP) sound
	$(BIN)/python bench/pi_quota.py
	$(BIN)/python bench/bench_speech.py

# issue 21's cost at scale: every reader of "everything so far" at 100, 1,000 and 10,000 games
# (the league at 1,000 to 100,000), each a process of its own; the databases are cached in
# build/bench-scale. A smoke run: $(BIN)/python bench/bench_scale.py --quick
bench-scale: $(STAMP)
	$(BIN)/python bench/bench_scale.py

# the engine's small precomputed tables (pegboard/engine/data/rank-points-5.bin), rebuilt
tables: $(STAMP)
	$(BIN)/python tools/make_tables.py

# the advised self-play's lead books (pegboard/engine/data/*.openings): the exact play advice's
# lead for every hand and starter, about 20 minutes of CPU for six-card, over every core
openings: $(STAMP)
	nice -n 19 $(BIN)/python tools/make_openings.py

# the win-probability tables (pegboard/engine/data) and docs/odds-six-card.png: self-play of a
# million deals a variant over every core (the two-player variants with the exact play advice:
# about 4 hours of CPU each for six-card and two-in-the-crib), then the counts and the exact
# programme; it prints its time. Finished chunks in build/odds-traces* are kept and reused
odds: $(STAMP)
	nice -n 19 $(BIN)/python tools/make_odds.py

# many more SIGKILL trials against the journal than the test suite runs
soak: $(STAMP)
	$(BIN)/python bench/soak_journal.py 500

# on a Raspberry Pi (Bookworm): user, groups, I2C/SPI, venv in /opt/pegboard, pegboard on PATH
# (/usr/local/bin/pegboard), the systemd unit; then: sudo pegboard selftest
install-pi:
	sudo systemd/install.sh

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

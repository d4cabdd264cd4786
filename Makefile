# Makima TUI. `make demo` and `make test` do all set-up on a fresh Debian machine with Swift.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN = .build/debug/makima-tui
RELEASE_BIN = .build/release/makima-tui
DEMO_PORT ?= 8787
DEMO_KEY ?= mk_demo_local_key_0001

.PHONY: setup build release test lint format demo run bench bench-stream install deb clean devserver fuzz soak soak-week

setup:
	@scripts/setup.sh

build: setup
	@scripts/build-info.sh
	$(SWIFT) build

# The Swift runtime and Foundation are linked into the binary (--static-swift-stdlib): the
# dynamic loader's symbol look-ups were a third of the time to the first frame
# (docs/performance.md), and the binary then runs where no Swift toolchain is installed.
# Linked with the toolchain's lld: GNU ld prints a warning for the `mktemp` inside the static
# Foundation (a .gnu.warning section), which lld does not act on; our code never calls it.
release: setup
	@scripts/build-info.sh
	$(SWIFT) build -c release --static-swift-stdlib -Xswiftc -use-ld=lld

test: build lint
	@scripts/test.sh

# swift format (the toolchain's) with .swift-format: `make format` rewrites, `make lint` checks;
# lint also fails on a function, initialiser or closure body over 60 lines in Sources.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
	@python3 scripts/long-functions.py --max 60 --allow scripts/long-functions.allow Sources

format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Package.swift

demo: build
	@scripts/demo.sh $(DEMO_PORT) $(DEMO_KEY)

run: build
	$(BIN) $(ARGS)

devserver: setup
	python3 devserver/server.py --port $(DEMO_PORT) --demo-key $(DEMO_KEY)

# libFuzzer over every fuzz target (Tests/Fuzz), FUZZ_SECONDS each (default 600), niced.
fuzz: setup
	@scripts/fuzz.sh

# The soak against the dev server: SOAK_MINUTES (default 30) of a busy mesh with faults.
SOAK_MINUTES ?= 30
soak: build
	@python3 Tests/soak/soak.py --minutes $(SOAK_MINUTES)

# The same soak under a wall clock SOAK_SPEED times as fast (libfaketime): SOAK_DAYS (default 7)
# of a mesh in SOAK_DAYS x 1440 / SOAK_SPEED minutes (42 at the defaults), niced.
SOAK_DAYS ?= 7
SOAK_SPEED ?= 240
soak-week: build
	@nice python3 Tests/soak/soak.py --days $(SOAK_DAYS) --speed $(SOAK_SPEED)

bench: release
	@scripts/bench.sh

# The sustained-stream rows of `make bench` alone (about 4 minutes).
bench-stream: release
	@scripts/bench_setup.sh
	@r=$$(mktemp); MAKIMA_BIN=$(RELEASE_BIN) scripts/bench_stream.sh $$r && python3 scripts/bench_table.py --stream $$r $(RELEASE_BIN); rm -f $$r

# The binary, the themes, the man page and the bash, zsh and fish completions.
install: release
	@scripts/install.sh $(RELEASE_BIN) "$(DESTDIR)" $(PREFIX)

# A Debian package of the same (dpkg -i installs it, dpkg -r removes it): .build/deb/*.deb
deb: release
	@scripts/make-deb.sh $(RELEASE_BIN) .build/deb

clean:
	rm -rf .build

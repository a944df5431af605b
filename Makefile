# karaoke — `make` builds release, `make test` runs every test, `make run` plays the demo, `make bench`
# measures. Each target first checks the system packages it needs and installs them with apt-get when it
# can (as root, or with password-less sudo); otherwise it stops and prints the exact command to run.

SWIFT ?= swift
DEMO ?= lyrics/lantern-river.lrc
RELEASE_BIN := .build/release/karaoke

.PHONY: all build test run bench fuzz deps deps-test clean

all: build

build: deps
	$(SWIFT) build -c release --product karaoke

test: deps deps-test
	$(SWIFT) build
	$(SWIFT) test

run: build
	$(RELEASE_BIN) play $(DEMO)

bench: deps
	@$(call ensure_packages,hyperfine)
	$(SWIFT) build -c release
	@mkdir -p bench-data
	.build/release/karaoke-bench
	@.build/release/karaoke-bench --print > bench-data/generated.lrc
	@echo "whole process, 'karaoke check' on the generated file (10 runs):"
	@hyperfine --warmup 2 --runs 10 --style basic "$(RELEASE_BIN) check bench-data/generated.lrc" 2>/dev/null \
	  || { for i in 1 2 3; do /usr/bin/time -f '%e s, %M KB' $(RELEASE_BIN) check bench-data/generated.lrc >/dev/null; done; }
	@if command -v ffprobe >/dev/null; then echo "for scale, ffprobe's LRC reader on the same file:"; \
	  hyperfine --warmup 2 --runs 10 --style basic "ffprobe -v error -f lrc -show_format bench-data/generated.lrc" 2>/dev/null; fi

# libFuzzer on the parser, composer and encodings, seeded with the bundled songs; FUZZ_SECONDS to taste.
# A crash lands in bench-data/fuzz-crashes/; replay it with `.build/debug/karaoke-fuzz FILE`.
FUZZ_SECONDS ?= 300
fuzz: deps
	$(SWIFT) build -c release --build-path .build-fuzz --product karaoke-fuzz --sanitize=fuzzer -Xswiftc -DFUZZING
	@mkdir -p bench-data/fuzz-corpus bench-data/fuzz-crashes && cp lyrics/*.lrc bench-data/fuzz-corpus/
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/karaoke-fuzz bench-data/fuzz-corpus \
	  -artifact_prefix=bench-data/fuzz-crashes/ -max_len=8192 -timeout=10 -max_total_time=$(FUZZ_SECONDS)

clean:
	rm -rf .build .build-fuzz bench-data

# Installs the Debian packages named, or says how to.
define ensure_packages
	missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo"; else \
	    echo "karaoke: missing packages:$$missing"; echo "run: sudo apt-get install -y$$missing"; exit 1; fi; \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	    || { echo "karaoke: could not install$$missing; run: sudo apt-get install -y$$missing"; exit 1; }; \
	fi
endef

deps:
	@command -v $(SWIFT) >/dev/null || { echo "karaoke: Swift 6 is needed: https://www.swift.org/install/linux/"; exit 1; }
	@$(call ensure_packages,libncurses-dev pkg-config ncurses-term mpv)

# The end-to-end tests drive the real binary in tmux (C.UTF-8 is built into glibc: no locale package).
deps-test:
	@$(call ensure_packages,tmux)

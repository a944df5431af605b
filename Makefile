# karaoke — `make` builds release, `make test` runs every test, `make run` plays the demo, `make bench`
# measures. Each target first checks the system packages it needs and installs them with apt-get when it
# can (as root, or with password-less sudo); otherwise it stops and prints the exact command to run.

SWIFT ?= swift
DEMO ?= lyrics/lantern-river.lrc
RELEASE_BIN := .build/release/karaoke

.PHONY: all build test run bench fuzz fuzz-smoke fuzz-build check-asan check-tsan deps deps-test clean

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

# libFuzzer, one target per parser plus `frame` (detection, then layout, fill and every encoding at several
# sizes and times), chosen by KARAOKE_FUZZ_TARGET. Each is seeded with the bundled songs and the corpus folder
# of its format (CORPUS, default ../shared/corpus, when it exists) and runs FUZZ_SECONDS; `make fuzz-smoke`
# runs them all for FUZZ_SMOKE_SECONDS each (under a minute in all). A crash lands in bench-data/fuzz-crashes/
# named for its target; replay it with `KARAOKE_FUZZ_TARGET=srt .build/debug/karaoke-fuzz FILE`.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 6
FUZZ_TARGETS ?= lrc srt webvtt ass ultrastar ttml frame
CORPUS ?= $(or $(KARAOKE_CORPUS),../shared/corpus)
FUZZ_BIN := .build-fuzz/release/karaoke-fuzz

fuzz: fuzz-build
	@$(call run_fuzz,$(FUZZ_SECONDS))

fuzz-smoke: fuzz-build
	@$(call run_fuzz,$(FUZZ_SMOKE_SECONDS))

fuzz-build: deps
	$(SWIFT) build -c release --build-path .build-fuzz --product karaoke-fuzz --sanitize=fuzzer -Xswiftc -DFUZZING

# Runs every target in FUZZ_TARGETS for $(1) seconds; prints the executions of each, or the crash and stops.
define run_fuzz
	mkdir -p bench-data/fuzz-crashes bench-data/fuzz-logs; \
	for t in $(FUZZ_TARGETS); do \
	  dir=bench-data/fuzz-corpus/$$t; mkdir -p $$dir; \
	  case $$t in lrc) seeds="lrc elrc";; srt) seeds=srt;; webvtt) seeds=vtt;; ass) seeds=ass;; \
	    ultrastar) seeds=ultrastar;; ttml) seeds=ttml;; *) seeds="lrc elrc srt vtt ass ultrastar ttml";; esac; \
	  case $$t in lrc|frame) cp lyrics/*.lrc $$dir/;; esac; \
	  for f in $$seeds; do if [ -d "$(CORPUS)/$$f" ]; then cp "$(CORPUS)/$$f"/* $$dir/ 2>/dev/null || true; fi; done; \
	  log=bench-data/fuzz-logs/$$t.log; \
	  if KARAOKE_FUZZ_TARGET=$$t SWIFT_BACKTRACE=enable=no $(FUZZ_BIN) $$dir -artifact_prefix=bench-data/fuzz-crashes/$$t- \
	       -max_len=16384 -timeout=10 -rss_limit_mb=2048 -max_total_time=$(1) -print_final_stats=1 >$$log 2>&1; then \
	    printf '%-10s %s\n' "$$t" "$$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $$log)"; \
	  else tail -40 $$log; echo "karaoke: fuzz target '$$t' failed; the input is in bench-data/fuzz-crashes/"; exit 1; fi; \
	done
endef

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan bench-data

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

# karaoke — `make` builds release, `make test` runs every test, `make run` plays the demo, `make bench`
# measures. Each target first checks the system packages it needs and installs them with apt-get when it
# can (as root, or with password-less sudo); otherwise it stops and prints the exact command to run.

SWIFT ?= swift
DEMO ?= lyrics/lantern-river.lrc
RELEASE_BIN := .build/release/karaoke

.PHONY: all build install install-files uninstall test run demo bench fuzz fuzz-smoke fuzz-build check-release check-asan check-tsan format format-check deps deps-test clean

all: build

# karaoke-tags (the TagLib helper, DESIGN §10.2) is built beside karaoke, which finds it there.
build: deps
	$(SWIFT) build -c release --product karaoke
	$(SWIFT) build -c release --product karaoke-tags

# Installing (DESIGN §14.5): the two binaries side by side (karaoke runs karaoke-tags from its own folder), the
# man page karaoke(1) and the bash, zsh and fish completions, all made by the built binary from its option table.
# `make install-files BUILT=DIR` installs what DIR holds without building (the install test uses it).
PREFIX ?= /usr/local
DESTDIR ?=
BUILT ?= .build/release
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
INSTALLED := $(BINDIR)/karaoke $(BINDIR)/karaoke-tags $(MANDIR)/karaoke.1 $(BASHDIR)/karaoke $(ZSHDIR)/_karaoke \
  $(FISHDIR)/karaoke.fish

install: build
	@$(MAKE) --no-print-directory install-files

install-files:
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(BUILT)/karaoke $(BUILT)/karaoke-tags $(BINDIR)/
	$(BUILT)/karaoke --generate man > $(MANDIR)/karaoke.1
	$(BUILT)/karaoke --generate bash > $(BASHDIR)/karaoke
	$(BUILT)/karaoke --generate zsh > $(ZSHDIR)/_karaoke
	$(BUILT)/karaoke --generate fish > $(FISHDIR)/karaoke.fish
	chmod 644 $(MANDIR)/karaoke.1 $(BASHDIR)/karaoke $(ZSHDIR)/_karaoke $(FISHDIR)/karaoke.fish

uninstall:
	rm -f $(INSTALLED)

# The build of the tests builds the binaries too; Tests/run-tests runs the end-to-end suites and the rest side by
# side (the rest at the lowest priority), which `swift test` cannot: it holds the build folder's lock while it runs.
test: deps deps-test
	$(SWIFT) build --build-tests
	Tests/run-tests

run: build
	$(RELEASE_BIN) play $(DEMO)

# The pictures in the README, drawn by karaoke itself (DESIGN §26, §27): docs/demo.svg, 20 s of the demo song
# at 80×24 and 30 fps, and one still of each thing the player draws that a sentence cannot show. Drawn with
# no config file and no COLORFGBG, so the pictures are the defaults; remade files replace the checked-in ones.
DEMO_RENDER = env -u COLORFGBG XDG_CONFIG_HOME=/nonexistent $(RELEASE_BIN) render --force --format svg
demo: build
	$(DEMO_RENDER) $(DEMO) --from 2 --to 22 --cols 80 --rows 24 -o docs/demo.svg
	$(DEMO_RENDER) lyrics/harbour-bells.ttml --at 11.5 --cols 80 --rows 16 -o docs/still-duet.svg
	$(DEMO_RENDER) lyrics/sakura-station.lrc --at 5.5 --cols 80 --rows 12 -o docs/still-translation.svg
	$(DEMO_RENDER) lyrics/desert-stars.lrc --at 16 --cols 80 --rows 12 -o docs/still-rtl.svg
	$(DEMO_RENDER) lyrics/sakura-station.lrc --at 21.5 --cols 60 --rows 12 --no-translation -o docs/still-cjk.svg
	$(DEMO_RENDER) lyrics/paper-boats.lrc --at 9.6 --reduce-motion --cols 80 --rows 12 -o docs/still-reduce-motion.svg
	$(DEMO_RENDER) lyrics/harbour-bells.txt --score --at 6.5 --cols 80 --rows 20 -o docs/still-lanes.svg

# One table: parse throughput of a generated ~6 MB file per format, frame composition, `karaoke check` beside
# ffmpeg's LRC reader on the same file, and `karaoke play --no-audio` of the demo at 100×30 and 30 fps measured
# in a pseudo-terminal for 10 s, three runs each in xterm-256color and xterm-direct (needs python3 and
# TOOLS/ttymeasure.py, and ncurses-term for xterm-direct's terminfo): bytes/s beside the byte floor of the same
# frames (README, `make bench`), CPU and peak memory beside their budgets; then `play --score` of the bundled
# UltraStar duet with a PulseAudio server of its own and paplay singing into its null sink (its CPU beside the 5 %
# budget, and its pitch readings a second); then a generated 4-minute MIDI synthesised by FluidSynth and by
# libsonivox, whole and with its accompaniment (beside the 20× real time budget); then a CD+G picture that
# changes everywhere drawn in cells through libchafa at 100×30's size, µs a call in true colour and 256 colours,
# and play of a generated CD+G song. The generated files stay in bench-data/.
TOOLS ?= ../shared/tools

bench: deps
	@$(call ensure_packages,ffmpeg python3 pulseaudio pulseaudio-utils)
	$(SWIFT) build -c release --product karaoke
	$(SWIFT) build -c release --product karaoke-bench
	@mkdir -p bench-data
	.build/release/karaoke-bench --karaoke $(RELEASE_BIN) --tools $(TOOLS) --data bench-data --song $(DEMO)

# libFuzzer, one target per parser plus `frame` (detection, then layout, fill and every encoding at several
# sizes and times, and the painter's bytes at every colour depth), chosen by KARAOKE_FUZZ_TARGET. Each is seeded with the bundled songs and the corpus folder
# of its format (CORPUS, default ../shared/corpus, when it exists) and runs FUZZ_SECONDS; `make fuzz-smoke`
# runs them all for FUZZ_SMOKE_SECONDS each (under a minute in all). A crash lands in bench-data/fuzz-crashes/
# named for its target; replay it with `KARAOKE_FUZZ_TARGET=srt .build/debug/karaoke-fuzz FILE`.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 6
FUZZ_TARGETS ?= lrc srt webvtt ass ultrastar ttml midi frame cdg party
CORPUS ?= $(or $(KARAOKE_CORPUS),../shared/corpus)
FUZZ_BIN := .build-fuzz/release/karaoke-fuzz

fuzz: fuzz-build
	@$(call run_fuzz,$(FUZZ_SECONDS))

fuzz-smoke: fuzz-build
	@$(call run_fuzz,$(FUZZ_SMOKE_SECONDS))

fuzz-build: deps
	$(SWIFT) build -c release --build-path .build-fuzz --product karaoke-fuzz --sanitize=fuzzer -Xswiftc -DFUZZING

# A small hand-written file of target $(1)'s format in folder $(2), so a clean clone without the corpus
# still starts each parser from something it reads.
define fuzz_seed
	case $(1) in \
	  srt) printf '1\n00:00:01,000 --> 00:00:02,500\nsoft <i>rain</i> falls\n\n2\n00:00:03,000 --> 00:00:04,000\n<font color="red">home</font>\n' > $(2)/seed.srt;; \
	  webvtt) printf 'WEBVTT\n\nNOTE own words\n\n1\n00:00:01.000 --> 00:00:03.000 align:start\n<v Ann>soft <00:00:02.000>rain</v>\n\n00:04.000 --> 00:05.000\n<c.red>home</c>\n' > $(2)/seed.vtt;; \
	  ass) printf '[Script Info]\nTitle: seed\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:03.00,Default,Ann,0,0,0,,{\\k40}soft {\\kf60}rain\\Nhome\n' > $(2)/seed.ass;; \
	  ultrastar) printf '#TITLE:Seed\n#ARTIST:Own\n#BPM:240\n#GAP:500\nP1\n: 0 4 5 soft\n* 4 4 7  rain\n- 10\nP2\nF 12 4 2 home\nE\n' > $(2)/seed.txt;; \
	  party) printf '\006/api/songs\001q=one\000\001/api/requests\001\001{"code":"4711","singer":"Ana","song":"x"}\000\006/api/queue\000\002\001\000\010/api/requests/1\001\001{"code":"4711","singer":"Ana"}' > $(2)/seed.party;; \
	  cdg) printf '\011\001\0\0\002\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\011\036\0\0\017\077\0\060\060\0\0\017\0\0\0\0\0\0\0\0\0\0\0\0\011\006\0\0\000\001\005\010\077\041\041\041\041\077\0\014\014\0\077\077\0\0\0\0\011\030\0\0\003\022\041\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' > $(2)/seed.cdg;; \
	  ttml) printf '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><body><div>\n<p begin="1s" end="3s" ttm:agent="v1"><span begin="1s" end="2s">soft </span><span begin="2s" end="3s">rain</span></p>\n<p begin="00:00:04.000" dur="1s">home<br/>again</p></div></body></tt>\n' > $(2)/seed.ttml;; \
	  midi) printf 'MThd\000\000\000\006\000\001\000\002\001\340MTrk\000\000\000\013\000\377\121\003\007\241\040\000\377\057\000MTrk\000\000\000\070\000\377\003\005Words\000\377\001\006@TSeed\000\220\074\100\000\377\001\005\\Soft\140\200\074\000\000\377\001\005/rain\000\220\076\100\140\076\000\000\377\057\000' > $(2)/seed.kar;; \
	  *) printf '[ti:Seed]\n[00:01.00]<00:01.00>soft <00:01.50>rain\n[00:03.00]home\n' > $(2)/seed.lrc;; \
	esac
endef

# Runs every target in FUZZ_TARGETS for $(1) seconds; prints the executions of each, or the crash and stops.
define run_fuzz
	mkdir -p bench-data/fuzz-crashes bench-data/fuzz-logs; \
	for t in $(FUZZ_TARGETS); do \
	  dir=bench-data/fuzz-corpus/$$t; mkdir -p $$dir; \
	  case $$t in lrc) seeds="lrc elrc";; srt) seeds=srt;; webvtt) seeds=vtt;; ass) seeds=ass;; \
	    ultrastar) seeds=ultrastar;; ttml) seeds=ttml;; midi) seeds=kar;; cdg) seeds=cdg;; party) seeds=party;; *) seeds="lrc elrc srt vtt ass ultrastar ttml";; esac; \
	  case $$t in lrc|frame) cp lyrics/*.lrc $$dir/;; esac; \
	  $(call fuzz_seed,$$t,$$dir); \
	  for f in $$seeds; do if [ -d "$(CORPUS)/$$f" ]; then cp "$(CORPUS)/$$f"/* $$dir/ 2>/dev/null || true; fi; done; \
	  log=bench-data/fuzz-logs/$$t.log; \
	  if KARAOKE_FUZZ_TARGET=$$t SWIFT_BACKTRACE=enable=no $(FUZZ_BIN) $$dir -artifact_prefix=bench-data/fuzz-crashes/$$t- \
	       -max_len=16384 -timeout=10 -rss_limit_mb=2048 -max_total_time=$(1) -print_final_stats=1 >$$log 2>&1; then \
	    printf '%-10s %s\n' "$$t" "$$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $$log)"; \
	  else tail -40 $$log; echo "karaoke: fuzz target '$$t' failed; the input is in bench-data/fuzz-crashes/"; exit 1; fi; \
	done
endef

# The core tests under AddressSanitizer (and LeakSanitizer), in their own build folder. KARAOKE_TESTS=core gives
# the package the core's test target alone (Package.swift), and the build is of the test product only: KaraokeCore
# and its tests, not the driver, the programs, the bench, the fuzzer or the other tests, which would never run
# here. The XCTest runner (which runs first, with no tests) leaks two small objects, and Foundation's Process.run
# (which the MIDI test that asks mido for a second opinion starts python3 with) two more; those leaks are not
# ours and are suppressed. KARAOKE_SANITIZED lengthens the hardening suites' guard against a runaway (5 minutes,
# counted while a test waits behind the rest of the run too) to 15: the core tests take about 300 s under ASan.
SANITIZER_LOGS := bench-data/sanitizers
check-asan: deps
	KARAOKE_TESTS=core $(SWIFT) build --product karaokePackageTests --sanitize=address --build-path .build-asan
	@mkdir -p $(SANITIZER_LOGS) && printf 'leak:libXCTest.so\nleak:Foundation7ProcessC3run\n' > $(SANITIZER_LOGS)/lsan.supp
	KARAOKE_TESTS=core KARAOKE_SANITIZED=address LSAN_OPTIONS=suppressions=$(CURDIR)/$(SANITIZER_LOGS)/lsan.supp ASAN_OPTIONS=detect_leaks=1 \
	  $(SWIFT) test --skip-build --sanitize=address --build-path .build-asan --filter KaraokeCoreTests

# The end-to-end tests that reach C libraries, helper programs and threads again, against the release build: the
# optimiser has removed code the debug build kept (a C shim's state, once), and users run the release build. The
# suites left out (the command line, finding, settings, the queue, sync, install) exercise Swift code only, which
# `make test` runs end to end and the core tests cover.
RELEASE_SUITES := Fetch|PlayFetch|PlainTextLyrics|Follow|MPD|Mic|Scoring|Tag|TaggedFetch|EmbeddedLyrics|Audio|Format|Convert|Fault|Injection|Play
check-release: deps deps-test build
	$(SWIFT) build --build-tests
	KARAOKE_BINARY=$(CURDIR)/$(RELEASE_BIN) $(SWIFT) test --skip-build --filter 'KaraokeEndToEndTests\.($(RELEASE_SUITES))'

# The threads under ThreadSanitizer: the audio, follow, play --fetch, microphone and scoring end-to-end tests against a
# karaoke binary built with TSan (mpv's reader thread, the MPD and MPRIS connection threads, the LRCLIB lookup and
# the microphone's capture thread beside the main loop; the core has no threads, and its timing tests fail at TSan's
# speed). Only the binary is built with TSan: the tests themselves are the debug build's, pointed at it. The
# binary's reports go to files, since its stderr is the terminal in tmux; any report fails the target.
# KARAOKE_SANITIZED makes the tests' bounds on time and on real-time audio (a clock gap, a score of tones sung on
# time) known issues when they fail: under ThreadSanitizer's slowdown they measure the sanitizer (a CI run scored
# 8,590 and measured a 109 ms round trip); make test and check-release hold them.
check-tsan: deps deps-test
	$(SWIFT) build --sanitize=thread --build-path .build-tsan --product karaoke
	@nm .build-tsan/debug/karaoke | grep -q __tsan_init || { echo "karaoke: .build-tsan/debug/karaoke is not built with ThreadSanitizer"; exit 1; }
	$(SWIFT) build --build-tests
	@rm -rf $(SANITIZER_LOGS)/tsan && mkdir -p $(SANITIZER_LOGS)/tsan
	KARAOKE_BINARY=$(CURDIR)/.build-tsan/debug/karaoke KARAOKE_SANITIZED=thread \
	  TSAN_OPTIONS=log_path=$(CURDIR)/$(SANITIZER_LOGS)/tsan/report \
	  $(SWIFT) test --skip-build --filter 'KaraokeEndToEndTests\.(AudioTests|MPDTests|Follow|PlayFetchTests|MicTests|ScoringTests)'
	@if ls $(SANITIZER_LOGS)/tsan/report* >/dev/null 2>&1; then cat $(SANITIZER_LOGS)/tsan/report*; \
	  echo "karaoke: ThreadSanitizer reported the races above"; exit 1; fi

# The code is formatted by swift-format (part of the toolchain) to .swift-format; `make format` rewrites it,
# `make format-check` lists what differs without changing anything.
format:
	$(SWIFT) format --in-place --recursive --parallel Package.swift Sources Tests

format-check:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests

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
	@$(call ensure_packages,libncurses-dev pkg-config ncurses-term mpv libxml2 libtag1-dev libdbus-1-3 libpulse0 libaubio5 libfluidsynth3 timgm6mb-soundfont libsonivox3 libarchive13 libmicrohttpd12 libchafa0 libqrencode4 libfribidi0 libkakasi2 kakasi-dic unifont)

# The end-to-end tests drive the real binary in tmux (C.UTF-8 is built into glibc: no locale package); the
# terminal-safety test reads play's raw output through ../shared/tools/ttymeasure.py, which needs python3.
# The tag tests make tagged audio with ffmpeg and mutagen (PyPI), and mido (PyPI) checks the MIDI reader's times
# as a second opinion; pip may refuse a system Python (PEP 668),
# hence the second try. The MPD tests start mpd of their own (temporary folder, free port, null output) and
# drive it with mpc; Debian's mpd package also sets up a system service, which the tests never use or touch
# (they never connect to port 6600 or /run/mpd). The MPRIS tests start their own D-Bus bus (dbus-daemon) with
# mpv and its MPRIS plugin (mpv-mpris) on it, and look at mpv through playerctl. The install test renders the
# man page with man-db's `man -l` and parses the completion scripts with bash, zsh and fish. The microphone
# tests start a PulseAudio server of their own (temporary folder, private socket, a null sink whose monitor is
# the microphone) and play into it with paplay (pulseaudio-utils); the user's server is never used. The party
# server's tests talk to it with curl, besides a raw socket of their own. The party's QR code is read back from a
# picture of its cells by zbar-tools' zbarimg. Two guests use the party's page in headless chromium, driven
# through chromium-driver by python3-selenium (Tests/Browser/guests.py, run with Debian's /usr/bin/python3).
deps-test:
	@$(call ensure_packages,tmux python3 python3-pip ffmpeg libcurl4 curl mpd mpc dbus-daemon mpv-mpris playerctl man-db zsh fish pulseaudio pulseaudio-utils zbar-tools libfribidi-bin chromium chromium-driver python3-selenium kakasi)
	@for m in mutagen mido; do python3 -c "import $$m" 2>/dev/null || python3 -m pip install --quiet $$m 2>/dev/null \
	  || python3 -m pip install --quiet --break-system-packages $$m \
	  || { echo "karaoke: could not install $$m; run: python3 -m pip install $$m"; exit 1; }; done

# crown: the Phantom Crown, a PBEM adjudicator for Maximilian Rules!
#
#   make            build ./crown
#   make test       install missing -dev packages (as root), build, run every
#                   test, then again under AddressSanitizer and UBSan
#   make demo       set up, build, and play a bundled campaign
#   make check-site crown site's pages in an HTML5 parser and a browser
#   make check-mta  a campaign's mail through a Postfix of its own (root)
#   make layers     check that the object files' calls make no cycle and
#                   go down the layers (doc/design.md)
#   make fuzz       build the libFuzzer targets of tests/fuzz with clang and
#                   run each for FUZZ_SECONDS (60) seconds
#   make install PREFIX=/usr/local
#
# The top-level targets that need libraries first run contrib/setup-deps.sh,
# then call make again, so pkg-config runs only once the packages exist.

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
DATADIR	?= $(PREFIX)/share/crown
MANDIR	?= $(PREFIX)/share/man
COMPDIR	?= $(PREFIX)/share/bash-completion/completions
BUILD	?= build
CC	?= cc

# the libraries crown is linked with
PKGS	:= yaml-0.1 libpcre2-8 libsodium libcmark-gfm libgit2 gmime-3.0 gpgme zlib
OPT	?= -O2 -g
# -Wformat=2: every message's format is a literal the compiler checks
WARN	:= -std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wformat=2 \
	   -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# -ffp-contract=off: no fused multiply-add, so geometry gives the same bits
# on every machine (STYLE.md, determinism).
ALL_CFLAGS = $(OPT) $(WARN) -ffp-contract=off -D_DEFAULT_SOURCE \
	   -D_POSIX_C_SOURCE=200809L -Iinclude \
	   -DCROWN_DATADIR='"$(DATADIR)"' $(PKG_CFLAGS) $(CFLAGS)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lm
TEST_CFLAGS = $(shell pkg-config --cflags cmocka)
TEST_LIBS  = $(shell pkg-config --libs cmocka)

# adjudicator/main.c and one folder a layer (doc/design.md)
LAYERS	:= cmd history mail report engine model io
LIB_SRCS := $(sort $(foreach l,$(LAYERS),$(wildcard adjudicator/$(l)/*.c)))
LIB_OBJS := $(LIB_SRCS:adjudicator/%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HDRS := $(wildcard include/crown/*.h) $(wildcard adjudicator/*/*.h) \
	$(wildcard tests/unit/*.h)

SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=all

.PHONY: all deps test-deps build test check check-unit check-asan check-install demo install clean \
	bench fuzz layers check-site check-mta map-example

all: deps
	@$(MAKE) --no-print-directory build

# the libraries, and the tools the tests use: rsvg-convert renders the
# maps (test-report), git checks what crown wrote (test-history)
deps:
	@sh contrib/setup-deps.sh rsvg-convert:librsvg2-bin git:git gpg:gnupg

# and for make test only: crown site's pages are checked by an HTML5
# parser, xmllint and headless Chromium (tests/site/check.sh); the mail
# goes through a Postfix of the test's own, installed unconfigured, and
# Python's smtplib (tests/mta/check.sh)
test-deps:
	@sh contrib/setup-deps.sh rsvg-convert:librsvg2-bin git:git gpg:gnupg \
	    xmllint:libxml2-utils chromium:chromium \
	    python3/html5lib:python3-html5lib \
	    /usr/sbin/postfix:postfix python3/smtplib:python3

build: crown

crown: $(BUILD)/crown
	cp $(BUILD)/crown crown

# Makefile too: a change of flags or libraries rebuilds what they build
$(BUILD)/obj/%.o: adjudicator/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libcrown.a: $(LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $(LIB_OBJS)

$(BUILD)/crown: $(BUILD)/obj/main.o $(BUILD)/libcrown.a Makefile
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -o $@ $(BUILD)/obj/main.o \
	    $(BUILD)/libcrown.a $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcrown.a $(HDRS) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) \
	    -Itests/unit -o $@ $< $(BUILD)/libcrown.a \
	    $(PKG_LIBS) $(TEST_LIBS) $(LDFLAGS)

# Run every unit test binary from the top of the tree; cmocka prints its
# summary lines for each group.  test-cli runs the golden command-line
# tests of tests/golden against $(BUILD)/crown.
check-unit: $(UNIT_BINS) $(BUILD)/crown
	@fail=0; for t in $(UNIT_BINS); do \
		CROWN_BIN=$(BUILD)/crown $$t || fail=1; \
	done; \
	exit $$fail

check-asan:
	@$(MAKE) --no-print-directory BUILD=build/asan OPT="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" check-unit

# The layers of doc/design.md, from the symbols of the object files: no
# cycle between files or folders, no call up the order main/cmd >
# history, mail, report > engine > model > io; and the sizes: no .c file
# over 1,500 lines, at most five functions over 120 (tests/layers).
layers: $(BUILD)/libcrown.a $(BUILD)/obj/main.o
	@st=0; sh tests/layers/check.sh $(BUILD)/obj || st=1; \
	sh tests/layers/sizes.sh adjudicator || st=1; exit $$st

# make install into a scratch DESTDIR, and what it installed
check-install: all
	@sh tests/install/check.sh

# crown site's pages in an HTML5 parser and in headless Chromium
check-site: build
	@sh tests/site/check.sh ./crown

# a campaign's mail through a Postfix of its own on 127.0.0.1: briefings,
# the players' mail by SMTP, answers and reports (root only: else a SKIP)
check-mta: build
	@sh tests/mta/check.sh ./crown

# Every check runs, whatever failed before it; the last line is the count
# of the whole run, "N passed, N failed" (tests/summary.sh).
check: build
	@mkdir -p $(BUILD); st=0; \
	{ $(MAKE) --no-print-directory layers || st=1; \
	  $(MAKE) --no-print-directory check-install || st=1; \
	  $(MAKE) --no-print-directory check-site || st=1; \
	  $(MAKE) --no-print-directory check-mta || st=1; \
	  $(MAKE) --no-print-directory check-asan || st=1; \
	  $(MAKE) --no-print-directory check-unit || st=1; \
	  echo $$st >$(BUILD)/check.status; } 2>&1 | tee $(BUILD)/check.log; \
	sh tests/summary.sh $(BUILD)/check.log "$$(cat $(BUILD)/check.status)"

test: test-deps
	@$(MAKE) --no-print-directory check

demo: deps
	@$(MAKE) --no-print-directory build
	@sh contrib/demo.sh

# doc/map-example.png, the map shown in doc/players.md
map-example: build
	@sh contrib/map-example.sh

# valgrind (callgrind counts the instructions) for the bench only
bench: deps
	@sh contrib/setup-deps.sh valgrind:valgrind
	@$(MAKE) --no-print-directory build $(BUILD)/bench
	@sh contrib/bench.sh

# the benchmark driver: generates battles, times the engine alone, the
# libyaml floor and the whole command (tests/bench/bench.c)
$(BUILD)/bench: tests/bench/bench.c $(BUILD)/libcrown.a $(HDRS) Makefile
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libcrown.a \
	    $(PKG_LIBS) $(LDFLAGS)

# Fuzzing: the libFuzzer targets of tests/fuzz, built by clang with ASan
# and UBSan into build/fuzz.  `make fuzz FUZZ_SECONDS=600` runs each target
# that long (two at a time with -j2) from the seeds cut from tests/cases and
# tests/data, the corpus it grows (build/fuzz/corpus) and the inputs that
# once crashed (tests/fuzz/crashers); a crash stops it with the input in
# build/fuzz/artifacts.  FUZZ_FLAGS passes libFuzzer options, e.g.
# "-fork=1 -ignore_crashes=1" to go on after a crash and keep every one.
FUZZ_SECONDS	?= 60
FUZZ_FLAGS	?=
FUZZ_CC		?= clang
FUZZ_BUILD	:= build/fuzz
FUZZ_TARGETS	:= state orders rules dice turn \
		   $(if $(wildcard adjudicator/io/template.c),template) \
		   $(if $(wildcard adjudicator/model/shorthand.c),shorthand) \
		   $(if $(wildcard adjudicator/cmd/cmd-inbox.c),inbox) \
		   $(if $(wildcard adjudicator/mail/flowed.c),unflow)
FUZZ_SAN	:= -O1 -g -fno-omit-frame-pointer \
		   -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_BINS	:= $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)

.PHONY: fuzz-build fuzz-seeds fuzz-run

# test-crashers.c runs the fuzz harnesses on the saved crashers
$(BUILD)/tests/test-crashers: $(wildcard tests/fuzz/*.c tests/fuzz/*.h)

fuzz:
	@sh contrib/setup-deps.sh --fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@$(MAKE) --no-print-directory fuzz-seeds
	@$(MAKE) --no-print-directory fuzz-run

# -Wno-error: clang's warnings are not the gate here, crashes are.  The
# targets read their fixtures (the rules, a state) from a copy made with
# them, so that editing the tree does not change a running fuzzer.
fuzz-build:
	@mkdir -p $(FUZZ_BUILD)/data/rules $(FUZZ_BUILD)/data/tests/data
	@cp rules/*.yaml $(FUZZ_BUILD)/data/rules/
	@cp tests/data/*.yaml $(FUZZ_BUILD)/data/tests/data/
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
	    OPT="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
	    CFLAGS="-Wno-error \
		-DCROWN_SRCDIR='\"$(CURDIR)/$(FUZZ_BUILD)/data\"'" \
	    LDFLAGS="-fsanitize=address,undefined" \
	    $(FUZZ_BINS) $(FUZZ_BUILD)/mkseeds

$(BUILD)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(BUILD)/libcrown.a \
    $(HDRS) Makefile
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	    $(BUILD)/libcrown.a $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/mkseeds: tests/fuzz/mkseeds.c $(BUILD)/libcrown.a $(HDRS) Makefile
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libcrown.a \
	    $(PKG_LIBS) $(LDFLAGS)

fuzz-seeds:
	@rm -rf $(FUZZ_BUILD)/seeds
	@for t in $(FUZZ_TARGETS); do mkdir -p $(FUZZ_BUILD)/seeds/$$t; done
	@$(FUZZ_BUILD)/mkseeds case $(FUZZ_BUILD)/seeds \
	    $(sort $(wildcard tests/cases/*.yaml))
	@cp tests/data/state-*.yaml $(FUZZ_BUILD)/seeds/state/
	@cp tests/data/orders-*.yaml $(FUZZ_BUILD)/seeds/orders/
	@cp tests/data/dice-*.txt $(FUZZ_BUILD)/seeds/dice/
	@cp rules/maximilian.yaml $(FUZZ_BUILD)/seeds/rules/
	@$(FUZZ_BUILD)/mkseeds turn $(FUZZ_BUILD)/seeds/turn/data-small.yaml \
	    tests/data/state-small.yaml tests/data/orders-french-ok.yaml \
	    tests/data/orders-republic-ok.yaml
	@for t in $(FUZZ_TARGETS); do \
	    if ls tests/fuzz/seeds/$$t/* >/dev/null 2>&1; then \
		cp tests/fuzz/seeds/$$t/* $(FUZZ_BUILD)/seeds/$$t/; fi; \
	done
	@if ls templates/*.tmpl >/dev/null 2>&1; then \
	    cp templates/*.tmpl $(FUZZ_BUILD)/seeds/template/; fi

fuzz-run: $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-run-%:
	@mkdir -p $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/artifacts
	@touch $(FUZZ_BUILD)/.start-$*
	@echo "  FUZZ $* for $(FUZZ_SECONDS)s (log: $(FUZZ_BUILD)/fuzz-$*.log)"
	@$(FUZZ_BUILD)/fuzz-$* -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    $(if $(wildcard tests/fuzz/$*.dict),-dict=tests/fuzz/$*.dict, \
		$(if $(filter dice,$*),,-dict=tests/fuzz/yaml.dict)) \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$*- $(FUZZ_FLAGS) \
	    $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/seeds/$* \
	    $(wildcard tests/fuzz/crashers/$*) \
	    >$(FUZZ_BUILD)/fuzz-$*.log 2>&1; st=$$?; \
	new=$$(find $(FUZZ_BUILD)/artifacts -name '$*-*' \
	    -newer $(FUZZ_BUILD)/.start-$*); \
	if [ $$st -eq 0 ] && [ -z "$$new" ]; then \
		printf '  FUZZ %s: ok, %s runs\n' $* "$$(sed -n -e \
		    's/^stat::number_of_executed_units: *//p' -e \
		    's/^#\([0-9]*\).*/\1/p' $(FUZZ_BUILD)/fuzz-$*.log | \
		    tail -n 1)"; \
	else \
		tail -n 40 $(FUZZ_BUILD)/fuzz-$*.log; \
		echo "  FUZZ $*: FAILED; inputs:" $$new; \
		exit 1; \
	fi

# The bash completion is made by the program from its command table, so
# it cannot drift from the commands; the bundled games (scenario, briefing,
# sample orders) go under DATADIR/games, where `crown show DIR 0` finds
# their victory conditions; the outbox sender is crown-send-outbox, the
# week's steps of many campaigns crown-week, with a systemd unit and timer
# to copy under DATADIR/systemd.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules \
	    $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(COMPDIR)
	install -m 755 crown $(DESTDIR)$(BINDIR)/crown
	install -m 755 contrib/send-outbox.sh \
	    $(DESTDIR)$(BINDIR)/crown-send-outbox
	install -m 755 contrib/crown-week.sh $(DESTDIR)$(BINDIR)/crown-week
	install -d $(DESTDIR)$(DATADIR)/systemd
	install -m 644 contrib/systemd/crown-week.service \
	    contrib/systemd/crown-week.timer $(DESTDIR)$(DATADIR)/systemd/
	install -m 644 rules/*.yaml $(DESTDIR)$(DATADIR)/rules/
	if ls templates/* >/dev/null 2>&1; then \
	    install -m 644 templates/* $(DESTDIR)$(DATADIR)/templates/; fi
	for f in $$(cd games && find . -type f | sort); do \
	    install -d "$(DESTDIR)$(DATADIR)/games/$$(dirname $$f)" && \
	    install -m 644 "games/$$f" "$(DESTDIR)$(DATADIR)/games/$$f" || \
	    exit 1; done
	./crown --bash-completion > $(DESTDIR)$(COMPDIR)/crown
	chmod 644 $(DESTDIR)$(COMPDIR)/crown
	sed 's|@DATADIR@|$(DATADIR)|g' doc/crown.1 > \
	    $(DESTDIR)$(MANDIR)/man1/crown.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/crown.1

clean:
	rm -rf build crown

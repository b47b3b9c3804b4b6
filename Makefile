# crown: the Phantom Crown, a PBEM adjudicator for Maximilian Rules!
#
#   make            build ./crown
#   make test       install missing -dev packages (as root), build, run every
#                   test, then again under AddressSanitizer and UBSan
#   make demo       set up, build, and play a bundled campaign
#   make install PREFIX=/usr/local
#
# The top-level targets that need libraries first run contrib/setup-deps.sh,
# then call make again, so pkg-config runs only once the packages exist.

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
DATADIR	?= $(PREFIX)/share/crown
MANDIR	?= $(PREFIX)/share/man
BUILD	?= build
CC	?= cc

PKGS	:= yaml-0.1 libpcre2-8 libgit2 libsodium
OPT	?= -O2 -g
WARN	:= -std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow \
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

LIB_SRCS := $(sort $(filter-out adjudicator/main.c, $(wildcard adjudicator/*.c)))
LIB_OBJS := $(LIB_SRCS:adjudicator/%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HDRS := $(wildcard include/crown/*.h) $(wildcard tests/unit/*.h)

SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=all

.PHONY: all deps build test check check-unit check-asan demo install clean \
	bench fuzz

all: deps
	@$(MAKE) --no-print-directory build

deps:
	@sh contrib/setup-deps.sh

build: crown

crown: $(BUILD)/crown
	cp $(BUILD)/crown crown

$(BUILD)/obj/%.o: adjudicator/%.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libcrown.a: $(LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $(LIB_OBJS)

$(BUILD)/crown: $(BUILD)/obj/main.o $(BUILD)/libcrown.a
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcrown.a $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Itests/unit -o $@ $< \
	    $(BUILD)/libcrown.a $(PKG_LIBS) $(TEST_LIBS) $(LDFLAGS)

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

check: build
	@$(MAKE) --no-print-directory check-asan
	@$(MAKE) --no-print-directory check-unit

test: deps
	@$(MAKE) --no-print-directory check

demo: deps
	@$(MAKE) --no-print-directory build
	@sh contrib/demo.sh

bench: deps
	@$(MAKE) --no-print-directory build
	@sh contrib/bench.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules \
	    $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(MANDIR)/man1
	install -m 755 crown $(DESTDIR)$(BINDIR)/crown
	install -m 644 rules/*.yaml $(DESTDIR)$(DATADIR)/rules/
	if ls templates/* >/dev/null 2>&1; then \
	    install -m 644 templates/* $(DESTDIR)$(DATADIR)/templates/; fi
	sed 's|@DATADIR@|$(DATADIR)|g' doc/crown.1 > \
	    $(DESTDIR)$(MANDIR)/man1/crown.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/crown.1

clean:
	rm -rf build crown

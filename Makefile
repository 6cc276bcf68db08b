# schemadoc - build, test and benchmark.
#
#   make          build ./schemadoc (installs missing build dependencies first)
#   make demo     build, then render a bundled sample and say where it went
#   make check    build with ASan+UBSan and run every test, then a valgrind pass
#   make bench    print load/resolve/render/validate figures on ../shared/corpus
#
# Sources are picked up by wildcard: src/STAGE/*.c, one folder per stage
# (docs/internals.md); src/cli/ is the command line, everything else is the
# library. tests/unit/test_*.c are unit test programs (each links the library).

PKGS      := yaml-0.1 jansson libcmark-gfm libcurl libpcre2-8
DEB_PKGS  := pkg-config libyaml-dev libjansson-dev libcmark-gfm-dev \
             libcmark-gfm-extensions-dev libcurl4-openssl-dev libpcre2-dev
CC        ?= cc
WARN      := -Wall -Wextra -Wpedantic -Werror
STD       := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT       ?= -O2
SAN       := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BUILD     ?= build
CORPUS    ?= ../shared/corpus

SRCS      := $(wildcard src/*/*.c)
# The command line (src/cli/) prints and exits: not library code.
LIBSRCS   := $(filter-out src/cli/%,$(SRCS))
UNITSRCS  := $(wildcard tests/unit/test_*.c)
HDRS      := $(wildcard src/*.h src/*/*.h)
# Headers are included by name ("buf.h"); names are unique across src/ and
# `make layer-check` keeps each stage to the headers of the stages before it.
INCS      := -Isrc $(patsubst %/,-I%,$(sort $(dir $(wildcard src/*/*.h))))


.PHONY: all deps check-deps build-bench demo check check-unit check-golden check-valgrind bench clean hdr-check layer-check build-rel build-asan

all: deps
	@$(MAKE) --no-print-directory build-rel

# --- dependencies -----------------------------------------------------------
# Check pkg-config for each library; install the Debian -dev packages when
# something is missing (as root), or print the exact command otherwise.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $(PKGS) \
	    && [ -e /usr/include/cmark-gfm-core-extensions.h ]; then :; else \
	  echo "schemadoc: missing build dependencies ($(PKGS))"; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "schemadoc: installing: apt-get install -y $(DEB_PKGS)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PKGS) >/dev/null \
	      || { echo "schemadoc: apt-get failed" >&2; exit 2; }; \
	  else \
	    echo "schemadoc: run as root:  apt-get update && apt-get install -y $(DEB_PKGS)" >&2; exit 2; \
	  fi; \
	fi

# --- the two build flavours -----------------------------------------------------
# Evaluated only inside the sub-make, after deps has run.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lcmark-gfm-extensions -lm

# templates/ and themes/ are compiled in (src/render/render.h sd_assets), so the
# binary works even where its data directory cannot be found.
ASSETS    := $(sort $(shell find templates themes -name '*.mustache' 2>/dev/null))
GEN_ASSETS:= $(BUILD)/gen/assets.c
# the rules interpreter (src/form/*.js) as one ES module, for `schemadoc rules --runtime`
RUNTIME_JS:= $(wildcard src/form/*.js)
GEN_RUNTIME:= $(BUILD)/gen/runtime.c
REL_OBJS  := $(patsubst src/%.c,$(BUILD)/rel/%.o,$(SRCS)) $(BUILD)/rel/assets.o $(BUILD)/rel/runtime.o
REL_LIB   := $(patsubst src/%.c,$(BUILD)/rel/%.o,$(LIBSRCS)) $(BUILD)/rel/assets.o
BENCHSRCS := $(wildcard tests/bench_*.c)
BENCHBINS := $(patsubst tests/%.c,$(BUILD)/rel/%,$(BENCHSRCS))
ASAN_OBJS := $(patsubst src/%.c,$(BUILD)/asan/%.o,$(SRCS)) $(BUILD)/asan/assets.o $(BUILD)/asan/runtime.o
ASAN_LIB  := $(patsubst src/%.c,$(BUILD)/asan/%.o,$(LIBSRCS)) $(BUILD)/asan/assets.o
UNITBINS  := $(patsubst tests/unit/%.c,$(BUILD)/asan/%,$(UNITSRCS))

build-rel: schemadoc
build-bench: $(BENCHBINS)
$(BUILD)/rel/bench_%: tests/bench_%.c $(REL_LIB) | $(BUILD)/rel
	@echo "  BENCH   $@"
	@$(CC) $(STD) $(WARN) $(OPT) -g $(PKG_CFLAGS) $(INCS) -o $@ $< $(REL_LIB) $(PKG_LIBS)
schemadoc: $(REL_OBJS)
	@echo "  LINK    $@"
	@$(CC) $(OPT) -g -o $@ $(REL_OBJS) $(PKG_LIBS)
$(BUILD)/rel/%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(STD) $(WARN) $(OPT) -g $(PKG_CFLAGS) $(INCS) -c -o $@ $<

$(GEN_ASSETS): $(ASSETS) src/render/embed-assets.sh
	@mkdir -p $(BUILD)/gen
	@echo "  GEN     $@"
	@sh src/render/embed-assets.sh templates themes > $@.tmp && mv $@.tmp $@
$(BUILD)/rel/assets.o: $(GEN_ASSETS) src/render/render.h | $(BUILD)/rel
	@echo "  CC      $<"
	@$(CC) $(STD) $(WARN) -O0 $(PKG_CFLAGS) $(INCS) -c -o $@ $<
$(BUILD)/asan/assets.o: $(GEN_ASSETS) src/render/render.h | $(BUILD)/asan
	@echo "  CC asan $<"
	@$(CC) $(STD) $(WARN) -O0 $(PKG_CFLAGS) $(INCS) -c -o $@ $<

$(GEN_RUNTIME): $(RUNTIME_JS) src/form/embed-runtime.sh
	@mkdir -p $(BUILD)/gen
	@echo "  GEN     $@"
	@sh src/form/embed-runtime.sh src/form > $@.tmp && mv $@.tmp $@
$(BUILD)/rel/runtime.o: $(GEN_RUNTIME) | $(BUILD)/rel
	@echo "  CC      $<"
	@$(CC) $(STD) $(WARN) -O0 -c -o $@ $<
$(BUILD)/asan/runtime.o: $(GEN_RUNTIME) | $(BUILD)/asan
	@echo "  CC asan $<"
	@$(CC) $(STD) $(WARN) -O0 -c -o $@ $<

build-asan: $(BUILD)/asan/schemadoc $(UNITBINS)
$(BUILD)/asan/schemadoc: $(ASAN_OBJS)
	@echo "  LINK    $@"
	@$(CC) $(SAN) -g -o $@ $(ASAN_OBJS) $(PKG_LIBS)
$(BUILD)/asan/%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	@echo "  CC asan $<"
	@$(CC) $(STD) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) $(INCS) -c -o $@ $<
$(BUILD)/asan/test_%: tests/unit/test_%.c tests/unit/harness.h $(ASAN_LIB) | $(BUILD)/asan
	@echo "  TEST    $@"
	@$(CC) $(STD) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) $(INCS) -o $@ $< $(ASAN_LIB) $(PKG_LIBS)

$(BUILD)/rel $(BUILD)/asan:
	@mkdir -p $@

# Each header must compile on its own (git's hdr-check).
hdr-check: deps
	@for h in $(HDRS); do printf '#include "%s"\n' "$$h" | \
	  $(CC) $(STD) $(WARN) $$(pkg-config --cflags $(PKGS)) $(INCS) -x c -fsyntax-only - || exit 1; done; \
	echo "hdr-check: $(words $(HDRS)) headers compile alone"

# No stage includes a header of a later one (tests/layer-check.sh has the table).
layer-check:
	@sh tests/layer-check.sh

# --- the README's two commands ------------------------------------------------
demo: all
	@sh tests/demo.sh ./schemadoc

# Tools the tests use besides the compiler, as command:package pairs.
TEST_TOOLS := valgrind:valgrind python3:python3 chromium:chromium node:nodejs
check-deps: deps
	@missing=""; for tp in $(TEST_TOOLS); do command -v $${tp%%:*} >/dev/null 2>&1 || missing="$$missing $${tp#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "schemadoc: installing for the tests:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null \
	      || { echo "schemadoc: apt-get install$$missing failed" >&2; exit 2; }; \
	  else echo "schemadoc: the tests need:$$missing; run as root: apt-get install -y$$missing" >&2; exit 2; fi; \
	fi

check: check-deps
	@$(MAKE) --no-print-directory hdr-check layer-check build-rel build-asan
	@SD_BUILD=$(BUILD) CORPUS=$(CORPUS) sh tests/run.sh

check-valgrind: all
	@SD_REL=./schemadoc sh tests/suite-valgrind.sh

bench: deps
	@$(MAKE) --no-print-directory build-rel build-bench
	@CORPUS=$(CORPUS) SD_BUILD=$(BUILD) sh tests/bench.sh

clean:
	rm -rf $(BUILD) schemadoc

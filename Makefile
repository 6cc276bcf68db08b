# SPDX-License-Identifier: Apache-2.0
# schemadoc - build, test and benchmark.
#
#   make          build ./schemadoc (installs missing build dependencies first)
#   make demo     build, then render a bundled sample and say where it went
#   make check    build with ASan+UBSan and run every test, then a valgrind pass
#   make bench    print load/resolve/render/validate figures on ../shared/corpus
#   make install  PREFIX=/usr/local DESTDIR=: the binary, share/schemadoc
#                 (templates, themes), schemadoc(1), bash/zsh/fish
#                 completions, schemadoc.h, libschemadoc.a and .so.0,
#                 schemadoc.pc, share/doc/schemadoc (LICENSE, NOTICE);
#                 make uninstall removes exactly those files
#   make fuzz     run every libFuzzer target (tests/fuzz/) FUZZ_TIME seconds (60)
#   make check-oom  fail each allocation in turn in representative commands
#
# Sources are picked up by wildcard: src/STAGE/*.c, one folder per stage
# (docs/internals.md); src/cli/ is the command line, everything else is the
# library. tests/unit/test_*.c are unit test programs (each links the library).

PKGS      := yaml-0.1 jansson libcmark-gfm libcurl libpcre2-8 zlib
DEB_PKGS  := pkg-config libyaml-dev libjansson-dev libcmark-gfm-dev \
             libcmark-gfm-extensions-dev libcurl4-openssl-dev libpcre2-dev \
             zlib1g-dev
CC        ?= cc
WARN      := -Wall -Wextra -Wpedantic -Wmissing-prototypes -Werror
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


.PHONY: build-lib install uninstall man completions all deps form-deps browser-deps lsp-deps yls-deps bench-form screenshots check-deps build-bench build-fuzz fuzz check-oom demo check check-unit check-golden check-valgrind bench clean hdr-check layer-check circle-check build-rel build-asan build-adbg

all: deps form-deps
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
# libcurl is not linked: src/load/fetch.c loads it with dlopen() when the
# first remote document is fetched, so local runs map none of its libraries.
LINK_PKGS := yaml-0.1 jansson libcmark-gfm libpcre2-8 zlib
PKG_LIBS   = $(shell pkg-config --libs $(LINK_PKGS)) -lcmark-gfm-extensions -lm -ldl
# The release binary links its libraries' static archives (Debian's -dev
# packages ship them): no relocation of five shared libraries at start-up,
# so `schemadoc --version` starts within 2x of an empty C program.
STATIC_LIBS = -Wl,-Bstatic -lyaml -ljansson -lcmark-gfm-extensions -lcmark-gfm -lpcre2-8 -lz -Wl,-Bdynamic -ldl
# tests/unit/server.h talks to the test server with libcurl directly
TEST_LIBS  = $(PKG_LIBS) $(shell pkg-config --libs libcurl)

# templates/ and themes/ are compiled in (src/render/render.h sd_assets), so the
# binary works even where its data directory cannot be found.
ASSETS    := $(sort $(shell find templates themes -name '*.mustache' 2>/dev/null))
GEN_ASSETS:= $(BUILD)/gen/assets.c
# the Kubernetes definitions values are typed with (issue 43): committed JSON,
# made by src/k8s/gen-types.py from the corpus copy, compiled in as bytes
GEN_K8S   := $(BUILD)/gen/k8stypes.c
CLISRCS   := $(filter src/cli/%,$(SRCS))
BENCHSRCS := $(wildcard tests/bench_*.c)
BENCHBINS := $(patsubst tests/%.c,$(BUILD)/rel/%,$(BENCHSRCS))
# the rules interpreter (src/form/*.js) as one ES module, for `schemadoc rules --runtime`
RUNTIME_JS:= $(wildcard src/form/*.js)
GEN_RUNTIME:= $(BUILD)/gen/runtime.c
# the form's script: src/form/form_main.js and what it imports, with the yaml
# library (Debian node-yaml), bundled by esbuild into one IIFE (docs/form.md)
FORM_JS   := $(wildcard src/form/*.js)
GEN_FORMJS:= $(BUILD)/gen/formjs.c
NODE_PATH_FORM ?= /usr/share/nodejs
FORM_MINIFY ?= --minify
UNITBINS  := $(patsubst tests/unit/%.c,$(BUILD)/asan/%,$(UNITSRCS))
ADBGBINS  := $(patsubst tests/unit/%.c,$(BUILD)/adbg/%,$(UNITSRCS))

# Three flavours, each a libschemadoc.a that the CLI, the unit tests and the
# benches link against: rel (optimised), asan (ASan+UBSan) and adbg (asan
# with -DSD_ARENA_DEBUG: every arena allocation is its own malloc block, so
# ASan sees inside documents too).
# rel is also link-time optimised: the small accessors of util/ (values,
# buffers) inline across files, 3-4% fewer instructions on a chart page;
# fat objects keep libschemadoc.a usable by non-LTO links. `make LTO=` drops it.
LTO       ?= -flto=auto -ffat-lto-objects
FLAGS_rel  = $(OPT) $(LTO) -g
FLAGS_asan = -O1 -g $(SAN)
FLAGS_adbg = -O1 -g $(SAN) -DSD_ARENA_DEBUG
# fuzz: the library for the libFuzzer targets of tests/fuzz/ (Debian's clang)
FUZZ_CC   ?= clang
FLAGS_fuzz = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CC_rel     = $(CC)
CC_asan    = $(CC)
CC_adbg    = $(CC)
CC_fuzz    = $(FUZZ_CC)
# pub: the installed library (docs/library.md): position-independent, no
# LTO, every symbol hidden but the SCHEMADOC_API functions of schemadoc.h
FLAGS_pub  = $(OPT) -g -fPIC -fvisibility=hidden
CC_pub     = $(CC)
GENFLAGS_pub = -fPIC -fvisibility=hidden
LINK_rel   = $(OPT) $(LTO) -g
LINK_asan  = -g $(SAN)
LINK_adbg  = -g $(SAN)
BIN_LIBS_rel  = $(STATIC_LIBS)
BIN_LIBS_asan = $(PKG_LIBS)
BIN_LIBS_adbg = $(PKG_LIBS)

define flavour
$(1)_LIBOBJS := $$(patsubst src/%.c,$$(BUILD)/$(1)/%.o,$$(LIBSRCS)) $$(BUILD)/$(1)/assets.o $$(BUILD)/$(1)/runtime.o $$(BUILD)/$(1)/formjs.o $$(BUILD)/$(1)/k8stypes.o
$(1)_CLIOBJS := $$(patsubst src/%.c,$$(BUILD)/$(1)/%.o,$$(CLISRCS))
$$(BUILD)/$(1)/%.o: src/%.c
	@mkdir -p $$(@D)
	@echo "  CC $(1)  $$<"
	@$$(CC_$(1)) $$(STD) $$(WARN) $$(FLAGS_$(1)) $$(PKG_CFLAGS) $$(INCS) -MMD -MP -c -o $$@ $$<
$$(BUILD)/$(1)/assets.o: $$(GEN_ASSETS) src/render/render.h
	@mkdir -p $$(@D)
	@echo "  CC $(1)  $$<"
	@$$(CC_$(1)) $$(STD) $$(WARN) -O0 $$(GENFLAGS_$(1)) $$(PKG_CFLAGS) $$(INCS) -c -o $$@ $$<
$$(BUILD)/$(1)/runtime.o: $$(GEN_RUNTIME)
	@mkdir -p $$(@D)
	@echo "  CC $(1)  $$<"
	@$$(CC_$(1)) $$(STD) $$(WARN) -O0 $$(GENFLAGS_$(1)) -c -o $$@ $$<
$$(BUILD)/$(1)/k8stypes.o: $$(GEN_K8S) src/k8s/k8s.h
	@mkdir -p $$(@D)
	@echo "  CC $(1)  $$<"
	@$$(CC_$(1)) $$(STD) $$(WARN) -O0 $$(GENFLAGS_$(1)) $$(PKG_CFLAGS) $$(INCS) -c -o $$@ $$<
$$(BUILD)/$(1)/formjs.o: $$(GEN_FORMJS)
	@mkdir -p $$(@D)
	@echo "  CC $(1)  $$<"
	@$$(CC_$(1)) $$(STD) $$(WARN) -O0 $$(GENFLAGS_$(1)) -c -o $$@ $$<
$$(BUILD)/$(1)/libschemadoc.a: $$($(1)_LIBOBJS)
	@echo "  AR $(1)  $$@"
	@rm -f $$@ && ar rcs $$@ $$^
$$(BUILD)/$(1)/schemadoc: $$($(1)_CLIOBJS) $$(BUILD)/$(1)/libschemadoc.a
	@echo "  LINK $(1) $$@"
	@$$(CC) $$(LINK_$(1)) -o $$@ $$($(1)_CLIOBJS) $$(BUILD)/$(1)/libschemadoc.a $$(BIN_LIBS_$(1))
$$(BUILD)/$(1)/test_%: tests/unit/test_%.c tests/unit/harness.h $$(BUILD)/$(1)/libschemadoc.a
	@echo "  TEST $(1) $$@"
	@$$(CC) $$(STD) $$(WARN) $$(FLAGS_$(1)) $$(PKG_CFLAGS) $$(INCS) -o $$@ $$< $$(BUILD)/$(1)/libschemadoc.a $$(TEST_LIBS)
endef
$(foreach f,rel asan adbg fuzz pub,$(eval $(call flavour,$(f))))

# --- the installed library (docs/library.md) --------------------------------
# libschemadoc.a is one relocatable object in which every symbol but the
# functions schemadoc.h exports is local (a host's own sd_* never clash);
# libschemadoc.so.0 exports the same names through a version script.
PUBLIB    := $(BUILD)/lib/libschemadoc.a
PUBSO     := $(BUILD)/lib/libschemadoc.so.0
$(BUILD)/lib/exports.txt: src/schemadoc.h
	@mkdir -p $(@D)
	@sed -n 's/^SCHEMADOC_API[^(]*[ *]\(schemadoc_[a-z_]*\)(.*/\1/p' $< > $@.tmp && mv $@.tmp $@
$(PUBLIB): $(pub_LIBOBJS) $(BUILD)/lib/exports.txt
	@echo "  AR pub  $@"
	@ld -r -o $(BUILD)/lib/schemadoc.o $(pub_LIBOBJS) \
	  && objcopy --keep-global-symbols=$(BUILD)/lib/exports.txt $(BUILD)/lib/schemadoc.o \
	  && rm -f $@ && ar rcs $@ $(BUILD)/lib/schemadoc.o
$(PUBSO): $(pub_LIBOBJS) src/api/schemadoc.map
	@echo "  LINK pub $@"
	@$(CC) -shared -o $@ -Wl,-soname,libschemadoc.so.0 -Wl,--version-script=src/api/schemadoc.map \
	  -Wl,-z,defs $(pub_LIBOBJS) $(PKG_LIBS)
build-lib: $(PUBLIB) $(PUBSO)
# Each object depends on the headers it includes (gcc -MMD writes the list
# beside it), so a header change rebuilds only the files that include it.
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

build-rel: schemadoc $(BUILD)/rel/libschemadoc.a
build-bench: $(BENCHBINS)
$(BUILD)/rel/bench_%: tests/bench_%.c $(BUILD)/rel/libschemadoc.a
	@echo "  BENCH   $@"
	@$(CC) $(STD) $(WARN) $(OPT) $(LTO) -g $(PKG_CFLAGS) $(INCS) -o $@ $< $(BUILD)/rel/libschemadoc.a $(PKG_LIBS)
schemadoc: $(BUILD)/rel/schemadoc
	@cp $< $@

# the keyword table as the JavaScript interpreter reads it: generated from
# src/validate/keywords.def and kept in git (node's tests import src/form/)
src/form/rules_kw.js: src/validate/keywords.def src/validate/keywords-js.sh
	@echo "  GEN     $@"
	@sh src/validate/keywords-js.sh $(CC) > $@.tmp && mv $@.tmp $@

# the secret rule's words and patterns as the form reads them: generated from
# src/render/secret_rule.def (the reference page's C side reads the rows) and
# kept in git, as rules_kw.js is
src/form/secret_words.js: src/render/secret_rule.def src/render/secret-js.sh
	@echo "  GEN     $@"
	@sh src/render/secret-js.sh $(CC) > $@.tmp && mv $@.tmp $@

$(GEN_RUNTIME): $(RUNTIME_JS) src/form/embed-runtime.sh
	@mkdir -p $(BUILD)/gen
	@echo "  GEN     $@"
	@sh src/form/embed-runtime.sh src/form > $@.tmp && mv $@.tmp $@

# esbuild and node-yaml are build-time only: the bundle is compiled in.
form-deps:
	@if command -v esbuild >/dev/null 2>&1 && [ -f $(NODE_PATH_FORM)/yaml/package.json ]; then :; else \
	  echo "schemadoc: the form's script needs esbuild and node-yaml"; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "schemadoc: installing: apt-get install -y esbuild node-yaml nodejs"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq esbuild node-yaml nodejs >/dev/null \
	      || { echo "schemadoc: apt-get failed" >&2; exit 2; }; \
	  else \
	    echo "schemadoc: run as root:  apt-get update && apt-get install -y esbuild node-yaml nodejs" >&2; exit 2; \
	  fi; \
	fi

$(BUILD)/gen/form.js: $(FORM_JS) | form-deps
	@mkdir -p $(BUILD)/gen
	@echo "  ESBUILD $@"
	@NODE_PATH=$(NODE_PATH_FORM) esbuild src/form/form_main.js --bundle --format=iife $(FORM_MINIFY) \
	  --platform=browser --target=es2020 --log-level=warning --outfile=$@.tmp && mv $@.tmp $@
	@if grep -qi '</script' $@; then echo "schemadoc: the form bundle contains '</script'" >&2; rm -f $@; exit 2; fi

$(GEN_FORMJS): $(BUILD)/gen/form.js src/form/embed-form.sh
	@echo "  GEN     $@"
	@sh src/form/embed-form.sh $(BUILD)/gen/form.js > $@.tmp && mv $@.tmp $@

$(GEN_ASSETS): $(ASSETS) src/render/embed-assets.sh
	@mkdir -p $(BUILD)/gen
	@echo "  GEN     $@"
	@sh src/render/embed-assets.sh templates themes > $@.tmp && mv $@.tmp $@

$(GEN_K8S): src/k8s/k8s_types.json src/k8s/embed-types.sh
	@mkdir -p $(BUILD)/gen
	@echo "  GEN     $@"
	@gzip -9nc src/k8s/k8s_types.json > $(BUILD)/gen/k8s_types.json.gz
	@sh src/k8s/embed-types.sh $(BUILD)/gen/k8s_types.json.gz > $@.tmp && mv $@.tmp $@

build-asan: $(BUILD)/asan/schemadoc $(UNITBINS)

# --- fuzzing (tests/fuzz/README.md) ---------------------------------------------
FUZZSRCS  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZBINS  := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZSRCS))
FUZZ_TIME ?= 60
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/fuzz/libschemadoc.a
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) $(STD) $(WARN) -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  $(PKG_CFLAGS) $(INCS) -Itests/fuzz -o $@ $< $(BUILD)/fuzz/libschemadoc.a $(PKG_LIBS)
# --- allocation-failure torture (tests/oom/) ---------------------------------------
# The sanitizer build's objects, linked with the static archives of the four
# libraries and every malloc/calloc/realloc/strdup/strndup wrapped by
# tests/oom/hook.c, which fails the allocation SD_OOM_FAIL_AT names.
OOM_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
$(BUILD)/oom/schemadoc: tests/oom/hook.c $(asan_CLIOBJS) $(BUILD)/asan/libschemadoc.a
	@mkdir -p $(@D)
	@echo "  LINK oom  $@"
	@$(CC) $(STD) $(WARN) -O1 -g $(SAN) $(OOM_WRAP) -o $@ tests/oom/hook.c $(asan_CLIOBJS) \
	  $(BUILD)/asan/libschemadoc.a $(STATIC_LIBS)
check-oom: deps
	@$(MAKE) --no-print-directory build-rel $(BUILD)/oom/schemadoc
	@SD_BUILD=$(BUILD) CORPUS=$(CORPUS) sh tests/oom/run.sh

build-fuzz: deps
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "schemadoc: fuzzing needs clang (apt-get install -y clang)" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(FUZZBINS)
fuzz: build-fuzz
	@SD_BUILD=$(BUILD) CORPUS=$(CORPUS) sh tests/fuzz/run.sh $(FUZZ_TIME)
build-adbg: $(BUILD)/adbg/schemadoc $(ADBGBINS)

# The example of docs/library.md, built against the installed shape of the
# library: schemadoc.h alone on the include path, and libschemadoc.a. It
# links the archive's plain objects (-fno-lto: the fat LTO objects would
# have the linker optimise the whole library again, 20 s of CPU);
# suite-install links it the default way against the installed library.
$(BUILD)/example: docs/example.c src/schemadoc.h $(BUILD)/rel/libschemadoc.a
	@echo "  EXAMPLE $@"
	@$(CC) $(STD) $(WARN) -fno-lto -Isrc -o $@ docs/example.c $(BUILD)/rel/libschemadoc.a $(PKG_LIBS)

# Each header must compile on its own (git's hdr-check).
hdr-check: deps
	@for h in $(HDRS); do printf '#include "%s"\n' "$$h" | \
	  $(CC) $(STD) $(WARN) $$(pkg-config --cflags $(PKGS)) $(INCS) -x c -fsyntax-only - || exit 1; done; \
	printf '#include "schemadoc.h"\nint main() { schemadoc_diags_free(schemadoc_diags_new()); return 0; }\n' | \
	  $(CXX) -std=c++11 -Wall -Wextra -Werror -Isrc -x c++ -fsyntax-only - || exit 1; \
	echo "hdr-check: $(words $(HDRS)) headers compile alone; schemadoc.h also as C++"

# No stage includes a header of a later one (tests/layer-check.sh has the table).
layer-check:
	@sh tests/layer-check.sh
# No loop of calls between files (but the two recursive pairs), no two files
# that include each other's headers, no call to a later stage: read from the
# sanitizer build's objects (tests/circle-check.sh), after its self-test.
circle-check: $(asan_LIBOBJS) $(asan_CLIOBJS)
	@sh tests/circle-check.sh --self-test && sh tests/circle-check.sh $(BUILD)/asan

# --- the README's two commands ------------------------------------------------
demo: all
	@sh tests/demo.sh ./schemadoc

# Tools the tests use besides the compiler, as command:package pairs.
TEST_TOOLS := valgrind:valgrind python3:python3 chromium:chromium node:nodejs clang:clang \
              man:man-db zsh:zsh fish:fish git:git pre-commit:pre-commit \
              asciidoctor:asciidoctor nvim:neovim emacs:emacs-nox
# Emacs packages the tests load (tests/lsp/editors/eglot.el,
# tests/editors/*.el), as a folder of Debian's elpa tree and the package
# that holds it.
TEST_ELPA  := eglot:elpa-eglot
check-deps: deps
	@missing=""; for tp in $(TEST_TOOLS); do command -v $${tp%%:*} >/dev/null 2>&1 || missing="$$missing $${tp#*:}"; done; \
	for ep in $(TEST_ELPA); do ls -d /usr/share/emacs/site-lisp/elpa/$${ep%%:*}-* >/dev/null 2>&1 || missing="$$missing $${ep#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "schemadoc: installing for the tests:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null \
	      || { echo "schemadoc: apt-get install$$missing failed" >&2; exit 2; }; \
	  else echo "schemadoc: the tests need:$$missing; run as root: apt-get install -y$$missing" >&2; exit 2; fi; \
	fi

# --- pinned npm packages for the tests --------------------------------------
# $(call npm_deps,WHO,PREFIX,PACKAGE,VERSION), a recipe: npm itself (apt-get
# as root, else the command to run; WHO names the tests that need it), then
# PACKAGE@VERSION into PREFIX unless that version is there. Every pinned
# package has a prefix of its own under $(BUILD), so that no npm install
# prunes another's packages. Add a package with its own *-deps target. A
# fifth argument, `optional`, makes a failed install a warning that says so
# (the bench's side-by-side tools), not an error.
define npm_deps
@command -v npm >/dev/null 2>&1 || { \
  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm nodejs >/dev/null \
      || { echo "schemadoc: apt-get install npm failed" >&2; exit 2; }; \
  else echo "schemadoc: the $(1) tests need npm; run as root: apt-get install -y npm nodejs" >&2; exit 2; fi; }
@if ! grep -qs '"version": "$(4)"' $(2)/node_modules/$(3)/package.json; then \
  echo "schemadoc: npm install --prefix $(2) $(3)@$(4)"; \
  mkdir -p $(2) && npm install --prefix $(2) --no-save --no-audit --no-fund --loglevel=error \
    $(3)@$(4) >/dev/null \
    || { echo "schemadoc: npm install --prefix $(2) $(3)@$(4) failed$(if $(5), (optional: what needs it is left out))" >&2; $(if $(5),true,exit 2); }; \
fi
endef

# --- the browser tests (tests/suite-form.sh, tests/form/) ---------------------
# Debian's chromium, and playwright-core (pinned) from npm into $(BUILD)/node;
# the tests launch /usr/bin/chromium through it. As root the missing pieces
# are installed; otherwise the exact commands are printed and this fails.
PLAYWRIGHT_VERSION := 1.65.1
PW_DIR    := $(BUILD)/node
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "schemadoc: installing chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	      || { echo "schemadoc: apt-get install chromium failed" >&2; exit 2; }; \
	  else echo "schemadoc: the browser tests need Chromium; run as root: apt-get update && apt-get install -y chromium" >&2; exit 2; fi; \
	fi
	$(call npm_deps,browser,$(PW_DIR),playwright-core,$(PLAYWRIGHT_VERSION))

# The language server's tests (tests/suite-lsp.sh): vscode-jsonrpc, the
# client library VS Code uses, pinned, in a prefix of its own so that no
# other npm install prunes it.
JSONRPC_VERSION := 8.2.1
LSP_NODE  := $(BUILD)/node-lsp
lsp-deps:
	$(call npm_deps,lsp,$(LSP_NODE),vscode-jsonrpc,$(JSONRPC_VERSION))

# yaml-language-server, pinned, in a prefix of its own, for `make bench`'s
# side-by-side figures (tests/lsp/side.mjs, docs/lsp.md); a failed install
# (offline) is said and skipped: the figures are then not printed.
YLS_VERSION := 1.19.2
YLS_NODE  := $(BUILD)/node-yls
yls-deps: lsp-deps
	$(call npm_deps,bench,$(YLS_NODE),yaml-language-server,$(YLS_VERSION),optional)

# the form's figures alone (also part of make bench), and its screenshots (docs/form/)
bench-form: browser-deps
	@$(MAKE) --no-print-directory build-rel
	@SD_BUILD=$(BUILD) CORPUS=$(CORPUS) sh tests/bench-form.sh
screenshots: browser-deps
	@$(MAKE) --no-print-directory build-rel
	@SD_BUILD=$(BUILD) SD=$$PWD/schemadoc CORPUS=$(CORPUS) node tests/form/screenshots.mjs

# Both steps use every core (CHECK_JOBS, default nproc): the builds side by
# side (make -j, each target's lines printed together), then tests/run.sh
# with as many jobs at a time (docs/internals.md, "Running the tests", says
# what runs beside what).
# The fuzz targets are built here directly (check-deps installed clang), so
# that one make builds the shared generated sources once.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: check-deps browser-deps lsp-deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) --output-sync=target hdr-check layer-check circle-check \
	  build-rel build-asan build-adbg build-lib $(BUILD)/example $(FUZZBINS) $(BUILD)/oom/schemadoc
	@SD_BUILD=$(BUILD) CORPUS=$(CORPUS) SD_JOBS=$(CHECK_JOBS) sh tests/run.sh

check-valgrind: all
	@SD_REL=./schemadoc sh tests/suite-valgrind.sh

bench: deps browser-deps lsp-deps yls-deps
	@$(MAKE) --no-print-directory build-rel build-bench
	@CORPUS=$(CORPUS) SD_BUILD=$(BUILD) sh tests/bench.sh

# --- install ------------------------------------------------------------------
# The man page is made from --help (src/cli/gen-man.sh) and the completions
# from the option table (src/cli/options.c), both by the built binary.
PREFIX    ?= /usr/local
DESTDIR   ?=
SD_VERSION:= $(shell sed -n 's/^\#define SD_VERSION "\(.*\)"/\1/p' src/schemadoc.h)
SHARE_FILES := $(sort $(shell find templates themes -type f 2>/dev/null))
MAN1      := $(BUILD)/man/schemadoc.1
COMPL     := $(BUILD)/completions/schemadoc.bash $(BUILD)/completions/_schemadoc $(BUILD)/completions/schemadoc.fish
# where each installed file goes, relative to $(DESTDIR)$(PREFIX)
INST_BIN  := bin/schemadoc
INST_MAN  := share/man/man1/schemadoc.1
INST_BASH := share/bash-completion/completions/schemadoc
INST_ZSH  := share/zsh/site-functions/_schemadoc
INST_FISH := share/fish/vendor_completions.d/schemadoc.fish
INST_HDR  := include/schemadoc.h
INST_LIB  := lib/libschemadoc.a
INST_SO   := lib/libschemadoc.so.0
INST_SOLINK := lib/libschemadoc.so
INST_DOC  := share/doc/schemadoc/LICENSE share/doc/schemadoc/NOTICE
INST_PC   := lib/pkgconfig/schemadoc.pc
INST_FILES:= $(INST_BIN) $(INST_MAN) $(INST_BASH) $(INST_ZSH) $(INST_FISH) $(INST_HDR) \
             $(INST_LIB) $(INST_SO) $(INST_SOLINK) $(INST_PC) $(INST_DOC) $(addprefix share/schemadoc/,$(SHARE_FILES))

man: $(MAN1)
completions: $(COMPL)
$(MAN1): $(BUILD)/rel/schemadoc src/cli/gen-man.sh
	@mkdir -p $(@D)
	@echo "  MAN     $@"
	@sh src/cli/gen-man.sh $(BUILD)/rel/schemadoc > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/schemadoc.bash: $(BUILD)/rel/schemadoc
	@mkdir -p $(@D)
	@$< completion bash > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/_schemadoc: $(BUILD)/rel/schemadoc
	@mkdir -p $(@D)
	@$< completion zsh > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/schemadoc.fish: $(BUILD)/rel/schemadoc
	@mkdir -p $(@D)
	@$< completion fish > $@.tmp && mv $@.tmp $@
$(BUILD)/schemadoc.pc: src/schemadoc.pc.in src/schemadoc.h
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SD_VERSION)|' $< > $@

install: deps
	@rm -f $(BUILD)/schemadoc.pc
	@$(MAKE) --no-print-directory build-rel build-lib $(MAN1) $(COMPL) $(BUILD)/schemadoc.pc
	@d='$(DESTDIR)$(PREFIX)'; echo "  INSTALL $$d"; \
	install -D -m 755 -s $(BUILD)/rel/schemadoc "$$d/$(INST_BIN)" && \
	install -D -m 644 $(MAN1) "$$d/$(INST_MAN)" && \
	install -D -m 644 $(BUILD)/completions/schemadoc.bash "$$d/$(INST_BASH)" && \
	install -D -m 644 $(BUILD)/completions/_schemadoc "$$d/$(INST_ZSH)" && \
	install -D -m 644 $(BUILD)/completions/schemadoc.fish "$$d/$(INST_FISH)" && \
	install -D -m 644 src/schemadoc.h "$$d/$(INST_HDR)" && \
	install -D -m 644 $(PUBLIB) "$$d/$(INST_LIB)" && \
	install -D -m 755 $(PUBSO) "$$d/$(INST_SO)" && \
	ln -sf libschemadoc.so.0 "$$d/$(INST_SOLINK)" && \
	install -D -m 644 LICENSE "$$d/share/doc/schemadoc/LICENSE" && \
	install -D -m 644 NOTICE "$$d/share/doc/schemadoc/NOTICE" && \
	install -D -m 644 $(BUILD)/schemadoc.pc "$$d/$(INST_PC)" && \
	for f in $(SHARE_FILES); do install -D -m 644 "$$f" "$$d/share/schemadoc/$$f" || exit 1; done

# Only the files install wrote, then the directories of share/schemadoc that
# are left empty (no other directory is removed: it may have been there).
uninstall:
	@d='$(DESTDIR)$(PREFIX)'; echo "  UNINSTALL $$d"; \
	for f in $(INST_FILES); do rm -f "$$d/$$f"; done; \
	for s in share/schemadoc share/doc/schemadoc; do if [ -d "$$d/$$s" ]; then find "$$d/$$s" -depth -type d -empty -delete; fi; done

clean:
	rm -rf $(BUILD) schemadoc

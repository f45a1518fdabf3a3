# DLS - distributed loop self-scheduling over CORBA.  One GNU Makefile.
#
#   make            build everything (installs missing Debian packages first)
#   make check      unit + integration tests
#   make check-repeat N=20 [HOG=1] [TESTS="t_a t_b"]  the integration suite (or
#                   those tests) N times, each test's passes
#   make demo       a whole emulated C8 run writing mandelbrot.png
#   make bench-omp  dls run --real against OpenMP on this host's cores
#   make sanitize   the tests under ASan/UBSan, in build/san
#   make fuzz       libFuzzer (clang) + ASan/UBSan on the core handlers, in build/fuzz:
#                   FUZZ_SECONDS per target (default 120), new inputs in build/fuzz/corpus
#   make install    PREFIX=/usr/local: programs, libdls.so and libdls.a, headers
#                   (include/dls/), dls.pc, the IDL (share/dls/idl/), the
#                   the documents and the examples (share/doc/dls/), the
#                   manual pages (share/man/man1/, made by help2man)
#   make uninstall  PREFIX=...: removes what make install put there
#   make docs       docs/options.md from the programs' --help (make check compares)
#   V=1             show the commands

BUILD      ?= build
PREFIX     ?= /usr/local
PKG_CONFIG ?= pkg-config
CC         ?= gcc
CXX        ?= g++
OPT        ?= -O2 -g
WERROR     ?= -Werror
WARN       := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes
Q          := $(if $(V),,@)
.DEFAULT_GOAL := all

# --- dependencies -----------------------------------------------------------
# deps.mk is made by installing what is missing, then asking pkg-config; make
# remakes an included makefile before anything else and restarts, so the
# values below are read after the packages exist, even on a fresh machine.
DEPS_MK := $(BUILD)/deps.mk
ifeq ($(filter clean,$(MAKECMDGOALS)),)
include $(DEPS_MK)
endif

$(DEPS_MK): scripts/install-deps.sh Makefile
	$(Q)mkdir -p $(@D)
	$(Q)scripts/install-deps.sh
	$(Q){ echo "OMNIIDL := $$($(PKG_CONFIG) --variable=omniidl omniORB4)"; \
	  echo "OMNI_CFLAGS := $$($(PKG_CONFIG) --cflags omniORB4)"; \
	  echo "OMNI_LIBS := $$($(PKG_CONFIG) --libs omniORB4)"; \
	  echo "CUNIT_CFLAGS := $$($(PKG_CONFIG) --cflags cunit)"; \
	  echo "CUNIT_LIBS := $$($(PKG_CONFIG) --libs cunit)"; \
	  echo "PNG_CFLAGS := $$($(PKG_CONFIG) --cflags libpng)"; \
	  echo "PNG_LIBS := $$($(PKG_CONFIG) --libs libpng)"; \
	  echo "JSON_CFLAGS := $$($(PKG_CONFIG) --cflags jansson)"; \
	  echo "JSON_LIBS := $$($(PKG_CONFIG) --libs jansson)"; \
	  echo "SSL_LIBS := $$($(PKG_CONFIG) --libs openssl)"; \
	  echo "CRYPTO_LIBS := $$($(PKG_CONFIG) --libs libcrypto)"; \
	  echo "SQLITE_CFLAGS := $$($(PKG_CONFIG) --cflags sqlite3)"; \
	  echo "SQLITE_LIBS := $$($(PKG_CONFIG) --libs sqlite3)"; } > $@.tmp
	$(Q)mv $@.tmp $@

# --- flags --------------------------------------------------------------------
# Dependencies point down: clients -> roles -> common.  common/ is a set of
# libraries, from the lowest (base) to the highest (the ORB glue); a library
# includes only its own headers and those of the libraries below it
# (tests/tools/check_layout.py checks the order).  Every file sees the
# public headers (include/dls/) and common's libraries; its own folder is
# searched first by the compiler anyway.  Only the programs' main() and the
# clients see the CLI helpers (common/cli/, which may exit); only the
# clients see the simulator; the tests see everything.
COMMON_LIBS  := base sched files workload policy journal trust serve report orb
INCLUDES     := -Iinclude $(COMMON_LIBS:%=-iquote common/%)
CLI_INC      := -iquote common/cli
CLIENT_INC   := $(CLI_INC) -iquote sim
TEST_INC     := $(CLIENT_INC) -iquote master -iquote slave -iquote hmaster -iquote treesched
# -fPIC: every object also goes into the shared library users link.
ALL_CFLAGS    = -std=c11 -D_GNU_SOURCE -fPIC $(OPT) $(WARN) $(WERROR) $(SAN) $(INCLUDES) \
                $(CFLAGS) -MMD -MP
ALL_CXXFLAGS  = -std=c++17 -fPIC $(OPT) -Wall -Wextra $(WERROR) $(SAN) $(INCLUDES) \
                -isystem $(BUILD)/idl $(OMNI_CFLAGS) $(CXXFLAGS) -MMD -MP
ALL_LDFLAGS   = $(SAN) $(LDFLAGS)

# --- sources ----------------------------------------------------------------
# The C cores (no CORBA) go into libdls.a, with the master and slave cores
# that the unit tests drive without sockets; the C++ adapters and the IDL
# stubs into libdls_orb.a.
CORE_SRC  := $(wildcard $(COMMON_LIBS:%=common/%/*.c) sim/*.c) \
             $(filter-out %/main.c,$(wildcard treesched/*.c master/*.c slave/*.c hmaster/*.c))
CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
LIBDLS    := $(BUILD)/libdls.a
# the programs' option helpers: linked into programs only, never into a core
CLI_SRC   := $(wildcard common/cli/*.c)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIBCLI    := $(BUILD)/libdls_cli.a

IDL_HH    := $(BUILD)/idl/dls.hh
IDL_OBJ   := $(BUILD)/idl/dlsSK.o
ORB_SRC   := $(wildcard common/orb/*.cc)
ORB_OBJ   := $(ORB_SRC:%.cc=$(BUILD)/%.o) $(IDL_OBJ)
LIBORB    := $(BUILD)/libdls_orb.a
# what the C cores link (libdls.a); the ORB's programs add omniORB
CORE_LIBS  = $(PNG_LIBS) $(JSON_LIBS) $(CRYPTO_LIBS) $(SQLITE_LIBS) -lpthread -lm
ORB_LIBS   = $(OMNI_LIBS) $(CORE_LIBS) -ldl

MASTER_OBJ := $(BUILD)/master/main.o $(patsubst %.cc,$(BUILD)/%.o,$(wildcard master/*.cc))
MASTER_BIN := $(BUILD)/bin/dls-master
TREESCHED_OBJ := $(BUILD)/treesched/main.o $(patsubst %.cc,$(BUILD)/%.o,$(wildcard treesched/*.cc))
TREESCHED_BIN := $(BUILD)/bin/dls-treesched
SLAVE_OBJ  := $(BUILD)/slave/main.o $(patsubst %.cc,$(BUILD)/%.o,$(wildcard slave/*.cc))
SLAVE_BIN  := $(BUILD)/bin/dls-slave
HMASTER_OBJ := $(BUILD)/hmaster/main.o $(patsubst %.cc,$(BUILD)/%.o,$(wildcard hmaster/*.cc))
HMASTER_BIN := $(BUILD)/bin/dls-hmaster

DLS_SRC   := $(wildcard clients/*.c)
DLS_OBJ   := $(DLS_SRC:%.c=$(BUILD)/%.o) $(patsubst %.cc,$(BUILD)/%.o,$(wildcard clients/*.cc))
DLS_BIN   := $(BUILD)/bin/dls

# The library users link (make install): the cores, the ORB adapters, the
# embedding API (slave/ and master/ adapters); libdls.so exports only the
# functions of include/dls/ (scripts/libdls.map).
VERSION    := 0.3.0
# the version the programs print (--version): cli_util.o only
$(BUILD)/common/cli/cli_util.o: ALL_CFLAGS += -DDLS_VERSION='"$(VERSION)"'
$(BUILD)/common/cli/cli_util.o: Makefile
SOVERSION  := 3
PUBLIC_OBJ := $(CORE_OBJ) $(ORB_OBJ) $(patsubst %.cc,$(BUILD)/%.o,$(wildcard master/*.cc slave/*.cc))
PUBLIC_SO  := $(BUILD)/lib/libdls.so.$(SOVERSION)
PUBLIC_A   := $(BUILD)/lib/libdls.a

UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_OBJ  := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(BUILD)/tests/unit_tests

PROGRAMS  := $(DLS_BIN) $(MASTER_BIN) $(TREESCHED_BIN) $(SLAVE_BIN) $(HMASTER_BIN)

# test programs: built for the tests, never installed
BADCLIENT_OBJ := $(BUILD)/tests/tools/bad_client.o
BADCLIENT_BIN := $(BUILD)/tests/bin/bad_client
PINGRETRY_OBJ := $(BUILD)/tests/tools/ping_retry.o
PINGRETRY_BIN := $(BUILD)/tests/bin/ping_retry
SUBREAPER_BIN := $(BUILD)/tests/bin/subreaper
FREEZE_BIN    := $(BUILD)/tests/bin/freeze_main
# the reference workload in shared memory (OpenMP), for make bench-omp
OMP_BIN       := $(BUILD)/tests/bin/omp_mandel
TEST_PROGS    := $(BADCLIENT_BIN) $(PINGRETRY_BIN) $(SUBREAPER_BIN) $(FREEZE_BIN) $(OMP_BIN)

# Fuzz harnesses of the core handlers (tests/fuzz/): each links either
# libFuzzer (make fuzz, clang) or replay_main.c, which replays the committed
# corpus (tests/fuzz/corpus/TARGET/) with any compiler in make check.
FUZZ_TARGETS  := master twolevel coordinator tree_slave journal record
FUZZ_LIB_OBJ  := $(BUILD)/tests/fuzz/fuzz_input.o $(BUILD)/tests/fuzz/fuzz_run.o \
                 $(BUILD)/tests/fuzz/fuzz_master_target.o \
                 $(BUILD)/tests/unit/master_testutil.o $(BUILD)/tests/unit/journal_testutil.o
FUZZ_REPLAY   := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/replay_%)
FUZZ_BIN      := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%)
FUZZ_SECONDS  ?= 120


.PHONY: docs check-docs test-deps
.PHONY: all check check-repeat check-cluster soak check-unit check-layout check-integration check-fuzz-corpus examples \
        sanitize fuzz fuzz-run clean install uninstall man demo deps bench-omp
all: $(PROGRAMS) $(PUBLIC_SO) $(PUBLIC_A)
deps: $(DEPS_MK)

# gcc only: clang has no such option (make fuzz builds with clang)
VECT_FLAG := $(if $(findstring clang,$(CC)),,-fvect-cost-model=dynamic)

# The kernel must be bit-exact: no fused multiply-add (docs/emulation.md 1).
$(BUILD)/common/workload/mandel.o $(BUILD)/common/workload/pendulum.o: ALL_CFLAGS += -ffp-contract=off
# The result checks read every octet the master takes: let the compiler
# vectorize their loops (-O2's cheap cost model leaves them scalar).
$(BUILD)/common/workload/mandel_workload.o $(BUILD)/common/workload/pendulum.o: ALL_CFLAGS += $(VECT_FLAG)

# Objects are rebuilt when the flags change (-fPIC, sanitizers, OPT, or a
# per-file flag in this Makefile): the stamp holds the flags of the last
# build and this file's checksum, and changes only with them.  Expanded once
# (:=), so that a per-folder flag of whichever object reaches the stamp first
# never rewrites it: the stamp holds the global flags only.
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_LINE  := $(ALL_CFLAGS) | $(ALL_CXXFLAGS) | $(ALL_LDFLAGS) | $(firstword $(shell cksum Makefile))
$(FLAGS_STAMP): FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(FLAGS_LINE)' | cmp -s - $@ || echo '$(FLAGS_LINE)' > $@
.PHONY: FORCE

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | $(DEPS_MK)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/tests/unit/%.o: ALL_CFLAGS += $(CUNIT_CFLAGS)
$(BUILD)/common/files/image_file.o: ALL_CFLAGS += $(PNG_CFLAGS)
$(BUILD)/common/report/run_report.o: ALL_CFLAGS += $(JSON_CFLAGS)
$(BUILD)/clients/%.o: ALL_CFLAGS += $(JSON_CFLAGS)
$(BUILD)/%/main.o: INCLUDES += $(CLI_INC)
$(BUILD)/common/cli/%.o: INCLUDES += $(CLI_INC)
$(BUILD)/clients/%.o: INCLUDES += $(CLIENT_INC)
$(BUILD)/tests/%.o: INCLUDES += $(TEST_INC)
$(BUILD)/tests/fuzz/%.o: INCLUDES += -iquote tests/unit

# IDL stubs: generated, never committed.
$(IDL_HH): idl/dls.idl | $(DEPS_MK)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  IDL     $<")
	$(Q)$(OMNIIDL) -bcxx -C$(@D) $<
$(BUILD)/idl/dlsSK.cc: $(IDL_HH)

$(IDL_OBJ): $(BUILD)/idl/dlsSK.cc $(FLAGS_STAMP)
	$(if $(Q),@echo "  CXX     $<")
	$(Q)$(CXX) $(filter-out -Wextra,$(ALL_CXXFLAGS)) -Wno-unused-parameter -c $< -o $@

$(BUILD)/%.o: %.cc $(IDL_HH) $(FLAGS_STAMP) | $(DEPS_MK)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  CXX     $<")
	$(Q)$(CXX) $(ALL_CXXFLAGS) -c $< -o $@

$(LIBORB): $(ORB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(MASTER_BIN): $(MASTER_OBJ) $(LIBCLI) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(BADCLIENT_BIN): $(BADCLIENT_OBJ) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(PINGRETRY_BIN): $(PINGRETRY_OBJ) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(SUBREAPER_BIN): $(BUILD)/tests/tools/subreaper.o
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ -o $@

$(FREEZE_BIN): $(BUILD)/tests/tools/freeze_main.o
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ -o $@

# the slaves' own kernel object, so that both compute with the same code
$(BUILD)/tests/bench/omp_mandel.o: ALL_CFLAGS += -fopenmp
$(OMP_BIN): $(BUILD)/tests/bench/omp_mandel.o $(BUILD)/common/workload/mandel.o
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -fopenmp $^ -o $@

$(TREESCHED_BIN): $(TREESCHED_OBJ) $(LIBCLI) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(HMASTER_BIN): $(HMASTER_OBJ) $(LIBCLI) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(SLAVE_BIN): $(SLAVE_OBJ) $(LIBCLI) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(PUBLIC_SO): $(PUBLIC_OBJ) scripts/libdls.map
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -shared $(ALL_LDFLAGS) -Wl,-soname,libdls.so.$(SOVERSION) \
	  -Wl,--version-script=scripts/libdls.map -Wl,--no-undefined \
	  $(PUBLIC_OBJ) $(ORB_LIBS) -o $@
	$(Q)ln -sf libdls.so.$(SOVERSION) $(@D)/libdls.so

$(PUBLIC_A): $(PUBLIC_OBJ)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBDLS): $(CORE_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBCLI): $(CLI_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(DLS_BIN): $(DLS_OBJ) $(LIBCLI) $(LIBORB) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) $(ALL_LDFLAGS) $^ $(ORB_LIBS) -o $@

$(UNIT_BIN): $(UNIT_OBJ) $(LIBCLI) $(LIBDLS)
	$(Q)mkdir -p $(@D)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(CUNIT_LIBS) $(CORE_LIBS) -o $@

$(FUZZ_REPLAY): $(BUILD)/tests/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o \
  $(BUILD)/tests/fuzz/replay_main.o $(FUZZ_LIB_OBJ) $(LIBDLS)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(CORE_LIBS) -o $@

# libFuzzer's main: only in make fuzz's build (SAN has -fsanitize=fuzzer-no-link)
$(FUZZ_BIN): $(BUILD)/tests/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ) $(LIBDLS)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(CORE_LIBS) -o $@

# --- tests --------------------------------------------------------------------
check: check-unit check-layout check-docs check-fuzz-corpus check-integration

# docs/options.md is every program's --help: it must be what they print
check-docs: all
	$(Q)scripts/options-doc.sh $(BUILD)/bin | diff -u docs/options.md - >$(BUILD)/options.diff || \
	  { cat $(BUILD)/options.diff; echo "docs/options.md differs from the programs' --help: make docs"; exit 1; }

# rewrites docs/options.md from the programs' --help
docs: all
	scripts/options-doc.sh $(BUILD)/bin >docs/options.md

# every saved fuzz input (the corpus make fuzz grew, and each input that once
# broke an invariant) replayed through its harness: none may break one
check-fuzz-corpus: $(FUZZ_REPLAY)
	$(Q)for t in $(FUZZ_TARGETS); do \
	  $(BUILD)/tests/fuzz/replay_$$t tests/fuzz/corpus/$$t || exit 1; done

# the house rules the build can check: no upward include, no circle of
# files, no exit() in a core (tests/tools/check_layout.py)
check-layout: all $(UNIT_BIN)
	python3 tests/tools/check_layout.py $(BUILD)

check-unit: $(UNIT_BIN)
	$(UNIT_BIN)

TEST_ENV = DLS_BIN_DIR=$(abspath $(BUILD)/bin) DLS_TEST_BIN_DIR=$(abspath $(BUILD)/tests/bin) \
	   DLS_PREFIX=$(abspath $(BUILD)/prefix) DLS_EXAMPLES_DIR=$(abspath $(BUILD)/examples)
# what only the tests need: a real browser for the HTML report (t_gantt)
TEST_PKGS := chromium
test-deps:
	$(Q)scripts/install-deps.sh $(TEST_PKGS)

check-integration: all $(TEST_PROGS) examples test-deps
	$(TEST_ENV) tests/integration/run.sh

# Flakes hunted: the integration suite N times, each in a fresh temporary
# folder, with each test's pass count; HOG=1 keeps every core busy meanwhile
# (scripts/check-repeat.sh; BENCHMARKS.md 16.3).
N   ?= 20
HOG ?= 0
check-repeat: all $(TEST_PROGS) examples test-deps
	$(TEST_ENV) REPEAT_DIR=$(abspath $(BUILD)/repeat) scripts/check-repeat.sh $(N) $(HOG) $(TESTS)

# What a user does: install into a prefix (here a temporary one), then build
# the installed examples (share/doc/dls/examples) out of tree with pkg-config
# only (t_examples.sh runs them, without LD_LIBRARY_PATH: dls.pc's rpath).
examples: all
	$(Q)rm -rf $(BUILD)/prefix $(BUILD)/examples
	$(Q)$(MAKE) -s install PREFIX=$(abspath $(BUILD)/prefix) >/dev/null
	$(Q)mkdir -p $(BUILD)/examples
	$(Q)PKG_CONFIG_PATH=$(abspath $(BUILD)/prefix)/lib/pkgconfig $(MAKE) -s \
	  -C $(BUILD)/prefix/share/doc/dls/examples \
	  O=$(abspath $(BUILD)/examples) CFLAGS='-O2 -g -Wall -Wextra $(SAN)' \
	  CXXFLAGS='-O2 -g -Wall -Wextra $(SAN)'

# Whole runs in random configurations, failure drills among them, each
# checked byte for byte against dls reference (scripts/soak.sh; BENCHMARKS.md
# 16.2).  Not in make check: SOAK_RUNS runs take about 6 s each.
SOAK_RUNS ?= 100
SOAK_SEED ?= $(shell date +%s)
soak: all examples
	DLS_BIN_DIR=$(abspath $(BUILD)/bin) DLS_EXAMPLES_DIR=$(abspath $(BUILD)/examples) \
	  DLS_PREFIX=$(abspath $(BUILD)/prefix) \
	  SOAK_DIR=$(abspath $(BUILD)/soak) \
	  scripts/soak.sh $(SOAK_RUNS) $(SOAK_SEED)

# DLS on real cores against the same kernel in OpenMP, one slave and one
# thread per core (scripts/bench-omp.sh; BENCHMARKS.md 11.1).  Not in make check: a benchmark, for an idle host.
bench-omp: all $(OMP_BIN)
	scripts/bench-omp.sh $(BUILD)

# Slurm, for real: installs slurm-wlm and munge, starts a private one-node
# Slurm (root) and runs dls run --slurm under salloc.  Not in make check: it
# needs root, three daemons and a minute (README "Running on several machines").
CLUSTER_PKGS := slurm-wlm munge
check-cluster: all $(SUBREAPER_BIN)
	$(Q)scripts/install-deps.sh $(CLUSTER_PKGS)
	DLS_BIN_DIR=$(abspath $(BUILD)/bin) DLS_TEST_BIN_DIR=$(abspath $(BUILD)/tests/bin) \
	  tests/integration/run.sh $(abspath tests/cluster)/t_*.sh

# ASan reports go to build/san/asan.PID, not stderr: a server that dls run stops while
# ASan writes its report (symbolizing takes seconds) leaves it whole there.
# DLS_NO_CLONES: the sanitized build runs the checking loops' baseline code,
# which make check does not reach on an AVX2 machine (common/base/dls_simd.h).
sanitize:
	mkdir -p build/san
	DLS_SANITIZE=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	ASAN_OPTIONS=log_exe_name=0:log_path=$(CURDIR)/build/san/asan \
	$(MAKE) BUILD=build/san WERROR= OPT='-O1 -g' \
	  SAN='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DDLS_NO_CLONES' check

# Fuzzing: clang's libFuzzer with ASan/UBSan over the C cores, in its own
# build; each target runs FUZZ_SECONDS from the committed corpus, writes new
# inputs to build/fuzz/corpus/TARGET and its figures to build/fuzz/report.txt.
# A crash leaves its input in build/fuzz/ (replay it with the target).
FUZZ_PKGS := clang libclang-rt-dev
fuzz:
	$(Q)scripts/install-deps.sh $(FUZZ_PKGS)
	$(MAKE) BUILD=build/fuzz CC=clang WERROR= OPT='-O1 -g' \
	  SAN='-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	  fuzz-run

fuzz-run: $(FUZZ_BIN)
	$(Q)rm -f $(BUILD)/report.txt
	$(Q)for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/corpus/$$t && \
	  $(BUILD)/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	    -artifact_prefix=$(BUILD)/$$t- -print_final_stats=1 \
	    $(BUILD)/corpus/$$t tests/fuzz/corpus/$$t > $(BUILD)/$$t.log 2>&1; rc=$$?; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/$$t.log); \
	  cov=$$(grep -o 'cov: [0-9]*' $(BUILD)/$$t.log | tail -1); \
	  echo "$$t: $$runs inputs in $(FUZZ_SECONDS) s, $$cov, exit $$rc" | tee -a $(BUILD)/report.txt; \
	  [ $$rc -eq 0 ] || { tail -40 $(BUILD)/$$t.log; exit 1; }; done

# The main job: an emulated C8 cluster (4 PEs of V = 1, 4 of V = 2) computing
# a 1600x800 Mandelbrot image with DTSS, through a private naming service.
# t_iter 500 ns makes it last about 3 s; the image is then checked column by
# column against the sequential computation.
DEMO_ARGS ?= --cluster C8 --scheme dtss --width 1600 --height 800 --order interleaved \
             --t-iter 500
demo: all
	$(DLS_BIN) run $(DEMO_ARGS) --png mandelbrot.png --csv mandelbrot.csv \
	  --raw $(BUILD)/demo.pgm
	$(DLS_BIN) mandel --width 1600 --height 800 --raw $(BUILD)/demo-ref.pgm > /dev/null
	$(DLS_BIN) compare $(BUILD)/demo.pgm $(BUILD)/demo-ref.pgm
	@echo "wrote mandelbrot.png and mandelbrot.csv (the per-PE table)"

# The manual pages, from each program's --help and --version (help2man).
MAN_DIR := $(BUILD)/man
man: $(MAN_DIR)/dls.1
$(MAN_DIR)/dls.1: $(PROGRAMS) scripts/man-pages.sh
	$(Q)rm -rf $(MAN_DIR)
	$(Q)scripts/man-pages.sh $(BUILD)/bin $(MAN_DIR)

install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include/dls $(DESTDIR)$(PREFIX)/share/dls/idl
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(PUBLIC_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libdls.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libdls.so
	install -m 644 $(PUBLIC_A) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' scripts/dls.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dls.pc
	install -m 644 include/dls/*.h include/dls/*.hh $(DESTDIR)$(PREFIX)/include/dls/
	install -m 644 idl/dls.idl $(DESTDIR)$(PREFIX)/share/dls/idl/
	install -d $(DESTDIR)$(PREFIX)/share/doc/dls/examples/heat_sim
	install -m 644 README.md PROTOCOL.md CHANGELOG.md BENCHMARKS.md $(DESTDIR)$(PREFIX)/share/doc/dls/
	install -d $(DESTDIR)$(PREFIX)/share/doc/dls/docs/plots
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/dls/docs/
	install -m 644 docs/plots/*.png $(DESTDIR)$(PREFIX)/share/doc/dls/docs/plots/
	install -m 644 examples/Makefile examples/*.c examples/*.cc \
	  $(DESTDIR)$(PREFIX)/share/doc/dls/examples/
	install -m 644 examples/heat_sim/* $(DESTDIR)$(PREFIX)/share/doc/dls/examples/heat_sim/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# Removes what make install put in PREFIX, and nothing else.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(PROGRAMS)))
	rm -f $(DESTDIR)$(PREFIX)/lib/libdls.so $(DESTDIR)$(PREFIX)/lib/libdls.so.$(SOVERSION) \
	  $(DESTDIR)$(PREFIX)/lib/libdls.a $(DESTDIR)$(PREFIX)/lib/pkgconfig/dls.pc
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/dls/,$(notdir $(wildcard include/dls/*)))
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/dls.1 $(DESTDIR)$(PREFIX)/share/man/man1/dls-*.1
	rm -rf $(DESTDIR)$(PREFIX)/share/dls $(DESTDIR)$(PREFIX)/share/doc/dls
	-rmdir $(DESTDIR)$(PREFIX)/include/dls 2>/dev/null

clean:
	rm -rf build

-include $(CORE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(DLS_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(ORB_OBJ:.o=.d) \
         $(MASTER_OBJ:.o=.d) $(TREESCHED_OBJ:.o=.d) $(SLAVE_OBJ:.o=.d) $(BADCLIENT_OBJ:.o=.d) $(PINGRETRY_OBJ:.o=.d) $(HMASTER_OBJ:.o=.d) \
         $(wildcard $(BUILD)/tests/fuzz/*.d)

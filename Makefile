# Thin wrapper around CMake. `make demo` and `make test` install what they need first (make deps).
BUILD      ?= build
BUILD_SAN  ?= build-sanitize
BUILD_BENCH ?= build-bench
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
GEN        := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 25
FUZZ_TARGETS ?= scenario import prescan solvers systems

PREFIX     ?= /usr/local

BUILD_WIN  ?= build-windows
BUILD_API  ?= build-api

.PHONY: all deps build test sanitize bench bench-peers demo fuzz fuzz-ci install windows docs clean

all: build

deps:
	@sh scripts/deps.sh

# Configured every time (cheap when nothing changed), so dependencies installed after a first
# configure are found; a missing one stops the configure with the install line.
build:
	cmake -S . -B $(BUILD) $(GEN) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

test: deps
	$(MAKE) build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

sanitize: deps
	cmake -S . -B $(BUILD_SAN) $(GEN) -DCMAKE_BUILD_TYPE=Debug -DLB_SANITIZE=ON -DLB_WERROR=ON
	cmake --build $(BUILD_SAN) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LB_SANITIZE_RUN=1 \
	  ctest --test-dir $(BUILD_SAN) --output-on-failure -j $(JOBS) -LE nosanitize

bench: deps
	cmake -S . -B $(BUILD_BENCH) $(GEN) -DCMAKE_BUILD_TYPE=Release -DLB_BENCHMARKS=ON -DLIMBER_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH) -j $(JOBS) --target limber_bench
	$(BUILD_BENCH)/bench/limber_bench

# limber beside Embree and Bullet in one process (bench/peers): installs libembree-dev and
# libbullet-dev first, as fuzz does clang. The library never links them.
bench-peers:
	@LB_EXTRA_PKGS="libembree-dev libbullet-dev" sh scripts/deps.sh
	cmake -S . -B $(BUILD_BENCH) $(GEN) -DCMAKE_BUILD_TYPE=Release -DLB_BENCHMARKS=ON -DLIMBER_BUILD_TESTS=OFF -DLB_BENCH_PEERS=ON
	cmake --build $(BUILD_BENCH) -j $(JOBS) --target limber_bench_peers
	$(BUILD_BENCH)/bench/peers/limber_bench_peers

demo: deps
	$(MAKE) build
	sh scripts/demo.sh $(BUILD)

# libFuzzer targets (clang) with ASan and UBSan, each run for FUZZ_SECONDS on a copy of its
# committed corpus (about FUZZ_SECONDS x 5 in all); crashes land in $(BUILD_FUZZ)/artifacts-<target>/.
fuzz: deps
	@LB_EXTRA_PKGS=clang sh scripts/deps.sh
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_FUZZ) $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLB_FUZZ=ON -DLB_SANITIZE=ON \
	  -DLIMBER_BUILD_APPS=OFF -DLB_BENCHMARKS=OFF
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  if [ -n "$(FUZZ_FIXED)" ]; then rm -rf $(BUILD_FUZZ)/corpus-$$t; fi; \
	  mkdir -p $(BUILD_FUZZ)/corpus-$$t $(BUILD_FUZZ)/artifacts-$$t; \
	  cp tests/fuzz/corpus/$$t/* $(BUILD_FUZZ)/corpus-$$t/; \
	  if [ -n "$(FUZZ_FIXED)" ]; then \
	    case $$t in scenario) n=150000;; import) n=1200;; prescan) n=75000;; solvers) n=50000;; *) n=30000;; esac; \
	    limit="-runs=$$n -seed=1 -max_total_time=600"; echo "fuzz $$t: $$n inputs from seed 1"; \
	  else limit="-max_total_time=$(FUZZ_SECONDS)"; echo "fuzz $$t: $(FUZZ_SECONDS) s"; fi; \
	  dict=""; if [ -f tests/fuzz/$$t.dict ]; then dict="-dict=tests/fuzz/$$t.dict"; fi; \
	  ASAN_OPTIONS=detect_leaks=0 $(BUILD_FUZZ)/tests/fuzz_$$t $$dict $$limit -print_final_stats=1 \
	    -timeout=30 -rss_limit_mb=4096 -artifact_prefix=$(BUILD_FUZZ)/artifacts-$$t/ $(BUILD_FUZZ)/corpus-$$t || exit 1; \
	done

# CI's fuzz gate: every target for a fixed number of inputs (about 20 s each on 2 cores) from a fixed
# seed and the committed corpus, so its outcome depends on the code and the corpus alone. Exploring
# for new findings is `make fuzz` (by time, a new seed each run); what it finds joins the corpus.
fuzz-ci: deps
	$(MAKE) fuzz FUZZ_FIXED=1

# The core and its tests cross-compiled for Windows with MinGW-w64 and run under Wine, and
# limber.dll's exports checked (the same as the windows_cross test).
windows: deps
	cmake -DSOURCE=$(CURDIR) -DWORK=$(CURDIR)/$(BUILD_WIN) "-DGENERATOR=$(if $(GEN),Ninja,Unix Makefiles)" \
	  -P tests/windows/cross_test.cmake

# API reference from the public headers' /// comments and docs/embedding.md, with Doxygen; any
# Doxygen warning fails it. Open $(BUILD_API)/html/index.html.
docs: deps
	@mkdir -p $(BUILD_API)
	LB_DOCS_OUT=$(BUILD_API) doxygen docs/Doxyfile
	@echo "docs: $(BUILD_API)/html/index.html"

# Headers, libraries, tools, the CMake package and pkg-config files under $(PREFIX).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_BENCH) $(BUILD_FUZZ) $(BUILD_WIN) $(BUILD_API) out

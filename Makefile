# Thin wrapper around CMake. `make demo` and `make test` install what they need first (make deps).
BUILD      ?= build
BUILD_SAN  ?= build-sanitize
BUILD_BENCH ?= build-bench
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
GEN        := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build test sanitize bench demo clean

all: build

deps:
	@sh scripts/deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(GEN) -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/CMakeCache.txt
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
	cmake -S . -B $(BUILD_BENCH) $(GEN) -DCMAKE_BUILD_TYPE=Release -DLB_BENCHMARKS=ON -DLB_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH) -j $(JOBS) --target limber_bench
	$(BUILD_BENCH)/bench/limber_bench

demo: deps
	$(MAKE) build
	sh scripts/demo.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_BENCH) out

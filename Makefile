# orcl — the two commands of the README: `make tune` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo
export CARGO_BUILD_JOBS ?= 2

.PHONY: tune test test-under-load deps build lint fmt bench faults fuzz fuzz-long

# Install PoCL, the OpenCL ICD loader and headers when missing (Debian/Ubuntu; needs root or sudo).
deps:
	@if [ ! -e /usr/include/CL/cl.h ] || ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1 || [ ! -e /usr/lib/x86_64-linux-gnu/libOpenCL.so ]; then \
		echo "installing PoCL and the OpenCL headers with apt-get"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq pocl-opencl-icd ocl-icd-opencl-dev opencl-headers >/dev/null; \
	fi

build: deps
	$(CARGO) build --release

# Tune the quick vecAXPY example on the PoCL CPU device and write examples/_axpy_quick.c.
tune: build
	./target/release/orcl tune examples/axpy_quick.c

# The test suite (unit, golden, located errors, end to end on PoCL), every test binary run even
# after a failure (--no-fail-fast); parts skipped for want of CUDA or Slurm listed at the end.
test: deps
	@rm -f target/tmp/orcl-skipped.txt
	$(CARGO) test --release --workspace --no-fail-fast -- --test-threads=2; status=$$?; \
	if [ -s target/tmp/orcl-skipped.txt ]; then \
		echo "skipped here ($$(sort -u target/tmp/orcl-skipped.txt | wc -l)): parts of tests that need what this machine lacks"; \
		sort -u target/tmp/orcl-skipped.txt | sed 's/^/  /'; \
	fi; exit $$status

# The end-to-end tests while CPU-bound loads keep every core busy (tests/under_load.sh): they wait
# on events, not on wall time, so a loaded machine makes them slower, never failing (issue 25).
test-under-load: deps
	./tests/under_load.sh $(CARGO) test --release --test e2e -- --test-threads=2

# Fault injection on a PoCL tune (kill -9 / SIGTERM at random moments, a hanging variant, a full
# disk for the database); about 30 s, at most FAULTS_BUDGET seconds (tests/faults.sh).
faults: build
	ORCL=$(CURDIR)/target/release/orcl ./tests/faults.sh

# Property check of the front end (tests/fuzz.rs): the corpus in tests/fuzz/corpus, then
# FUZZ_CASES inputs generated over the grammar and FUZZ_CASES mutated example files, each
# `orcl check` exiting 0 or 2 with a located error, never crashing; at most FUZZ_SECONDS
# seconds of cases each (about 1 minute on 2 cores); then FUZZ_SHAPE_CASES inputs of the
# G5/G6 shapes (huge lists, floods, macro chains), each also within 5 s of CPU and 1 GiB, at
# most FUZZ_SHAPE_SECONDS seconds.
FUZZ_CASES ?= 5000
FUZZ_SECONDS ?= 170
FUZZ_SHAPE_CASES ?= 60
FUZZ_SHAPE_SECONDS ?= 100
FUZZ_SEED ?= 15
FUZZ_THREADS ?= 2
fuzz: deps
	ORCL_FUZZ_CASES=$(FUZZ_CASES) ORCL_FUZZ_SECONDS=$(FUZZ_SECONDS) ORCL_FUZZ_SEED=$(FUZZ_SEED) \
		ORCL_FUZZ_SHAPE_CASES=$(FUZZ_SHAPE_CASES) ORCL_FUZZ_SHAPE_SECONDS=$(FUZZ_SHAPE_SECONDS) \
		$(CARGO) test --release --test fuzz -- --test-threads=$(FUZZ_THREADS) --nocapture

# The one-hour run (docs/RELIABILITY.md): a new seed, one job at nice 19, 20 minutes each of
# grammar, mutations and shapes. Failing inputs land in target/fuzz-failures/.
FUZZ_LONG_SEED ?= $(shell od -An -N2 -tu2 /dev/urandom | tr -d ' ')
fuzz-long: deps
	$(CARGO) build --release --test fuzz
	nice -n 19 $(MAKE) fuzz CARGO_BUILD_JOBS=1 FUZZ_CASES=100000000 FUZZ_SECONDS=1200 \
		FUZZ_SHAPE_CASES=100000000 FUZZ_SHAPE_SECONDS=1200 FUZZ_SEED=$(FUZZ_LONG_SEED) \
		FUZZ_THREADS=1

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

# ftrace-ext: patch series for mainline Linux (7.2) and its 6.1 LTS
# backport, with the harness that builds, boots and tests them. See
# README.md.
#
#   make run      build the patched kernel, boot it in QEMU, run the demo
#   make test     build, boot, run every test; ends with "N passed, N failed"
#   make test BASE=1  the same ftracetest plan on the pristine base: is
#                 tests/SERIES/ftracetest-base-failures.txt exact?
#   make test-debug  the hardening lane: static checks, a lockdep/KASAN/
#                 kmemleak kernel, the series' tests and fuzzing
#   make test-mttcg  the series' tests, stress and fuzzer on multi-threaded
#                 TCG (FLAVOUR=test, debug or kcsan; SMP=vCPUs)
#   make soak     stress and fuzzer on the debug and KCSAN kernels under
#                 multi-threaded TCG for DURATION seconds each
#   make bench    boot a kernel built for measuring and print the benchmarks
#   make shell    boot the test kernel to an interactive shell
#   make tree     build/SERIES/linux: base commit (tag "base") + the series
#   make series   regenerate patches/SERIES from build/SERIES/linux
#   make check-bisect   build every prefix of the series (TOPIC=name: of one
#                       topic; FROM=N: from patch N; ONLY=N,M: those only)
#   make check-configs  build the series in configs without its dependencies
#   make check-series   apply + checkpatch the series (host only)
#
# Every target takes SERIES=6.1 (the default: the 6.1 LTS backport) or
# SERIES=7.2 (mainline), the directories of patches/.

SERIES ?= 6.1
export SERIES
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
S := scripts

.PHONY: all help deps tree build run shell test test-debug test-mttcg soak bench series check-series check-bisect check-configs clean distclean

all: help

help:
	@sed -n '5,25p' Makefile | sed 's/^# *//'

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/prepare-tree.sh

build: tree
	@$(S)/build-kernel.sh test
	@$(S)/mkinitramfs.sh test

test:
	@$(S)/run-lane.sh $(if $(filter 1,$(BASE)),base,test)

test-debug:
	@$(S)/run-lane.sh debug

test-mttcg:
	@$(S)/run-lane.sh mttcg

soak:
	@$(S)/soak.sh

run: build
	@$(S)/run-demo.sh

shell: build
	@$(S)/qemu-run.sh test shell 0

bench:
	@$(S)/make-bench.sh

series:
	@$(S)/make-series.sh

check-series: tree
	@tests/check-series.sh | tee build/$(SERIES)/logs/host-series.txt
	@$(S)/parse-results.py --tree build/$(SERIES)/linux --host build/$(SERIES)/logs/host-series.txt

check-bisect: tree
	@tests/check-bisect.sh

check-configs: tree
	@tests/check-configs.sh

clean:
	rm -rf build/*/obj-* build/*/initramfs-* build/*/logs build/kvm-probe

distclean:
	rm -rf build

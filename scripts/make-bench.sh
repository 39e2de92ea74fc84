#!/bin/bash
# make bench: build the bench flavour, boot it under deterministic TCG
# (-icount shift=0,sleep=off) and print the tables the guest measured.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: >"$LOGDIR/phases"
t0=$(now)
"$TOP/scripts/deps.sh"
"$TOP/scripts/prepare-tree.sh"
"$TOP/scripts/build-kernel.sh" bench
"$TOP/scripts/mkinitramfs.sh" bench
# One vCPU: under -icount, QEMU 7.2 never brings up a second x86 vCPU (the
# boot CPU and the AP spin in do_boot_cpu()/cpu_init() for ever).
ICOUNT=1 SMP=1 "$TOP/scripts/qemu-run.sh" bench bench "${TIMEOUT:-5400}" >"$LOGDIR/bench-run.log" 2>&1 || {
	tail -40 "$LOGDIR/bench-run.log"
	die "bench guest failed (see $LOGDIR/bench-run.log)"
}
phase_done total "$t0"
echo
echo "Benchmarks (kernel $(cat "$BUILD/obj-bench/include/config/kernel.release"), $(base_pkg_version) + $(series_patches | wc -l) patches)"
echo "Guest ns under QEMU -icount shift=0,sleep=off (1 vCPU): 1 ns = 1 guest instruction."
echo "They measure path length, not cache or branch behaviour."
awk '/^FTX-BENCH-BEGIN/{print ""; print "== " $2; on=1; next} /^FTX-BENCH-END/{on=0; next} on' \
	"$LOGDIR/results-bench.log" | tee "$LOGDIR/bench-tables.txt"

#!/bin/bash
# make bench: build the bench flavour of the patched kernel and of the
# pristine base, boot each under deterministic TCG (-icount
# shift=0,sleep=off, one vCPU) and print the tables the guests measured,
# with patched/base ratios of the hot paths (guest/bench/00-hot-paths.sh,
# the only benchmark the base has). Fails when a benchmark printed no
# number, a row is missing on either kernel, or a console shows a kernel
# report.
#   TIMEOUT=seconds  guest time limit, each boot (default 5400)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: >"$LOGDIR/phases"
t0=$(now)
"$TOP/scripts/deps.sh"
"$TOP/scripts/prepare-tree.sh"
ensure_base_tree
"$TOP/scripts/build-kernel.sh" bench
"$TOP/scripts/mkinitramfs.sh" bench
FTX_BASE=1 "$TOP/scripts/build-kernel.sh" bench
FTX_BASE=1 "$TOP/scripts/mkinitramfs.sh" bench

# One vCPU: under -icount, QEMU 7.2 never brings up a second x86 vCPU (the
# boot CPU and the AP spin in do_boot_cpu()/cpu_init() for ever).
# boot KIND: KIND is patched or base; the base runs only 00-hot-paths
boot() {
	local kind=$1 env=() args=""
	if [ "$kind" = base ]; then
		env=(FTX_BASE=1)
		args=ftx.bench=00-hot-paths
	fi
	if ! env "${env[@]}" TAG="$kind" ICOUNT=1 SMP=1 "$TOP/scripts/qemu-run.sh" bench bench \
		"${TIMEOUT:-5400}" "$args" >"$LOGDIR/bench-run-$kind.log" 2>&1; then
		tail -40 "$LOGDIR/bench-run-$kind.log"
		die "$kind bench guest failed (see $LOGDIR/bench-run-$kind.log)"
	fi
}
boot base
boot patched

# every benchmark's FTX-RESULT, and the consoles scanned as the tests' are
prc=0
for kind in base patched; do
	tree=$TREE
	[ "$kind" = base ] && tree=$BASE_TREE
	obj=$(FTX_BASE=$([ "$kind" = base ] && echo 1 || echo 0) bash -c ". '$TOP/scripts/lib.sh'; obj_dir bench")
	"$TOP/scripts/parse-results.py" --tree "$tree" --no-kunit \
		--console "$LOGDIR/console-bench-$kind.log" --results "$LOGDIR/results-bench-$kind.log" \
		--vmlinux "$obj/vmlinux" >"$LOGDIR/summary-bench-$kind.txt" || prc=1
done
phase_done total "$t0"

rows() {
	awk '$1 == "FTX-BENCH-ROW" {print $2, $3}' "$LOGDIR/results-bench-$1.log"
}
kver=$(cat "$(obj_dir bench)/include/config/kernel.release")
{
	echo
	echo "Benchmarks (kernel $kver, $(base_pkg_version) + $(series_patches | wc -l) patches, and the pristine base)"
	echo "Guest ns under QEMU -icount shift=0,sleep=off (1 vCPU): 1 ns = 1 guest instruction."
	echo "They measure path length, not cache or branch behaviour."
	echo
	echo "== patched/base: hot paths with no new feature in use (goal: ratio <= 1.01)"
	printf '%-24s %12s %12s %8s\n' path base patched ratio
	join -a1 -a2 -e missing -o 0,1.2,2.2 <(rows base | sort) <(rows patched | sort) |
		while read -r key b p; do
			if [ "$b" = missing ] || [ "$p" = missing ]; then
				printf '%-24s %12s %12s %8s\n' "$key" "$b" "$p" "MISSING"
			else
				printf '%-24s %12s %12s %8s\n' "$key" "$b" "$p" \
					"$(awk "BEGIN{printf \"%.3f\", $p/$b}")"
			fi
		done
	awk '/^FTX-BENCH-BEGIN/{ if ($2 != "00-hot-paths") {print ""; print "== " $2; on=1}; next}
		/^FTX-BENCH-END/{on=0; next} on && !/^FTX-RESULT /' "$LOGDIR/results-bench-patched.log"
} | tee "$LOGDIR/bench-tables.txt"

# the function tracers' rows as a plot (the README shows a copy)
if grep -q '^mux-ops-' "$LOGDIR/results-bench-patched.log"; then
	"$TOP/scripts/plot-function-tracers.sh" "$LOGDIR/results-bench-patched.log" \
		"$LOGDIR/function-tracers.png" || prc=1
fi
# and the mapped buffers' (guest/bench/50-mmap.sh)
if grep -q '^mmap-a ' "$LOGDIR/results-bench-patched.log"; then
	"$TOP/scripts/plot-mmap.sh" "$LOGDIR/results-bench-patched.log" \
		"$LOGDIR/mmap.png" || prc=1
fi

for kind in base patched; do
	echo
	echo "$kind: $(tail -1 "$LOGDIR/summary-bench-$kind.txt")"
	grep -A30 '^FAILED:' "$LOGDIR/summary-bench-$kind.txt" || true
done
[ "$(rows base | wc -l)" -gt 0 ] || die "the base printed no hot-path row"
! grep -q MISSING "$LOGDIR/bench-tables.txt" || die "a hot-path row is missing on one kernel"
[ $prc -eq 0 ] || die "a benchmark failed or a console shows a kernel report (above)"

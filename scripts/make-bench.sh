#!/bin/bash
# make bench: build the bench flavour of the patched kernel and of the
# pristine base, boot each under deterministic TCG (-icount
# shift=0,sleep=off, one vCPU) and print the tables the guests measured,
# with patched/base ratios of the hot paths (guest/bench/00-hot-paths.sh)
# and of the benchmarks marked "# base: also" that the base runs too
# (guest/bench/45-ftrace-ops.sh). Fails when a benchmark printed no
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

# the patched kernel runs the benchmarks of the features its series has
# (each guest/bench/*.sh says in its "# needs:" line what it measures)
benches=$(for b in "$TOP"/guest/bench/*.sh; do
	if test_in_series "$b"; then basename "$b" .sh; fi
done | paste -sd,)
# the pristine base runs 00-hot-paths and the benchmarks that say "# base:
# also" (measures of the base's own, compared row by row)
base_benches=$(for b in "$TOP"/guest/bench/*.sh; do
	n=$(basename "$b" .sh)
	if [ "$n" = 00-hot-paths ] || grep -qx '# base: also' "$b"; then echo "$n"; fi
done | paste -sd,)
# the groups of hot-path rows the base's boot leaves out, each with the
# measured reason it cannot run them (tests/SERIES/bench-base-skip.txt)
skipfile=$TESTDATA/bench-base-skip.txt
base_skip=
[ ! -f "$skipfile" ] || base_skip=$(awk '!/^#/ && NF {print $1}' "$skipfile" | paste -sd,)
# One vCPU: under -icount, QEMU 7.2 never brings up a second x86 vCPU (the
# boot CPU and the AP spin in do_boot_cpu()/cpu_init() for ever).
# boot KIND: KIND is patched (the benches above) or base (00-hot-paths and
# the "base: also" ones, less the skipped groups)
boot() {
	local kind=$1 env=() args=ftx.bench=$benches
	if [ "$kind" = base ]; then
		env=(FTX_BASE=1)
		args="ftx.bench=$base_benches${base_skip:+ ftx.bench_skip=$base_skip}"
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
		--vmlinux "$obj/vmlinux" --expect-kernel "$obj/arch/x86/boot/bzImage" \
		>"$LOGDIR/summary-bench-$kind.txt" || prc=1
done
phase_done total "$t0"

rows() {
	awk '$1 == "FTX-BENCH-ROW" {print $2, $3}' "$LOGDIR/results-bench-$1.log"
}
spread() { # KIND KEY: min/median/max of a row's 3 runs
	awk -v k="$2" '$1 == "FTX-BENCH-STATS" && $2 == k {print $3 "/" $4 "/" $5}' "$LOGDIR/results-bench-$1.log"
}
swap() { # KIND
	awk '$1 == "FTX-BENCH-ROW" {v[$2] = $3} END {print v["irqsoff-reported"] - v["irqsoff-unreported"]}' \
		"$LOGDIR/results-bench-$1.log"
}
kver=$(cat "$(obj_dir bench)/include/config/kernel.release")
{
	echo
	echo "Benchmarks (kernel $kver, $(base_pkg_version) + $(series_patches | wc -l) patches, and the pristine base)"
	echo "Guest ns under QEMU -icount shift=0,sleep=off (1 vCPU): 1 ns = 1 guest instruction."
	echo "They measure path length, not cache or branch behaviour."
	echo
	echo "== patched/base: hot paths with no new feature in use (goal: ratio <= 1.01)"
	echo "each the best of 3 runs; min/median/max of the 3 beside it"
	printf '%-24s %12s %12s %8s   %-26s %-26s\n' path base patched ratio "base min/med/max" "patched min/med/max"
	join -a1 -a2 -e missing -o 0,1.2,2.2 <(rows base | sort) <(rows patched | sort) |
		while read -r key b p; do
			if [ "$b" = missing ] && [ -n "$base_skip" ] && [[ ",$base_skip," == *",${key%%-*},"* ]]; then
				printf '%-24s %12s %12s %8s\n' "$key" "not run" "$p" "-"
			elif [ "$b" = missing ] || [ "$p" = missing ]; then
				printf '%-24s %12s %12s %8s\n' "$key" "$b" "$p" "MISSING"
			else
				printf '%-24s %12s %12s %8s   %-26s %-26s\n' "$key" "$b" "$p" \
					"$(awk "BEGIN{printf \"%.3f\", $p/$b}")" "$(spread base "$key")" "$(spread patched "$key")"
			fi
		done
	# the irqsoff rows less the sections themselves: the max-buffer swaps alone
	if [[ ",$base_skip," == *,irqsoff,* ]]; then
		echo "irqsoff-swap (reported - unreported): patched $(swap patched); the base's boot leaves the irqsoff rows out:"
		awk '$1 == "irqsoff" {$1 = ""; print " " $0}' "$skipfile"
	else
		echo "irqsoff-swap (reported - unreported): base $(swap base), patched $(swap patched)"
	fi
	echo "trace_pipe prints each line's ip through kallsyms: its row moves with the symbol"
	echo "table's layout of each build; trace_pipe-rawfmt is the same read without the lookup"
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

# stress throughput, single- against multi-threaded TCG (two more boots),
# where the series has what the stress scenarios drive
if test_in_series "$TOP/guest/tests/stress.sh"; then
	"$TOP/scripts/bench-mttcg.sh" | tee -a "$LOGDIR/bench-tables.txt" || prc=1
else
	echo "stress throughput table: not run (guest/tests/stress.sh needs features that series $SERIES lacks)" |
		tee -a "$LOGDIR/bench-tables.txt"
fi

for kind in base patched; do
	echo
	echo "$kind: $(tail -1 "$LOGDIR/summary-bench-$kind.txt")"
	grep -A30 '^FAILED:' "$LOGDIR/summary-bench-$kind.txt" || true
done
# the goals (tests/$SERIES/bench-goals.txt): a missed goal without a measured
# reason, or a row the table names missing on its kernel, fails make bench
echo
echo "== goals (tests/$SERIES/bench-goals.txt)"
grc=0
"$TOP/scripts/bench-goals.py" "$TESTDATA/bench-goals.txt" "$LOGDIR/results-bench-base.log" \
	"$LOGDIR/results-bench-patched.log" >"$LOGDIR/bench-goals.txt" || grc=1
grep -v '^FTX-RESULT ' "$LOGDIR/bench-goals.txt" | tee -a "$LOGDIR/bench-tables.txt"
grep '^FTX-RESULT .* FAIL ' "$LOGDIR/bench-goals.txt" || true
! grep -q MISSING "$LOGDIR/bench-tables.txt" || die "a hot-path row is missing on one kernel"
[ $grc -eq 0 ] || die "a bench goal was missed without a measured reason, or a row is missing (above)"
[ $prc -eq 0 ] || die "a benchmark failed or a console shows a kernel report (above)"

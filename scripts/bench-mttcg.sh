#!/bin/bash
# make bench's table of the stress scenarios' throughput on single- against
# multi-threaded TCG (issue 29): the bench kernel booted twice, 2 vCPUs,
# running the stress part (STRESS seconds, 30) with its oracles. Wall time
# here is real parallel time, not instructions: the figures are noisy and
# say how much more concurrency the multi-threaded lane puts through the
# series' code in the same time, not how fast the code is.
#   scripts/bench-mttcg.sh     (make bench runs it; alone it needs
#                               build/obj-bench: make bench once)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stress=${STRESS:-30}
OBJ=$(obj_dir bench)
[ -f "$OBJ/arch/x86/boot/bzImage" ] || die "no bench kernel: make bench"
"$TOP/scripts/mkinitramfs.sh" bench >/dev/null
prc=0
for mode in single multi; do
	# one QEMU for both (the multi-threaded lane's): the ratio is the
	# threading's alone
	if ! TAG=stress-$mode TCG_THREAD=$mode QEMU_TCG=fetched KVM=0 SMP=2 "$TOP/scripts/qemu-run.sh" bench test 1500 \
		"ftx.only=stress ftx.stress=$stress ftx.shard=$mode" >"$LOGDIR/bench-stress-$mode.log" 2>&1; then
		tail -20 "$LOGDIR/bench-stress-$mode.log"
		die "the $mode-threaded stress guest failed (see $LOGDIR/bench-stress-$mode.log)"
	fi
	# the stress oracles hold in both, and no kernel report
	"$TOP/scripts/parse-results.py" --tree "$TREE" --no-kunit \
		--console "$LOGDIR/console-test-stress-$mode.log" \
		--results "$LOGDIR/results-test-stress-$mode.log" \
		--vmlinux "$OBJ/vmlinux" >"$LOGDIR/summary-bench-stress-$mode.txt" || prc=1
done

# FTX-STRESS-COUNT NAME secs=S written=N read=N lost=N swaps=N
rates() { # MODE: NAME written/s read/s swaps/s
	awk '$1 == "FTX-STRESS-COUNT" {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		s = v["secs"] > 0 ? v["secs"] : 1
		printf "%s %.0f %.0f %.2f\n", $2, v["written"] / s, v["read"] / s, v["swaps"] / s
	}' "$LOGDIR/results-test-stress-$1.log"
}
echo
echo "== stress throughput: single- against multi-threaded TCG (2 vCPUs, ${stress}s a scenario)"
echo "wall-clock rates of the snapshot scenario's phases, all scenarios running at once:"
echo "markers written and read per second, snapshots taken per second; noisy (host load),"
echo "not instruction counts"
printf '%-30s %10s %10s %8s   %10s %10s %8s   %6s\n' phase "1T wr/s" "1T rd/s" "1T sw/s" \
	"MT wr/s" "MT rd/s" "MT sw/s" "wr MT/1T"
join <(rates single | sort) <(rates multi | sort) | while read -r k w1 r1 s1 w2 r2 s2; do
	printf '%-30s %10s %10s %8s   %10s %10s %8s   %6s\n' "$k" "$w1" "$r1" "$s1" "$w2" "$r2" "$s2" \
		"$(awk -v a="$w2" -v b="$w1" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')"
done
for mode in single multi; do
	echo "$mode-threaded: $(tail -1 "$LOGDIR/summary-bench-stress-$mode.txt")"
	grep -A30 '^FAILED:' "$LOGDIR/summary-bench-stress-$mode.txt" || true
done
[ $prc -eq 0 ] || die "a stress oracle failed or a console shows a kernel report (above)"

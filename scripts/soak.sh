#!/bin/bash
# make soak: the lanes CI has no time for, on the series SERIES names:
# the debug lane (make test-debug: every test of the series on the
# lockdep/KASAN/kmemleak kernel) and the multi-threaded lane (make
# test-mttcg: KUnit, stress and the fuzzer on the test kernel), then the
# fuzzer and the stress scenarios, round after round, on multi-threaded
# TCG (one host thread a vCPU), for DURATION seconds on each kernel of
# FLAVOURS, with the oracles and the console scan of the lanes.
#   LEFT_OUT=0        leave out the ftracetest cases that the test lane
#                     leaves out for time (tests/SERIES/ftracetest-left-out.list)
#   DEBUG_LANE=0      leave the debug lane out
#   MTTCG_LANE=0      leave the multi-threaded lane out
#   DURATION=seconds  per kernel (600)
#   FLAVOURS="..."    the kernels (debug kcsan): debug has lockdep, KASAN
#                     and kmemleak, kcsan the concurrency sanitizer
#   SMP=n             vCPUs (2)
#   STRESS=seconds    one stress round's time (30)
#   FUZZ_SEED=N       replay: every round's fuzzers start from this seed
#   FUZZ_OPS=N        each fuzzer's operations in a round (2000; 300 on
#                     the debug kernel)
# Each round's fuzzer seeds are printed; FUZZ_SEED replays them with
# make test ONLY=fuzz-tracefs or make soak. Ends with the totals: rounds,
# fuzzer operations and their rate, stress seconds (under load, a scenario,
# the part's wall time), kernel reports.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

duration=${DURATION:-600}
case $duration in
'' | *[!0-9]*) die "DURATION=$duration: seconds" ;;
esac
rc=0
totals=()
# The ftracetest cases the test lane leaves out for time, in one
# ftracetest run on the test kernel: its exit status and its console's
# kernel reports decide.
soak_list=$TESTDATA/ftracetest-left-out.list
if [ "${LEFT_OUT:-1}" = 1 ] && [ -f "$soak_list" ]; then
	tcs=$(grep -v '^[[:space:]]*#' "$soak_list" | grep -v '^[[:space:]]*$' | paste -sd,)
	info "soak: the ftracetest cases the test lane leaves out: $tcs"
	"$TOP/scripts/build-kernel.sh" test
	"$TOP/scripts/mkinitramfs.sh" test
	r=0
	TAG=soak-ftracetest "$TOP/scripts/qemu-run.sh" test repro 3600 \
		"ftx.repro=ftracetest-one ftx.tc=$tcs ftx.rounds=1" >/dev/null || r=$?
	con=$LOGDIR/console-repro-soak-ftracetest.log
	grep -q "^FTX-REPRO ftracetest-one round 1 rc=0 " "$con" || r=1
	reports=$(grep -cE '\] (BUG: |WARNING: |INFO: |Oops: |general protection)|Call Trace:' "$con" || true)
	[ "$reports" -eq 0 ] || r=1
	[ $r -eq 0 ] || rc=1
	counts=$(sed -nE 's/^FTX-ONE-TOTAL ([a-z]+) ([0-9]+).*/\1 \2/p' "$con" | awk '$2 > 0' | paste -sd, | sed 's/,/, /g')
	totals+=("ftracetest cases left out of make test ($tcs): ${counts:-no totals}, $reports kernel report lines, exit $r (${con#"$TOP"/})")
fi
if [ "${DEBUG_LANE:-1}" = 1 ]; then
	"$TOP/scripts/run-lane.sh" debug || rc=1
	totals+=("debug lane: $(tail -1 "$LOGDIR/summary-test-debug.txt" 2>/dev/null || echo 'no summary')")
fi
if [ "${MTTCG_LANE:-1}" = 1 ]; then
	FLAVOUR=test "$TOP/scripts/run-lane.sh" mttcg || rc=1
	totals+=("multi-threaded lane: $(tail -1 "$LOGDIR/summary-test-mttcg-test.txt" 2>/dev/null || echo 'no summary')")
fi
for f in ${FLAVOURS:-debug kcsan}; do
	info "soak: $f kernel, ${duration}s, multi-threaded TCG, ${SMP:-2} vCPUs"
	r=0
	FLAVOUR=$f SOAK=$duration ONLY=stress,fuzz-tracefs "$TOP/scripts/run-lane.sh" mttcg || r=$?
	[ $r -eq 0 ] || rc=1
	res=$LOGDIR/results-test-mttcg-$f-a.log
	con=$LOGDIR/console-test-mttcg-$f-a.log
	# FTX-FUZZ ops=N seeds=A,B ...; FTX-STRESS seconds=N; FTX-TIME part secs
	ops=$(sed -nE 's/^FTX-FUZZ ops=([0-9]+).*/\1/p' "$res" | awk '{s += $1} END {print s + 0}')
	fuzz_secs=$(awk '$1 == "FTX-TIME" && $2 == "fuzz-tracefs" {s += $3} END {print s + 0}' "$res")
	stress_secs=$(sed -nE 's/^FTX-STRESS seconds=([0-9]+).*/\1/p' "$res" | awk '{s += $1} END {print s + 0}')
	# The time under load: the snapshot scenario runs its three phases
	# (FTX-STRESS-COUNT stress-snapshot-*) one after the other, STRESS
	# seconds each, the other scenarios alongside its first; then those
	# of stress/alone/ run (FTX-STRESS alone=). The stress part's wall
	# time adds the oracles' checks of the output.
	loaded=$(awk '($1 == "FTX-STRESS-COUNT" && $2 ~ /^stress-snapshot-/) || $1 == "FTX-STRESS" {
		for (i = 2; i <= NF; i++) if ($i ~ /^(secs|alone)=/) { sub(/^[a-z]*=/, "", $i); s += $i } }
		END {print s + 0}' "$res")
	stress_wall=$(awk '$1 == "FTX-TIME" && $2 == "stress" {s += $3} END {print s + 0}' "$res")
	rounds=$(sed -nE 's/^FTX-SOAK-END rounds=([0-9]+).*/\1/p' "$res")
	seeds=$(sed -nE 's/^FTX-FUZZ .*seeds=([0-9,]+).*/\1/p' "$res" | paste -sd' ')
	reports=$(grep -E '\] (BUG: |WARNING: |INFO: |Oops: |general protection)' "$con" | grep -vc 'BUG: KCSAN: ' || true)
	kcsan=
	if [ "$f" = kcsan ]; then
		k=$LOGDIR/kcsan-reports-mttcg.txt
		kcsan=", KCSAN reports: $(grep -c '^series' "$k" || true) at the series' lines, $(grep -c '^base' "$k" || true) in the base's code"
	fi
	rate=0
	[ "$fuzz_secs" -gt 0 ] && rate=$(awk -v o="$ops" -v s="$fuzz_secs" 'BEGIN {printf "%.1f", o / s}')
	line="$f: ${rounds:-0} rounds, $ops fuzzer operations in ${fuzz_secs}s ($rate/s), ${loaded}s of stress under load (${stress_secs}s a scenario; the stress part ${stress_wall}s of wall time), $reports other kernel report lines$kcsan, lane exit $r; seeds: ${seeds:-none}"
	totals+=("$line")
done
echo
echo "soak totals (DURATION=${duration}s a kernel):"
printf '  %s\n' "${totals[@]}"
exit $rc

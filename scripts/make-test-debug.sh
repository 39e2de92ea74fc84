#!/bin/bash
# make test-debug: the hardening lane. Static checks on the host (sparse,
# W=1, kernel-doc), then a kernel with lockdep, KASAN, KFENCE, kmemleak and
# the object/list debug checks, booted in two guests that run the series'
# own tests (KUnit, samples, trace-cmd, the stress driver for longer, the
# fuzzer) and the ftracetest categories of guest/ftracetest-debug.list,
# then a kmemleak scan. Any report on a console fails the run, and so does
# a kmemleak report in tracing code, the samples or the series.
#   TIMEOUT=seconds   guest time limit (default 2400: 2x the usual 18 min)
#   STRESS=seconds    stress driver time (default 20)
#   FUZZ_SEED=N       replay the fuzzer's seeds of an earlier run (printed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fuzz=$(fuzz_seed_arg)

: >"$LOGDIR/phases"
t0=$(now)
"$TOP/scripts/deps.sh"
"$TOP/scripts/prepare-tree.sh"
# the parser fails every part of this list that did not run
expand_parts debug "$(known_parts | grep -v : | paste -sd,)" >"$LOGDIR/parts-test-debug.txt"
info "base: $BASE_PKG $(base_pkg_version), series: $(series_patches | wc -l) patches"
# the static checks compare against the test kernel's config
"$TOP/scripts/build-kernel.sh" test
s=$(now)
"$TOP/scripts/check-static.sh" >"$LOGDIR/host-static.txt"
phase_done static "$s"
"$TOP/scripts/build-kernel.sh" debug
"$TOP/scripts/mkinitramfs.sh" debug

# symbols of the code whose leaks fail the run: kernel/trace, the samples
# and the series' modules
OBJ=$BUILD/obj-debug
{ find "$OBJ/kernel/trace" -name '*.o' ! -name 'built-in.a'; find "$OBJ" -name '*.ko'; } |
	xargs -r nm --defined-only 2>/dev/null | awk 'NF == 3 && $2 ~ /[tT]/ {print $3}' |
	sort -u >"$LOGDIR/kmemleak-symbols.txt"

tmo=${TIMEOUT:-2400}
# the debug kernel is slow: a workqueue pool may take 60 s, not 30, before
# its lack of progress is reported (configs/debug.config)
lane="ftx.lane=debug ftx.stress=${STRESS:-20} workqueue.watchdog_thresh=60 $fuzz"
rm -f "$LOGDIR"/console-test-debug*.log "$LOGDIR"/results-test-debug*.log
TAG=probe "$TOP/scripts/qemu-run.sh" debug probe 60 >/dev/null
s=$(now)
qrc=0
# guest a: the ftracetest categories; guest b: everything else
(MEM=3G TAG=debug-a "$TOP/scripts/qemu-run.sh" debug test "$tmo" "$lane ftx.shard=a ftx.only=ftracetest" 2>&1 |
	sed -u 's/^/[a] /') &
pa=$!
(MEM=3G TAG=debug-b "$TOP/scripts/qemu-run.sh" debug test "$tmo" "$lane ftx.shard=b ftx.skip=ftracetest" 2>&1 |
	sed -u 's/^/[b] /') &
pb=$!
wait $pa || qrc=1
wait $pb || qrc=1
phase_done guests-debug "$s"

s=$(now)
prc=0
args=()
for t in a b; do
	args+=(--console "$LOGDIR/console-test-debug-$t.log" --results "$LOGDIR/results-test-debug-$t.log")
done
"$TOP/scripts/parse-results.py" --tree "$TREE" "${args[@]}" \
	--xfail "$TOP/tests/ftracetest-base-failures.txt" \
	--expected-skips "$TOP/tests/expected-skips.txt" \
	--expect-parts "$LOGDIR/parts-test-debug.txt" \
	--vmlinux "$OBJ/vmlinux" \
	--host "$LOGDIR/host-static.txt" \
	--kmemleak-symbols "$LOGDIR/kmemleak-symbols.txt" \
	--summary-json "$LOGDIR/summary-test-debug.json" >"$LOGDIR/summary-test-debug.txt" || prc=$?
phase_done parse "$s"
phase_done total "$t0"

echo
echo "phase times:"
sed 's/^/  /' "$LOGDIR/phases"
cat "$LOGDIR/summary-test-debug.txt"
[ $qrc -eq 0 ] && [ $prc -eq 0 ]

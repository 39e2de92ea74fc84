#!/bin/bash
# make test: build the patched kernel, boot it, run the whole test plan,
# parse and summarise. Ends with "N passed, N failed[, N skipped]".
#
# The guest plan runs in two guests side by side, one per host core:
# guest "a" runs the parts listed in tests/shard-a.list, guest "b" the rest.
#   ONLY=part[,part]  run a subset, in one guest (see guest/run-tests.sh)
#   TIMEOUT=seconds   guest time limit (default 1500: 3x the usual 8 min)
#   FUZZ_SEED=N       replay the fuzzer's seeds of an earlier run (printed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fuzz=$(fuzz_seed_arg)

: >"$LOGDIR/phases"
t0=$(now)
"$TOP/scripts/deps.sh"
"$TOP/scripts/prepare-tree.sh"
# A typo in ONLY or in the shard list would run nothing and pass: stop
# now, before the build. The parser fails every listed part that did not run.
shard=$(grep -v '^\s*#' "$TOP/tests/shard-a.list" | grep -v '^\s*$' | paste -sd,)
check_parts tests/shard-a.list "$shard"
if [ -n "${ONLY:-}" ]; then
	check_parts ONLY "$ONLY"
	expand_parts test "$ONLY" >"$LOGDIR/parts-test.txt"
else
	expand_parts test "$(known_parts | grep -v : | paste -sd,)" >"$LOGDIR/parts-test.txt"
fi
info "base: $BASE_PKG $(base_pkg_version), kernel $(make -s -C "$TREE" kernelversion), series: $(series_patches | wc -l) patches"
"$TOP/scripts/build-kernel.sh" test
"$TOP/scripts/mkinitramfs.sh" test

s=$(now)
"$TOP/tests/check-series.sh" >"$LOGDIR/host-series.txt"
phase_done check-series "$s"
# the parser's own tests: each fixture log gets the verdict it should
s=$(now)
"$TOP/tests/check-parser.py" --tree "$TREE" >"$LOGDIR/host-parser.txt"
phase_done check-parser "$s"

tmo=${TIMEOUT:-1500}
rm -f "$LOGDIR"/console-test-[ab].log "$LOGDIR"/results-test-[ab].log
parse_args=()
qrc=0
if [ -n "${ONLY:-}" ]; then
	TAG=a "$TOP/scripts/qemu-run.sh" test test "$tmo" "ftx.only=$ONLY $fuzz" || qrc=$?
	parse_args+=(--console "$LOGDIR/console-test-a.log" --results "$LOGDIR/results-test-a.log")
else
	# one KVM probe (if any) before the two guests start
	TAG=probe "$TOP/scripts/qemu-run.sh" test probe 60 >/dev/null
	s=$(now)
	(TAG=a "$TOP/scripts/qemu-run.sh" test test "$tmo" "ftx.shard=a ftx.only=$shard $fuzz" 2>&1 |
		sed -u 's/^/[a] /') &
	pa=$!
	(TAG=b "$TOP/scripts/qemu-run.sh" test test "$tmo" "ftx.shard=b ftx.skip=$shard $fuzz" 2>&1 |
		sed -u 's/^/[b] /') &
	pb=$!
	wait $pa || qrc=1
	wait $pb || qrc=1
	phase_done guests "$s"
	for t in a b; do
		parse_args+=(--console "$LOGDIR/console-test-$t.log" --results "$LOGDIR/results-test-$t.log")
	done
fi

s=$(now)
prc=0
"$TOP/scripts/parse-results.py" --tree "$TREE" "${parse_args[@]}" \
	--xfail "$TOP/tests/ftracetest-base-failures.txt" \
	--expected-skips "$TOP/tests/expected-skips.txt" \
	--expect-parts "$LOGDIR/parts-test.txt" \
	--vmlinux "$BUILD/obj-test/vmlinux" \
	--host "$LOGDIR/host-series.txt" --host "$LOGDIR/host-parser.txt" \
	--summary-json "$LOGDIR/summary-test.json" >"$LOGDIR/summary-test.txt" || prc=$?
phase_done parse "$s"
phase_done total "$t0"

echo
echo "phase times:"
sed 's/^/  /' "$LOGDIR/phases"
cat "$LOGDIR/summary-test.txt"
[ $qrc -eq 0 ] && [ $prc -eq 0 ]

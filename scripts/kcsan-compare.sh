#!/bin/bash
# KCSAN's reports on the series' kernel against the pristine base's, with
# the same workload (issue 29): both kcsan kernels boot on multi-threaded
# TCG, 2 vCPUs, and run guest/repro/$REPRO.sh (ring-buffer-readers: only
# interfaces the base has) $ROUNDS times (2). Each report is sorted as
# make test-mttcg FLAVOUR=kcsan sorts them (parse-results.py: an access at
# a line the series adds or changes is the series'), and each pair of
# racing functions is marked with whether the base reported it too.
# Pairs compare by name without "__" prefixes and .constprop/.isra
# suffixes (the series renames the base's rb_get_reader_page() to
# __rb_get_reader_page() behind a wrapper). Fails when a report is the
# series' or the series' console shows another report.
#   scripts/kcsan-compare.sh    (builds both kcsan kernels if needed)
#   REUSE=1   compare the logs of the last run again, boot nothing
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repro=${REPRO:-ring-buffer-readers}
rounds=${ROUNDS:-2}
"$TOP/scripts/prepare-tree.sh"
ensure_base_tree
git -C "$TREE" diff -U0 base HEAD >"$LOGDIR/series.diff"
rc=0
for kind in base series; do
	[ -z "${REUSE:-}" ] || break
	env=()
	[ "$kind" = base ] && env=(FTX_BASE=1)
	env "${env[@]}" "$TOP/scripts/build-kernel.sh" kcsan
	env "${env[@]}" "$TOP/scripts/mkinitramfs.sh" kcsan >/dev/null
	env "${env[@]}" TAG="kcsan-$kind" TCG_THREAD=multi KVM=0 SMP=2 \
		"$TOP/scripts/qemu-run.sh" kcsan repro 1800 "ftx.repro=$repro ftx.rounds=$rounds kunit.filter_glob=none" \
		>"$LOGDIR/kcsan-compare-$kind.log" 2>&1 || { echo "$kind guest failed"; rc=1; }
	# on the base every report is the base's (and its line numbers are
	# not the series' tree's)
	tree=$TREE diff=$LOGDIR/series.diff
	[ "$kind" = base ] && tree=$BASE_TREE diff=/dev/null
	obj=$(env "${env[@]}" bash -c ". '$TOP/scripts/lib.sh'; obj_dir kcsan")
	"$TOP/scripts/parse-results.py" --tree "$tree" --no-kunit --demo \
		--console "$LOGDIR/console-repro-kcsan-$kind.log" --vmlinux "$obj/vmlinux" \
		--kcsan-series-diff "$diff" --kcsan-out "$LOGDIR/kcsan-compare-$kind.txt" \
		>"$LOGDIR/summary-kcsan-compare-$kind.txt" || true
done
norm() {
	sed -E 's/(in |\/ )__/\1/g; s/\.(constprop|isra|part)\.[0-9]+//g'
}
echo "KCSAN reports, $repro x$rounds on multi-threaded TCG (series: 'also on base' when the"
echo "base reported the same pair of functions):"
for kind in base series; do
	n=$(wc -l <"$LOGDIR/kcsan-compare-$kind.txt")
	echo "  $kind kernel: $n reports"
	cut -f3 "$LOGDIR/kcsan-compare-$kind.txt" | norm | sort | uniq -c | while read -r count key; do
		also=
		if [ "$kind" = series ]; then
			if cut -f3 "$LOGDIR/kcsan-compare-base.txt" | norm | grep -qxF "$key"; then
				also=", also on base"
			else
				also=", not seen on base"
			fi
		fi
		echo "    $count x $key$also"
	done
done
# the series' own, and every other report, fail
if grep -q '^series' "$LOGDIR/kcsan-compare-series.txt"; then
	echo "FAIL: a report with an access at a line the series adds or changes:"
	grep '^series' "$LOGDIR/kcsan-compare-series.txt"
	rc=1
fi
for kind in base series; do
	if grep -q 'FAIL' "$LOGDIR/summary-kcsan-compare-$kind.txt"; then
		echo "$kind: $(grep -A12 '^FAILED' "$LOGDIR/summary-kcsan-compare-$kind.txt" | head -12)"
		[ "$kind" = series ] && rc=1
	fi
done
exit $rc

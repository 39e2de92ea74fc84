#!/bin/sh
# tools/testing/selftests/ring-buffer's test of mmap() of trace_pipe_raw
# (map_test: mainline's, or the 6.1 series' own of that name): each case of
# its TAP output is one result.
# needs: mapped-buffers
. /guest/lib.sh

# run_tap PROGRAM: each case of its TAP output is one result
run_tap() {
	$1 >/tmp/mmap-test.tap 2>&1
	rc=$?
	cat /tmp/mmap-test.tap
	# kselftest_harness names a case on its "#  RUN" line; "ok N # SKIP"
	# lines carry no name.
	n=0
	name=
	while IFS= read -r line; do
		case $line in
		"#  RUN "*)
			name=$(echo "${line#\#  RUN}" | sed 's/ \.\.\.$//; s/^ *//')
			continue
			;;
		"not ok "*) result $S "$name" FAIL "see the log" ;;
		"ok "*"# SKIP"*) result $S "$name" SKIP "${line#*# SKIP }" ;;
		"ok "*) result $S "$name" PASS ;;
		*) continue ;;
		esac
		n=$((n + 1))
	done </tmp/mmap-test.tap
	[ "$n" -gt 0 ] || result $S "$1:cases" FAIL "no test case reported (exit $rc)"
	[ $rc -eq 0 ] || grep -q '^not ok' /tmp/mmap-test.tap ||
		result $S "$1:exit" FAIL "exit status $rc without a failed case"
}

S=ring-buffer-map
# map_test: the 6.1 series' own, or mainline's (7.2)
ran=0
for t in map_test; do
	command -v $t >/dev/null || continue
	ran=$((ran + 1))
	run_tap $t
done
# map_test's teardown (tracefs_reset()) leaves the top level's tracing
# off: the parts after this one record nothing until it is back on
echo 1 >$TRACEFS/tracing_on
[ "$ran" -gt 0 ] || result $S build FAIL "map_test is not in the initramfs"

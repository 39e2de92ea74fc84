#!/bin/sh
# tools/testing/selftests/ring-buffer/trace_mmap_test (mmap() of
# trace_pipe_raw): each case of its TAP output is one result.
. /guest/lib.sh

S=ring-buffer-map
if ! command -v trace_mmap_test >/dev/null; then
	result $S build FAIL "trace_mmap_test is not in the initramfs"
	exit 0
fi

trace_mmap_test >/tmp/mmap-test.tap 2>&1
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
[ "$n" -gt 0 ] || result $S cases FAIL "no test case reported (exit $rc)"
[ $rc -eq 0 ] || grep -q '^not ok' /tmp/mmap-test.tap ||
	result $S exit FAIL "exit status $rc without a failed case"

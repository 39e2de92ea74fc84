#!/bin/sh
# One ftracetest test, named on the kernel command line by its path under
# test.d (ftx.tc=00basic/reset-hotplug.tc): to show a test failing on a
# kernel with its fix reverted, or to probe one test for the stall of
# multi-threaded TCG (scripts/mttcg-stall.sh).
tc=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.tc=*) tc=${arg#ftx.tc=} ;;
	esac
done
cd /opt/ftracetest || exit 1
rm -rf /tmp/repro-ftracetest
if [ -z "$tc" ] || [ ! -f "test.d/$tc" ]; then
	echo "ftracetest-one: no test '$tc' (ftx.tc=PATH under test.d)"
	exit 1
fi
./ftracetest -l /tmp/repro-ftracetest "test.d/$tc" >/tmp/repro-ftracetest.out 2>&1
rc=$?
grep -E '^\[[0-9]+\]|# of (passed|failed)' /tmp/repro-ftracetest.out
# a failing test's own log: what it said before exit_fail
[ $rc -eq 0 ] || grep -hv '^+' /tmp/repro-ftracetest/*-log.* 2>/dev/null | cut -c1-200 | tail -5
exit $rc

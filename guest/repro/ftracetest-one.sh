#!/bin/sh
# One ftracetest test, or several in one run, named on the kernel command
# line by their paths under test.d (ftx.tc=00basic/reset-hotplug.tc,
# ftx.tc=A.tc,B.tc, or a category: ftx.tc=remotes): what make soak runs
# of what the test lane leaves out, to show a test failing on a kernel
# with its fix reverted, to find which earlier test leaves a kernel that
# hangs a later one, or to probe one test for the stall of multi-threaded TCG
# (scripts/mttcg-stall.sh).
tc=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.tc=*) tc=${arg#ftx.tc=} ;;
	esac
done
cd /opt/ftracetest || exit 1
rm -rf /tmp/repro-ftracetest
files=
for t in $(echo "$tc" | tr , ' '); do
	if [ ! -e "test.d/$t" ]; then
		echo "ftracetest-one: no test '$t' (ftx.tc=PATH[,PATH...]: files or categories under test.d)"
		exit 1
	fi
	files="$files test.d/$t"
done
if [ -z "$files" ]; then
	echo "ftracetest-one: no test named (ftx.tc=PATH[,PATH...]: files or categories under test.d)"
	exit 1
fi
# shellcheck disable=SC2086 # one word a file
./ftracetest -l /tmp/repro-ftracetest $files >/tmp/repro-ftracetest.out 2>&1 &
run=$!
# each test's name as it starts, should one hang
tail -f /tmp/repro-ftracetest.out 2>/dev/null &
tailer=$!
wait $run
rc=$?
kill $tailer 2>/dev/null
# ftracetest's totals, which the tail may not have printed before it was
# stopped (make soak reads these)
sed -n 's/^# of \([a-z]*\): *\([0-9]*\).*/FTX-ONE-TOTAL \1 \2/p' /tmp/repro-ftracetest.out
# a failing test's own log: what it said before exit_fail
[ $rc -eq 0 ] || grep -hv '^+' /tmp/repro-ftracetest/*-log.* 2>/dev/null | cut -c1-200 | tail -5
exit $rc

#!/bin/sh
# One ftracetest category alone (ftx.cat=NAME), each test's result as it
# ends: which test of a category holds a guest up.
cat=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.cat=*) cat=${arg#ftx.cat=} ;;
	esac
done
cd /opt/ftracetest || exit 1
[ -n "$cat" ] && [ -d "test.d/$cat" ] || { echo "ftracetest-cat: no category '$cat'"; exit 1; }
./ftracetest -v -l /tmp/ftc "test.d/$cat" 2>&1 | grep -E '^\[[0-9]+\]|# of'

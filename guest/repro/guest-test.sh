#!/bin/sh
# One guest test of guest/tests, named on the kernel command line
# (ftx.test=NAME, without .sh), its results on the console rather than the
# results channel: to show a guest test failing on a kernel with its fix
# reverted or a fault injected. Exit status: 1 when a result failed or
# none was printed.
name=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.test=*) name=${arg#ftx.test=} ;;
	esac
done
if [ ! -f "/guest/tests/$name.sh" ]; then
	echo "guest-test: no test '$name' (ftx.test=NAME of guest/tests/NAME.sh)"
	exit 1
fi
rm -f /tmp/repro-results
RESULTS=/tmp/repro-results sh "/guest/tests/$name.sh"
if [ ! -s /tmp/repro-results ]; then
	echo "guest-test: $name printed no result"
	exit 1
fi
sed 's/^/FTX-REPRO-RESULT /' /tmp/repro-results
! grep -q "^FTX-RESULT [^ ]* [^ ]* FAIL" /tmp/repro-results

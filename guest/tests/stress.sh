#!/bin/sh
# The stress driver: every scenario in guest/stress/ at once, for a bounded
# time (ftx.stress=SECONDS on the kernel command line, 8 by default; the
# debug lane runs longer). Each scenario checks its own invariants and
# reports with result(); together they also race with each other.
. /guest/lib.sh

STRESS_SECONDS=8
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.stress=*) STRESS_SECONDS=${arg#ftx.stress=} ;;
	esac
done
export STRESS_SECONDS

pids=
for s in /guest/stress/*.sh; do
	name=$(basename "$s" .sh)
	echo "stress scenario $name, ${STRESS_SECONDS}s"
	sh "$s" &
	pids="$pids $name:$!"
done
for np in $pids; do
	wait "${np#*:}" || result stress "${np%%:*}" FAIL "scenario exited with $?"
done
emit "FTX-STRESS seconds=$STRESS_SECONDS"

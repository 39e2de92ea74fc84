#!/bin/sh
# ftx.mode=repro: run guest/repro/NAME.sh (ftx.repro=NAME) ROUNDS times
# (ftx.rounds=N, 3 by default) and print one "FTX-REPRO" line a round on the
# console, for scripts/mttcg-stall.sh, which watches the console from the
# host and probes the vCPUs through QEMU's monitor when it stops.
. /guest/lib.sh

name=
rounds=3
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.repro=*) name=${arg#ftx.repro=} ;;
	ftx.rounds=*) rounds=${arg#ftx.rounds=} ;;
	esac
done
[ -f "/guest/repro/$name.sh" ] || { echo "FTX-REPRO no script /guest/repro/$name.sh"; exit 1; }
# a heartbeat on the console: the host calls a guest whose console is
# silent for 30 s stalled, without waiting out a round's time limit
(while :; do sleep 5; echo "FTX-REPRO-TICK $(secs)"; done) &
tick=$!
rc=0
for i in $(seq "$rounds"); do
	t0=$(secs)
	sh "/guest/repro/$name.sh"
	r=$?
	echo "FTX-REPRO $name round $i rc=$r secs=$(($(secs) - t0))"
	[ $r -eq 0 ] || rc=1
done
kill $tick
exit $rc

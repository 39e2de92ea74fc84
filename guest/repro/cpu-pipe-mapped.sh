#!/bin/sh
# The stop-and-flush pipe of libtracefs 1.8 (guest/libtracefs/libtracefs-seq.c,
# step "pipe") with many runs of the mapped "many" case, at the debug lane's
# sizes on the debug kernel: how often does a run miss events, and where?
# ftx.pipe_runs=N (20) runs a case.
. /guest/lib.sh
runs=20
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.pipe_runs=*) runs=${arg#ftx.pipe_runs=} ;;
	esac
done
args="-o pipe -r $runs"
[ "$(cat /etc/ftrace-ext-flavour)" = debug ] && args="$args -s 500 -m 20 -b 512 -M"
# shellcheck disable=SC2086
libtracefs-seq $args 2>&1 | grep -E "FAIL|DIAG|mapped-many-run[0-9]* PASS" | head -400
echo "FTX-PIPE runs=$runs"

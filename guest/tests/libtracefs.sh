#!/bin/sh
# A current libtracefs (Debian unstable's, scripts/fetch-libtracefs.sh)
# against this kernel: guest/libtracefs/libtracefs-seq.c runs the steps
# of libtracefs 1.8's own unit-test suite, in its order, with the
# library's calls: CPU reads, buffer_percent wake-ups, the stop-and-flush
# pipe (splice, and copies out of the mapping), the snapshot_raw and
# trace_pipe_raw iterations. Each of its RESULT lines is a result.
# needs: mapped-buffers
. /guest/lib.sh

S=libtracefs
# the debug kernel is 5 to 8 times slower: 500 markers a round and
# twenty sub-buffers' worth in the "many" pipe case (still twenty
# sub-buffers for the reader to follow across); it has no syscall events, so the
# CPU tests count trace_marker writes instead of getppid() calls (-M);
# 512 KiB buffers (-b) keep buffer_percent's arithmetic (at least 100
# sub-buffers: 1% is more than one) with a fifth of the writes; one run
# of the mapped "many" case (-r 1): its repeats hunt a timing bug, which
# the plain lane's thousand sub-buffers a run find
# and no function tracer runs with pid filters (-F): with the functions of
# every other task traced, step 5 ran for more than 700 s there and the
# part was killed at its 900 s limit (the plain lane runs them)
args=
[ "$(cat /etc/ftrace-ext-flavour)" = debug ] && args="-s 500 -m 20 -b 512 -M -r 1 -F"
command -v libtracefs-seq >/dev/null ||
	{ result $S run FAIL "libtracefs-seq is not in the initramfs"; exit 0; }
# shellcheck disable=SC2086
{
	libtracefs-seq $args 2>&1
	echo "EXIT $?"
} | tee /tmp/libtracefs-seq.out
rc=$(sed -n 's/^EXIT //p' /tmp/libtracefs-seq.out)
[ "$rc" = 0 ] || result $S run FAIL "libtracefs-seq exited ${rc:-?}: $(grep -v '^EXIT' /tmp/libtracefs-seq.out | tail -2 | tr '\n' ' ')"
grep '^RESULT ' /tmp/libtracefs-seq.out | while read -r _ name status detail; do
	result $S "$name" "$status" "$detail"
done

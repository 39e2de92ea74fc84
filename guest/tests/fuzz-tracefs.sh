#!/bin/sh
# Bad input for the tracefs ABI that the series adds or changes, and the
# files around it: snapshot_enabled, snapshot_pipe (top level, instance,
# per CPU), snapshot, buffer_size_kb, set_event, set_ftrace_filter,
# trace_pipe_raw and mkdir/rmdir in instances/. Random, oversized, binary
# and split writes, non-blocking reads, random ioctls and mmaps, from two
# seeded fuzzers at once. Only errnos may come back, from the documented
# set of each file; the console must stay clean (checked by the host).
# (The files 6.1 already had answer a number out of range with ERANGE,
# from kstrtoul(); the series' files answer EINVAL, as documented. An
# rmdir in instances/ that races with another rmdir of the same name gets
# ENODEV from 6.1: tracefs drops the directory locks before it looks the
# instance up, and the other rmdir removed it meanwhile.)
# needs: snapshot-files mapped-buffers
. /guest/lib.sh

S=fuzz-tracefs
# A new seed every run, so that CI explores new sequences over time;
# ftx.fuzzseed=N on the kernel command line (make test FUZZ_SEED=N)
# replays a run.
SEED=
OPS=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.fuzzseed=*) SEED=${arg#ftx.fuzzseed=} ;;
	ftx.fuzzops=*) OPS=${arg#ftx.fuzzops=} ;;
	esac
done
[ -n "$SEED" ] || SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $SEED in
'' | *[!0-9]*) result $S seed FAIL "ftx.fuzzseed=$SEED is not a number"; exit 0 ;;
esac
# The debug kernel runs the fuzzers some 18 times slower (33 s against
# 591 s): fewer operations there keep the debug lane inside CI's time.
# ftx.fuzzops=N (FUZZ_OPS=N on the host) sets the count.
if [ -z "$OPS" ]; then
	OPS=2000
	[ "$(cat /etc/ftrace-ext-flavour)" = debug ] && OPS=300
fi
case $OPS in
*[!0-9]* | 0) result $S ops FAIL "ftx.fuzzops=$OPS is not a count"; exit 0 ;;
esac
T=$TRACEFS
I=$T/instances/fuzz
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }

SNAP=EINVAL,EBUSY,ENOMEM
files="$T/snapshot_enabled:$SNAP $T/snapshot_pipe:$SNAP $T/per_cpu/cpu0/snapshot_pipe:EINVAL,EBUSY
$I/snapshot_enabled:$SNAP $I/snapshot_pipe:$SNAP $I/per_cpu/cpu1/snapshot_pipe:EINVAL,EBUSY
$T/snapshot:$SNAP,ERANGE $I/snapshot:$SNAP,ERANGE
$I/buffer_size_kb:EINVAL,ENOMEM,EBUSY,ERANGE $I/set_event:EINVAL,ENOENT,ENOMEM
$I/set_ftrace_filter:EINVAL,ENODEV,ENOMEM,EBUSY $I/per_cpu/cpu0/trace_pipe_raw:EINVAL,EBUSY,EPERM,ENODEV
dir:$T/instances:EEXIST,EINVAL,ENOENT,EBUSY,ENAMETOOLONG,ENOTEMPTY,ENOMEM,EPERM,ENODEV"

echo "seeds $SEED and $((SEED + 1)), $OPS operations each (make test FUZZ_SEED=$SEED replays them)"
tracefs-fuzz $SEED $OPS $files >/tmp/fuzz1.out 2>&1 &
p1=$!
tracefs-fuzz $((SEED + 1)) $OPS $files >/tmp/fuzz2.out 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
cat /tmp/fuzz1.out /tmp/fuzz2.out
total=$(cat /tmp/fuzz1.out /tmp/fuzz2.out | awk '$2 == "ops" {s += $3} END {print s + 0}')
echo "fuzz operations tried: $total"
emit "FTX-FUZZ ops=$total seeds=$SEED,$((SEED + 1)) (make test FUZZ_SEED=$SEED replays them)"
# one result a fuzzer, named the same every run (tests/expected-results.txt)
# and with its seed, to replay it
fuzzer() { # n rc seed
	if [ "$2" -eq 0 ]; then
		result $S "fuzzer-$1" PASS "seed $3"
	else
		result $S "fuzzer-$1" FAIL "undocumented errnos (seed $3, exit $2)"
	fi
}
fuzzer 1 $r1 $SEED
fuzzer 2 $r2 $((SEED + 1))

# Leave nothing behind: spare buffers, and every instance the fuzzers made
echo 0 >$T/snapshot
find $T/instances -mindepth 1 -maxdepth 1 -type d -exec rmdir {} \; 2>/dev/null
left=$(find $T/instances -mindepth 1 -maxdepth 1 | wc -l)
check $S cleanup "$left instances left behind" -- test "$left" -eq 0

#!/bin/sh
# Bad input for snapshot_enabled and snapshot_pipe, at the top level, in an
# instance and per CPU: random, oversized, binary and split writes and
# non-blocking reads from two fuzzers at once. Only the documented errnos
# may come back, and the console must stay clean (checked by the host).
. /guest/lib.sh

S=fuzz-snapshot
SEED=${FUZZ_SEED:-20261122}
OPS=${FUZZ_OPS:-1500}
T=$TRACEFS
I=$T/instances/fuzz
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }

files="$T/snapshot_enabled:EINVAL,EBUSY,ENOMEM $T/snapshot_pipe:EINVAL,EBUSY,ENOMEM
$T/per_cpu/cpu0/snapshot_pipe:EINVAL,EBUSY $I/snapshot_enabled:EINVAL,EBUSY,ENOMEM
$I/snapshot_pipe:EINVAL,EBUSY,ENOMEM $I/per_cpu/cpu1/snapshot_pipe:EINVAL,EBUSY"

echo "seeds $SEED and $((SEED + 1)), $OPS operations each"
tracefs-fuzz $SEED $OPS $files >/tmp/fuzz1.out 2>&1 &
p1=$!
tracefs-fuzz $((SEED + 1)) $OPS $files >/tmp/fuzz2.out 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
cat /tmp/fuzz1.out /tmp/fuzz2.out
check $S seed-$SEED "undocumented errnos (seed $SEED)" -- test $r1 -eq 0
check $S seed-$((SEED + 1)) "undocumented errnos (seed $((SEED + 1)))" -- test $r2 -eq 0

echo 0 >$T/snapshot_enabled
echo 0 >$I/snapshot_enabled
rmdir $I || result $S cleanup FAIL "rmdir $I"

#!/bin/sh
# snapshot-pipe.sh's splice case step by step: how many of the 600
# marker lines each reader got, and what a splice printed.
. /guest/lib.sh
I=$TRACEFS/instances/sps
P=$I/snapshot_pipe
mkdir $I
echo 1 >$I/snapshot_enabled
echo "buffer_size_kb $(cat $I/buffer_size_kb)"
taskset -c 0 tracefs-pipe markers $I/trace_marker sp 300
echo 1 >$P
echo "after swap: live $(grep -c sp: $I/trace) snapshot $(grep -c sp: $I/snapshot)"
tracefs-pipe splicedump $P >/tmp/splice1.out &
pid=$!
taskset -c 0 tracefs-pipe markers $I/trace_marker sq 300
echo 1 >$I/snapshot
wait $pid
tracefs-pipe splicedump $P >/tmp/splice2.out
tracefs-pipe dump $I/trace_pipe >/tmp/splice-live.out
for f in /tmp/splice1.out /tmp/splice2.out /tmp/splice-live.out; do
	echo "$f: sp $(grep -c 'sp:' $f) sq $(grep -c 'sq:' $f) lines $(wc -l <$f)"
	grep -v 's[pq]:' $f | head -5
done
echo 0 >$I/snapshot_enabled
rmdir $I

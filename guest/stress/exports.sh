#!/bin/sh
# Stress: samples/ftrace/sample-trace-export.ko loaded and unloaded in a
# loop, by turns with an export on its own instance and a global one,
# while the other scenarios write entries on every CPU and a reader of
# its debugfs files and its resets race with each unload. Every load
# and unload must succeed. On its own instance, with only printk lines
# exported, its counters must add up exactly: the N lines triggered are
# received, and each was kept or dropped.
. /guest/lib.sh

S=stress
DUR=${STRESS_SECONDS:-8}
MOD=sample_trace_export
SINK=/sys/kernel/debug/sample-trace-export
INST=$TRACEFS/instances/stress-export
N=100

end=$(($(secs) + DUR))

# a reader and resets racing with the unloads (errors expected: the files
# come and go)
user_sink() {
	while [ "$(secs)" -lt $end ]; do
		cat $SINK/entries >/dev/null 2>&1
		cat $SINK/stats >/dev/null 2>&1
		(echo 1 >$SINK/reset) 2>/dev/null
	done
}

# markers into the instance while it exists
user_writer() {
	while [ "$(secs)" -lt $end ]; do
		(echo "stress marker" >$INST/trace_marker) 2>/dev/null
	done
}

user_sink &
p1=$!
user_writer &
p2=$!

rounds=0 bad=
while [ "$(secs)" -lt $end ] || [ $rounds -lt 2 ]; do
	g=$((rounds % 2))
	if ! modprobe $MOD instance=stress-export global=$g flags=8; then
		bad="$bad modprobe(global=$g)"
		break
	fi
	# the racing reset may empty the sink: count from a reset of our own
	if [ $g = 0 ] && (echo 1 >$SINK/reset) && (echo $N >$SINK/trigger); then
		got=$(cat $SINK/stats | tr '\n' ' ')
		# "received R kept K dropped D": a racing reset may zero them
		set -- $got
		if [ "$2" != "$(($4 + $6))" ] || [ "$2" -gt $N ]; then
			bad="$bad counts($got)"
		fi
	fi
	sleep 0.1
	rmmod $MOD || {
		bad="$bad rmmod(global=$g)"
		break
	}
	rounds=$((rounds + 1))
done
wait $p1 $p2
echo "export load/unload rounds: $rounds"
check $S exports-load-unload "failed:$bad" -- test -z "$bad"

# the instance is left when a writer held it at unload: it is removable
wait_for 5 sh -c "rmdir $INST 2>/dev/null; test ! -d $INST"
check $S exports-nothing-left "$INST left behind" -- test ! -d $INST

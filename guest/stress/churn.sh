#!/bin/sh
# Stress: the top level runs function_graph (on a few functions) with a
# trace_pipe and a snapshot_pipe reader, while snapshots are taken
# (snapshot_pipe, the snapshot file, one CPU's), the snapshot is cleared
# (echo 2), freed and allocated again (echo 0/1 > snapshot_enabled and
# snapshot), the buffer is resized and a histogram snapshot() action comes
# and goes, all in loops for a bounded time. No count is exact here
# (clears and frees drop what they hold, on purpose): every write may only
# fail with a documented errno, function_graph's output keeps its shape,
# and the consoles must stay free of splats (lockdep, KASAN in the debug
# lane).
. /guest/lib.sh

S=stress-churn
DUR=${STRESS_SECONDS:-8}
T=$TRACEFS
ERR=/tmp/churn-errors
: >$ERR
end=$(($(secs) + DUR))

if ! grep -qw function_graph $T/available_tracers; then
	result $S setup FAIL "no function_graph tracer"
	exit 0
fi
# only a few functions that run often, nested, so that leaves and nested
# calls appear (unfiltered, function_graph under emulation slows every
# other scenario down to a few rounds)
echo 'ksys_read vfs_read rw_verify_area' >$T/set_ftrace_filter
echo function_graph >$T/current_tracer
echo 1 >$T/snapshot_enabled

cat $T/trace_pipe >/tmp/churn-tp 2>>$ERR &
r1=$!
cat $T/snapshot_pipe >/tmp/churn-sp 2>>$ERR &
r2=$!
# The loops start once both readers hold their files: a histogram's
# snapshot() installed first would make the snapshot_pipe open fail with
# its documented EBUSY, and the reader would see nothing.
opened() {
	for _fd in /proc/$1/fd/*; do
		[ "$(readlink "$_fd")" = "$2" ] && return 0
	done
	return 1
}
readers_open() {
	opened $r1 $T/trace_pipe && opened $r2 $T/snapshot_pipe
}
check $S readers-open "a trace_pipe or snapshot_pipe reader did not open" -- \
	wait_for 30 readers_open

# w FILE VALUE: write, recording the errno name of a failure
: >/tmp/churn-writes
w() {
	echo >>/tmp/churn-writes
	r=$(tracefs-pipe errno "$1" "$2")
	[ "$r" = OK ] || echo "$1 $2 $r" >>$ERR
}

swapper() {
	n=0
	while [ $n -lt 2 ] || [ "$(secs)" -lt $end ]; do
		n=$((n + 1))
		w $T/snapshot_pipe 1
		w $T/snapshot 1
		w $T/per_cpu/cpu1/snapshot 1
		sleep 0.05
	done
}
clearer() {
	n=0
	while [ $n -lt 2 ] || [ "$(secs)" -lt $end ]; do
		n=$((n + 1))
		w $T/snapshot 2
		w $T/snapshot_enabled 0
		w $T/snapshot_enabled 1
		w $T/snapshot 0
		w $T/snapshot_enabled 1
		w $T/buffer_size_kb 64
		w $T/buffer_size_kb 256
		sleep 0.1
	done
}
HIST='hist:keys=comm:newprio=prio:onchange($newprio).snapshot()'
histogram() {
	n=0
	while [ $n -lt 2 ] || [ "$(secs)" -lt $end ]; do
		n=$((n + 1))
		w $T/events/sched/sched_waking/trigger "$HIST"
		sleep 0.1
		w $T/events/sched/sched_waking/trigger "!$HIST"
		sleep 0.1
	done
}
work() {
	n=0
	while [ $n -lt 2 ] || [ "$(secs)" -lt $end ]; do
		n=$((n + 1))
		cat /proc/version /proc/cpuinfo >/dev/null
	done
}

swapper &
p1=$!
clearer &
p2=$!
histogram &
p3=$!
work &
p4=$!
wait $p1 $p2 $p3 $p4
kill $r1 $r2 2>/dev/null
wait $r1 $r2 2>/dev/null

echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
echo "!$HIST" >$T/events/sched/sched_waking/trigger 2>/dev/null
echo 0 >$T/snapshot_enabled 2>/dev/null
echo 1408 >$T/buffer_size_kb

echo "trace_pipe read $(wc -l </tmp/churn-tp) lines, snapshot_pipe $(wc -l </tmp/churn-sp)"
echo "writes: $(wc -l </tmp/churn-writes) in $DUR s"
echo "refused writes by kind:"
awk '{print $1, $NF}' $ERR | sort | uniq -c | sort -rn | head -20
# EBUSY: a reader, a histogram's snapshot() or a resize in the way; ENOMEM:
# no spare buffer (freed by the other loop); EINVAL: a one-CPU swap of
# buffers whose sizes differ after a resize; ENOENT: removing the
# histogram when installing it was refused
bad=$(grep -v -e ' EBUSY$' -e ' ENOMEM$' -e ' EINVAL$' -e 'trigger !.* ENOENT$' $ERR | sort | uniq -c)
check $S only-documented-errors "undocumented errors: $bad" -- test -z "$bad"
check $S graph-lines "function_graph printed no call" -- grep -q 'vfs_read() {$' /tmp/churn-tp
# every line is one function_graph prints: "CPU) duration | call" (calls,
# returns, context switches), a separator, a lost-events or buffer line,
# a snapshot boundary; nothing torn or printed raw
grep -v -e '^ *[0-9][0-9]*) ' -e '^ *-----*$' -e '^ *$' -e '^#' -e '^CPU:[0-9]* \[LOST' /tmp/churn-tp >/tmp/churn-odd
check $S graph-shape "$(wc -l </tmp/churn-odd) lines of another shape: $(head -3 /tmp/churn-odd | tr '\n' '|')" -- \
	test ! -s /tmp/churn-odd
# each loop runs twice at least, however slow the kernel: 2 x (3 + 7 + 2)
check $S loops-ran "the loops wrote only $(wc -l </tmp/churn-writes) times" -- \
	test "$(wc -l </tmp/churn-writes)" -ge 24
check $S snapshot-lines "snapshot_pipe read no snapshot" -- grep -q '^##### SNAPSHOT' /tmp/churn-sp

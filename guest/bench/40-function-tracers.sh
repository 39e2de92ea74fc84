#!/bin/sh
# Several function tracers at once: ns per call of a function traced by K
# counting ftrace_ops (samples/ftrace/sample-ftrace-mux.ko), K = 1, 2, 4,
# 8, in three layouts: all K on the target; 1 on the target and K-1
# elsewhere; K on the target plus 8 elsewhere; with the multiplexing on
# and off (kernel.ftrace_multiplex) in the same boot. Then instances
# running the function tracer on the getppid syscall (1, 2, 4, and 4 plus
# 8 on another function), ns per getppid(), and the time to unregister 8
# tracers, one at a time and in one batch. Best of 3 runs, guest ns.
# needs: function-multiplexing
. /guest/lib.sh
cd $TRACEFS || exit 1
N=20000
MOD=sample_ftrace_mux
D=/sys/kernel/debug/sample-ftrace-mux
SYSCTL=/proc/sys/kernel/ftrace_multiplex
BENCH_COMPARE=0

ratio() {
	awk "BEGIN{printf \"%.2f\", $1/$2}"
}

call_cmd="echo $N >$D/call && cat $D/call"
printf '%-40s %10s  %s\n' variant ns unit
summary=

# ops LAYOUT K ON_TARGET ELSEWHERE
ops() {
	if ! modprobe $MOD on_target=$3 elsewhere=$4; then
		result bench "mux-ops-$1-$2" FAIL "modprobe $MOD failed"
		return
	fi
	echo 1 >$SYSCTL
	bench_row "mux-ops-$1-k$2-on" "ns/call" sh -c "$call_cmd"
	on=$bench_best
	echo 0 >$SYSCTL
	bench_row "mux-ops-$1-k$2-off" "ns/call" sh -c "$call_cmd"
	off=$bench_best
	echo 1 >$SYSCTL
	rmmod $MOD
	summary="$summary
$(printf '%-12s %3s %10s %10s %8s' $1 $2 $on $off "$(ratio $off $on)")"
}

for k in 1 2 4 8; do
	ops all $k $k 0
	ops one $k 1 $((k - 1))
	ops plus8 $k $k 8
done

echo
echo "counting ops, ns per call (off/on: what the multiplexing saves)"
printf '%-12s %3s %10s %10s %8s' layout K on off off/on
echo "$summary"

# instances LABEL ON OTHER: ON instances on getppid, OTHER on getpid
instances() {
	n=0
	while [ $n -lt $(($2 + $3)) ]; do
		mkdir instances/mux-bench-$n
		if [ $n -lt $2 ]; then
			echo __do_sys_getppid >instances/mux-bench-$n/set_ftrace_filter
		else
			echo __do_sys_getpid >instances/mux-bench-$n/set_ftrace_filter
		fi
		echo function >instances/mux-bench-$n/current_tracer
		n=$((n + 1))
	done
	echo 1 >$SYSCTL
	bench_row "mux-instances-$1-on" "ns/getppid()" syscall-loop $N
	ion=$bench_best
	echo 0 >$SYSCTL
	bench_row "mux-instances-$1-off" "ns/getppid()" syscall-loop $N
	ioff=$bench_best
	echo 1 >$SYSCTL
	n=0
	while [ $n -lt $(($2 + $3)) ]; do
		echo nop >instances/mux-bench-$n/current_tracer
		rmdir instances/mux-bench-$n
		n=$((n + 1))
	done
	isummary="$isummary
$(printf '%-12s %10s %10s %8s' $1 $ion $ioff "$(ratio $ioff $ion)")"
	eval "inst_$1=$ion"
}

isummary=
bench_row mux-instances-0 "ns/getppid()" syscall-loop $N
instances 1 1 0
instances 2 2 0
instances 4 4 0
instances 4plus8 4 8

echo
echo "instances running function on getppid, ns per getppid()"
printf '%-12s %10s %10s %8s' instances on off off/on
echo "$isummary"
echo "4 plus 8 elsewhere / 4 alone (goal <= 1.10): $(ratio $inst_4plus8 $inst_4)"

# teardown HOW: unregister 8 tracers one at a time (each) or with one
# unregister_ftrace_functions() (batch), in guest us
teardown_cmd() {
	echo "modprobe $MOD on_target=8 && echo $1 >$D/teardown && t=\$(cat $D/teardown) && rmmod $MOD && echo \$((t / 1000))"
}
# (unregister_ftrace_functions() is not in every series)
if ! grep -qw unregister_ftrace_functions /proc/kallsyms; then
	echo "teardown rows not measured: this kernel has no unregister_ftrace_functions()"
	exit 0
fi
echo 1 >$SYSCTL
bench_row mux-teardown-8-on "us" sh -c "$(teardown_cmd each)"
each=$bench_best
bench_row mux-teardown-8-batch "us" sh -c "$(teardown_cmd batch)"
batch=$bench_best
echo 0 >$SYSCTL
bench_row mux-teardown-8-off "us" sh -c "$(teardown_cmd each)"
echo 1 >$SYSCTL
echo "tearing down 8 tracers, one at a time / in one batch: $(ratio $each $batch)"

#!/bin/sh
# samples/ftrace/ftrace-ops.ko, mainline's own measure of function tracers:
# it registers R ftrace_ops on a function of its own and I on another,
# calls the first 100000 times, prints the time and unloads itself (its
# init fails on purpose). Rows: ns per 100 calls with R = 1, 2, 4, 8 on
# the function, and R = 1 and 4 with 8 elsewhere, on the pristine base and
# the patched kernel (make bench boots both); on the patched kernel the
# same again with the multiplexing off (kernel.ftrace_multiplex = 0), which
# is mainline's list walk of every registered ops.
# needs:
# base: also
. /guest/lib.sh
N=100000
SYSCTL=/proc/sys/kernel/ftrace_multiplex

# ops_run R I: ns per 100 calls, from the module's own line in dmesg
ops_run() {
	dmesg -c >/dev/null
	modprobe ftrace-ops nr_function_calls=$N nr_ops_relevant=$1 \
		nr_ops_irrelevant=$2 2>/dev/null
	_ns=$(dmesg | sed -n 's/.*Attempted [0-9]* calls to tracee_relevant.* in \([0-9]*\)ns .*/\1/p' | tail -1)
	[ -n "$_ns" ] && echo $((_ns * 100 / N))
}

if ! modinfo ftrace-ops >/dev/null 2>&1; then
	result bench ftrace-ops SKIP "no ftrace-ops.ko (CONFIG_SAMPLE_FTRACE_OPS)"
	exit 0
fi

echo "samples/ftrace/ftrace-ops.ko, R ops on the called function, I elsewhere"
printf '%-40s %10s  %s\n' variant ns unit
rows="1:0 2:0 4:0 8:0 1:8 4:8"
# pristine 7.2 oopses when a second function tracer starts (the bug of the
# 7.2 fixes' first patch, tests/7.2/bench-base-skip.txt): the base, which
# has no kernel.ftrace_multiplex, measures one ops alone
if [ ! -e $SYSCTL ]; then
	rows="1:0"
	echo "one ops only: this kernel has no kernel.ftrace_multiplex (the pristine base)"
fi
[ ! -w $SYSCTL ] || echo 1 >$SYSCTL
for ri in $rows; do
	# only the row the base has is compared row by row (patched/base)
	[ "$ri" = 1:0 ] && BENCH_COMPARE=1 || BENCH_COMPARE=0
	bench_row "ftrace-ops-r${ri%:*}-i${ri#*:}" "ns/100 calls" ops_run ${ri%:*} ${ri#*:}
done
BENCH_COMPARE=1
if [ -w $SYSCTL ]; then
	echo 0 >$SYSCTL
	BENCH_COMPARE=0
	for ri in $rows; do
		bench_row "ftrace-ops-r${ri%:*}-i${ri#*:}-off" "ns/100 calls" ops_run ${ri%:*} ${ri#*:}
	done
	BENCH_COMPARE=1
	echo 1 >$SYSCTL
fi

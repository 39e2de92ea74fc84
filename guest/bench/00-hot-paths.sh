#!/bin/sh
# The hot paths the series touches that users pay for even when they use
# no new feature, measured the same way on the patched kernel and on the
# pristine base (make bench boots both): the host prints patched/base.
# Each row is the best of 3 runs, in guest ns (instructions under
# -icount), and goes to the host as "FTX-BENCH-ROW <key> <ns>".
# needs:
. /guest/lib.sh
cd $TRACEFS || exit 1
N=20000
TRIG=/sys/kernel/preemptirq_delay_test/trigger

# read_per_entry FILE: fill the top-level buffer with N markers, then
# read FILE (trace_pipe or trace_pipe_raw) empty; ns per entry read
read_per_entry() {
	echo >trace
	tracefs-pipe markers trace_marker m $N >/dev/null
	set -- $(tracefs-pipe drain "$1")
	# the text's length varies with the timestamps' and pids' digits
	echo "$1" >/tmp/read-bytes
	echo $(($3 / N))
}

# text_row KEY: bytes per entry (x100) of the last read_per_entry, so that
# a difference in trace_pipe's cost can be told from one in its text
text_row() {
	_b=$(($(cat /tmp/read-bytes) * 100 / N))
	printf '%-40s %10s  %s\n' "$1" "$_b" "bytes/entry x100"
	emit "FTX-BENCH-STATS $1 $_b $_b $_b"
	emit "FTX-BENCH-ROW $1 $_b"
}

loop() {
	syscall-loop $N
}

echo nop >current_tracer
echo 8192 >buffer_size_kb
echo >trace
echo "hot paths, one vCPU, buffers of 8 MiB"
printf '%-40s %10s  %s\n' path ns unit

bench_row syscall "ns/getppid()" loop

# the function tracer on the one function the loop calls (its name is
# __x64_sys_getppid or __do_sys_getppid, aliases of one address)
if echo '*sys_getppid' >set_ftrace_filter && [ "$(grep -c . set_ftrace_filter)" = 1 ]; then
	echo function >current_tracer
	bench_row function-one-func "ns/getppid()" loop
	echo nop >current_tracer
	echo >set_ftrace_filter
else
	result bench function-one-func FAIL "set_ftrace_filter for *sys_getppid: $(cat set_ftrace_filter | tr '\n' ' ')"
fi

echo 1 >events/raw_syscalls/sys_enter/enable
bench_row event-top "ns/getppid()" loop
echo 0 >events/raw_syscalls/sys_enter/enable
echo >trace

mkdir instances/bench-hot
echo 8192 >instances/bench-hot/buffer_size_kb
echo 1 >instances/bench-hot/events/raw_syscalls/sys_enter/enable
bench_row event-instance "ns/getppid()" loop
echo 0 >instances/bench-hot/events/raw_syscalls/sys_enter/enable
bench_row marker-instance "ns/write" tracefs-pipe write instances/bench-hot/trace_marker "bench marker" $N
rmdir instances/bench-hot

echo >trace
bench_row marker-top "ns/write" tracefs-pipe write trace_marker "bench marker" $N
bench_row trace_pipe "ns/entry" read_per_entry trace_pipe
text_row trace_pipe-text
# The default text looks up each marker's ip in kallsyms, whose cost
# depends on where the symbol sits in its block of 256 names
# (get_symbol_offset()), so on the layout of the symbol table: the raw
# format prints the ip as a number and leaves that out.
echo 1 >options/raw
bench_row trace_pipe-rawfmt "ns/entry" read_per_entry trace_pipe
echo 0 >options/raw
bench_row trace_pipe_raw "ns/entry" read_per_entry per_cpu/cpu0/trace_pipe_raw

# irqsoff: every irqs-off section longer than tracing_thresh is reported,
# and each report swaps the CPU's buffer with the max buffer
# (update_max_tr_single()). One trigger runs 10 sections of 100 us; with
# tracing_thresh at 50 us only those are reported, at 1 s none is.
# ftx.bench_skip=irqsoff: a base that cannot start a second tracer (make
# bench passes it from tests/SERIES/bench-base-skip.txt, with the reason)
skip=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.bench_skip=*) skip=${arg#ftx.bench_skip=} ;;
	esac
done
case ,$skip, in
*,irqsoff,*)
	echo "irqsoff rows: not measured on this kernel (ftx.bench_skip=irqsoff)"
	;;
*)
	bench_irqsoff=1
	;;
esac
if [ -z "${bench_irqsoff:-}" ]; then
	:
elif modprobe preemptirq_delay_test test_mode=irq delay=100 burst_size=10; then
	echo irqsoff >current_tracer
	echo 50 >tracing_thresh
	bench_row irqsoff-reported "ns/trigger" tracefs-pipe write $TRIG 1 20
	echo 1000000 >tracing_thresh
	bench_row irqsoff-unreported "ns/trigger" tracefs-pipe write $TRIG 1 20
	echo 0 >tracing_thresh
	echo nop >current_tracer
	rmmod preemptirq_delay_test
else
	result bench irqsoff-reported FAIL "modprobe preemptirq_delay_test failed"
fi

# A kprobe on an ftrace site armed and disarmed 200 times: each arm
# registers kprobes' static ftrace_ops and each disarm unregisters it. 6.1
# never waits for a grace period there; with the multiplexing each arm
# takes an ID and each disarm retires one, which must not make it wait
# either (issue 28, item 10).
if echo 'p:kpbench __x64_sys_getppid' >kprobe_events; then
	bench_row kprobe-arm-disarm "ns/arm+disarm" \
		tracefs-pipe toggle events/kprobes/kpbench/enable 200
	echo '-:kpbench' >>kprobe_events
else
	result bench kprobe-arm-disarm FAIL "no kprobe on __x64_sys_getppid"
fi

echo >trace
echo 1408 >buffer_size_kb

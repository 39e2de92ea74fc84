#!/bin/sh
# Where the cost of one event goes, for issue #14's workload goal (c):
# every step of the write path switched on in turn for a getppid() loop,
# into an instance with no reader. The differences between the rows are
# the steps' shares, and the last one shows what a recorder would pay to
# leave its own system calls out with set_event_notrace_pid.
# needs:
. /guest/lib.sh
cd $TRACEFS || exit 1
N=20000
I=instances/bench-evcost
BENCH_COMPARE=0

loop() {
	syscall-loop $N
}

# row KEY: the loop's ns per getppid(), also kept in /tmp/evcost-KEY
row() {
	bench_row "$1" "ns/getppid()" loop || return 1
	echo "$bench_best" >/tmp/evcost-$1
}

# share TEXT A B: the difference of rows B and A, named TEXT
share() {
	if [ -s /tmp/evcost-$2 ] && [ -s /tmp/evcost-$3 ]; then
		printf '  %-56s %5d\n' "$1" $(($(cat /tmp/evcost-$3) - $(cat /tmp/evcost-$2)))
	fi
}

mkdir $I || exit 1
echo 8192 >$I/buffer_size_kb
echo "one event per getppid(), instance with no reader, 8 MiB buffers"
printf '%-40s %10s  %s\n' step ns unit
row evcost-off
# another system call's event: every call takes the traced entry and exit
# path and reaches the syscall events' probe, which finds nothing to do
echo 1 >$I/events/syscalls/sys_enter_getpid/enable
row evcost-probe
echo 0 >$I/events/syscalls/sys_enter_getpid/enable
# the event itself, with recording off: the event layer runs up to the
# ring buffer, which refuses
echo 1 >$I/events/raw_syscalls/sys_enter/enable
echo 0 >$I/tracing_on
row evcost-no-record
echo 1 >$I/tracing_on
row evcost-event
echo counter >$I/trace_clock
row evcost-event-counter-clock
echo local >$I/trace_clock
echo 0 >$I/events/raw_syscalls/sys_enter/enable
# entry and exit, as in the workloads of 50-mmap (c)
echo 1 >$I/events/syscalls/sys_enter_getppid/enable
echo 1 >$I/events/syscalls/sys_exit_getppid/enable
row evcost-enter-exit
# a PID that is not running: every event pays the check
echo 999999 >$I/set_event_notrace_pid
row evcost-enter-exit-notrace-pid
echo >$I/set_event_notrace_pid
echo 0 >$I/events/enable
rmdir $I

echo "shares of one raw_syscalls:sys_enter event (ns = instructions):"
share "traced syscall entry/exit, tracepoint, probe" evcost-off evcost-probe
share "event layer up to the ring buffer's refusal" evcost-probe evcost-no-record
share "entry reserved in the ring buffer, written, committed" evcost-no-record evcost-event
share "of which the clock (local against counter)" evcost-event-counter-clock evcost-event
share "the whole event" evcost-off evcost-event
share "two events (sys_enter_getppid, sys_exit_getppid)" evcost-off evcost-enter-exit
share "set_event_notrace_pid's check, on those two" evcost-enter-exit evcost-enter-exit-notrace-pid

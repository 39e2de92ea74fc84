#!/bin/sh
# The demo of "make run": a short tour of what the patched kernel offers.
# Each feature of the series adds its own part below.
. /guest/lib.sh
cd $TRACEFS || exit 1

say() {
	echo
	echo "### $*"
}

# A step that fails is shown and makes the demo exit non-zero, which
# "make run" reports: a demo that goes wrong is no green run. run CMD
# fails the step on any command of CMD that fails (guest/demo-step.sh).
. /guest/demo-step.sh

# has_feature NAME: the kernel has that feature of patches/SERIES/topics
# (7.2 does not have all of the 6.1 series' yet); a part it lacks is named
# and left out
has_feature() {
	grep -qx "$1" /etc/ftrace-ext-features && return 0
	say "(left out: this series has no $1)"
	return 1
}

# waited_for SECONDS WHAT CMD...: wait for CMD; count a time-out as a failed step
waited_for() {
	_secs=$1 _what=$2
	shift 2
	wait_for "$_secs" "$@" && return 0
	echo "!!! demo step failed: $_what did not happen within ${_secs}s"
	failed=$((failed + 1))
}

say "An instance is a separate ring buffer: mkdir makes one"
run "mkdir instances/demo"
run "ls instances/demo | sed -n 1,12p"

say "Enable one event in it, generate a little activity, read it back"
run "echo 1 > instances/demo/events/sched/sched_process_exec/enable"
for i in 1 2 3; do /bin/true; done
run "grep -m 3 sched_process_exec instances/demo/trace"
say "The top-level buffer did not see it"
run "grep -c sched_process_exec trace || true"

say "Snapshot: freeze the instance's buffer while tracing goes on"
run "echo 'before the snapshot' > instances/demo/trace_marker"
run "echo 1 > instances/demo/snapshot"
run "echo 'after the snapshot' > instances/demo/trace_marker"
echo "-- snapshot (the frozen buffer):"
run "grep -v '^#' instances/demo/snapshot | grep -E 'tracing_mark_write|sched_process_exec' | tail -3"
echo "-- live buffer (tracing went on):"
run "grep -v '^#' instances/demo/trace | grep tracing_mark_write"

say "Kernel code can own an instance too: samples/ftrace/sample-trace-array"
run "modprobe sample-trace-array"
waited_for 10 "the sample's first trace_array_printk" grep -q "trace_array_printk: count=" instances/sample-instance/trace
run "grep -v '^#' instances/sample-instance/trace | sed -n 1,4p"
run "rmmod sample-trace-array"
run "ls instances"

if has_feature kernel-instances; then
say "A kernel module captures a window: samples/ftrace/sample-trace-capture"
echo "It owns instances/sample-capture and records only inside a window:"
echo "a timer (softirq) detects a connection drop and opens the window, the"
echo "reconnect path logs its steps, a timer closes the window and takes a"
echo "snapshot. A heartbeat logs all the time, outside the window."
P=/sys/module/sample_trace_capture/parameters
run "modprobe sample-trace-capture"
run "rmdir instances/sample-capture || echo '(refused: the module owns it)'"
sleep 0.5
run "echo 1 > $P/drop"
waited_for 10 "a capture" grep -qx 1 $P/captures
run "cat $P/captures $P/last_error"
echo "-- the captured window (instances/sample-capture/snapshot):"
run "grep -v '^#' instances/sample-capture/snapshot"
echo "-- the live buffer (emptied for the next capture):"
run "sed '/^#/d' instances/sample-capture/trace | wc -l"
run "rmmod sample-trace-capture"
run "ls instances"
fi

if has_feature snapshot-files; then
say "A flight recorder: snapshot_enabled reserves the spare buffer, snapshot_pipe"
echo "freezes and streams snapshots while tracing goes on"
run "mkdir instances/flight"
run "echo 1 > instances/flight/snapshot_enabled"
run "cat instances/flight/snapshot_enabled"
run "echo 1 > instances/flight/events/sched/sched_process_exec/enable"
cat instances/flight/snapshot_pipe >/tmp/flight.stream &
streamer=$!
echo "# cat instances/flight/snapshot_pipe > /tmp/flight.stream &   (blocks until a snapshot)"
/bin/true
run "echo 'error #1 detected' > instances/flight/trace_marker"
run "echo 1 > instances/flight/snapshot_pipe"
/bin/true
run "echo 'still tracing after the snapshot' > instances/flight/trace_marker"
waited_for 10 "the streamed snapshot" grep -q "error #1" /tmp/flight.stream
echo "-- streamed from snapshot_pipe:"
run "grep -v '^#' /tmp/flight.stream | cut -c1-100"
echo "-- the live buffer went on recording:"
run "grep -v '^#' instances/flight/trace | cut -c1-100"
kill $streamer 2>/dev/null
wait $streamer 2>/dev/null
run "echo 0 > instances/flight/snapshot_enabled"
run "rmdir instances/flight"
fi

if has_feature exports; then
# 7.2: a tutorial sample, and the sink of the selftests in a test module;
# the 6.1 backport's sample is that sink.
if [ -n "$(find /lib/modules/"$(uname -r)" -name "trace_export_test.ko*" 2>/dev/null)" ]; then
	say "Trace exports: samples/ftrace/sample-trace-export.ko counts what its"
	echo "instance records with two exports, and writes the counts into it"
	run "modprobe sample-trace-export"
	waited_for 10 "the sample's second report" grep -q "sample-trace-export: [0-9]* events, [1-9]" instances/sample-export/trace
	run "grep 'sample-trace-export:' instances/sample-export/trace | sed -n 1,3p"
	run "rmmod sample-trace-export"
	MOD=trace_export_test INST=trace-export-test
	X=/sys/kernel/debug/trace_export_test
	echo "The selftests' sink (trace_export_test.ko) keeps each entry it gets:"
else
	MOD=sample-trace-export INST=sample-export
	X=/sys/kernel/debug/sample-trace-export
fi
say "Trace exports: a module streams its own instance's entries into a sink"
echo "of its own as they are written ($MOD.ko)"
run "modprobe $MOD"
run "echo 1 > instances/$INST/events/sched/sched_process_exec/enable"
/bin/true
run "echo 'hello from user space' > instances/$INST/trace_marker"
run "echo 'not for the export' > trace_marker"
run "echo 2 > $X/trigger"
echo "-- the instance's ring buffer:"
run "grep -v '^#' instances/$INST/trace | cut -c1-100"
echo "-- the same entries, as the export got them (CPU, then the bytes in hex):"
run "cut -c1-100 $X/entries"
run "cat $X/stats"
run "rmmod $MOD"
fi

if has_feature function-tracers; then
say "Several function tracers at once, each with its own filter"
echo "Two instances trace getppid (one of them getpid too) and a module"
echo "adds two counting tracers: each shared function calls exactly its"
echo "tracers, found by their IDs (function_tracers, enabled_functions):"
if grep -qw ftrace_mux_set_func /proc/kallsyms; then
	echo "on x86_64 through the trampoline of its set (ftrace_mux_set_func)."
else
	echo "the list function looks the function's set up in a table once."
fi
run "mkdir instances/fa instances/fb"
run "echo __do_sys_getppid > instances/fa/set_ftrace_filter"
run "echo '__do_sys_getppid __do_sys_getpid' > instances/fb/set_ftrace_filter"
run "echo function > instances/fa/current_tracer"
run "echo function > instances/fb/current_tracer"
run "modprobe sample-ftrace-mux on_target=2 elsewhere=1"
run "cat function_tracers"
run "grep -e getppid -e getpid -e sample_ftrace_mux enabled_functions"
run "syscall-loop 3 >/dev/null"
run "echo 1000 > /sys/kernel/debug/sample-ftrace-mux/call"
run "grep -c getppid instances/fa/trace"
run "grep -c getppid instances/fb/trace"
run "cat /sys/kernel/debug/sample-ftrace-mux/stats"
run "rmmod sample-ftrace-mux"
echo "function_tracers also selects whose filter the top-level"
echo "set_ftrace_filter edits: instance fa's, then the function profiler's"
echo "own, while the top-level function tracer traces getpid."
run "echo trace:fa > function_tracers"
run "echo __do_sys_getpid >> set_ftrace_filter"
run "cat instances/fa/set_ftrace_filter"
run "echo function_profile > function_tracers"
run "echo __do_sys_getppid > set_ftrace_filter"
run "echo trace > function_tracers"
run "echo __do_sys_getpid > set_ftrace_filter"
run "head -2 function_tracers"
run "grep -v -e '^trace filter' function_filters"
run "echo function > current_tracer"
run "echo 1 > function_profile_enabled"
run "syscall-loop 3 >/dev/null"
run "echo 0 > function_profile_enabled"
run "echo nop > current_tracer"
run "cat trace_stat/function* | grep -e Function -e getppid -e getpid"
run "echo function_profile > function_tracers"
run "echo > set_ftrace_filter"
run "echo trace > function_tracers"
run "echo > set_ftrace_filter"
run "echo nop > instances/fa/current_tracer"
run "echo nop > instances/fb/current_tracer"
run "rmdir instances/fa instances/fb"
fi

if has_feature controls; then
say "One file each: describe every event, count what was lost, start again"
run "grep -m 1 -A 5 '^system: sched$' instances/demo/info"
run "echo 8 > instances/demo/buffer_size_kb"
run "seq 500 | while read i; do echo \"demo marker \$i\"; done > instances/demo/trace_marker"
run "cat instances/demo/overflow"
run "echo 1 > instances/demo/reset"
run "cat instances/demo/overflow"
fi

if has_feature event-info; then
say "One file describes every event: its system, state and format"
run "echo 1 > instances/demo/events/sched/sched_switch/enable"
run "grep -B 2 -A 3 '^name: sched_switch$' instances/demo/info"
run "grep -c '^system: ' instances/demo/info"
run "echo 0 > instances/demo/events/sched/sched_switch/enable"
fi

if has_feature mmap-record; then
say "Zero-copy recording: mmap-record maps every CPU's trace_pipe_raw"
run "mmap-record -i rec -e sched:sched_switch -e syscalls:sys_enter_getppid -d 3 -o /tmp/demo.dat 2>/tmp/demo.err & rec=\$!; until grep -qs recording /tmp/demo.err || ! kill -0 \$rec 2>/dev/null; do sleep 0.2; done; syscall-loop 1000 >/dev/null; rc=0; wait \$rec || rc=\$?; cat /tmp/demo.err; exit \$rc"
run "trace-cmd report -i /tmp/demo.dat | grep -e sys_enter_getppid -e sched_switch | sed -n 1,3p"
run "trace-cmd report -i /tmp/demo.dat | wc -l"
fi

say "Clean up"
run "echo 0 > instances/demo/snapshot"
run "rmdir instances/demo"
echo
if [ $failed -ne 0 ]; then
	echo "demo finished: $failed steps failed"
	exit 1
fi
echo "demo finished"

#!/bin/sh
# Trace exports: the cost of an entry written into an instance with no
# export anywhere, with an export on another instance, with an export on
# the same instance, and with a global export. The export is
# the selftests' sink, trace_export_test.ko on 7.2 (the 6.1 backport's
# samples/ftrace/sample-trace-export.ko is the same sink): its write()
# copies the entry into a slot of its sink (reset before each run, so
# none is dropped).
# Events: raw_syscalls:sys_enter, one per getppid(); markers: one per
# write to trace_marker; printk: one trace_array_printk() line, 1000 per
# write to the sample's trigger. Best of 3 runs, guest ns.
# needs: exports
. /guest/lib.sh
cd $TRACEFS || exit 1
N=20000
if [ -n "$(find /lib/modules/"$(uname -r)" -name 'trace_export_test.ko*' 2>/dev/null)" ]; then
	MOD=trace_export_test
	SINK=/sys/kernel/debug/trace_export_test
	INST=instances/trace-export-test
else
	MOD=sample_trace_export
	SINK=/sys/kernel/debug/sample-trace-export
	INST=instances/sample-export
fi
BENCH_COMPARE=0

# what each run does first: empty the sink, when there is one
sink_reset_cmd() {
	echo "[ -e $SINK/reset ] && echo 1 >$SINK/reset; :"
}

# printk_cmd: 5 writes of 1000 lines to the trigger; ns per line
printk_cmd() {
	echo "$(sink_reset_cmd); v=\$(tracefs-pipe write $SINK/trigger 1000 5); [ -n \"\$v\" ] && echo \$((v / 1000))"
}

# measure VARIANT DIR: the rows of one variant, entries written into DIR
measure() {
	echo 8192 >$2/buffer_size_kb
	echo 1 >$2/events/raw_syscalls/sys_enter/enable
	bench_row "exports-$1-event" "ns/getppid()" sh -c "$(sink_reset_cmd); syscall-loop $N"
	eval "event_$1=$bench_best"
	echo 0 >$2/events/raw_syscalls/sys_enter/enable
	bench_row "exports-$1-marker" "ns/write" sh -c "$(sink_reset_cmd); tracefs-pipe write $2/trace_marker 'bench marker' $N"
	eval "marker_$1=$bench_best"
	echo >$2/trace
}

echo nop >current_tracer
mkdir instances/bench-exp || exit 1
printf '%-40s %10s  %s\n' variant ns unit

measure none instances/bench-exp

if ! modprobe $MOD capacity=32768; then
	result bench exports FAIL "modprobe $MOD failed"
	exit 1
fi
measure other instances/bench-exp
measure same $INST
bench_row exports-same-printk "ns/line" sh -c "$(printk_cmd)"
printk_same=$bench_best
rmmod $MOD

# the same printk lines with no printk export (flags=1: function entries)
modprobe $MOD flags=1
bench_row exports-none-printk "ns/line" sh -c "$(printk_cmd)"
printk_none=$bench_best
rmmod $MOD

modprobe $MOD global=1 capacity=32768
measure global instances/bench-exp
rmmod $MOD
rmdir instances/bench-exp

ratio() {
	awk "BEGIN{printf \"%.3f\", $1/$2}"
}
echo
echo "ratios to no export (goal for an export on another instance: <= 1.02)"
printf '%-24s %10s %10s %10s\n' kind other same global
printf '%-24s %10s %10s %10s\n' event "$(ratio $event_other $event_none)" \
	"$(ratio $event_same $event_none)" "$(ratio $event_global $event_none)"
printf '%-24s %10s %10s %10s\n' marker "$(ratio $marker_other $marker_none)" \
	"$(ratio $marker_same $marker_none)" "$(ratio $marker_global $marker_none)"
printf '%-24s %10s %10s %10s\n' printk - "$(ratio $printk_same $printk_none)" -

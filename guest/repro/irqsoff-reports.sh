#!/bin/sh
# Diagnostic for make bench's irqsoff-reported row: 20 triggers of 10
# irqs-off sections of 100 us with tracing_thresh at 50 us, as
# guest/bench/00-hot-paths.sh runs them. Counts the reports (one stack
# trace each, a kprobe on stack_trace_save counted in another instance,
# so the top level's tracer is left alone) and prints the last report's
# stack. Boot it under -icount on both kernels to compare:
#   ICOUNT=1 SMP=1 scripts/qemu-run.sh bench repro 500 "ftx.repro=irqsoff-reports ftx.rounds=1"
# (FTX_BASE=1 for the base). Prints "FTX-IRQSOFF-REPORTS N", and what the
# triggers cost besides the reports: the context switches, forks, interrupts
# and softirqs counted across them ("FTX-IRQSOFF-COUNT name before after").
T=/sys/kernel/tracing
cd $T || exit 1
modprobe preemptirq_delay_test test_mode=irq delay=100 burst_size=10 || exit 1
mkdir instances/cnt || exit 1
echo 'p:stk stack_trace_save' >>kprobe_events || exit 1
echo 1 >instances/cnt/events/kprobes/enable
echo irqsoff >current_tracer
echo 50 >tracing_thresh
counts() {
	awk '$1 == "ctxt" || $1 == "processes" || $1 == "intr" || $1 == "softirq" {print $1, $2}' /proc/stat
	awk 'NR > 1 {n = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i; print "irq-" $1, n}' /proc/interrupts
	awk 'NR > 1 {n = 0; for (i = 2; i <= NF; i++) n += $i; print "softirq-" $1, n}' /proc/softirqs
}
counts >/tmp/counts.before
for _ in $(seq 20); do echo 1 >/sys/kernel/preemptirq_delay_test/trigger; done
counts >/tmp/counts.after
awk 'NR == FNR {b[$1] = $2; next} {print "FTX-IRQSOFF-COUNT", $1, b[$1], $2}' /tmp/counts.before /tmp/counts.after
echo 0 >instances/cnt/events/kprobes/enable
echo "FTX-IRQSOFF-REPORTS $(grep -c ' stk:' instances/cnt/trace)"
grep '^ =>' trace | sed 's/^/FTX-IRQSOFF-STACK /'
echo 0 >tracing_thresh
echo nop >current_tracer
echo '-:stk' >>kprobe_events
rmdir instances/cnt
rmmod preemptirq_delay_test

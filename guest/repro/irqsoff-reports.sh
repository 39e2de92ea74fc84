#!/bin/sh
# Diagnostic for make bench's irqsoff-reported row: 20 triggers of 10
# irqs-off sections of 100 us with tracing_thresh at 50 us, as
# guest/bench/00-hot-paths.sh runs them. Counts the reports (one stack
# trace each, a kprobe on stack_trace_save counted in another instance,
# so the top level's tracer is left alone) and prints the last report's
# stack. Boot it under -icount on both kernels to compare:
#   ICOUNT=1 SMP=1 scripts/qemu-run.sh bench repro 500 "ftx.repro=irqsoff-reports ftx.rounds=1"
# (FTX_BASE=1 for the base). Prints "FTX-IRQSOFF-REPORTS N".
T=/sys/kernel/tracing
cd $T || exit 1
modprobe preemptirq_delay_test test_mode=irq delay=100 burst_size=10 || exit 1
mkdir instances/cnt || exit 1
echo 'p:stk stack_trace_save' >>kprobe_events || exit 1
echo 1 >instances/cnt/events/kprobes/enable
echo irqsoff >current_tracer
echo 50 >tracing_thresh
for _ in $(seq 20); do echo 1 >/sys/kernel/preemptirq_delay_test/trigger; done
echo 0 >instances/cnt/events/kprobes/enable
echo "FTX-IRQSOFF-REPORTS $(grep -c ' stk:' instances/cnt/trace)"
grep '^ =>' trace | sed 's/^/FTX-IRQSOFF-STACK /'
echo 0 >tracing_thresh
echo nop >current_tracer
echo '-:stk' >>kprobe_events
rmdir instances/cnt
rmmod preemptirq_delay_test

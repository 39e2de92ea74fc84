#!/bin/sh
# Kernel code's snapshots and capture windows on a persistent (boot-mapped)
# instance: it has no snapshot buffer, so trace_array_snapshot_alloc(),
# trace_array_snapshot(), trace_array_snapshot_free() and
# trace_window_create() refuse with -EOPNOTSUPP (-95), and the refused
# snapshot switches recording off (a lasting refusal). The test module
# kernel/trace/trace_instance_test.ko tries them on the instance
# "bootmapped" (tests/lanes.list's bootmap) and tells what each returned.
# needs: kernel-instances boot-mapped
. /guest/lib.sh

S=kernel-instance-bootmapped
P=/sys/module/trace_instance_test/parameters
check $S instance-is-boot-mapped "no boot-mapped instance bootmapped" -- \
	test -e $TRACEFS/instances/bootmapped/per_cpu/cpu0/buffer_meta
if ! modprobe trace_instance_test instance=bootmapped; then
	result $S load FAIL "modprobe trace_instance_test failed"
	exit 0
fi
result $S load PASS
check $S persistent "the module did not see a boot-mapped instance" -- grep -qx 1 $P/persistent
for call in snapshot_alloc snapshot snapshot_free window; do
	check $S "$call-eopnotsupp" "$call returned $(cat $P/$call), not -95" -- \
		grep -qx -- -95 $P/$call
done
check $S snapshot-stops-recording "recording was still on after the refused snapshot" -- \
	grep -qx 0 $P/recording
check $S recording-back-on "the instance does not record again" -- \
	grep -qx 1 $TRACEFS/instances/bootmapped/tracing_on
rmmod trace_instance_test || result $S unload FAIL "rmmod failed"

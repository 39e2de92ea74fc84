#!/bin/sh
# Upstream's kernel/trace/ring_buffer_benchmark.c: a producer thread
# writes 10 s (guest time) of small entries into a private ring buffer,
# with or without a consumer thread reading them. It reports through
# trace_printk() into the top-level buffer.
# needs:
. /guest/lib.sh
cd $TRACEFS || exit 1

# run VARIANT [module params]: load, wait for the report, unload.
run() {
	variant=$1
	shift
	echo > trace
	if ! modprobe ring_buffer_benchmark "$@"; then
		result bench "ring-buffer:$variant" FAIL "modprobe failed"
		return 1
	fi
	if ! wait_for 300 grep -q "ns per entry" trace; then
		result bench "ring-buffer:$variant" FAIL "no report within 300 s"
		rmmod ring_buffer_benchmark
		return 1
	fi
	rmmod ring_buffer_benchmark
	ns=$(grep -m1 -o '[0-9]* ns per entry' trace | cut -d' ' -f1)
	epm=$(grep -m1 -o 'Entries per millisec: [0-9]*' trace | awk '{print $4}')
	ovr=$(grep -m1 -o 'Overruns: *[0-9]*' trace | awk '{print $2}')
	printf '%-26s %12s %14s %12s\n' "$variant" "$ns" "$epm" "$ovr"
	echo "$ns" >"/tmp/rb-$variant"
	case $ns in
	'' | *[!0-9]*) result bench "ring-buffer:$variant" FAIL "no ns per entry in the report" ;;
	*) result bench "ring-buffer:$variant" PASS ;;
	esac
}

echo "ring_buffer_benchmark: ns per entry written (lower is better)"
printf '%-26s %12s %14s %12s\n' variant ns/entry entries/ms overruns
run "producer+consumer"
run "producer-only" disable_reader=1
a=$(cat /tmp/rb-producer+consumer 2>/dev/null)
b=$(cat /tmp/rb-producer-only 2>/dev/null)
if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ]; then
	echo "ratio producer+consumer / producer-only: $(awk "BEGIN{printf \"%.2f\", $a/$b}")"
fi

#!/bin/sh
# The guest side of "make bench": runs every guest/bench/*.sh in order.
# Each prints its own table to the console and to the results channel,
# between FTX-BENCH-BEGIN/END lines, for the host to collect.
. /guest/lib.sh
stty -F /dev/ttyS1 raw -echo 2>/dev/null

echo "All figures are guest nanoseconds under QEMU -icount shift=0,sleep=off:"
echo "one nanosecond per executed guest instruction, so they measure path"
echo "length (instructions), not cache or branch behaviour."
for b in /guest/bench/*.sh; do
	name=$(basename "$b" .sh)
	section "bench $name"
	emit "FTX-BENCH-BEGIN $name"
	sh "$b" 2>&1 | tee -a "$RESULTS"
	emit "FTX-BENCH-END $name"
done

#!/bin/sh
# snapshot_enabled/snapshot_pipe: the cost of a snapshot (a swap, through
# "echo 1 > snapshot_pipe") with buffers from 1 MiB to 64 MiB per CPU, and
# the streaming rate of snapshot_pipe against trace_pipe on the same data.
# needs: snapshot-files
. /guest/lib.sh
I=$TRACEFS/instances/bench-snap
mkdir $I || exit 1
cd $I || exit 1

echo "snapshot swap: ns per 'echo 1 > snapshot_pipe' (write syscall included)"
printf '%-12s %12s %16s %18s\n' "MiB/CPU" "ns/swap" "ratio to 1 MiB" "tracing_on write"
base=
for mib in 1 4 16 64; do
	echo $((mib * 1024)) >buffer_size_kb
	echo 1 >snapshot_enabled
	tracefs-pipe markers trace_marker fill 2000 >/dev/null
	# warm up: the first swaps after an allocation run cold paths
	tracefs-pipe write snapshot_pipe 1 50 >/dev/null
	swap=$(tracefs-pipe write snapshot_pipe 1 200)
	# the same write path minus the swap: tracing_on takes "1" too
	noop=$(tracefs-pipe write tracing_on 1 200)
	case $swap in
	'' | *[!0-9]*)
		result bench "snapshot-swap:${mib}MiB" FAIL "printed '$swap', not a number"
		echo 0 >snapshot_enabled
		continue
		;;
	esac
	result bench "snapshot-swap:${mib}MiB" PASS
	[ -z "$base" ] && base=$swap
	printf '%-12s %12s %16s %18s\n' "$mib" "$swap" \
		"$(awk "BEGIN{printf \"%.2f\", $swap/$base}")" "$noop"
	echo 0 >snapshot_enabled
done

echo
echo "streaming 20000 events: trace_pipe (live buffer) vs snapshot_pipe (snapshot)"
echo 8192 >buffer_size_kb
echo >trace
echo 1 >snapshot_enabled
printf '%-16s %10s %10s %14s %12s\n' reader bytes lines ns ns/line
tracefs-pipe markers trace_marker ev 20000 >/dev/null
set -- $(tracefs-pipe drain trace_pipe)
tp_ns=$3
tp_lines=$2
printf '%-16s %10s %10s %14s %12s\n' trace_pipe "$1" "$2" "$3" $(($3 / ($2 + (${2:-0} == 0))))
tracefs-pipe markers trace_marker ev 20000 >/dev/null
echo 1 >snapshot_pipe
set -- $(tracefs-pipe drain snapshot_pipe)
printf '%-16s %10s %10s %14s %12s\n' snapshot_pipe "$1" "$2" "$3" $(($3 / ($2 + (${2:-0} == 0))))
if [ "$tp_lines" -gt 0 ] && [ "$2" -gt 0 ]; then
	result bench snapshot-pipe-stream PASS
	echo "ratio snapshot_pipe / trace_pipe (ns per line): $(awk "BEGIN{printf \"%.3f\", ($3/$2)/($tp_ns/$tp_lines)}")"
else
	result bench snapshot-pipe-stream FAIL "trace_pipe read $tp_lines lines, snapshot_pipe $2"
fi
echo 0 >snapshot_enabled
cd / && rmdir $I

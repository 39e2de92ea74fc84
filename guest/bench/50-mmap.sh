#!/bin/sh
# Zero-copy consumption of per-CPU ring buffers (mmap of trace_pipe_raw).
# Two event streams, the same for every variant: a trace_marker flood,
# then all sched and syscall events of a hackbench run.
# (a) A consumer that looks at every event: rb-consume by mmap, read()
#     and splice of trace_pipe_raw. Each drains a buffer filled with the
#     stream, tracing then off, so the figure is the consumer's own cost:
#     events/s of the drain and guest CPU ms per MiB of event data.
# (b) Writing a trace file: mmap-record against trace-cmd record, each
#     recording an instance of its own while the stream is produced.
#     events/s: events in the file (trace-cmd report) over the time from
#     the stream's start to the recorder's exit; CPU (the recorder and its
#     workers) per MiB of file.
# (c) hackbench, dbench and tbench with sched and syscall events recorded
#     by each, against tracing off.
# One vCPU (make bench): producers, consumer and recorder share it, so
# every instruction a consumer spends is one the workload does not get.
# Rows for the plot start with "mmap-a", "mmap-b" and "mmap-c".
# needs: mapped-buffers mmap-record
. /guest/lib.sh
T=$TRACEFS
MARKERS=${BENCH_MARKERS:-100000}
HACKBENCH="-g 2 -l 50"
KB=16384
ok=0

now_ms() {
	awk '{printf "%d\n", $1 * 1000}' /proc/uptime
}

stat_of() {	# FIELD FILE: a number of per_cpu/cpu0/stats
	awk -v f="$1:" '$1 == f {print $2}' "$2"
}

# --- (a) consumers
I=$T/instances/bench-map
mkdir $I || exit 1
echo $KB >$I/buffer_size_kb

# fill STREAM: the instance's buffer holds the stream, tracing off
fill() {
	echo 0 >$I/tracing_on
	echo >$I/trace
	echo 1 >$I/tracing_on
	case $1 in
	markers)
		tracefs-pipe markers $I/trace_marker flood "$MARKERS" >/dev/null
		;;
	sched)
		echo 1 >$I/events/sched/enable
		echo 1 >$I/events/syscalls/enable
		hackbench $HACKBENCH >/dev/null 2>&1
		echo 0 >$I/events/syscalls/enable
		echo 0 >$I/events/sched/enable
		;;
	esac
	echo 0 >$I/tracing_on
}

echo "(a) draining one CPU's buffer, every event looked at (tracing off)"
printf '%-8s %-8s %9s %8s %12s %12s %10s\n' stream consumer events MiB events/s "CPU ms/MiB" "setup ms"
for stream in markers sched; do
	for how in mmap read splice; do
		fill $stream
		in=$(stat_of entries $I/per_cpu/cpu0/stats)
		over=$(stat_of overrun $I/per_cpu/cpu0/stats)
		set -- $(rb-consume $how $I/per_cpu/cpu0/trace_pipe_raw)
		if [ "$1" != events ]; then
			result bench "mmap-a-$stream-$how" FAIL "rb-consume printed '$*'"
			ok=1
			continue
		fi
		ev=$2 by=$4 wall=$6 cpu=$8 lost=${10} setup=${12}
		eps=$(awk "BEGIN{printf \"%d\", $ev * 1e9 / $wall}")
		cpm=$(awk "BEGIN{printf \"%.1f\", ($cpu / 1e6) / ($by / 1048576)}")
		mib=$(awk "BEGIN{printf \"%.2f\", $by / 1048576}")
		printf '%-8s %-8s %9s %8s %12s %12s %10s\n' $stream $how $ev $mib $eps $cpm \
			"$(awk "BEGIN{printf \"%.2f\", $setup / 1e6}")"
		echo "mmap-a $stream $how $eps $cpm" >>/tmp/mmap-rows
		echo "$eps" >/tmp/eps-$stream-$how
		# every event in the buffer was seen, none was lost
		if [ "$ev" -eq "$in" ] && [ "$over" -eq 0 ] && [ "$lost" -eq 0 ]; then
			result bench "mmap-a-$stream-$how" PASS
		else
			result bench "mmap-a-$stream-$how" FAIL \
				"saw $ev of $in events (overrun $over, lost $lost)"
			ok=1
		fi
	done
	m=$(cat /tmp/eps-$stream-mmap 2>/dev/null)
	for how in read splice; do
		o=$(cat /tmp/eps-$stream-$how 2>/dev/null)
		[ -n "$m" ] && [ -n "$o" ] &&
			echo "  $stream: mmap/$how events/s $(awk "BEGIN{printf \"%.2f\", $m / $o}") (goal >= 2)"
	done
done
rmdir $I

# --- recording with each tool
# start TOOL EVENTS: start a recorder of instance bench-rec in the
# background (EVENTS: "-e sched -e syscalls", or empty: markers only)
start() {
	rm -f /tmp/rec.dat /tmp/rec.cpu /tmp/rec.log
	case $1 in
	mmap-record)
		cpu-of /tmp/rec.cpu mmap-record -i bench-rec $2 -b 4096 \
			-o /tmp/rec.dat >/tmp/rec.log 2>&1 &
		ready="mmap-record: recording"
		;;
	trace-cmd)
		# stdbuf: trace-cmd says it is ready on a buffered stdout
		# shellcheck disable=SC2086
		# version 6: the format mmap-record writes; trace-cmd's
		# default, 7, compresses, which costs CPU and shrinks the file
		cpu-of /tmp/rec.cpu stdbuf -oL trace-cmd record --file-version 6 \
			-B bench-rec ${2:--p nop} -b 4096 \
			-o /tmp/rec.dat >/tmp/rec.log 2>&1 &
		ready="Hit Ctrl^C"
		;;
	esac
	rec_pid=$!
	wait_for 300 grep -qs "$ready" /tmp/rec.log
}

# stop: SIGINT to the recorder, wait until it wrote its file
stop() {
	kill -INT $rec_pid
	wait $rec_pid
	rec_rc=$?
}

# events and lost events in /tmp/rec.dat, as trace-cmd report shows them
count() {
	trace-cmd report -i /tmp/rec.dat >/tmp/rec.txt 2>/dev/null
	rec_events=$(grep -c '\[[0-9][0-9][0-9]\] ' /tmp/rec.txt)
	rec_lost=$(grep -o 'LOST [0-9]* EVENTS' /tmp/rec.txt | awk '{s += $2} END {print s + 0}')
	rm -f /tmp/rec.txt
}

echo
echo "(b) recording a trace file while the stream runs"
printf '%-8s %-12s %9s %7s %8s %12s %12s\n' stream recorder events lost MiB events/s "CPU ms/MiB"
for stream in markers sched; do
	for tool in mmap-record trace-cmd; do
		evs=
		[ $stream = sched ] && evs="-e sched -e syscalls"
		if ! start $tool "$evs"; then
			result bench "mmap-b-$stream-$tool" FAIL "not ready: $(tail -3 /tmp/rec.log)"
			kill -INT $rec_pid 2>/dev/null
			wait $rec_pid
			ok=1
			continue
		fi
		t0=$(now_ms)
		case $stream in
		markers) tracefs-pipe markers $T/instances/bench-rec/trace_marker flood "$MARKERS" >/dev/null ;;
		sched) hackbench $HACKBENCH >/dev/null 2>&1 ;;
		esac
		stop
		t1=$(now_ms)
		cpu=$(awk '{print $2}' /tmp/rec.cpu 2>/dev/null)
		if [ $rec_rc -ne 0 ] || [ ! -s /tmp/rec.dat ] || [ -z "$cpu" ]; then
			result bench "mmap-b-$stream-$tool" FAIL "exit $rec_rc: $(tail -3 /tmp/rec.log)"
			ok=1
			continue
		fi
		count
		size=$(stat -c %s /tmp/rec.dat)
		eps=$(awk "BEGIN{printf \"%d\", $rec_events * 1000 / ($t1 - $t0)}")
		cpm=$(awk "BEGIN{printf \"%.1f\", ($cpu / 1e6) / ($size / 1048576)}")
		mib=$(awk "BEGIN{printf \"%.2f\", $size / 1048576}")
		printf '%-8s %-12s %9s %7s %8s %12s %12s\n' $stream $tool $rec_events $rec_lost $mib $eps $cpm
		echo "mmap-b $stream $tool $eps $cpm" >>/tmp/mmap-rows
		echo "$eps $cpm" >/tmp/rec-$stream-$tool
		if [ $stream = markers ] && [ $((rec_events + rec_lost)) -lt "$MARKERS" ]; then
			result bench "mmap-b-$stream-$tool" FAIL \
				"$rec_events markers and $rec_lost lost of $MARKERS"
			ok=1
		else
			result bench "mmap-b-$stream-$tool" PASS
		fi
	done
	if [ -s /tmp/rec-$stream-mmap-record ] && [ -s /tmp/rec-$stream-trace-cmd ]; then
		set -- $(cat /tmp/rec-$stream-mmap-record) $(cat /tmp/rec-$stream-trace-cmd)
		echo "  $stream: mmap-record/trace-cmd events/s $(awk "BEGIN{printf \"%.2f\", $1 / $3}") (goal >= 1)," \
			"CPU per MiB $(awk "BEGIN{printf \"%.2f\", $2 / $4}") (goal < 1)"
	fi
done

# --- (c) workloads
# the events a recorder says it lost (its files are too big to report)
lost_of() {
	case $1 in
	mmap-record) sed -n 's/.* events, \([0-9]*\) lost.*/\1/p' /tmp/rec.log | tail -1 ;;
	trace-cmd) awk '$1 == "CPU" && $5 == "lost" {s += $3} END {print s + 0}' /tmp/rec.log ;;
	esac
}
hackbench_s() {	# seconds (lower is better)
	hackbench -g 4 -l 200 2>/dev/null | awk '$1 == "Time:" {print $2}'
}
dbench_mbs() {	# MB/s (higher is better)
	mkdir -p /tmp/dbench
	dbench -c /usr/share/dbench/client.txt -D /tmp/dbench -t 6 2 2>/dev/null |
		awk '$1 == "Throughput" {print $2}'
	rm -rf /tmp/dbench
}
tbench_mbs() {
	tbench -t 6 2 127.0.0.1 2>/dev/null | awk '$1 == "Throughput" {print $2}'
}

echo
echo "(c) workloads while recording sched and syscall events"
printf '%-10s %-12s %12s %10s %9s\n' workload recorder result slowdown lost
tbench_srv >/dev/null 2>&1 &
srv=$!
sleep 1
for w in hackbench dbench tbench; do
	case $w in
	hackbench) fn=hackbench_s unit=s ;;
	*) fn=${w}_mbs unit=MB/s ;;
	esac
	base=
	for tool in off events mmap-record trace-cmd; do
		rec_lost=-
		if [ $tool = events ]; then
			# the events written, overwriting, with no reader
			mkdir $T/instances/bench-ev
			echo 4096 >$T/instances/bench-ev/buffer_size_kb
			echo 1 >$T/instances/bench-ev/events/sched/enable
			echo 1 >$T/instances/bench-ev/events/syscalls/enable
		elif [ $tool != off ] && ! start $tool "-e sched -e syscalls"; then
			result bench "mmap-c-$w-$tool" FAIL "not ready: $(tail -3 /tmp/rec.log)"
			kill -INT $rec_pid 2>/dev/null
			wait $rec_pid
			ok=1
			continue
		fi
		v=$($fn)
		if [ $tool = events ]; then
			echo 0 >$T/instances/bench-ev/events/enable
			rec_lost=$(stat_of overrun $T/instances/bench-ev/per_cpu/cpu0/stats)
			rmdir $T/instances/bench-ev
		elif [ $tool != off ]; then
			stop
			rec_lost=$(lost_of $tool)
		fi
		case $v in
		'' | *[!0-9.]*)
			result bench "mmap-c-$w-$tool" FAIL "$w printed '$v'"
			ok=1
			continue
			;;
		esac
		[ $tool = off ] && base=$v
		if [ -z "$base" ]; then
			slow=-
		elif [ $w = hackbench ]; then
			slow=$(awk "BEGIN{printf \"%.1f\", ($v / $base - 1) * 100}")
		else
			slow=$(awk "BEGIN{printf \"%.1f\", (1 - $v / $base) * 100}")
		fi
		printf '%-10s %-12s %10s %-4s %9s%% %9s\n' $w $tool "$v" $unit "$slow" "$rec_lost"
		[ $tool != off ] && echo "mmap-c $w $tool $slow" >>/tmp/mmap-rows
		echo "$slow" >/tmp/slow-$w-$tool
		result bench "mmap-c-$w-$tool" PASS
	done
	m=$(cat /tmp/slow-$w-mmap-record 2>/dev/null)
	t=$(cat /tmp/slow-$w-trace-cmd 2>/dev/null)
	case $w in
	dbench) goal="<= 10% and " ;;
	tbench) goal="<= 15% and " ;;
	*) goal= ;;
	esac
	[ -n "$m" ] && [ -n "$t" ] &&
		echo "  $w: slowdown with mmap-record $m%, with trace-cmd record $t% (goal ${goal}below trace-cmd's)"
done
kill $srv 2>/dev/null
wait $srv 2>/dev/null
rm -f /tmp/rec.dat

echo
cat /tmp/mmap-rows
exit $ok

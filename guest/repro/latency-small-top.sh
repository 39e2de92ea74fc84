#!/bin/sh
# The top level resized to its boot minimum before it was ever expanded
# (buffer_size_kb "7 (expanded: 1408)", what libtracefs-seq used to put
# back), then every tracer started in turn, as 00basic/basic2.tc does:
# does a latency tracer's one-CPU swap find the two buffers of one size?
. /guest/lib.sh
T=$TRACEFS
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.subbuf=*) echo "${arg#ftx.subbuf=}" >$T/buffer_subbuf_size_kb ;;
	esac
done
echo "subbuf: $(cat $T/buffer_subbuf_size_kb)"
echo "top before: $(cat $T/buffer_size_kb)"
echo "$(cat $T/buffer_size_kb | cut -d' ' -f1)" >$T/buffer_size_kb
echo "top after: $(cat $T/buffer_size_kb)"
for t in $(cat $T/available_tracers); do
	echo $t >$T/current_tracer
	sleep 0.2
	echo "tracer $t: top $(cat $T/buffer_size_kb) cpu0 $(cat $T/per_cpu/cpu0/buffer_size_kb) cpu1 $(cat $T/per_cpu/cpu1/buffer_size_kb)"
done
echo nop >$T/current_tracer
dmesg | grep -c "WARNING" | sed 's/^/warnings: /'

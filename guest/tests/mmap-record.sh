#!/bin/sh
# tools/tracing/mmap-record: it records sequence-numbered trace_marker
# writes on every CPU through the mapped buffers, and trace-cmd report
# shows each number once in its file (the lost count would have to explain
# any gap), also with sub-buffers of two pages; trace-cmd record of the
# same workload reports the same lines;
# bad options and a user without permission get a clear error.
# needs: mmap-record
. /guest/lib.sh

S=mmap-record
if ! command -v mmap-record >/dev/null; then
	result $S build FAIL "mmap-record is not in the initramfs"
	exit 0
fi
. /guest/mmap-lib.sh

# --- bad input
mmap-record -d abc >/tmp/o 2>/tmp/e
check $S bad-duration "exit $? / $(cat /tmp/e)" -- grep -q "invalid duration 'abc'" /tmp/e
mmap-record -d 0 2>/tmp/e
check $S zero-duration "$(cat /tmp/e)" -- grep -q "invalid duration" /tmp/e
mmap-record --no-such-option 2>/tmp/e
rc=$?
check $S bad-option "exit $rc" -- sh -c "[ $rc -eq 2 ] && grep -q usage /tmp/e"
mmap-record extra 2>/tmp/e
rc=$?
check $S extra-argument "exit $rc" -- sh -c "[ $rc -eq 2 ] && grep -q unexpected /tmp/e"
mmap-record -i recbad -e nosuch:event -d 1 -o /tmp/bad.dat 2>/tmp/e
rc=$?
check $S bad-event "exit $rc / $(cat /tmp/e)" -- sh -c "[ $rc -eq 1 ] && grep -q \"no event 'nosuch:event'\" /tmp/e"
check $S bad-event-no-instance "instance recbad left behind" -- test ! -d $TRACEFS/instances/recbad
mmap-record -i 'a/b' -d 1 2>/tmp/e
check $S bad-instance "$(cat /tmp/e)" -- grep -q "invalid instance name" /tmp/e
su nobody -s /bin/sh -c "mmap-record -d 1 -o /tmp/nobody.dat" 2>/tmp/e
rc=$?
check $S no-permission "exit $rc / $(cat /tmp/e)" -- sh -c "[ $rc -ne 0 ] && grep -q 'needs root' /tmp/e"

# --- an instance, markers on every CPU
I=$TRACEFS/instances/rec
record_markers rec $I mmrec -i rec -e sched:sched_switch -d 120
check $S record-exit "exit $rc" -- test $rc -eq 0
check $S instance-removed "the instance the recorder made is still there" -- test ! -d $I
trace-cmd report -i /tmp/rec.dat >/tmp/rec.txt 2>/tmp/rec.rerr
rc=$?
check $S report-reads "trace-cmd report: exit $rc, $(head -c 300 /tmp/rec.rerr | tr "\n" " ")" -- test $rc -eq 0
# the host reads it too, with its trace-cmd and KernelShark
# (scripts/kernelshark-check.sh); the debug lane does not look
if [ "$(cat /etc/ftrace-ext-flavour)" = test ] && [ -s /tmp/rec.dat ]; then
	emit "FTX-FILE-BEGIN mmap-record.dat"
	base64 /tmp/rec.dat | sed 's/^/FTX-FILE /' >>"$RESULTS"
	emit "FTX-FILE-END"
fi
lost=$(lost_of /tmp/rec.err)
check $S every-marker-once "$(check_seqs /tmp/rec.txt mmrec "${lost:-0}")" -- \
	check_seqs /tmp/rec.txt mmrec "${lost:-0}"
check $S report-has-events "no sched_switch in the report" -- grep -q "sched_switch:" /tmp/rec.txt
check $S subbuf-counts "$(check_subbuf_counts /tmp/rec.err | tr "\n" " ")" -- check_subbuf_counts /tmp/rec.err
events=$(sed -n 's/^mmap-record: \([0-9]*\) events.*/\1/p' /tmp/rec.err)
lines=$(grep -c "^ *[^ ].*\[[0-9]*\]" /tmp/rec.txt)
check $S counts-match "recorder counted $events events, the report has $lines" -- \
	test "$events" = "$lines"

# --- a reset while recording (echo > trace): the recorder follows it;
# what it wrote after is all there, and its event count, which a reset
# of the meta page's read count must not throw off, still matches the file
I=$TRACEFS/instances/recreset
rm -f /tmp/reset.err	# a previous round's says "recording" already
mmap-record -i recreset -d 120 -o /tmp/reset.dat 2>/tmp/reset.err &
pid=$!
if wait_for 30 grep -qs "recording" /tmp/reset.err; then
	markers $I/trace_marker mmpre 100
	sleep 1
	echo >$I/trace
	markers $I/trace_marker mmpost 100
	kill -INT $pid
fi
wait $pid
rc=$?
cat /tmp/reset.err
check $S reset-exit "exit $rc" -- test $rc -eq 0
trace-cmd report -i /tmp/reset.dat >/tmp/reset.txt 2>&1
lost=$(lost_of /tmp/reset.err)
check $S reset-after-every-marker "$(check_seqs /tmp/reset.txt mmpost "${lost:-0}" 100)" -- \
	check_seqs /tmp/reset.txt mmpost "${lost:-0}" 100
dups=$(grep -o "mmpre-c[0-9]*:[0-9]*" /tmp/reset.txt | sort | uniq -d | wc -l)
check $S reset-before-once "$dups markers of before the reset twice" -- test "$dups" = 0
events=$(sed -n 's/^mmap-record: \([0-9]*\) events.*/\1/p' /tmp/reset.err)
lines=$(grep -c "^ *[^ ].*\[[0-9]*\]" /tmp/reset.txt)
check $S reset-counts-match "recorder counted $events events, the report has $lines" -- \
	test "$events" = "$lines"
check $S reset-subbuf-counts "$(check_subbuf_counts /tmp/reset.err | tr "\n" " ")" -- \
	check_subbuf_counts /tmp/reset.err

# --- a small buffer: the losses the recorder reports explain every gap
rm -f /tmp/small.err	# a previous round's says "recording" already
mmap-record -i recsmall -b 8 -d 120 -o /tmp/small.dat 2>/tmp/small.err &
pid=$!
I=$TRACEFS/instances/recsmall
if wait_for 30 grep -qs "recording" /tmp/small.err; then
	kill -STOP $pid
	# far more than 8 KiB a CPU while the recorder cannot drain
	markers $I/trace_marker mmsmall 2000
	kill -CONT $pid
	kill -INT $pid
fi
wait $pid
cat /tmp/small.err
trace-cmd report -i /tmp/small.dat >/tmp/small.txt 2>&1
lost=$(lost_of /tmp/small.err)
check $S small-buffer-lost "no loss reported with an 8 KiB buffer: $(tail -1 /tmp/small.err)" -- \
	test "${lost:-0}" -gt 0
check $S small-buffer-gaps-explained "$(check_seqs /tmp/small.txt mmsmall "${lost:-0}" 2000)" -- \
	check_seqs /tmp/small.txt mmsmall "${lost:-0}" 2000
check $S small-buffer-dropped-shown "trace-cmd report shows no EVENTS DROPPED" -- \
	grep -q "EVENTS DROPPED" /tmp/small.txt
check $S small-buffer-subbuf-counts "$(check_subbuf_counts /tmp/small.err | tr "\n" " ")" -- \
	check_subbuf_counts /tmp/small.err

# --- overwrite off: what the full buffer refuses never reaches a
# sub-buffer nor the meta page; the stats count it, and so must the
# recorder
I=$TRACEFS/instances/recdrop
mkdir $I
echo 0 >$I/options/overwrite
rm -f /tmp/drop.err	# a previous round's says "recording" already
mmap-record -i recdrop -b 8 -d 120 -o /tmp/drop.dat 2>/tmp/drop.err &
pid=$!
if wait_for 30 grep -qs "recording" /tmp/drop.err; then
	kill -STOP $pid
	# 600 a CPU: over 20 KiB into 8 KiB
	markers $I/trace_marker mmdrop 600
	kill -CONT $pid
	kill -INT $pid
fi
wait $pid
cat /tmp/drop.err
dropped=$(awk -F': ' '$1 == "dropped events" { n += $2 } END { print n + 0 }' $I/per_cpu/*/stats)
rmdir $I
trace-cmd report -i /tmp/drop.dat >/tmp/drop.txt 2>&1
lost=$(lost_of /tmp/drop.err)
check $S overwrite-off-lost "the stats count $dropped dropped events, the recorder reports ${lost:-none} lost" -- \
	test "$dropped" -gt 0 -a "${lost:-0}" -ge "$dropped"
check $S overwrite-off-gaps-explained "$(check_seqs /tmp/drop.txt mmdrop "${lost:-0}" 600)" -- \
	check_seqs /tmp/drop.txt mmdrop "${lost:-0}" 600

# --- a CPU without a buffer (offline when the instance was made) is
# skipped; the instance the recorder made is gone at the end
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	echo 0 >/sys/devices/system/cpu/cpu1/online
	mmap-record -i recoffline -e sched:sched_switch -d 2 -o /tmp/off.dat 2>/tmp/off.err
	rc=$?
	echo 1 >/sys/devices/system/cpu/cpu1/online
	cat /tmp/off.err
	check $S offline-cpu-exit "exit $rc: $(tail -1 /tmp/off.err)" -- test $rc -eq 0
	check $S offline-cpu-skipped "cpu1 not reported skipped" -- grep -q "cpu1 has no buffer" /tmp/off.err
	check $S offline-cpu-nothing-left "instance recoffline left behind" -- test ! -d $TRACEFS/instances/recoffline
else
	result $S offline-cpu SKIP "cpu1 cannot go offline"
fi

# --- an error after it changed things (a snapshot trigger keeps the
# mapping away) puts them back: the event off, tracing_on as it was
I=$TRACEFS/instances/recbusy
mkdir $I
echo 'snapshot' >$I/events/sched/sched_wakeup/trigger
mmap-record -i recbusy -e sched:sched_switch -d 2 -o /tmp/busy.dat 2>/tmp/busy.err
rc=$?
cat /tmp/busy.err
check $S busy-fails "exit $rc" -- test $rc -ne 0
check $S busy-hint "$(tail -1 /tmp/busy.err)" -- grep -q "EBUSY\|busy.*snapshot trigger" /tmp/busy.err
check $S busy-event-off "sched_switch left enabled: $(cat $I/events/sched/sched_switch/enable)" -- \
	test "$(cat $I/events/sched/sched_switch/enable)" = 0
check $S busy-tracing-on "tracing_on left at $(cat $I/tracing_on)" -- test "$(cat $I/tracing_on)" = 1
echo '!snapshot' >$I/events/sched/sched_wakeup/trigger
rmdir $I

# --- sub-buffers of two pages: the file's page size is the sub-buffer's,
# and trace-cmd report reads it
I=$TRACEFS/instances/rec2p
mkdir $I
kb=$(($(cat $I/buffer_subbuf_size_kb) * 2))
echo $kb >$I/buffer_subbuf_size_kb
record_markers rec2p $I mm2p -i rec2p -d 120
rmdir $I
check $S two-page-subbufs-exit "exit $rc" -- test $rc -eq 0
# trace-cmd.dat.v6: the page size follows the magic, "tracing", "6" and
# the endian and long size bytes: offset 14
psize=$(od -An -tu4 -j 14 -N 4 /tmp/rec2p.dat | tr -d ' ')
check $S two-page-subbufs-page-size "the file says pages of $psize bytes, not $((kb * 1024))" -- \
	test "$psize" = $((kb * 1024))
trace-cmd report -i /tmp/rec2p.dat >/tmp/rec2p.txt 2>&1
lost=$(lost_of /tmp/rec2p.err)
check $S two-page-subbufs-every-marker "$(check_seqs /tmp/rec2p.txt mm2p "${lost:-0}")" -- \
	check_seqs /tmp/rec2p.txt mm2p "${lost:-0}"

# --- the same workload recorded by trace-cmd record, with the top
# level's size set first. Before it was set, both tools missed CPU 0's
# first markers on the debug kernel (413 and 487 of 600 seen,
# 2026-11-25), and the comparison ran in the test lane only; with it,
# it passes on the debug kernel as well (2026-12-04).
echo 0 >$TRACEFS/snapshot	# a spare buffer would keep the mapping away
echo 1408 >$TRACEFS/buffer_size_kb
cat $TRACEFS/per_cpu/cpu*/buffer_size_kb | tr '\n' ' '
echo
trace-cmd record -p nop -o /tmp/tc.dat sh /tmp/markers.sh $TRACEFS/trace_marker mmsame $NCPU $N \
	>/tmp/tc.out 2>&1
trace-cmd report -i /tmp/tc.dat 2>/dev/null | grep -o "mmsame-c[0-9]*:[0-9]*" | sort >/tmp/tc.seqs
rm -f /tmp/top.err	# a previous round's says "recording" already
mmap-record -d 120 -o /tmp/top.dat 2>/tmp/top.err &
pid=$!
wait_for 30 grep -qs "recording" /tmp/top.err
markers $TRACEFS/trace_marker mmsame
kill -INT $pid
wait $pid
cat /tmp/top.err
trace-cmd report -i /tmp/top.dat 2>/dev/null | grep -o "mmsame-c[0-9]*:[0-9]*" | sort >/tmp/top.seqs
check $S same-as-trace-cmd "trace-cmd record saw $(wc -l </tmp/tc.seqs), mmap-record $(wc -l </tmp/top.seqs)" -- \
	sh -c "[ -s /tmp/tc.seqs ] && cmp -s /tmp/tc.seqs /tmp/top.seqs"
trace-cmd report -i /tmp/tc.dat 2>/dev/null | grep "mmsame-c0:7$" | sed 's/.*\] *[0-9.]*: *//' >/tmp/tc.line
trace-cmd report -i /tmp/top.dat 2>/dev/null | grep "mmsame-c0:7$" | sed 's/.*\] *[0-9.]*: *//' >/tmp/top.line
check $S same-line-format "trace-cmd: '$(cat /tmp/tc.line)', mmap-record: '$(cat /tmp/top.line)'" -- \
	sh -c "[ -s /tmp/tc.line ] && cmp -s /tmp/tc.line /tmp/top.line"

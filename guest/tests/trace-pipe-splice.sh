#!/bin/sh
# splice() from trace_pipe: every line once and in order, with more lines
# than one page of the pipe holds (each splice fills up to 16 pages, one
# formatted batch of lines each).
# needs: fixes
. /guest/lib.sh

S=trace-pipe-splice
I=$TRACEFS/instances/tpsplice
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }

# 1000 lines of about 30 bytes: about 7 pages of text, on one CPU
n=$(taskset -c 0 tracefs-pipe markers $I/trace_marker splice-line 1000)
check $S markers-written "only $n of 1000 markers were written" -- test "$n" = 1000
tracefs-pipe splicedump $I/trace_pipe >/tmp/tpsplice.out
grep -o 'splice-line:[0-9]*' /tmp/tpsplice.out | cut -d: -f2 >/tmp/tpsplice.ids
got=$(wc -l </tmp/tpsplice.ids)
check $S all-lines "splice gave $got of the 1000 lines" -- test "$got" -eq 1000
check $S in-order-once "the lines are not 0..999 in order, each once" -- \
	sh -c 'seq 0 999 | cmp -s - /tmp/tpsplice.ids'
check $S consumed "the spliced lines are still in the buffer" -- \
	test "$(tracefs-pipe nonblock $I/trace_pipe)" = EAGAIN

rmdir $I || result $S cleanup FAIL "rmdir $I"

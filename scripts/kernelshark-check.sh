#!/bin/bash
# The host's side of the guest test mmap-record: the trace.dat that
# tools/tracing/mmap-record wrote in the guest (sent base64 between
# FTX-FILE-BEGIN and FTX-FILE-END on the results channel) must be read by
# the host's trace-cmd report (Debian 12's and a current one) and opened
# by KernelShark under Xvfb; a screenshot of KernelShark is kept as
# build/$SERIES/logs/kernelshark-mmap-record.png.
#   scripts/kernelshark-check.sh RESULTS-LOG...   (prints FTX-RESULT lines)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

S=mmap-record-host
dat=$LOGDIR/mmap-record.dat
png=$LOGDIR/kernelshark-mmap-record.png
rm -f "$dat" "$png"
awk '/^FTX-FILE-BEGIN mmap-record.dat/ { on = 1; next }
     /^FTX-FILE-END/ { on = 0 }
     on && /^FTX-FILE / { print $2 }' "$@" | base64 -d >"$dat" 2>/dev/null
if [ ! -s "$dat" ]; then
	echo "FTX-RESULT $S file-received FAIL no trace.dat from the guest test mmap-record in $*"
	exit 0
fi
echo "FTX-RESULT $S file-received PASS $(stat -c %s "$dat") bytes"

n=$(trace-cmd report -i "$dat" 2>"$LOGDIR/mmap-record-report.err" | grep -c "mmrec-c[0-9]*:[0-9]")
if [ "$n" -gt 0 ]; then
	echo "FTX-RESULT $S trace-cmd-report PASS $n markers"
else
	echo "FTX-RESULT $S trace-cmd-report FAIL no markers: $(head -c 300 "$LOGDIR/mmap-record-report.err")"
fi

# a current trace-cmd (Debian unstable's 3.x, scripts/fetch-trace-cmd.sh)
# reads the same markers as Debian 12's
trace-cmd report -i "$dat" 2>/dev/null | grep -o "mmrec-c[0-9]*:[0-9]*" | sort >"$LOGDIR/mmap-record-markers.txt"
cur=$(current_trace_cmd -h 2>&1 | sed -n 's/^trace-cmd version \([0-9.]*\).*/\1/p')
current_trace_cmd report -i "$dat" 2>"$LOGDIR/mmap-record-report-current.err" |
	grep -o "mmrec-c[0-9]*:[0-9]*" | sort >"$LOGDIR/mmap-record-markers-current.txt"
if [ -z "$cur" ]; then
	echo "FTX-RESULT $S trace-cmd-current-report FAIL no current trace-cmd (scripts/fetch-trace-cmd.sh)"
elif [ "$n" -gt 0 ] && cmp -s "$LOGDIR/mmap-record-markers.txt" "$LOGDIR/mmap-record-markers-current.txt"; then
	echo "FTX-RESULT $S trace-cmd-current-report PASS trace-cmd $cur: the same $n markers"
else
	echo "FTX-RESULT $S trace-cmd-current-report FAIL trace-cmd $cur: $(wc -l <"$LOGDIR/mmap-record-markers-current.txt") markers, Debian 12's $n; $(head -c 300 "$LOGDIR/mmap-record-report-current.err")"
fi

# KernelShark warns in a dialog when run as root: run it as nobody, on an
# Xvfb display without access control
home=$(mktemp -d)
cp "$dat" "$home/rec.dat"
chown -R nobody "$home"
chmod 700 "$home"
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -ac" sh -c '
	runuser -u nobody -- env -u XAUTHORITY HOME="$1" XDG_RUNTIME_DIR="$1" \
		kernelshark "$1/rec.dat" >"$1/ks.out" 2>&1 &
	pid=$!
	sleep 15
	xwininfo -root -tree >"$1/windows.txt" 2>&1
	kill -0 $pid 2>/dev/null && echo alive >"$1/alive"
	xwd -root -silent >"$1/shot.xwd"
	kill $pid
	exit 0' sh "$home" >/dev/null 2>&1
xwdtopnm "$home/shot.xwd" 2>/dev/null | pnmtopng >"$png" 2>/dev/null
colors=$(xwdtopnm "$home/shot.xwd" 2>/dev/null | ppmhist -noheader 2>/dev/null | wc -l)
if [ -f "$home/alive" ] && grep -q "Kernel Shark ($home/rec.dat)" "$home/windows.txt" &&
	[ "$colors" -gt 20 ]; then
	echo "FTX-RESULT $S kernelshark-opens PASS window up after 15 s, screenshot $png ($colors colours)"
else
	echo "FTX-RESULT $S kernelshark-opens FAIL alive=$([ -f "$home/alive" ] && echo yes || echo no) colours=$colors; $(grep -i kernel "$home/windows.txt" | head -2 | tr '\n' ' ') $(head -c 300 "$home/ks.out")"
fi
rm -rf "$home"

#!/bin/bash
# The stall of multi-threaded TCG, reproduced and probed (issue 29).
#   scripts/mttcg-stall.sh [ATTEMPTS]    BASE=1: the pristine base's kernel
# Boots the test kernel ATTEMPTS times (10) on multi-threaded TCG (one host
# thread a vCPU, 2 vCPUs), each boot running guest/repro/$REPRO.sh
# (ftrace-direct: upstream's direct/ftrace-direct.tc) $ROUNDS times (1).
# An attempt stalls when the console shows a soft lockup or an RCU stall,
# when the guest's heartbeat (a line every 5 s) is silent for $QUIET
# seconds (30), or when no round ends within $LIMIT seconds (600). A stalled guest is
# probed through QEMU's monitor before it is killed: 40 samples of each
# vCPU's instruction pointer, symbolized, and the guest's memory at the
# most frequent one, read through the vCPU's page tables and at its
# physical address. A guest that panics is a crash: its first report and
# RIPs. Prints one line an attempt and the counts of stalls and crashes;
# the probes and consoles stay in build/$SERIES/logs/stall-*.
#   QEMU_TCG=system   Debian 12's QEMU 7.2, not scripts/fetch-qemu.sh's
#   QEMU_EXTRA="..."  more QEMU options, e.g. "-d nochain" (TCG: no direct
#                     jumps between translated blocks)
#   SMP=n             vCPUs (2)
#   REPRO_ARGS="..."  more kernel command line for the script, e.g.
#                     REPRO=ftracetest-one REPRO_ARGS=ftx.tc=ftrace/func-multiplex.tc
set -euo pipefail
. "$(dirname "$0")/lib.sh"

attempts=${1:-10}
repro=${REPRO:-ftrace-direct}
rounds=${ROUNDS:-1}
limit=${LIMIT:-600}
quiet=${QUIET:-30}
smp=${SMP:-2}
OBJ=$(obj_dir test)
KERNEL=$OBJ/arch/x86/boot/bzImage
INITRD=$(initramfs_path test)
[ -f "$KERNEL" ] && [ -f "$INITRD" ] || die "no test kernel: make build${KPREFIX:+ (BASE=1: make test BASE=1 ONLY=ftracetest:00basic)}"
[ -f "$TOP/guest/repro/$repro.sh" ] || die "no guest/repro/$repro.sh"
which=${KPREFIX:+base }kernel
name=stall-${KPREFIX}$repro
stalls=0 crashes=0
set_qemu_tcg


for a in $(seq "$attempts"); do
	con=$LOGDIR/$name-$a.console
	mon=$BUILD/$name.sock
	rm -f "$mon"
	t0=$(now)
	# shellcheck disable=SC2086
	"${QEMU_CMD[@]}" -accel tcg,thread=multi -cpu max -m 2G -smp "$smp" \
		-kernel "$KERNEL" -initrd "$INITRD" -nic none -no-reboot -display none \
		-monitor "unix:$mon,server,nowait" -serial "file:$con" -serial null \
		${QEMU_EXTRA:-} \
		-append "console=ttyS0,115200 panic=-1 ftx.mode=repro ftx.repro=$repro ftx.rounds=$rounds kunit.filter_glob=none softlockup_all_cpu_backtrace=1${REPRO_ARGS:+ $REPRO_ARGS}" \
		</dev/null >/dev/null 2>&1 &
	qpid=$!
	verdict= last=$t0 seen=0 lastsize= grew=$t0
	while kill -0 $qpid 2>/dev/null; do
		sleep 5
		n=$(grep -c '^FTX-REPRO ' "$con" 2>/dev/null || true)
		[ "$n" = "$seen" ] || { seen=$n last=$(now); }
		size=$(stat -c %s "$con" 2>/dev/null || echo 0)
		[ "$size" = "${lastsize:-}" ] || { lastsize=$size grew=$(now); }
		if grep -q 'FTX-DONE' "$con" 2>/dev/null; then
			break
		elif grep -qE 'soft lockup|rcu_.*detected.*stall|blocked for more than' "$con"; then
			verdict="stall: $(grep -m1 -oE 'soft lockup[^!]*|rcu_.*detected[^(]*stalls?|task .* blocked for more than [0-9]+ seconds' "$con")"
		elif [ $(($(now) - last)) -gt "$limit" ]; then
			verdict="stall: no round ended in ${limit}s"
		elif grep -q '^FTX-BOOT' "$con" && [ $(($(now) - grew)) -gt "$quiet" ]; then
			verdict="stall: the console was silent for ${quiet}s"
		fi
		if [ -n "$verdict" ]; then
			"$TOP/scripts/mttcg-probe.py" "$mon" "$OBJ/vmlinux" >"$LOGDIR/$name-$a.probe" 2>&1 || true
			kill $qpid 2>/dev/null || true
			break
		fi
	done
	wait $qpid 2>/dev/null || true
	# a guest that died: its first report and where the CPU was
	if [ -z "$verdict" ] && grep -q 'Kernel panic' "$con"; then
		verdict="crash: $(grep -m1 -oE '(kernel BUG at|BUG:|Oops:|general protection)[^[]*' "$con"), first RIP $(grep -m1 -oE 'RIP: 0010:[^ ]*' "$con" | sed 's/RIP: 0010://')"
		crashes=$((crashes + 1))
		echo "attempt $a ($which): $verdict after $(($(now) - t0))s; RIPs: $(grep -oE 'RIP: 0010:[^ ]*' "$con" | sed 's/RIP: 0010://' | sort | uniq -c | sort -rn | head -3 | awk '{printf "%s x%s ", $2, $1}')"
		grep -m1 -A0 'Code: ' "$con" | sed 's/^/  /'
		continue
	fi
	if [ -n "$verdict" ]; then
		stalls=$((stalls + 1))
		echo "attempt $a ($which): $verdict after $(($(now) - t0))s, $seen of $rounds rounds ended; $(grep PROBE "$LOGDIR/$name-$a.probe" | sed 's/^ *PROBE //')"
		grep -v PROBE "$LOGDIR/$name-$a.probe"
	else
		echo "attempt $a ($which): $(grep -c '^FTX-REPRO .* rc=0 ' "$con" || true) of $rounds rounds passed, $(($(now) - t0))s"
	fi
done
echo "$which, $repro, $("${QEMU_CMD[@]}" --version | head -1), multi-threaded TCG, $smp vCPUs${QEMU_EXTRA:+, $QEMU_EXTRA}: $stalls of $attempts attempts stalled, $crashes crashed"

#!/bin/bash
# Boot a built kernel + initramfs in QEMU and run one guest mode.
#   scripts/qemu-run.sh FLAVOUR MODE [TIMEOUT_SECONDS] [EXTRA_CMDLINE...]
# MODE is test, demo, bench or shell. The console (ttyS0) streams to stdout
# and to build/$SERIES/logs/console-MODE.log; the guest's results channel (ttyS1)
# goes to build/$SERIES/logs/results-MODE.log.
#
#   KVM=auto (default) probe once whether /dev/kvm boots this kernel, and
#            use it if so; KVM=0 never; KVM=1 always.
#   TAG=name  suffix for the log names (guests run in parallel)
#   BZIMAGE=path  another kernel image to boot with the flavour's initramfs
#   ICOUNT=1 deterministic single-threaded TCG (-icount shift=0,sleep=off),
#            for benchmarks: guest time then counts executed instructions.
#   TCG_THREAD=multi  multi-threaded TCG. A guest whose console reports an
#            RCU stall or a soft lockup is probed through QEMU's monitor
#            (scripts/mttcg-probe.py) and stopped, and so is one silent for
#            60 s whose vCPUs two probes find trapping at the same stale
#            sites. Exit status 75 when the probe shows the emulator running
#            code the guest rewrote (design/mttcg-stall.md), 1 for any other
#            stall.
#   BOOT_ARGS="..."  more kernel parameters (tests/lanes.list's bootmap)
#   QEMU_TCG=fetched|system  the QEMU of a TCG guest: scripts/fetch-qemu.sh's
#            QEMU 10 or Debian 12's 7.2 (by default the first for
#            multi-threaded guests, the second for the others)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?flavour}
mode=${2:?mode}
tmo=${3:-1800}
shift 3 || shift $#
extra="$*"

OBJ=$(obj_dir "$flavour")
KERNEL=${BZIMAGE:-$OBJ/arch/x86/boot/bzImage}
INITRD=$(initramfs_path "$flavour")
[ -f "$KERNEL" ] || die "no kernel $KERNEL"
[ -f "$INITRD" ] || die "no initramfs $INITRD"
# TAG names the logs of one of several guests running side by side.
CONSOLE=$LOGDIR/console-$mode${TAG:+-$TAG}.log
RESULTS=$LOGDIR/results-$mode${TAG:+-$TAG}.log
MEM=${MEM:-2G}
SMP=${SMP:-2}

base_args=(-m "$MEM" -smp "$SMP" -kernel "$KERNEL" -initrd "$INITRD" -nic none -no-reboot)
cmdline="console=ttyS0,115200 panic=-1 ftx.mode=$mode $extra${BOOT_ARGS:+ $BOOT_ARGS}"
# Every kernel boots with 4-level paging, as on most x86 machines. With
# LA57 (TCG's -cpu max has it) each TLB miss walks five levels: the same
# ftracetest cases took 9 and 14% longer under 5-level paging (two pairs
# of guests side by side, 2026-12-03). And on a debug kernel, an
# interrupt that lands while identify_cpu() has cleared boot_cpu_data's
# capabilities (6.1's start_kernel runs it with interrupts on) makes KASAN
# take its shadow bounds for 4-level paging and report a 5-level
# direct-map address as a wild access: a base-kernel race, seen once in
# CI (2026-11-26, guest a at 0.002 s, in handle_edge_irq).
cmdline="$cmdline no5lvl"

kvm_works() {
	local probe=$BUILD/kvm-probe
	case ${KVM:-auto} in
	0) return 1 ;;
	1) return 0 ;;
	esac
	[ -w /dev/kvm ] || return 1
	if [ ! -f "$probe" ]; then
		info "probing KVM (a boot that must reach /init within 20 s)"
		if timeout -k 5 20 qemu-system-x86_64 -enable-kvm -cpu host "${base_args[@]}" \
			-display none -monitor none -serial stdio \
			-append "console=ttyS0 panic=-1 ftx.mode=probe" </dev/null 2>&1 |
			grep -q "FTX-BOOT"; then
			echo yes >"$probe"
		else
			echo no >"$probe"
		fi
		info "KVM usable: $(cat "$probe")"
	fi
	[ "$(cat "$probe")" = yes ]
}

# "probe": only decide (once) whether KVM is usable, boot nothing else
if [ "$mode" = probe ]; then
	kvm_works || true
	exit 0
fi

if [ "${ICOUNT:-0}" = 1 ]; then
	accel=(-accel tcg -icount shift=0,sleep=off -cpu max)
	accel_name="TCG, -icount shift=0,sleep=off"
elif kvm_works; then
	accel=(-enable-kvm -cpu host)
	accel_name=KVM
else
	accel=(-accel "tcg,thread=${TCG_THREAD:-single}" -cpu "${QEMU_CPU:-max}")
	accel_name="TCG (${TCG_THREAD:-single}-threaded, cpu ${QEMU_CPU:-max})"
fi
# TCG guests: QEMU 10 for multi-threaded ones (design/mttcg-stall.md),
# Debian 12's QEMU for the others, unless QEMU_TCG says
QEMU_CMD=(qemu-system-x86_64)
case $accel_name in
TCG*)
	set_qemu_tcg "$([ "${TCG_THREAD:-single}" = multi ] && echo fetched || echo system)"
	accel_name="$accel_name, $("${QEMU_CMD[@]}" --version | head -1)"
	;;
esac

info "booting $flavour kernel in QEMU ($accel_name, $SMP vCPUs, $MEM), mode=$mode, timeout ${tmo}s"
: >"$RESULTS"
start=$(now)

if [ "$mode" = shell ]; then
	exec "${QEMU_CMD[@]}" "${accel[@]}" "${base_args[@]}" -nographic \
		-serial mon:stdio -serial "file:$RESULTS" -append "$cmdline"
fi

# multi-threaded TCG: a watchdog on the console, the monitor to probe with
monitor=(-monitor none)
PROBE=$LOGDIR/probe-$mode${TAG:+-$TAG}.txt
rm -f "$PROBE"
if [ "${TCG_THREAD:-single}" = multi ]; then
	sock=$BUILD/monitor-$mode${TAG:+-$TAG}.sock
	pidfile=$BUILD/qemu-$mode${TAG:+-$TAG}.pid
	rm -f "$sock" "$pidfile"
	monitor=(-monitor "unix:$sock,server,nowait" -pidfile "$pidfile")
	# A stall the guest reports (RCU, soft lockup) is probed at once. A
	# guest that prints nothing for 60 s on either serial line may be
	# stuck where it cannot print (every vCPU trapping at a stale call
	# site) or just busy: it counts as stalled when two probes 20 s apart
	# find the same vCPUs trapping at the same stale sites.
	(
		sites() { sed -n 's/^PROBE stale-code: \([^;]*\);.*/\1/p' "$1"; }
		quiet=$(now) size=
		while sleep 5; do
			[ -f "$pidfile" ] || continue
			qpid=$(cat "$pidfile")
			kill -0 "$qpid" 2>/dev/null || exit 0
			if grep -qE 'soft lockup|rcu_.*detected.*stall' "$CONSOLE" 2>/dev/null; then
				# let the report finish, then look at the vCPUs
				sleep 5
				"$TOP/scripts/mttcg-probe.py" "$sock" "$OBJ/vmlinux" >"$PROBE" 2>&1 || true
				kill "$qpid" 2>/dev/null
				exit 0
			fi
			now_size=$(cat "$CONSOLE" "$RESULTS" 2>/dev/null | wc -c)
			[ "$now_size" = "$size" ] || { size=$now_size quiet=$(now); continue; }
			[ $(($(now) - quiet)) -ge 60 ] || continue
			"$TOP/scripts/mttcg-probe.py" "$sock" "$OBJ/vmlinux" >"$PROBE.1" 2>&1 || true
			if [ -n "$(sites "$PROBE.1")" ]; then
				sleep 20
				"$TOP/scripts/mttcg-probe.py" "$sock" "$OBJ/vmlinux" >"$PROBE.2" 2>&1 || true
				if [ "$(sites "$PROBE.1")" = "$(sites "$PROBE.2")" ]; then
					{ echo "silent for $(($(now) - quiet)) s; two probes 20 s apart:"; cat "$PROBE.1" "$PROBE.2"; } >"$PROBE"
					kill "$qpid" 2>/dev/null
					exit 0
				fi
			fi
			quiet=$(now)
		done
	) &
	watchdog=$!
fi

set +e
timeout -k 10 "$tmo" "${QEMU_CMD[@]}" "${accel[@]}" "${base_args[@]}" \
	-display none "${monitor[@]}" -serial stdio -serial "file:$RESULTS" \
	-append "$cmdline" </dev/null 2>&1 | tee "$CONSOLE"
rc=${PIPESTATUS[0]}
set -e
phase_done "qemu-$mode${TAG:+-$TAG}" "$start"
if [ -n "${watchdog:-}" ]; then
	kill "$watchdog" 2>/dev/null || true
	wait "$watchdog" 2>/dev/null || true
	rm -f "$sock" "$pidfile" "$PROBE.1" "$PROBE.2"
fi

if [ -s "$PROBE" ]; then
	echo "--- the stalled vCPUs (scripts/mttcg-probe.py) ---" >&2
	cat "$PROBE" >&2
	if grep -q '^PROBE stale-code' "$PROBE"; then
		echo "error: the emulator ran code the guest had rewritten (design/mttcg-stall.md); console in $CONSOLE" >&2
		exit 75
	fi
	echo "error: the guest stalled (an RCU stall or a soft lockup); console in $CONSOLE" >&2
	exit 1
fi

if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "--- last console lines ---" >&2
	tail -40 "$CONSOLE" >&2
	echo "error: the guest did not finish within ${tmo}s (mode $mode); console in $CONSOLE" >&2
	exit 124
fi
if ! grep -q "FTX-DONE" "$CONSOLE"; then
	echo "--- last console lines ---" >&2
	tail -40 "$CONSOLE" >&2
	echo "error: the guest stopped before finishing (qemu exit $rc); console in $CONSOLE" >&2
	exit 1
fi
exit 0

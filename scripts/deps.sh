#!/bin/bash
# Install what the harness needs on a Debian 12 host. Idempotent: does
# nothing when every package is already installed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
	# base kernel and its build
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio kmod xz-utils ccache git perl python3 rsync
	# guest
	qemu-system-x86 busybox-static dash bash util-linux procps
	trace-cmd iputils-ping strace sparse
	# awk in the guest (7.2's trace_marker_raw.tc needs strtonum())
	gawk
	# make bench's workloads: hackbench, dbench and tbench
	rt-tests dbench
	# checkpatch.pl's SPDX check (scripts/spdxcheck.py)
	python3-ply python3-git
	# checkbashisms, which tests/check-series.sh runs over the ftrace
	# selftests (upstream runs it in selftest/bashisms.tc)
	devscripts
	# make bench's plots
	gnuplot-nox
	# tools/tracing/mmap-record, and KernelShark opening its file
	libtracefs-dev libtraceevent-dev pkg-config
	# scripts/fetch-libtracefs.sh: a current libtracefs for the guest;
	# scripts/fetch-trace-cmd.sh: a current trace-cmd for the host;
	# scripts/fetch-qemu.sh: QEMU 10 for the multi-threaded lane, which
	# set_qemu_tcg (scripts/lib.sh) fetches when a guest first needs it
	curl
	kernelshark xvfb xauth x11-apps x11-utils netpbm
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	info "host packages: all present"
	"$TOP/scripts/fetch-libtracefs.sh"
	"$TOP/scripts/fetch-trace-cmd.sh"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}) and not root: run as root so apt-get can install them"
command -v apt-get >/dev/null || die "apt-get not found: this harness needs a Debian 12 host"

info "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >"$LOGDIR/apt.log" 2>&1; then
	info "apt-get install failed; trying apt-get update first"
	apt-get update >>"$LOGDIR/apt.log" 2>&1 || { tail -20 "$LOGDIR/apt.log"; die "apt-get update failed (see $LOGDIR/apt.log)"; }
	apt-get install -y --no-install-recommends "${missing[@]}" >>"$LOGDIR/apt.log" 2>&1 ||
		{ tail -20 "$LOGDIR/apt.log"; die "apt-get install failed (see $LOGDIR/apt.log)"; }
fi
info "base package: $BASE_PKG $(base_pkg_version)"
"$TOP/scripts/fetch-libtracefs.sh"
"$TOP/scripts/fetch-trace-cmd.sh"

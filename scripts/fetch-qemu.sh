#!/bin/bash
# The QEMU of the multi-threaded lane (make test-mttcg, make soak): Debian
# 12's QEMU 7.2 runs stale translations after text_poke_bp() rewrites code
# that another vCPU executes, QEMU 10 far less often (design/mttcg-stall.md).
# This unpacks qemu-system-x86, qemu-system-data and seabios from Debian
# bookworm-backports (checked against the SHA256 sums of its Packages
# index) under build/qemu-mttcg; its libraries are those of Debian 12's
# qemu-system-x86, which make deps installs. Idempotent: nothing to do when
# the binary is there.
#   QEMU_MTTCG_SUITE=bookworm-backports (default) or another Debian suite
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/qemu-mttcg
SUITE=${QEMU_MTTCG_SUITE:-bookworm-backports}

[ -x "$DEST/usr/bin/qemu-system-x86_64" ] && exit 0
info "fetching qemu-system-x86 from Debian $SUITE for the multi-threaded lane"
fetch_debs "$SUITE" "$DEST" qemu-system-x86 qemu-system-data seabios
"$DEST/usr/bin/qemu-system-x86_64" --version >/dev/null ||
	die "$DEST/usr/bin/qemu-system-x86_64 does not run: a library missing? (ldd)"
info "qemu-mttcg: $(tr '\n' ' ' <"$DEST/VERSIONS")"

#!/bin/bash
# A current trace-cmd for the host's reading of mmap-record's file
# (scripts/kernelshark-check.sh): Debian 12 ships trace-cmd 3.1.6; this
# unpacks Debian unstable's trace-cmd (3.x) with its libraries and the C
# library they were built against (checked against the SHA256 sums of the
# archive's Packages index) under build/trace-cmd-current. Its ld.so runs
# it: scripts/lib.sh's current_trace_cmd. Idempotent: nothing to do when
# it is there.
#   TRACE_CMD_SUITE=sid (default) or another Debian suite
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/trace-cmd-current
SUITE=${TRACE_CMD_SUITE:-sid}

# its version, or nothing when it does not run
version() {
	current_trace_cmd -h 2>&1 | sed -n 's/^trace-cmd version \([0-9.]*\).*/\1/p'
}

if [ -x "$DEST/usr/bin/trace-cmd" ] && [ -n "$(version)" ]; then
	exit 0
fi
info "fetching trace-cmd from Debian $SUITE"
fetch_debs "$SUITE" "$DEST" trace-cmd libtracecmd1 libtracefs1 libtraceevent1 libc6
[ -n "$(version)" ] || die "Debian $SUITE's trace-cmd does not run here"
info "trace-cmd: $(tr '\n' ' ' <"$DEST/VERSIONS")"

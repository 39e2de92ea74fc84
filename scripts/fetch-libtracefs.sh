#!/bin/bash
# A current libtracefs for the libtracefs part of make test: Debian 12
# ships libtracefs 1.6.4, which has no mapping calls; the users of the
# series' 6.10 interfaces run 1.8 or newer. This unpacks the static
# archives and headers of Debian unstable's libtracefs-dev and
# libtraceevent-dev (checked against the SHA256 sums of the archive's
# Packages index) under build/libtracefs. guest/libtracefs/*.c link
# against them (scripts/mkinitramfs.sh). Idempotent: nothing to do when
# the archives are there.
#   LIBTRACEFS_SUITE=sid (default) or another Debian suite
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/libtracefs
SUITE=${LIBTRACEFS_SUITE:-sid}

if [ -f "$DEST/usr/lib/x86_64-linux-gnu/libtracefs.a" ] &&
	[ -f "$DEST/usr/lib/x86_64-linux-gnu/libtraceevent.a" ]; then
	exit 0
fi
info "fetching libtracefs-dev and libtraceevent-dev from Debian $SUITE"
fetch_debs "$SUITE" "$DEST" libtracefs-dev libtraceevent-dev
info "libtracefs: $(tr '\n' ' ' <"$DEST/VERSIONS")"

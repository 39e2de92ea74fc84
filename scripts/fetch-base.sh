#!/bin/bash
# The base kernel source of a series whose base is not installed with apt
# (patches/$SERIES/base.conf: BASE_SUITE names a Debian suite): the .deb
# of BASE_PKG from the suite's pool, checked against the SHA256 of the
# suite's package index, unpacked under build/bases/BASE_PKG (its
# VERSIONS file names the version). Idempotent: nothing to do when the
# tarball is there. For an apt base (6.1) it does nothing: make deps
# installs it.
#   SERIES=7.2 scripts/fetch-base.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$BASE_SUITE" != apt ] || exit 0
[ -f "$BASE_TARBALL" ] && exit 0
info "fetching $BASE_PKG from Debian $BASE_SUITE (about 160 MB)"
# linux-source-* is "Architecture: all": its index is binary-all
fetch_debs "$BASE_SUITE" "$BUILD/bases/$BASE_PKG" all "$BASE_PKG"
[ -f "$BASE_TARBALL" ] || die "$BASE_PKG has no ${BASE_TARBALL#"$BUILD/bases/$BASE_PKG"}"
info "base: $(cat "$BUILD/bases/$BASE_PKG/VERSIONS")"

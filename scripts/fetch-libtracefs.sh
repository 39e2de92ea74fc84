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
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=${LIBTRACEFS_SUITE:-sid}

if [ -f "$DEST/usr/lib/x86_64-linux-gnu/libtracefs.a" ] &&
	[ -f "$DEST/usr/lib/x86_64-linux-gnu/libtraceevent.a" ]; then
	exit 0
fi
command -v curl >/dev/null || die "curl not found (make deps installs it)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
info "fetching libtracefs-dev and libtraceevent-dev from Debian $SUITE"
curl -fsS --retry 3 -o "$tmp/Packages.xz" "$MIRROR/dists/$SUITE/main/binary-amd64/Packages.xz" ||
	die "cannot fetch $MIRROR/dists/$SUITE/main/binary-amd64/Packages.xz"
xz -dc "$tmp/Packages.xz" >"$tmp/Packages"

rm -rf "$DEST.new"
mkdir -p "$DEST.new"
for pkg in libtracefs-dev libtraceevent-dev; do
	# the package's stanza: its file, checksum and version
	read -r file sum ver < <(awk -v p="$pkg" '
		/^Package: / { hit = ($2 == p) }
		hit && /^Filename: / { f = $2 }
		hit && /^SHA256: / { s = $2 }
		hit && /^Version: / { v = $2 }
		/^$/ && hit && f { print f, s, v; exit }' "$tmp/Packages")
	[ -n "${file:-}" ] || die "$pkg is not in Debian $SUITE"
	curl -fsS --retry 3 -o "$tmp/$pkg.deb" "$MIRROR/$file" || die "cannot fetch $MIRROR/$file"
	echo "$sum  $tmp/$pkg.deb" | sha256sum -c --quiet - || die "$file: SHA256 mismatch"
	dpkg-deb -x "$tmp/$pkg.deb" "$DEST.new"
	echo "$pkg $ver" >>"$DEST.new/VERSIONS"
done
rm -rf "$DEST"
mv "$DEST.new" "$DEST"
info "libtracefs: $(tr '\n' ' ' <"$DEST/VERSIONS")"

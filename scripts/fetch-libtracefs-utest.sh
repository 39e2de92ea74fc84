#!/bin/bash
# libtracefs's own unit tests (its utest/, the trace-utest binary) for the
# guests: guest/repro/libtracefs-utest.sh runs them, and
# scripts/mkinitramfs.sh copies the binary in when it is built. Static
# (the guest has only the libraries the initramfs copies), under
# build/libtracefs-utest/: trace-utest, and VERSIONS naming the sources.
#
# The sources are Debian's source packages of a suite (the upstream
# release tarball of each, which holds utest/; Debian's own patches are
# not applied), checked against the SHA256 sums of the suite's Sources
# index and of their .dsc. The default suite, trixie, has libtracefs
# 1.8.1-1 and libtraceevent 1:1.8.4-2: the releases that the issue's
# libtracefs 78d8d2e (1.8.1 and five later commits, none of which touches
# the ring-buffer reading code or its tests) and libtraceevent bd47bd5
# (1.8.4) are. Idempotent: nothing to do when trace-utest is built from
# the sources asked for.
#   LIBTRACEFS_UTEST_SUITE=trixie (default), or sid (libtracefs 1.8.3,
#       libtraceevent 1.9.0), or another Debian suite
#   LIBTRACEFS_SRC=DIR LIBTRACEEVENT_SRC=DIR  build these two source trees
#       instead (copies of them: e.g. git checkouts of the exact commits)
#   FORCE=1  build again
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/libtracefs-utest
SUITE=${LIBTRACEFS_UTEST_SUITE:-trixie}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
LOG=$LOGDIR/libtracefs-utest-build.log

if [ -n "${LIBTRACEFS_SRC:-}${LIBTRACEEVENT_SRC:-}" ]; then
	[ -f "${LIBTRACEFS_SRC:-}/utest/tracefs-utest.c" ] ||
		die "LIBTRACEFS_SRC=${LIBTRACEFS_SRC:-}: not a libtracefs tree with utest/"
	[ -f "${LIBTRACEEVENT_SRC:-}/src/event-parse.c" ] ||
		die "LIBTRACEEVENT_SRC=${LIBTRACEEVENT_SRC:-}: not a libtraceevent tree"
	LIBTRACEFS_SRC=$(realpath "$LIBTRACEFS_SRC")
	LIBTRACEEVENT_SRC=$(realpath "$LIBTRACEEVENT_SRC")
	want="local $LIBTRACEFS_SRC $LIBTRACEEVENT_SRC"
else
	want="debian $SUITE"
fi

if [ "${FORCE:-0}" != 1 ] && [ -x "$DEST/trace-utest" ] &&
	[ "$(cat "$DEST/SOURCE" 2>/dev/null)" = "$want" ]; then
	info "libtracefs utest: $(paste -sd' ' "$DEST/VERSIONS")"
	exit 0
fi

# --- what the build needs, all of it from apt (libcunit1-dev: libcunit.a)
pkgs=(build-essential pkg-config libcunit1-dev curl xz-utils)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}): apt-get install -y ${missing[*]}"
	info "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >>"$LOGDIR/apt.log" 2>&1 ||
		die "apt-get install ${missing[*]} failed (see $LOGDIR/apt.log)"
fi

NEW=$DEST.new
rm -rf "$NEW"
mkdir -p "$NEW/src" "$NEW/dl"

# debian_source PKG DIR: unpack the upstream tarball of PKG's source package
# in Debian $SUITE (its highest version there) into DIR; prints the version
debian_source() {
	local pkg=$1 dir=$2 ver directory dsc_sum dsc_size dsc f sum size orig
	read -r ver directory dsc_sum dsc_size dsc < <(xz -dc "$NEW/dl/Sources.xz" | awk -v p="$pkg" '
		function emit() { if (hit && v != "" && s != "") print v, d, s; hit = 0; v = d = s = "" }
		/^Package: / { emit(); hit = ($2 == p); sha = 0; next }
		!hit { next }
		/^$/ { emit(); next }
		/^Version: / { v = $2 }
		/^Directory: / { d = $2 }
		/^[^ ]/ { sha = ($1 == "Checksums-Sha256:"); next }
		sha && $3 ~ /\.dsc$/ { s = $1 " " $2 " " $3 }
		END { emit() }' | while read -r v rest; do
		# the highest version when the suite lists several
		if [ -z "${best:-}" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
			line="$v $rest"
		fi
		echo "$line"
	done | tail -1) || true
	[ -n "${dsc:-}" ] || die "$pkg: no source package in Debian $SUITE"
	curl -fsS --retry 3 -o "$NEW/dl/$dsc" "$MIRROR/$directory/$dsc" ||
		die "cannot fetch $MIRROR/$directory/$dsc"
	echo "$dsc_sum  $NEW/dl/$dsc" | sha256sum -c --quiet - || die "$dsc: SHA256 mismatch with the $SUITE Sources index"
	[ "$(stat -c %s "$NEW/dl/$dsc")" = "$dsc_size" ] || die "$dsc: size mismatch"
	# the .dsc's own sums of its files; the upstream tarball is *.orig.tar.*
	orig=
	while read -r sum size f; do
		case $f in
		*.orig.tar.*) ;;
		*) continue ;;
		esac
		curl -fsS --retry 3 -o "$NEW/dl/$f" "$MIRROR/$directory/$f" || die "cannot fetch $MIRROR/$directory/$f"
		echo "$sum  $NEW/dl/$f" | sha256sum -c --quiet - || die "$f: SHA256 mismatch with $dsc"
		[ "$(stat -c %s "$NEW/dl/$f")" = "$size" ] || die "$f: size mismatch with $dsc"
		orig=$f
	done < <(awk '/^[^ ]/ { sha = ($1 == "Checksums-Sha256:"); next } sha && NF == 3' "$NEW/dl/$dsc")
	[ -n "$orig" ] || die "$dsc names no upstream tarball"
	mkdir -p "$dir"
	tar -xf "$NEW/dl/$orig" -C "$dir" --strip-components=1
	echo "$ver"
}

# local_source DIR: how VERSIONS names a tree given: with its commit when
# it is the top of a git work tree
local_source() {
	if [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$1" ]; then
		echo "local $1, commit $(git -C "$1" log -1 --format=%h)"
	else
		echo "local $1"
	fi
}

if [ -n "${LIBTRACEFS_SRC:-}" ]; then
	info "libtracefs utest: building $LIBTRACEFS_SRC and $LIBTRACEEVENT_SRC"
	cp -a "$LIBTRACEEVENT_SRC" "$NEW/src/libtraceevent"
	cp -a "$LIBTRACEFS_SRC" "$NEW/src/libtracefs"
	ev_from=$(local_source "$LIBTRACEEVENT_SRC")
	fs_from=$(local_source "$LIBTRACEFS_SRC")
else
	info "libtracefs utest: source packages of Debian $SUITE"
	curl -fsS --retry 3 -o "$NEW/dl/Sources.xz" "$MIRROR/dists/$SUITE/main/source/Sources.xz" ||
		die "cannot fetch $MIRROR/dists/$SUITE/main/source/Sources.xz"
	ev_from="Debian $SUITE source $(debian_source libtraceevent "$NEW/src/libtraceevent")"
	fs_from="Debian $SUITE source $(debian_source libtracefs "$NEW/src/libtracefs")"
fi
[ -f "$NEW/src/libtracefs/utest/tracefs-utest.c" ] || die "libtracefs ($fs_from) has no utest/"

# --- build: both libraries under a private prefix, then the tests
INST=$NEW/inst
LTE=$NEW/src/libtraceevent
LTF=$NEW/src/libtracefs
# only this libtraceevent: not the host's libtraceevent-dev
export PKG_CONFIG_LIBDIR=$INST/lib/pkgconfig
# LDCONFIG=false: no /etc/ld.so.conf.d entry for the private prefix
mkargs=(prefix="$INST" libdir_relative=lib pkgconfig_dir="$INST/lib/pkgconfig" LDCONFIG=false)
: >"$LOG"
{
	make -C "$LTE" clean && make -C "$LTE" -j"$(nproc_build)" "${mkargs[@]}" install_libs &&
		make -C "$LTF" clean && make -C "$LTF" -j"$(nproc_build)" "${mkargs[@]}" install_libs &&
		make -C "$LTF" "${mkargs[@]}" test
} >>"$LOG" 2>&1 || { tail -30 "$LOG"; die "libtracefs utest: build failed (see $LOG)"; }
# static: static glibc's dlopen (libtraceevent's plugin loader) warns at
# link time; not an error
gcc -static -o "$NEW/trace-utest" "$LTF/utest/trace-utest.o" "$LTF/utest/tracefs-utest.o" \
	"$INST/lib/libtracefs.a" "$INST/lib/libtraceevent.a" \
	/usr/lib/x86_64-linux-gnu/libcunit.a -lpthread -ldl -lm >>"$LOG" 2>&1 ||
	{ tail -30 "$LOG"; die "libtracefs utest: static link failed (see $LOG)"; }
"$NEW/trace-utest" --help | grep -q 'run libtracefs tests' ||
	die "libtracefs utest: $NEW/trace-utest does not start"

fs_ver=$(sed -n 's/^TFS_VERSION = //p; s/^TFS_PATCHLEVEL = //p; s/^TFS_EXTRAVERSION = //p' "$LTF/Makefile" | paste -sd.)
ev_ver=$(sed -n 's/^EP_VERSION = //p; s/^EP_PATCHLEVEL = //p; s/^EP_EXTRAVERSION = //p' "$LTE/Makefile" | paste -sd.)
{
	echo "libtracefs $fs_ver ($fs_from)"
	echo "libtraceevent $ev_ver ($ev_from)"
} >"$NEW/VERSIONS"
echo "$want" >"$NEW/SOURCE"
rm -rf "$NEW/dl"
rm -rf "$DEST"
mv "$NEW" "$DEST"
info "libtracefs utest: $DEST/trace-utest, $(paste -sd' ' "$DEST/VERSIONS")"

#!/bin/bash
# Build the guest's initramfs for one kernel flavour:
#   scripts/mkinitramfs.sh test|debug|bench
# It holds busybox, the host's dash/bash/trace-cmd/kmod/ping/chrt
# with their libraries, the modules built for that flavour, the ftrace
# kselftests of the patched tree and the guest/ scripts.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-test}
OBJ=$(obj_dir "$flavour")
OUT=$(initramfs_path "$flavour")
ROOT=$BUILD/initramfs-$KPREFIX$flavour.d
start=$(now)

[ -f "$OBJ/arch/x86/boot/bzImage" ] || die "no kernel in $OBJ: run the build first"
kver=$(cat "$OBJ/include/config/kernel.release")

rm -rf "$ROOT"
mkdir -p "$ROOT"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,tmp,run,root,var,opt,mnt}
ln -s usr/bin "$ROOT/bin"
ln -s usr/sbin "$ROOT/sbin"
ln -s usr/lib "$ROOT/lib"
ln -s usr/lib64 "$ROOT/lib64"
chmod 1777 "$ROOT/tmp"

# copy_file SRC: copy a host file to the same path, following symlinks.
copy_file() {
	local src=$1 dst
	dst=$ROOT$(realpath -s "$src")
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	cp -L "$src" "$dst"
}

# copy_bin PATH...: a host binary and every shared library it loads.
copy_bin() {
	local b lib
	for b in "$@"; do
		[ -e "$b" ] || die "host file $b missing (make deps)"
		copy_file "$b"
		for lib in $(ldd "$b" 2>/dev/null | grep -oE '/[^ ]+' || true); do
			copy_file "$lib"
		done
	done
}

# --- busybox first, so real programs copied below replace its applets
cp /bin/busybox "$ROOT/usr/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$ROOT/usr/bin/$a" ] || ln -s busybox "$ROOT/usr/bin/$a"
done

# --- real programs (tests compare comm== "ping", chrt sets RT policies,
# 7.2's dynevent/add_remove_uprobe.tc finds /bin/sh's entry with readelf,
# its 00basic/trace_marker_raw.tc the byte order with lscpu...)
for b in dash bash trace-cmd kmod chrt taskset nice ping strace readelf gawk lscpu; do
	rm -f "$ROOT/usr/bin/$b"
	copy_bin "/usr/bin/$b"
done
ln -sf dash "$ROOT/usr/bin/sh"
# awk is gawk, as on the distributions ftracetest runs on: 7.2's
# 00basic/trace_marker_raw.tc needs strtonum(), which busybox awk lacks
ln -sf gawk "$ROOT/usr/bin/awk"
for m in modprobe insmod rmmod lsmod depmod modinfo; do
	rm -f "$ROOT/usr/bin/$m" "$ROOT/usr/sbin/$m"
	ln -s ../bin/kmod "$ROOT/usr/sbin/$m"
done
# the workloads of make bench (guest/bench/50-mmap.sh), and stdbuf
for b in hackbench dbench tbench tbench_srv stdbuf; do
	rm -f "$ROOT/usr/bin/$b"
	copy_bin "/usr/bin/$b"
done
# stdbuf -oL (line-buffered trace-cmd) preloads this
copy_bin /usr/libexec/coreutils/libstdbuf.so
mkdir -p "$ROOT/usr/share/dbench"
cp /usr/share/dbench/client.txt "$ROOT/usr/share/dbench/"
# trace-cmd loads its event plugins with dlopen
plugdir=/usr/lib/x86_64-linux-gnu/traceevent/plugins
for p in "$plugdir"/*.so; do copy_bin "$p"; done

# No checkbashisms (perl) for upstream's selftest/bashisms.tc: the host
# runs it over the same files (tests/check-series.sh).

# --- configuration files
cat >"$ROOT/etc/passwd" <<'P'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
P
cat >"$ROOT/etc/group" <<'G'
root:x:0:
nogroup:x:65534:
G
echo "127.0.0.1 localhost" >"$ROOT/etc/hosts"
echo "ftrace-ext" >"$ROOT/etc/hostname"

# --- modules
if [ -d "$OBJ/modroot/lib/modules" ]; then
	mkdir -p "$ROOT/usr/lib/modules"
	cp -a "$OBJ/modroot/lib/modules/$kver" "$ROOT/usr/lib/modules/"
	rm -f "$ROOT/usr/lib/modules/$kver/build" "$ROOT/usr/lib/modules/$kver/source"
fi

# --- guest programs from guest/src, static so they need no libraries
mkdir -p "$BUILD/guest-bin"
for src in "$TOP"/guest/src/*.c; do
	[ -e "$src" ] || continue
	bin=$BUILD/guest-bin/$(basename "$src" .c)
	# a header of guest/src newer than the program rebuilds it too (find
	# fails when there is no program yet: set -e must not end the script)
	stale=
	[ ! -x "$bin" ] || stale=$(find "$TOP/guest/src" -name '*.h' -newer "$bin" | head -1)
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ -n "$stale" ]; then
		gcc -O2 -Wall -Wextra -Werror -static -o "$bin" "$src" ||
			die "guest program $src does not build"
	fi
done

# --- guest programs on a current libtracefs (scripts/fetch-libtracefs.sh,
# run by make deps), static: Debian 12's libtracefs is 1.6
LTF=$BUILD/libtracefs/usr
for src in "$TOP"/guest/libtracefs/*.c; do
	[ -e "$src" ] || continue
	[ -f "$LTF/lib/x86_64-linux-gnu/libtracefs.a" ] ||
		die "no current libtracefs under $BUILD/libtracefs (make deps fetches it)"
	bin=$BUILD/guest-bin/$(basename "$src" .c)
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$LTF/lib/x86_64-linux-gnu/libtracefs.a" -nt "$bin" ]; then
		# static glibc's dlopen (libtraceevent's plugin loader, unused
		# here) warns at link time: not an error
		gcc -O2 -Wall -Wextra -Werror -static -I"$LTF/include/tracefs" \
			-I"$LTF/include/traceevent" -o "$bin" "$src" \
			"$LTF/lib/x86_64-linux-gnu/libtracefs.a" \
			"$LTF/lib/x86_64-linux-gnu/libtraceevent.a" -lpthread -ldl 2>"$LOGDIR/link-$(basename "$src" .c).log" ||
			{ cat "$LOGDIR/link-$(basename "$src" .c).log"; die "guest program $src does not build"; }
	fi
done

# --- C selftest of the mapping, static: map_test, mainline's (6.10 on) or
# the 6.1 series' own of the same name
headers=
for t in map_test; do
	src=$KTREE/tools/testing/selftests/ring-buffer/$t.c
	[ -f "$src" ] || continue
	[ -n "$headers" ] || make -C "$KTREE" O="$OBJ" -s headers_install
	headers=1
	# upstream's own code builds as its Makefile and selftests/lib.mk
	# build it (-Wall -D_GNU_SOURCE=); the 6.1 series' with -Werror
	werror=-Werror
	[ "$SERIES" = 6.1 ] || werror=-D_GNU_SOURCE=
	gcc -O2 -Wall $werror -static -I"$OBJ/usr/include" \
		-I"$KTREE/tools/testing/selftests" \
		-o "$ROOT/usr/bin/$t" "$src" || die "selftest $src does not build"
done
# the recorder of tools/tracing (libtracefs and libtraceevent come with
# trace-cmd above)
recorder=$KTREE/tools/tracing/mmap-record/mmap-record.c
if [ -f "$recorder" ]; then
	# shellcheck disable=SC2046
	gcc -O2 -Wall -Wextra -Werror -I"$OBJ/usr/include" \
		$(pkg-config --cflags libtracefs libtraceevent) \
		-o "$ROOT/usr/bin/mmap-record" "$recorder" \
		$(pkg-config --libs libtracefs libtraceevent) ||
		die "tool $recorder does not build"
fi

# --- tests from the patched tree, guest scripts, and guest programs
cp -a "$KTREE/tools/testing/selftests/ftrace" "$ROOT/opt/ftracetest"
rm -rf "$ROOT/opt/ftracetest/logs"
# ftracetest's own helper (7.2: trigger/trigger-hist-poll.tc runs
# $FTRACETEST_ROOT/poll), static like the other guest programs
if [ -f "$KTREE/tools/testing/selftests/ftrace/poll.c" ]; then
	gcc -O2 -Wall -static -o "$ROOT/opt/ftracetest/poll" \
		"$KTREE/tools/testing/selftests/ftrace/poll.c" ||
		die "ftracetest's poll.c does not build"
fi
cp -a "$TOP/guest" "$ROOT/guest"
# the series' lists of the ftracetest cases a lane runs (run-tests.sh)
for l in "$TESTDATA"/ftracetest-*.list; do
	[ -e "$l" ] && cp "$l" "$ROOT/guest/"
done
if [ -d "$BUILD/guest-bin" ]; then
	cp -a "$BUILD/guest-bin/." "$ROOT/usr/bin/"
fi
# libtracefs's own unit tests, when scripts/fetch-libtracefs-utest.sh has
# built them (guest/repro/libtracefs-utest.sh runs them)
if [ -x "$BUILD/libtracefs-utest/trace-utest" ]; then
	cp "$BUILD/libtracefs-utest/trace-utest" "$ROOT/usr/bin/"
fi
cp "$TOP/guest/init" "$ROOT/init"
chmod +x "$ROOT/init"
echo "$kver" >"$ROOT/etc/ftrace-ext-kernel"
echo "$flavour" >"$ROOT/etc/ftrace-ext-flavour"
# the series and the features its kernel has (patches/$SERIES/topics):
# the demo shows those
echo "$SERIES" >"$ROOT/etc/ftrace-ext-series"
series_features >"$ROOT/etc/ftrace-ext-features"

(cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --quiet -o -0 -H newc -R 0:0) >"$OUT"
info "initramfs $OUT: $(du -h "$OUT" | cut -f1)"
phase_done "initramfs-$KPREFIX$flavour" "$start"

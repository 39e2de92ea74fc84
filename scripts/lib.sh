# shellcheck shell=bash
# Common helpers for the host-side scripts. Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}

# The series: one directory of patches/ per base kernel (SERIES=6.1, the
# default, or 7.2). patches/$SERIES/base.conf names the base; its
# topics file lists the topic series in the order they apply. Everything
# of a series is built under build/$SERIES; the compiler cache, the
# fetched libtracefs and QEMU are shared.
SERIES=${SERIES:-6.1}
SERIES_DIR=$TOP/patches/$SERIES
# the per-series data of the harness: expected results, known failures
TESTDATA=$TOP/tests/$SERIES
SBUILD=$BUILD/$SERIES
TREE=$SBUILD/linux
BASE_TREE=$SBUILD/linux-base
LOGDIR=$SBUILD/logs
# The tree that is built, booted and tested: the patched one, or with
# FTX_BASE=1 the pristine base (make test BASE=1, make bench), whose
# objects and initramfs carry a "base-" prefix.
if [ "${FTX_BASE:-0}" = 1 ]; then
	KTREE=$BASE_TREE
	KPREFIX=base-
else
	KTREE=$TREE
	KPREFIX=
fi

if [ ! -f "$SERIES_DIR/base.conf" ]; then
	echo "error: SERIES=$SERIES: no patches/$SERIES/base.conf (series: $(cd "$TOP/patches" && ls -d */ 2>/dev/null | tr -d / | paste -sd' '))" >&2
	exit 1
fi
# BASE_PKG: the Debian package of the base's source; BASE_SUITE: "apt"
# (installed with apt by make deps) or the Debian suite its .deb is
# fetched from (scripts/fetch-base.sh, checked against the suite's index)
BASE_PKG=
BASE_SUITE=
# shellcheck source=/dev/null
. "$SERIES_DIR/base.conf"
[ -n "$BASE_PKG" ] && [ -n "$BASE_SUITE" ] || {
	echo "error: patches/$SERIES/base.conf sets no BASE_PKG or BASE_SUITE" >&2
	exit 1
}
if [ "$BASE_SUITE" = apt ]; then
	BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
else
	BASE_TARBALL=$BUILD/bases/$BASE_PKG/usr/src/$BASE_PKG.tar.xz
fi

mkdir -p "$LOGDIR"

die() {
	echo "error: $*" >&2
	exit 1
}

# A script under set -e that stops on a failed command says which one
# (CI once failed with nothing but make's "Error 1" to go on).
if [[ $- == *e* ]]; then
	trap 'echo "error: ${BASH_SOURCE[0]##*/}:$LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR
fi

info() {
	echo "==> $*"
}

# obj_dir FLAVOUR, initramfs_path FLAVOUR: where KTREE's build of FLAVOUR
# (test, debug, bench) and its initramfs go.
obj_dir() {
	echo "$SBUILD/obj-$KPREFIX$1"
}

initramfs_path() {
	echo "$SBUILD/initramfs-$KPREFIX$1.cpio"
}

# ensure_base_tree: build/$SERIES/linux-base, a worktree of the tree at tag
# "base". Made anew when it is missing or is not at that tag (a base
# update recreates the tree and leaves the old worktree dangling).
ensure_base_tree() {
	local want
	want=$(git -C "$TREE" rev-parse base) || die "${TREE#"$TOP"/} has no tag base: run make tree"
	[ "$(git -C "$BASE_TREE" rev-parse HEAD 2>/dev/null)" = "$want" ] &&
		[ -z "$(git -C "$BASE_TREE" status --porcelain --untracked-files=no 2>/dev/null)" ] &&
		return 0
	info "making ${BASE_TREE#"$TOP"/} (the pristine base, tag base)"
	rm -rf "$BASE_TREE"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q -f --detach "$BASE_TREE" base
}

# Seconds since the epoch, for phase timing.
now() {
	date +%s
}

# phase_done NAME START: print and record how long a phase took.
phase_done() {
	local name=$1 start=$2 secs
	secs=$(($(now) - start))
	printf '==> phase %-14s %4ds (%dm%02ds)\n' "$name" "$secs" $((secs / 60)) $((secs % 60))
	printf '%s %d\n' "$name" "$secs" >>"$LOGDIR/phases"
}

# The base package's version, e.g. 6.1.192-2: installed with apt, or
# fetched (the VERSIONS file of scripts/fetch-base.sh)
base_pkg_version() {
	if [ "$BASE_SUITE" = apt ]; then
		dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || true
	else
		awk -v p="$BASE_PKG" '$1 == p { print $2 }' "$BUILD/bases/$BASE_PKG/VERSIONS" 2>/dev/null || true
	fi
}

# The topics of the series, in the order they apply: the first word of
# each line of patches/$SERIES/topics (the rest: the features it brings)
series_topics() {
	[ -f "$SERIES_DIR/topics" ] || return 0
	sed -e 's/#.*//' "$SERIES_DIR/topics" | awk 'NF && $1 != "-" { print $1 }'
}

# The features that guest tests name in "# needs:": those of the series'
# topics and the base's own ("-" in patches/$SERIES/topics), or with
# FTX_BASE=1 (the pristine base) the base's own only
series_features() {
	[ -f "$SERIES_DIR/topics" ] || return 0
	sed -e 's/#.*//' "$SERIES_DIR/topics" | awk -v base="$KPREFIX" '
		NF && (base == "" || $1 == "-") { for (i = 2; i <= NF; i++) print $i }'
}

# topic_patches TOPIC: its patches in order, as TOPIC/NNNN-name.patch
# (the cover letter, 0000-cover-letter.patch, is never applied)
topic_patches() {
	local f
	for f in "$SERIES_DIR/$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || continue
		[ "$(basename "$f")" = 0000-cover-letter.patch ] && continue
		echo "$1/$(basename "$f")"
	done
}

# Every patch of the series, topic after topic, as TOPIC/NNNN-name.patch
series_patches() {
	local t
	for t in $(series_topics); do
		topic_patches "$t"
	done
}

# Hash of the series as it is in patches/$SERIES (order and contents)
series_hash() {
	(
		cd "$SERIES_DIR"
		cat base.conf topics 2>/dev/null || true
		series_patches | while read -r p; do
			echo "$p"
			cat "$p"
		done
	) | sha256sum | cut -d' ' -f1
}

# src_warnings LOG FILE...: the compiler warnings of build log LOG that
# are in one of FILE (paths in the tree; only .c and .h files count), one a
# line (check-bisect.sh: a patch's files; check-configs.sh: the series').
src_warnings() {
	local log=$1 re
	shift
	re=$(printf '%s\n' "$@" | { grep -E '\.[ch]$' || true; } | sed 's/\.[ch]$//' | paste -sd'|')
	[ -n "$re" ] || return 0
	grep -E "(^|/)($re)\.[ch]:[0-9]+:[0-9]+: warning:" "$log" || true
}

# fetch_debs SUITE DEST [all] PKG...: unpack Debian packages of SUITE
# (their binary .debs from the archive's pool, checked against the SHA256
# sums of the suite's Packages index: amd64's, or with "all" the index of
# packages for every architecture) under DEST, with DEST/VERSIONS naming
# them. Replaces DEST whole, so a failed fetch leaves no half of one.
fetch_debs() {
	local suite=$1 dest=$2 mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	local tmp pkg file sum ver arch=amd64
	shift 2
	if [ "${1:-}" = all ]; then
		arch=all
		shift
	fi
	command -v curl >/dev/null || die "curl not found (make deps installs it)"
	tmp=$(mktemp -d)
	curl -fsS --retry 3 -o "$tmp/Packages.xz" "$mirror/dists/$suite/main/binary-$arch/Packages.xz" ||
		{ rm -rf "$tmp"; die "cannot fetch $mirror/dists/$suite/main/binary-$arch/Packages.xz"; }
	xz -dc "$tmp/Packages.xz" >"$tmp/Packages"
	rm -rf "$dest.new"
	mkdir -p "$dest.new"
	for pkg in "$@"; do
		# the package's stanza: its file, checksum and version
		read -r file sum ver < <(awk -v p="$pkg" '
			/^Package: / { hit = ($2 == p) }
			hit && /^Filename: / { f = $2 }
			hit && /^SHA256: / { s = $2 }
			hit && /^Version: / { v = $2 }
			/^$/ && hit && f { print f, s, v; exit }' "$tmp/Packages") || true
		[ -n "${file:-}" ] || { rm -rf "$tmp"; die "$pkg is not in Debian $suite"; }
		curl -fsS --retry 3 -o "$tmp/$pkg.deb" "$mirror/$file" ||
			{ rm -rf "$tmp"; die "cannot fetch $mirror/$file"; }
		echo "$sum  $tmp/$pkg.deb" | sha256sum -c --quiet - ||
			{ rm -rf "$tmp"; die "$file: SHA256 mismatch"; }
		dpkg-deb -x "$tmp/$pkg.deb" "$dest.new"
		echo "$pkg $ver" >>"$dest.new/VERSIONS"
		file=
	done
	rm -rf "$tmp" "$dest"
	mv "$dest.new" "$dest"
}

# current_trace_cmd ARGS...: Debian unstable's trace-cmd that
# scripts/fetch-trace-cmd.sh unpacked, run by the ld.so of the C library
# beside it (newer than Debian 12's), the host's libraries after its own
current_trace_cmd() {
	local d=$BUILD/trace-cmd-current lib=$BUILD/trace-cmd-current/usr/lib/x86_64-linux-gnu
	"$lib/ld-linux-x86-64.so.2" --library-path "$lib:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu" \
		"$d/usr/bin/trace-cmd" "$@"
}

# set_qemu_tcg [DEFAULT]: QEMU_CMD, the QEMU that boots a TCG guest:
# QEMU_TCG=fetched, scripts/fetch-qemu.sh's QEMU 10 (design/mttcg-stall.md),
# or QEMU_TCG=system, Debian 12's 7.2; when QEMU_TCG is unset, DEFAULT
# (fetched)
set_qemu_tcg() {
	local q=$BUILD/qemu-mttcg
	case ${QEMU_TCG:-${1:-fetched}} in
	fetched) ;;
	system)
		QEMU_CMD=(qemu-system-x86_64)
		return
		;;
	*) die "QEMU_TCG=$QEMU_TCG: fetched or system" ;;
	esac
	[ -x "$q/usr/bin/qemu-system-x86_64" ] || "$TOP/scripts/fetch-qemu.sh"
	QEMU_CMD=("$q/usr/bin/qemu-system-x86_64" -L "$q/usr/share/qemu" -L "$q/usr/share/seabios")
}

nproc_build() {
	nproc
}

# fuzz_seed_arg: the kernel command line word that replays the fuzzer's
# seeds when FUZZ_SEED is set (the guest picks new ones otherwise).
fuzz_seed_arg() {
	[ -n "${FUZZ_SEED:-}" ] || return 0
	case $FUZZ_SEED in
	*[!0-9]*) die "FUZZ_SEED=$FUZZ_SEED: a decimal number, as the fuzzer printed it" ;;
	esac
	echo "ftx.fuzzseed=$FUZZ_SEED"
}

# fuzz_ops_arg: the kernel command line word that sets each fuzzer's
# operation count when FUZZ_OPS is set (2000, 300 on the debug kernel)
fuzz_ops_arg() {
	[ -n "${FUZZ_OPS:-}" ] || return 0
	case $FUZZ_OPS in
	'' | *[!0-9]* | 0) die "FUZZ_OPS=$FUZZ_OPS: a count of operations, one fuzzer's" ;;
	esac
	echo "ftx.fuzzops=$FUZZ_OPS"
}

# known_parts: the parts a guest can run, one a line: kunit (the built-in
# KUnit suites, run at boot), guest/run-tests.sh's test scripts, ftracetest
# and each category of the tree's ftracetest (trigger/inter-event runs
# apart from trigger). The base has only kunit and ftracetest: the test
# scripts test the series.
known_parts() {
	local t d
	# the pristine base (make test BASE=1) runs no kunit part: it has
	# none of the series' KUnit suites that the part checks. Its guest
	# tests are those of the base's own features ("-" in
	# patches/$SERIES/topics); tests/lanes.list leaves out those the
	# pristine kernel cannot run (base@7.2 rows)
	[ -n "$KPREFIX" ] || echo kunit
	for t in "$TOP"/guest/tests/*.sh; do
		if test_in_series "$t"; then basename "$t" .sh; fi
	done
	echo ftracetest
	for d in "$KTREE"/tools/testing/selftests/ftrace/test.d/*/; do
		echo "ftracetest:$(basename "$d")"
	done
	echo ftracetest:trigger/inter-event
}

# test_needs SCRIPT: the features a guest test needs, from its "# needs:"
# line (scripts/run-lane.sh fails a script without one)
test_needs() {
	sed -n 's/^# needs:[[:space:]]*//p' "$1" | head -1
}

# test_in_series SCRIPT: the series brings every feature SCRIPT needs
test_in_series() {
	local f features
	features=$(series_features)
	grep -q '^# needs:' "$1" || die "${1#"$TOP"/}: no '# needs: FEATURE...' line (the features of patches/*/topics it tests)"
	for f in $(test_needs "$1"); do
		grep -qxF -- "$f" <<<"$features" || return 1
	done
}

# check_parts WHERE LIST: die unless the comma LIST names parts, all known.
# A typo would otherwise run nothing and go green.
check_parts() {
	local where=$1 p n=0 known
	known=$(known_parts)
	for p in ${2//,/ }; do
		n=$((n + 1))
		grep -qxF -- "$p" <<<"$known" ||
			die "$where: unknown part '$p'; the parts are: $(paste -sd' ' <<<"$known")"
	done
	[ $n -gt 0 ] || die "$where: names no part"
}

# expand_parts LANE LIST: the parts a run of the comma LIST runs, one a
# line, with ftracetest as its categories (in a lane that has a list,
# tests/$SERIES/ftracetest-LANE.list, those of its list). parse-results.py
# --expect-parts fails each of them that did not run.
expand_parts() {
	local lane=$1 p item
	# the pristine base runs the plan of the test lane, unless the series
	# lists what its base can run (tests/7.2/ftracetest-base.list)
	[ "$lane" = base ] && [ ! -f "$TESTDATA/ftracetest-base.list" ] && lane=test
	for p in ${2//,/ }; do
		if [ "$p" != ftracetest ]; then
			echo "$p"
		elif [ -f "$TESTDATA/ftracetest-$lane.list" ]; then
			grep -v '^\s*#' "$TESTDATA/ftracetest-$lane.list" | grep -v '^\s*$' | while read -r item; do
				case $item in
				-*)
					# a file left out of a category listed whole
					[ -f "$TREE/tools/testing/selftests/ftrace/test.d/${item#-}" ] ||
						die "${TESTDATA#"$TOP"/}/ftracetest-$lane.list: '$item' leaves out no file of the tree"
					# what the test lane leaves out, make soak runs
					[ "$lane" != test ] || grep -qxF -- "${item#-}" "$TESTDATA/ftracetest-left-out.list" 2>/dev/null ||
						die "${TESTDATA#"$TOP"/}/ftracetest-$lane.list: '$item' is not in ftracetest-left-out.list, so nothing would run it"
					;;
				*.tc) echo "ftracetest:$(dirname "$item")" ;;
				*) echo "ftracetest:$item" ;;
				esac
			done
		else
			known_parts | grep '^ftracetest:'
		fi
	done | sort -u
}

#!/bin/bash
# Static checks of the series on the host, as FTX-RESULT lines on stdout:
#  - scripts/kernel-doc -none: the kernel-doc of every C file and header
#    the series touches parses without warnings;
#  - sparse (C=2) and W=1: building the directories the series touches
#    reports no warning that the pristine base does not report too.
# The base is a git worktree of build/$SERIES/linux at tag "base"
# (build/$SERIES/linux-base).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=static
res() { echo "FTX-RESULT $S $*"; }

[ -f "$SBUILD/obj-test/.config" ] || die "build the test kernel first"
# the build's own cache, never the host's (see build-kernel.sh)
export CCACHE_DIR=$BUILD/ccache CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1

mapfile -t touched < <(git -C "$TREE" diff --name-only base..HEAD)
srcs=()
for f in "${touched[@]}"; do
	case $f in
	*.c | *.h) [ -f "$TREE/$f" ] && srcs+=("$f") ;;
	esac
done

# kernel_doc TREE FILE...: kernel-doc warnings, "file: message" sorted,
# without line numbers (the series moves the base's own warnings). 6.1's
# kernel-doc prints "file:LINE: warning: ...", 7.2's "Warning: file:LINE ..."
kernel_doc() {
	local tree=$1 f
	shift
	for f in "$@"; do
		[ -f "$tree/$f" ] || continue
		(cd "$tree" && scripts/kernel-doc -none "$f" 2>&1 || true)
	done | sed -E 's#^(Warning: )?([^: ]+):[0-9]+:?#\1\2:#' | sort
}

ensure_base_tree

# --- kernel-doc: nothing new against the same files on the base (a header
# the series touches, such as kernel/trace/trace.h, has old warnings)
if [ ${#srcs[@]} -gt 0 ]; then
	kernel_doc "$BASE_TREE" "${srcs[@]}" >"$LOGDIR/kernel-doc-base.warnings"
	kernel_doc "$TREE" "${srcs[@]}" >"$LOGDIR/kernel-doc.warnings"
	new=$(comm -13 "$LOGDIR/kernel-doc-base.warnings" "$LOGDIR/kernel-doc.warnings")
	nbase=$(wc -l <"$LOGDIR/kernel-doc-base.warnings")
	if [ -z "$new" ]; then
		res kernel-doc PASS "${#srcs[@]} files, no new warning ($nbase on the base)"
	else
		res kernel-doc FAIL "$(echo "$new" | head -20 | tr '\n' '|')"
	fi
fi

# --- every function the series exports has kernel-doc next to it
missing=()
nexp=0
while read -r f sym; do
	nexp=$((nexp + 1))
	(cd "$TREE" && scripts/kernel-doc -rst -function "$sym" "$f" 2>/dev/null) |
		grep -q "c:function::.* $sym *(" || missing+=("$f:$sym")
done < <(git -C "$TREE" diff base..HEAD -- '*.c' | awk '
	/^\+\+\+ b\// { f = substr($2, 3) }
	/^\+EXPORT_SYMBOL(_GPL)?\(/ { s = $0; sub(/^[^(]*\(/, "", s); sub(/\).*/, "", s); print f, s }' |
	sort -u)
if [ ${#missing[@]} -eq 0 ]; then
	res exported-kernel-doc PASS "$nexp exported functions documented"
else
	res exported-kernel-doc FAIL "no kernel-doc: ${missing[*]}"
fi

# --- sparse and W=1, patched against base, on the touched directories
dirs=$(printf '%s\n' "${srcs[@]}" | grep -E '^(kernel|samples|lib|mm|fs|drivers)/' |
	xargs -r -n1 dirname | sort -u | tr '\n' ' ')
if [ -z "$dirs" ]; then
	res sparse-w1 PASS "no directory to check"
	exit 0
fi

# build_checked TREE OBJ LOG: C=2 W=1 build of the touched directories
build_checked() {
	local tree=$1 obj=$2 log=$3 d targets=()
	mkdir -p "$obj"
	cp "$SBUILD/obj-test/.config" "$obj/.config"
	make -C "$tree" O="$obj" CC="ccache gcc" -j"$(nproc)" olddefconfig prepare >"$log" 2>&1
	for d in $dirs; do
		[ -d "$tree/$d" ] && targets+=("$d/")
		# W=1 warnings come from the compiler: compile every file again
		# (ccache replays the warnings), or an incremental build of one
		# side would report fewer than the other
		[ -d "$obj/$d" ] && find "$obj/$d" -name '*.o' -delete
	done
	make -C "$tree" O="$obj" CC="ccache gcc" -j"$(nproc)" C=2 W=1 "${targets[@]}" >>"$log" 2>&1
}

# warnings LOG: "path: message" per warning, positions and tree prefix
# gone, numbers in the message as N (sparse's "trying to concatenate
# 12021-character string" on the base is the same warning when the series
# makes the README text longer)
warnings() {
	grep -E ': (warning|error): ' "$1" |
		sed -E 's#^(\.\./)*([^ ]*/)?((kernel|samples|lib|mm|fs|drivers|include|arch)/[^:]*):[0-9]+(:[0-9]+)?:#\3:#' |
		sed -E 's/[0-9]+/N/g' | sort
}

info "sparse + W=1 on: $dirs (base, then patched)"
build_checked "$BASE_TREE" "$SBUILD/obj-static-base" "$LOGDIR/static-base.log" ||
	{ tail -20 "$LOGDIR/static-base.log"; die "static build of the base failed"; }
build_checked "$TREE" "$SBUILD/obj-static" "$LOGDIR/static.log" ||
	{ tail -20 "$LOGDIR/static.log"; die "static build of the series failed"; }
warnings "$LOGDIR/static-base.log" >"$LOGDIR/static-base.warnings"
warnings "$LOGDIR/static.log" >"$LOGDIR/static.warnings"
new=$(comm -13 "$LOGDIR/static-base.warnings" "$LOGDIR/static.warnings")
nbase=$(wc -l <"$LOGDIR/static-base.warnings")
if [ -z "$new" ]; then
	res sparse-w1 PASS "no new warning ($nbase on the base)"
else
	res sparse-w1 FAIL "$(echo "$new" | wc -l) new warnings: $(echo "$new" | head -20 | tr '\n' '|')"
fi

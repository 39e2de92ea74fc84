#!/bin/bash
# Static checks of the series on the host, as FTX-RESULT lines on stdout:
#  - scripts/kernel-doc -none: the kernel-doc of every C file and header
#    the series touches parses without warnings;
#  - sparse (C=2) and W=1: building the directories the series touches
#    reports no warning that the pristine base does not report too.
# The base is a git worktree of build/linux at tag "base" (build/linux-base).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=static
res() { echo "FTX-RESULT $S $*"; }
start=$(now)

[ -f "$BUILD/obj-test/.config" ] || die "build the test kernel first"
BASE_TREE=$BUILD/linux-base
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1

mapfile -t touched < <(git -C "$TREE" diff --name-only base..HEAD)
srcs=()
for f in "${touched[@]}"; do
	case $f in
	*.c | *.h) [ -f "$TREE/$f" ] && srcs+=("$f") ;;
	esac
done

# --- kernel-doc
if [ ${#srcs[@]} -gt 0 ]; then
	out=$(cd "$TREE" && scripts/kernel-doc -none "${srcs[@]}" 2>&1 || true)
	if [ -z "$out" ]; then
		res kernel-doc PASS "${#srcs[@]} files"
	else
		res kernel-doc FAIL "$(echo "$out" | head -20 | tr '\n' '|')"
	fi
fi

# --- sparse and W=1, patched against base, on the touched directories
dirs=$(printf '%s\n' "${srcs[@]}" | grep -E '^(kernel|samples|lib|mm|fs|drivers)/' |
	xargs -r -n1 dirname | sort -u | tr '\n' ' ')
if [ -z "$dirs" ]; then
	res sparse-w1 PASS "no directory to check"
	exit 0
fi

if [ ! -d "$BASE_TREE" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q -f --detach "$BASE_TREE" base
fi
git -C "$BASE_TREE" checkout -q --detach base

# build_checked TREE OBJ LOG: C=2 W=1 build of the touched directories
build_checked() {
	local tree=$1 obj=$2 log=$3 d targets=()
	mkdir -p "$obj"
	cp "$BUILD/obj-test/.config" "$obj/.config"
	make -C "$tree" O="$obj" CC="ccache gcc" -j"$(nproc)" olddefconfig prepare >"$log" 2>&1
	for d in $dirs; do
		[ -d "$tree/$d" ] && targets+=("$d/")
	done
	make -C "$tree" O="$obj" CC="ccache gcc" -j"$(nproc)" C=2 W=1 "${targets[@]}" >>"$log" 2>&1
}

# warnings LOG: "path: message" per warning, positions and tree prefix gone
warnings() {
	grep -E ': (warning|error): ' "$1" |
		sed -E 's#^(\.\./)*([^ ]*/)?((kernel|samples|lib|mm|fs|drivers|include|arch)/[^:]*):[0-9]+(:[0-9]+)?:#\3:#' |
		sort
}

info "sparse + W=1 on: $dirs (base, then patched)"
build_checked "$BASE_TREE" "$BUILD/obj-static-base" "$LOGDIR/static-base.log" ||
	{ tail -20 "$LOGDIR/static-base.log"; die "static build of the base failed"; }
build_checked "$TREE" "$BUILD/obj-static" "$LOGDIR/static.log" ||
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
phase_done static "$start" >&2

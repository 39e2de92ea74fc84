#!/bin/bash
# Build the kernel of the series (build/$SERIES/linux, or with FTX_BASE=1
# its pristine base) out of tree, into build/$SERIES/obj-<flavour>.
#   scripts/build-kernel.sh test|debug|kcsan|bench
# The config is tinyconfig plus configs/base.config plus, for debug, kcsan
# and bench, configs/<flavour>.config. Every option the fragments ask for must
# end up in the final .config; an option that kconfig silently drops (unmet
# dependency) is an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-test}
OBJ=$(obj_dir "$flavour")
frags=("$TOP/configs/base.config")
case $flavour in
test) ;;
debug | kcsan | bench) frags+=("$TOP/configs/$flavour.config") ;;
*) die "unknown flavour '$flavour' (test, debug, kcsan or bench)" ;;
esac

[ -e "$KTREE/.git" ] || die "$KTREE missing: run make tree"
start=$(now)
mkdir -p "$OBJ"

# The build's own cache, whatever the host's CCACHE_DIR says: make distclean
# must drop it, and a host cache must not take the 8G limit or the hits.
export CCACHE_DIR=$BUILD/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Objects differ only by path between flavours and runs: let ccache hash
# relative paths so that build/obj-* and fresh clones share hits.
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# Depend mode: a miss takes the headers from the compiler's own -MMD
# output instead of running the preprocessor a second time. CI's cold
# cache misses on every file: kernel/trace/ built from an empty cache in
# 63 and 51 s in the default mode, 39 and 35 s in depend mode, 48 and
# 45 s without ccache; the whole cold 6.1 test build 510 s instead of
# 764 (2026-12-03).
export CCACHE_DEPEND=1
CC="ccache gcc"
command -v ccache >/dev/null || CC=gcc

# Line tables (-g1) in the kernels that tests boot, not in the bench one:
# parse-results.py turns each kernel report's frames into file:line with
# scripts/decode_stacktrace.sh on vmlinux. -g1 leaves the generated code
# as it is and costs next to no compile time (unlike CONFIG_DEBUG_INFO's
# full DWARF); modules are installed stripped.
kcflags=
case $flavour in
test | debug | kcsan) kcflags=-g1 ;;
esac

# KCSAN: kernel/trace/Makefile leaves the tracer uninstrumented (no
# sanitizer calls from the function tracer's own callbacks), and KCSAN
# would then see none of the series' lockless code. The kcsan flavour
# instruments each file of kernel/trace that the series adds or changes,
# in this tree (the base too, where they exist, to measure it the same
# way): a per-object KCSAN_SANITIZE_<file>.o=y outranks the directory's
# KCSAN_SANITIZE := n (scripts/Makefile.lib). KCSAN's runtime is not
# traced (kernel/kcsan/Makefile), and the function tracer's recursion
# guard stops what its delays would trace.
sanitize=()
if [ "$flavour" = kcsan ]; then
	while read -r f; do
		[ -f "$KTREE/$f" ] && sanitize+=("KCSAN_SANITIZE_$(basename "$f" .c).o=y")
	done < <(git -C "$TREE" diff --name-only --diff-filter=AM base HEAD -- 'kernel/trace/*.c')
	[ ${#sanitize[@]} -gt 0 ] || die "kcsan: no file of kernel/trace to instrument"
fi

kmake() {
	make -C "$KTREE" O="$OBJ" CC="$CC" HOSTCC="$CC" KCFLAGS="$kcflags" "${sanitize[@]}" -j"$(nproc_build)" "$@"
}

# --- config: only regenerate when a fragment changed or the tree moved
cfgsum=$( (cat "${frags[@]}"; git -C "$KTREE" rev-parse HEAD) 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.config.frags" 2>/dev/null)" != "$cfgsum" ]; then
	info "configuring $flavour: tinyconfig + ${frags[*]##*/}"
	kmake -s tinyconfig >"$LOGDIR/config-$flavour.log" 2>&1
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "${frags[@]}") \
		>>"$LOGDIR/config-$flavour.log" 2>&1
	kmake -s olddefconfig >>"$LOGDIR/config-$flavour.log" 2>&1
	# Check that every requested option survived (a later fragment
	# overrides an earlier one).
	declare -A want=()
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; want[${opt%% *}]="$opt=n" ;;
		esac
	done < <(cat "${frags[@]}")
	# The fragments serve every series: a base, or a series that does
	# not carry a topic yet, lacks the options of the topics it does not
	# have (KUnit suites, samples). Check the options this tree's Kconfig
	# defines; check-series checks that each option of the fragments is
	# defined by some series (a typo would be skipped everywhere).
	defined=$(find "$KTREE" -name 'Kconfig*' -not -path '*/.git/*' -print0 |
		xargs -0 sed -nE 's/^[[:space:]]*(menu)?config[[:space:]]+([A-Za-z0-9_]+).*/CONFIG_\2/p' | sort -u)
	bad=0
	absent=()
	for opt in "${!want[@]}"; do
		if ! grep -qxF "$opt" <<<"$defined"; then
			absent+=("$opt")
			continue
		fi
		line=${want[$opt]}
		got=$(grep -E "^($opt=|# $opt is not set)" "$OBJ/.config" || echo "absent")
		case $line in
		*=n) grep -q "^$opt=" "$OBJ/.config" && { echo "config: asked for $opt off, got: $got" >&2; bad=1; } ;;
		*) grep -qx -- "$line" "$OBJ/.config" || { echo "config: asked for $line, got: $got" >&2; bad=1; } ;;
		esac
	done
	[ $bad -eq 0 ] || die "kernel config: options above were dropped by kconfig (unmet dependencies?); see $LOGDIR/config-$flavour.log"
	[ ${#absent[@]} -eq 0 ] ||
		info "options of the fragments this tree does not define: $(printf '%s\n' "${absent[@]}" | sort | paste -sd' ')"
	echo "$cfgsum" >"$OBJ/.config.frags"
fi

# --- build
info "building $flavour kernel ($(make -s -C "$KTREE" kernelversion), $(nproc_build) jobs, CC='$CC')"
if ! kmake bzImage modules >"$LOGDIR/build-$flavour.log" 2>&1; then
	echo "--- compiler errors (from $LOGDIR/build-$flavour.log) ---" >&2
	grep -E -A5 '(error|Error)[: ]' "$LOGDIR/build-$flavour.log" | head -60 >&2 || true
	echo "--- last lines ---" >&2
	tail -15 "$LOGDIR/build-$flavour.log" >&2
	die "kernel build ($flavour) failed"
fi
if grep -E ': warning: ' "$LOGDIR/build-$flavour.log" >"$LOGDIR/build-$flavour.warnings"; then
	info "compiler warnings: $(wc -l <"$LOGDIR/build-$flavour.warnings") (see $LOGDIR/build-$flavour.warnings)"
fi

rm -rf "$OBJ/modroot"
kmake -s INSTALL_MOD_PATH="$OBJ/modroot" INSTALL_MOD_STRIP=1 modules_install \
	>>"$LOGDIR/build-$flavour.log" 2>&1 || die "modules_install failed (see $LOGDIR/build-$flavour.log)"
command -v ccache >/dev/null && ccache -s 2>/dev/null | grep -E 'Hits|Misses' | head -2 | sed 's/^/    ccache /' || true
phase_done "build-$flavour" "$start"

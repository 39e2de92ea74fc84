#!/bin/bash
# Build the whole series in configs that turn off what its features
# stand on, as 0-day's randconfig builds would: each new API and file
# needs a stub or a dependency wherever its base is missing. Each config
# is the test kernel's with the options below turned off (olddefconfig
# then drops what depends on them), built in an object directory of its
# own; a config fails when an option it turns off is still set after
# olddefconfig, on a build error, or on a compiler warning in a file the
# series touches. Leaves the tree as it is (builds its HEAD).
#   CONFIGS="name ..."   build only these (default: all below)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

# name: the options turned off, and why that config is worth a build
declare -A off=(
	# function tracing without call-site patching: no ftrace_mux,
	# no trampolines, the !DYNAMIC_FTRACE shutdown
	[nodyn]="DYNAMIC_FTRACE"
	# events only: no ftrace_ops at all (the stack tracer selects
	# the function tracer); exports and instances remain
	[nofunc]="FUNCTION_TRACER STACK_TRACER"
	# no snapshot buffer (nor the latency tracers that select it) and no
	# modules: the kernel snapshot API's and snapshot files' stubs, the
	# multiplexing without module records
	[nosnap-nomod]="TRACER_SNAPSHOT IRQSOFF_TRACER PREEMPT_TRACER SCHED_TRACER OSNOISE_TRACER TIMERLAT_TRACER HWLAT_TRACER MODULES"
	# no tracing at all: the headers' stubs for code that calls the
	# exported APIs (the STM ftrace source, samples) when they are gone
	[notracing]="FTRACE"
)
names=${CONFIGS:-"nodyn nofunc nosnap-nomod notracing"}

cd "$TREE"
[ -f "$SBUILD/obj-test/.config" ] || die "build the test kernel first (make build)"
# the build's own cache, never the host's (see build-kernel.sh)
export CCACHE_DIR=$BUILD/ccache CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
mapfile -t files < <(git diff --name-only base..HEAD)
fails=0 n=0 skips=0
for name in $names; do
	[ -n "${off[$name]:-}" ] || die "unknown config '$name' (${!off[*]})"
	# An option without a prompt cannot be turned off: 7.2's
	# DYNAMIC_FTRACE is always on where the architecture has it
	noprompt=""
	for o in ${off[$name]}; do
		grep -rs -A1 "^config $o\$" --include='Kconfig*' kernel/trace arch/x86 init |
			grep -q -e '^[^:]*-\s*bool\s*$' -e '^[^:]*-\s*def_bool' &&
			noprompt="$noprompt $o"
	done
	if [ -n "$noprompt" ]; then
		echo "FTX-RESULT configs $name SKIP no prompt in this tree:$noprompt"
		skips=$((skips + 1))
		continue
	fi
	n=$((n + 1))
	obj=$SBUILD/obj-cfg-$name
	log=$LOGDIR/configs-$name.log
	mkdir -p "$obj"
	cp "$SBUILD/obj-test/.config" "$obj/.config"
	args=()
	for o in ${off[$name]}; do
		args+=(-d "$o")
	done
	scripts/config --file "$obj/.config" "${args[@]}"
	start=$(now)
	make -C "$TREE" O="$obj" olddefconfig >"$log" 2>&1 || die "$name: olddefconfig failed (see $log)"
	# the options really went (before the build): a config that kept one,
	# because another option selects it, proves nothing
	kept=""
	for o in ${off[$name]}; do
		! grep -q "^CONFIG_$o=" "$obj/.config" || kept="$kept $o"
	done
	if [ -n "$kept" ]; then
		echo "FTX-RESULT configs $name FAIL still set:$kept"
		fails=$((fails + 1))
		continue
	fi
	targets=(bzImage)
	! grep -q '^CONFIG_MODULES=y' "$obj/.config" || targets+=(modules)
	if ! make -C "$TREE" O="$obj" CC="ccache gcc" -j"$(nproc)" "${targets[@]}" >>"$log" 2>&1; then
		echo "FTX-RESULT configs $name FAIL build failed"
		grep -E -A3 'error[: ]' "$log" | head -30
		fails=$((fails + 1))
		continue
	fi
	warnings=$(src_warnings "$log" "${files[@]}")
	if [ -n "$warnings" ]; then
		echo "FTX-RESULT configs $name FAIL $(wc -l <<<"$warnings") warnings in the series' files"
		head <<<"$warnings"
		fails=$((fails + 1))
	else
		echo "FTX-RESULT configs $name PASS without ${off[$name]} ($(($(now) - start))s)"
	fi
done
echo "$((n - fails)) passed, $fails failed, $skips skipped"
[ $fails -eq 0 ]

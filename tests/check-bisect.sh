#!/bin/bash
# Build every prefix of the series (each patch must build on its own), in
# a separate object directory, and report the compiler warnings that each
# patch's own files produce. Leaves the tree where it was.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] || die "${TREE#"$TOP"/} has uncommitted changes"
orig=$(git symbolic-ref -q --short HEAD || git rev-parse HEAD)
trap 'git -C "$TREE" checkout -q "$orig"' EXIT
# TOPIC=NAME: the prefixes that end in that topic only (on the topics
# before it, which check-bisect of those covers)
range=base..HEAD
if [ -n "${TOPIC:-}" ]; then
	prev=base
	for t in $(series_topics); do
		[ "$t" = "$TOPIC" ] && break
		prev=topic/$t
	done
	git rev-parse -q --verify "refs/heads/topic/$TOPIC" >/dev/null ||
		die "TOPIC=$TOPIC: no such topic in patches/$SERIES/topics ($(series_topics | paste -sd' '))"
	range=$prev..topic/$TOPIC
fi
mapfile -t commits < <(git rev-list --reverse "$range")
[ ${#commits[@]} -gt 0 ] || { info "empty series: nothing to bisect"; exit 0; }

OBJ=$SBUILD/obj-bisect
mkdir -p "$OBJ"
[ -f "$SBUILD/obj-test/.config" ] || die "build the test kernel first (make build)"
# the build's own cache, never the host's (see build-kernel.sh)
export CCACHE_DIR=$BUILD/ccache CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
fails=0 i=0 built=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	# FROM=N: start at patch N (of TOPIC, or of the series), the earlier
	# prefixes having been checked; ONLY=N,M,...: just those prefixes (the
	# patches a change touched and the ones after them)
	[ "$i" -ge "${FROM:-1}" ] || continue
	[ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$i,"* ]] || continue
	git checkout -q "$c"
	built=$((built + 1))
	subj=$(git log -1 --format=%s "$c")
	# The full config each time: olddefconfig drops the options that an
	# earlier prefix did not know yet.
	cp "$SBUILD/obj-test/.config" "$OBJ/.config"
	start=$(now)
	log=$LOGDIR/bisect-$i.log
	if make -C "$TREE" O="$OBJ" CC="ccache gcc" -j"$(nproc)" olddefconfig bzImage modules >"$log" 2>&1; then
		mapfile -t files < <(git diff --name-only "$c~1" "$c")
		warnings=$(src_warnings "$log" "${files[@]}")
		if [ -n "$warnings" ]; then
			echo "FTX-RESULT bisect ${TOPIC:+$TOPIC/}$i FAIL $(wc -l <<<"$warnings") warnings in the patch's files: $subj"
			head <<<"$warnings"
			fails=$((fails + 1))
		else
			echo "FTX-RESULT bisect ${TOPIC:+$TOPIC/}$i PASS $subj ($(($(now) - start))s)"
		fi
	else
		echo "FTX-RESULT bisect ${TOPIC:+$TOPIC/}$i FAIL build failed: $subj"
		grep -E -A3 'error[: ]' "$log" | head -30
		fails=$((fails + 1))
	fi
done
echo "$((built - fails)) passed, $fails failed"
[ $fails -eq 0 ]

#!/bin/bash
# Host-side checks of the series itself, as FTX-RESULT lines on stdout:
#  - patches/series and patches/*.patch agree, and the series applied in
#    order with "git am" (scripts/prepare-tree.sh did it; verify the result)
#  - scripts/checkpatch.pl --strict finds nothing in any patch
#  - checkbashisms finds nothing new in the ftrace selftests (what
#    upstream's selftest/bashisms.tc checks; the guest has no perl)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

S=series
res() { echo "FTX-RESULT $S $*"; }

mapfile -t listed < <(series_patches)
# a lookup table, not "printf | grep -q": under pipefail, grep -q leaving
# early kills printf with SIGPIPE and a listed patch reads as unlisted
declare -A is_listed=()
ok=1
for p in "${listed[@]}"; do
	is_listed[$p]=1
	[ -f "$TOP/patches/$p" ] || { res "listed:$p" FAIL "in patches/series but missing"; ok=0; }
done
for f in "$TOP"/patches/*.patch; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	# the cover letter: not in patches/series, never applied or checked
	[ "$b" != 0000-cover-letter.patch ] || continue
	[ -n "${is_listed[$b]:-}" ] || { res "unlisted:$b" FAIL "patches/$b is not in patches/series"; ok=0; }
done
[ $ok -eq 1 ] && res "files-consistent" PASS

stamp=$TREE/.git/ftrace-ext-stamp
applied=$(git -C "$TREE" rev-list --count base..HEAD 2>/dev/null || echo -1)
if [ -f "$stamp" ] && [ "$(cut -d' ' -f2 "$stamp")" = "$(series_hash)" ] &&
	[ "$applied" -eq "${#listed[@]}" ]; then
	res "applies" PASS "${#listed[@]} patches on $(cat "$TREE/.git/ftrace-ext-base")"
else
	res "applies" FAIL "build/linux does not hold patches/ (${applied} commits for ${#listed[@]} patches): run make tree"
fi

# checkpatch is single-threaded: one per core, reported in series order.
# All of its checks, sign-off included, but one: it looks the id of each
# Fixes: tag up in the git history (UNKNOWN_COMMIT_ID), and build/linux
# has none but the Debian tarball's, nor can a tarball tree have any. So
# tests/fixes-commits.txt lists each id with its subject and where both
# were found, and every tag is checked against it below.
cp_out=$(mktemp -d)
trap 'rm -rf "$cp_out"' EXIT
export TREE TOP cp_out
printf '%s\n' "${listed[@]}" | xargs -P "$(nproc)" -n 1 bash -c '
	[ -f "$TOP/patches/$1" ] || exit 0
	# PATH: spdxcheck.py needs the python3 that has Debian python3-ply
	cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--ignore UNKNOWN_COMMIT_ID --quiet "$TOP/patches/$1" \
		>"$cp_out/$1" 2>&1 || true' _
id_re='^From: (.+ <[^ @]+@[^ >]+>)$'
for p in "${listed[@]}"; do
	[ -f "$TOP/patches/$p" ] || continue
	f=$TOP/patches/$p
	out=$(cat "$cp_out/$p" 2>/dev/null || echo "checkpatch did not run")
	# one identity with an address: the author signs off, nobody else
	from=$(sed -n '/^From: /{p;q}' "$f")
	if [[ $from =~ $id_re ]]; then
		who=${BASH_REMATCH[1]}
		signers=$(sed -n 's/^Signed-off-by: //p' "$f" | sort -u)
		[ "$signers" = "$who" ] ||
			out="Signed-off-by ($(echo "$signers" | paste -sd';')) is not the author ($who)
$out"
	else
		out="From: is no name with an address: '$from'
$out"
	fi
	# each Fixes: tag names a commit of tests/fixes-commits.txt, exactly
	while read -r tag; do
		id=${tag%% *}
		want=$(awk -v id="$id" '$1 == id { sub(/^[^ ]+ /, ""); sub(/" .*/, "\""); print }' \
			"$TOP/tests/fixes-commits.txt")
		[ "$id (${want})" = "$tag" ] ||
			out="Fixes: $tag is not in tests/fixes-commits.txt as it is (${want:-no such id})
$out"
	done < <(sed -n 's/^Fixes: //p' "$f")
	if [ -z "$out" ]; then
		res "checkpatch:$p" PASS
	else
		res "checkpatch:$p" FAIL "$(echo "$out" | head -40 | tr '\n' '|')"
	fi
done

# checkbashisms over what selftest/bashisms.tc covers: ftracetest,
# test.d/functions and every .tc, the series' own included
ft=$TREE/tools/testing/selftests/ftrace
found=$(cd "$ft" && {
	checkbashisms ftracetest test.d/functions 2>&1
	find test.d -name '*.tc' -print0 | sort -z | xargs -0 -n 50 checkbashisms 2>&1
} | sed -nE 's/^possible bashism in ([^ ]+) line ([0-9]+) .*/\1:\2/p' | sort -u || true)
known=$(grep -v '^\s*#' "$TOP/tests/bashisms-known.txt" | awk 'NF {print $1}' | sort -u)
new=$(comm -23 <(echo "$found") <(echo "$known") | grep . || true)
gone=$(comm -13 <(echo "$found") <(echo "$known") | grep . || true)
if [ -n "$new" ]; then
	res checkbashisms FAIL "new: $(echo "$new" | tr '\n' ' ')(checkbashisms FILE in tools/testing/selftests/ftrace)"
elif [ -n "$gone" ]; then
	res checkbashisms FAIL "listed in tests/bashisms-known.txt but not reported: $(echo "$gone" | tr '\n' ' ')"
else
	res checkbashisms PASS "$(find "$ft/test.d" -name '*.tc' | wc -l) .tc files, $(echo "$known" | grep -c .) known report"
fi

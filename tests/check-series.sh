#!/bin/bash
# Host-side checks of the series itself, as FTX-RESULT lines on stdout:
#  - patches/$SERIES/topics and its topic directories agree, each topic's
#    patches are numbered in order and its cover letter is written, counts
#    them and names the base and the topics before it; the series applied
#    in order with "git am" (scripts/prepare-tree.sh did it; verify it)
#  - scripts/checkpatch.pl --strict finds nothing in any patch
#  - checkbashisms finds nothing new in the ftrace selftests (what
#    upstream's selftest/bashisms.tc checks; the guest has no perl)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

S=series
res() { echo "FTX-RESULT $S $*"; }

mapfile -t listed < <(series_patches)
mapfile -t topics < <(series_topics)
ok=1
[ ${#topics[@]} -gt 0 ] || { res "topics" FAIL "patches/$SERIES/topics lists no topic"; ok=0; }
# every directory of patches/$SERIES is a listed topic, and the reverse
for d in "$SERIES_DIR"/*/; do
	[ -d "$d" ] || continue
	printf '%s\n' "${topics[@]}" | grep -qxF "$(basename "$d")" ||
		{ res "unlisted:$(basename "$d")" FAIL "patches/$SERIES/$(basename "$d") is not in patches/$SERIES/topics"; ok=0; }
done
pkgver=$(base_pkg_version)
needs=
for t in "${topics[@]}"; do
	if [ ! -d "$SERIES_DIR/$t" ]; then
		res "listed:$t" FAIL "in patches/$SERIES/topics but patches/$SERIES/$t is missing"
		ok=0
		continue
	fi
	# a topic's patches are numbered from 0001 without a gap
	i=0
	for p in $(topic_patches "$t"); do
		i=$((i + 1))
		case ${p#"$t"/} in
		"$(printf '%04d' "$i")"-*) ;;
		*) res "numbered:$p" FAIL "patch $i of topic $t is numbered otherwise (make series numbers them)"; ok=0 ;;
		esac
	done
	# its cover letter: written (no placeholder), for this many patches,
	# this base and the topics before it
	c=$SERIES_DIR/$t/0000-cover-letter.patch
	why=
	if [ ! -f "$c" ]; then
		why="missing (make series makes one to fill in)"
	elif grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$c"; then
		why="its subject or text is still a placeholder"
	elif ! grep -qE "^Subject: \[PATCH 0+/$i\]" "$c"; then
		why="its subject does not count $i patches (make series)"
	elif ! grep -qxF "base-commit: Debian $BASE_PKG $pkgver" "$c"; then
		why="it does not name the base $BASE_PKG $pkgver (make series)"
	elif ! grep -qxF "prerequisite-topics: ${needs:-none}" "$c"; then
		why="it does not name the topics before it: ${needs:-none} (make series)"
	fi
	if [ -n "$why" ]; then
		res "cover-letter:$t" FAIL "$why"
	else
		res "cover-letter:$t" PASS "$i patches"
	fi
	needs="${needs:+$needs }$t"
done
[ $ok -eq 1 ] && res "files-consistent" PASS "${#listed[@]} patches in ${#topics[@]} topics"

stamp=$TREE/.git/ftrace-ext-stamp
applied=$(git -C "$TREE" rev-list --count base..HEAD 2>/dev/null || echo -1)
if [ -f "$stamp" ] && [ "$(cut -d' ' -f2 "$stamp")" = "$(series_hash)" ] &&
	[ "$applied" -eq "${#listed[@]}" ]; then
	res "applies" PASS "${#listed[@]} patches on $BASE_PKG $(cat "$TREE/.git/ftrace-ext-base")"
else
	res "applies" FAIL "${TREE#"$TOP"/} does not hold patches/$SERIES (${applied} commits for ${#listed[@]} patches): run make tree"
fi

# checkpatch is single-threaded: one per core, reported in series order.
# All of its checks, sign-off included, but one: it looks the id of each
# Fixes: tag up in the git history (UNKNOWN_COMMIT_ID), and the tree
# has none but the Debian tarball's, nor can a tarball tree have any. So
# tests/fixes-commits.txt lists each id with its subject and where both
# were found, and every tag is checked against it below.
cp_out=$(mktemp -d)
trap 'rm -rf "$cp_out"' EXIT
export TREE TOP SERIES_DIR cp_out
printf '%s\n' "${listed[@]}" | xargs -P "$(nproc)" -n 1 bash -c '
	[ -f "$SERIES_DIR/$1" ] || exit 0
	# PATH: spdxcheck.py needs the python3 that has Debian python3-ply
	cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--ignore UNKNOWN_COMMIT_ID --quiet "$SERIES_DIR/$1" \
		>"$cp_out/${1//\//_}" 2>&1 || true' _
id_re='^From: (.+ <[^ @]+@[^ >]+>)$'
for p in "${listed[@]}"; do
	[ -f "$SERIES_DIR/$p" ] || continue
	f=$SERIES_DIR/$p
	out=$(cat "$cp_out/${p//\//_}" 2>/dev/null || echo "checkpatch did not run")
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

# every option the config fragments name exists: in this tree's Kconfig,
# or in a patch of some series (build-kernel.sh skips the options a tree
# does not define, so a typo would be skipped everywhere)
defined=$( {
	find "$TREE" -name 'Kconfig*' -not -path '*/.git/*' -print0 |
		xargs -0 sed -nE 's/^[[:space:]]*(menu)?config[[:space:]]+([A-Za-z0-9_]+).*/\2/p'
	cat "$TOP"/patches/*/*/[0-9]*.patch | sed -nE 's/^\+[[:space:]]*(menu)?config[[:space:]]+([A-Za-z0-9_]+).*/\2/p'
} | sort -u)
# and the options another series' base defines, whose tree may not be
# here: tests/SERIES/base-options.txt, each checked against its own tree
# when that series is the one checked
for f in "$TOP"/tests/*/base-options.txt; do
	[ -e "$f" ] || continue
	s=$(basename "$(dirname "$f")")
	opts=$( (grep -v '^[[:space:]]*#' "$f" || true) | awk 'NF {print $1}' | sort -u)
	if [ "$s" = "$SERIES" ]; then
		missing=$(comm -23 <(echo "$opts") <(echo "$defined") | paste -sd' ')
		if [ -n "$missing" ]; then
			res base-options FAIL "tests/$s/base-options.txt lists options its tree does not define: $missing"
		else
			res base-options PASS "$(echo "$opts" | grep -c .) options, each in this tree's Kconfig"
		fi
	fi
	defined=$(printf '%s\n%s\n' "$defined" "$opts" | sort -u)
done
unknown=$(sed -nE 's/^(# )?CONFIG_([A-Za-z0-9_]+)(=| is not set).*/\2/p' "$TOP"/configs/*.config | sort -u |
	comm -23 - <(echo "$defined") | paste -sd' ')
if [ -n "$unknown" ]; then
	res config-options FAIL "configs/*.config name options no tree or patch defines: $unknown"
else
	res config-options PASS
fi

# checkbashisms over what selftest/bashisms.tc covers: ftracetest,
# test.d/functions and every .tc, the series' own included
ft=$TREE/tools/testing/selftests/ftrace
found=$(cd "$ft" && {
	checkbashisms ftracetest test.d/functions 2>&1
	find test.d -name '*.tc' -print0 | sort -z | xargs -0 -n 50 checkbashisms 2>&1
} | sed -nE 's/^possible bashism in ([^ ]+) line ([0-9]+) .*/\1:\2/p' | sort -u || true)
known=$( (grep -v '^\s*#' "$TESTDATA/bashisms-known.txt" || true) | awk 'NF {print $1}' | sort -u)
new=$(comm -23 <(echo "$found") <(echo "$known") | grep . || true)
gone=$(comm -13 <(echo "$found") <(echo "$known") | grep . || true)
if [ -n "$new" ]; then
	res checkbashisms FAIL "new: $(echo "$new" | tr '\n' ' ')(checkbashisms FILE in tools/testing/selftests/ftrace)"
elif [ -n "$gone" ]; then
	res checkbashisms FAIL "listed in tests/$SERIES/bashisms-known.txt but not reported: $(echo "$gone" | tr '\n' ' ')"
else
	res checkbashisms PASS "$(find "$ft/test.d" -name '*.tc' | wc -l) .tc files, $(echo "$known" | grep -c .) known report"
fi

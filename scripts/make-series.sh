#!/bin/bash
# Regenerate patches/$SERIES from build/$SERIES/linux, one topic at a
# time: the commits from the branch of the topic before (or tag base) to
# branch topic/NAME (scripts/prepare-tree.sh makes them; rebases move them)
# become patches/$SERIES/NAME/NNNN-*.patch, git format-patch with stable
# names and no churn (zero commit ids, 7-digit blob ids whatever the
# object count, no numbering in subjects, no signature). Each topic's
# cover letter, 0000-cover-letter.patch, is written by hand down to its
# shortlog; the subject's patch count, the shortlog, the diffstat and the
# lines naming the base and the topics it needs are made here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "${TREE#"$TOP"/} missing: run make tree"
if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	git -C "$TREE" status --short --untracked-files=no | head >&2
	die "${TREE#"$TOP"/} has uncommitted changes: commit (or stash) them first"
fi

mapfile -t topics < <(series_topics)
[ ${#topics[@]} -gt 0 ] || die "patches/$SERIES/topics lists no topic"
# the topic branches, each on top of the one before, the last at HEAD
prev=base
for t in "${topics[@]}"; do
	git -C "$TREE" rev-parse -q --verify "refs/heads/topic/$t" >/dev/null ||
		die "no branch topic/$t in ${TREE#"$TOP"/}: make tree makes one for each topic of patches/$SERIES/topics"
	git -C "$TREE" merge-base --is-ancestor "$prev" "topic/$t" ||
		die "topic/$t does not build on $prev: rebase with --update-refs (rebase.updateRefs is set)"
	prev=topic/$t
done
[ "$(git -C "$TREE" rev-parse "$prev")" = "$(git -C "$TREE" rev-parse HEAD)" ] ||
	die "HEAD is not topic/${topics[-1]}: commits past the last topic belong to one (git branch -f topic/NAME)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkgver=$(base_pkg_version)
prev=base
needs=
n=0
for t in "${topics[@]}"; do
	dir=$SERIES_DIR/$t
	mkdir -p "$dir" "$tmp/$t"
	git -C "$TREE" -c core.abbrev=7 format-patch -q --zero-commit --no-signature --no-numbered \
		-o "$tmp/$t" "$prev..topic/$t"
	git -C "$TREE" -c core.abbrev=7 format-patch -q --zero-commit --no-signature --cover-letter \
		-o "$tmp/$t.cover" "$prev..topic/$t"
	find "$dir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name 0000-cover-letter.patch -delete
	cp "$tmp/$t"/*.patch "$dir/" 2>/dev/null || true
	count=$(find "$tmp/$t" -name '*.patch' | wc -l)
	n=$((n + count))
	if [ "$count" -eq 0 ]; then
		info "topic $t has no commit yet (check-series fails it)"
		needs="${needs:+$needs }$t"
		prev=topic/$t
		continue
	fi
	"$TOP/scripts/cover-letter.py" "$dir/0000-cover-letter.patch" "$tmp/$t.cover/0000-cover-letter.patch" \
		"$count" "$BASE_PKG $pkgver" "$needs" || die "$t: cover letter"
	needs="${needs:+$needs }$t"
	prev=topic/$t
done
printf '%s %s\n' "$(git -C "$TREE" rev-parse HEAD)" "$(series_hash)" >"$TREE/.git/ftrace-ext-stamp"
info "patches/$SERIES: $n patches in ${#topics[@]} topics from base..HEAD"
git -C "$TOP" status --short -- "patches/$SERIES" | head -20 || true

#!/bin/bash
# Regenerate patches/ from build/linux base..HEAD: one file per commit,
# git format-patch with stable names and no churn (zero commit ids, no
# numbering in subjects, no signature), and patches/series in order.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "build/linux missing: run make tree"
if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	git -C "$TREE" status --short --untracked-files=no | head >&2
	die "build/linux has uncommitted changes: commit (or stash) them first"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TREE" format-patch -q --zero-commit --no-signature --no-numbered \
	-o "$tmp" base..HEAD

# every patch but the cover letter, which is written by hand and kept
find "$TOP/patches" -maxdepth 1 -name '*.patch' ! -name 0000-cover-letter.patch -delete
: >"$TOP/patches/series"
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	cp "$f" "$TOP/patches/"
	basename "$f" >>"$TOP/patches/series"
done
n=$(wc -l <"$TOP/patches/series")
printf '%s %s\n' "$(git -C "$TREE" rev-parse HEAD)" "$(series_hash)" >"$TREE/.git/ftrace-ext-stamp"
info "patches/: $n patches from base..HEAD"
[ ! -f "$TOP/patches/0000-cover-letter.patch" ] ||
	info "patches/0000-cover-letter.patch kept: refresh its shortlog and diffstat from 'git format-patch --cover-letter base..HEAD' in build/linux if the series changed"
git -C "$TOP" status --short -- patches/ || true

#!/bin/bash
# Make build/$SERIES/linux: a git repository whose first commit is the
# pristine base kernel (tag "base") with the series of patches/$SERIES
# applied on top, topic after topic, one commit per patch. The branch
# topic/NAME points at the last commit of each topic, and rebases move it
# along (rebase.updateRefs): make series writes each topic's patches from
# the branch before it to its own. Re-running is cheap: nothing happens
# while the tree already holds exactly the series in patches/$SERIES.
#
#   FORCE=1  discard commits and edits in the tree that are not in patches/
set -euo pipefail
. "$(dirname "$0")/lib.sh"

STAMP=$TREE/.git/ftrace-ext-stamp
start=$(now)

"$TOP/scripts/fetch-base.sh"
[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL not found: install $BASE_PKG (make deps)"
pkgver=$(base_pkg_version)

git_t() {
	git -C "$TREE" -c user.name=ftrace-ext -c user.email=ftrace-ext@localhost "$@"
}

make_base() {
	info "extracting $BASE_TARBALL ($BASE_PKG $pkgver)"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$BASE_TARBALL" -C "$TREE.tmp" --strip-components=1
	mv "$TREE.tmp" "$TREE"
	git -C "$TREE" init -q -b base-branch
	# Objects are never pushed anywhere: skip compression and gc.
	git_t config core.compression 0
	git_t config gc.auto 0
	# An identity for the series' commits, if the host has none
	git config --global user.email >/dev/null 2>&1 || {
		git_t config user.name "ftrace-ext developers"
		git_t config user.email "dev@ftrace-ext.example"
	}
	# Debian's top-level .gitignore ignores "/*": add everything by force.
	git_t add -A -f .
	kver=$(make -s -C "$TREE" kernelversion)
	git_t commit -q -m "Linux $kver ($BASE_PKG $pkgver)" \
		-m "Pristine base: $BASE_TARBALL from the Debian package $BASE_PKG $pkgver."
	git_t tag base
	git_t checkout -q -b main
	# topic/* branches follow their commits through rebase -i
	git_t config rebase.updateRefs true
	# ...and in the work tree only, drop that rule so that new files
	# (kernel/trace/foo.c) show up in "git status" while developing.
	git_t update-index --skip-worktree .gitignore
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' "$TREE/.gitignore"
	echo "$pkgver" >"$TREE/.git/ftrace-ext-base"
}

apply_series() {
	git_t reset -q --hard base
	local n=0 p t
	# branches of topics the series no longer has
	git_t for-each-ref --format='%(refname:short)' refs/heads/topic/ |
		xargs -r git -C "$TREE" branch -q -D
	for t in $(series_topics); do
		[ -d "$SERIES_DIR/$t" ] || die "patches/$SERIES/topics lists $t but patches/$SERIES/$t does not exist"
		for p in $(topic_patches "$t"); do
			n=$((n + 1))
			if ! git_t am -q --3way "$SERIES_DIR/$p" >"$LOGDIR/git-am.log" 2>&1; then
				echo "--- git am output ---" >&2
				cat "$LOGDIR/git-am.log" >&2
				git_t am --show-current-patch=diff >/dev/null 2>&1 || true
				git_t diff --name-only --diff-filter=U >&2 || true
				git_t am --abort >/dev/null 2>&1 || true
				die "patch $n ($p) does not apply to $BASE_PKG $pkgver: see the failing hunks above"
			fi
		done
		git_t branch -q -f "topic/$t"
	done
	info "applied $n patches of $(series_topics | wc -l) topics on top of base ($BASE_PKG $pkgver)"
	printf '%s %s\n' "$(git_t rev-parse HEAD)" "$(series_hash)" >"$STAMP"
}

if [ ! -d "$TREE/.git" ] || [ "$(cat "$TREE/.git/ftrace-ext-base" 2>/dev/null)" != "$pkgver" ]; then
	if [ -d "$TREE/.git" ] && [ -z "${FORCE:-}" ] &&
		[ -n "$(git_t log --oneline base..HEAD 2>/dev/null)" ] &&
		[ "$(cut -d' ' -f1 "$STAMP" 2>/dev/null)" != "$(git_t rev-parse HEAD)" ]; then
		die "the base package changed but ${TREE#"$TOP"/} has commits not in patches/$SERIES: run 'make series' first, or FORCE=1"
	fi
	make_base
	apply_series
	phase_done tree "$start"
	exit 0
fi

head=$(git_t rev-parse HEAD)
read -r stamp_head stamp_series 2>/dev/null <"$STAMP" || { stamp_head=; stamp_series=; }

if [ -z "${FORCE:-}" ]; then
	if [ -n "$(git_t status --porcelain --untracked-files=no)" ]; then
		git_t status --short --untracked-files=no | head -20 >&2
		die "${TREE#"$TOP"/} has uncommitted changes: commit them and run 'make series', or FORCE=1 to discard"
	fi
	# a tree at its base holds no commit to lose (a first apply that stopped)
	if [ "$head" != "$stamp_head" ] && [ "$head" != "$(git_t rev-parse base)" ]; then
		die "${TREE#"$TOP"/} HEAD has commits that are not in patches/$SERIES: run 'make series' first, or FORCE=1 to discard them"
	fi
fi

if [ "$head" = "$stamp_head" ] && [ "$(series_hash)" = "$stamp_series" ]; then
	info "${TREE#"$TOP"/} is up to date with patches/$SERIES ($(git_t rev-list --count base..HEAD) patches)"
else
	apply_series
fi
phase_done tree "$start"

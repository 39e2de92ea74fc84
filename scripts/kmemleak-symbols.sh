#!/bin/bash
# The functions whose kmemleak leaks fail the debug lane, one a line
# (parse-results.py --kmemleak-symbols): those of kernel/trace, of every
# file the series adds or changes wherever it is (kernel/livepatch,
# kernel/kprobes.c, kernel/bpf/trampoline.c, fs/pstore, ...: the objects
# of the .c files of "git diff base HEAD" in TREE that the build made in
# OBJ) and of every module (the samples, the series' and upstream's test
# modules).
#   scripts/kmemleak-symbols.sh TREE OBJ
set -euo pipefail
tree=${1:?usage: kmemleak-symbols.sh TREE OBJ}
obj=${2:?usage: kmemleak-symbols.sh TREE OBJ}
[ -d "$obj/kernel/trace" ] || { echo "error: $obj/kernel/trace: no build there" >&2; exit 1; }
{
	find "$obj/kernel/trace" -name '*.o'
	# a file the config does not build has no object: nothing to attribute
	git -C "$tree" diff --name-only --diff-filter=AM base HEAD -- '*.c' | while read -r f; do
		if [ -f "$obj/${f%.c}.o" ]; then
			echo "$obj/${f%.c}.o"
		fi
	done
	find "$obj" -name '*.ko'
} | sort -u | xargs -r nm --defined-only 2>/dev/null | awk 'NF == 3 && $2 ~ /[tT]/ {print $3}' | sort -u

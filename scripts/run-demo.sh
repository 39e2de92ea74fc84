#!/bin/bash
# make run: boot the test kernel, run the demo (guest/demo.sh), then scan
# its console as the test lanes do: a kernel report, dropped console
# messages or a failed demo step fail "make run".
#   TIMEOUT=seconds  guest time limit (900)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

qrc=0
"$TOP/scripts/qemu-run.sh" test demo "${TIMEOUT:-900}" || qrc=$?
prc=0
# the demo must have booted the kernel just built (not BZIMAGE=)
narrowed=()
[ -z "${BZIMAGE:-}" ] || narrowed=(--narrowed "BZIMAGE=$BZIMAGE booted, not the kernel just built")
"$TOP/scripts/parse-results.py" --demo --tree "$TREE" --no-kunit \
	--console "$LOGDIR/console-demo.log" --vmlinux "$(obj_dir test)/vmlinux" \
	--expect-kernel "$(obj_dir test)/arch/x86/boot/bzImage" "${narrowed[@]}" \
	>"$LOGDIR/summary-demo.txt" || prc=$?
grep -A 40 -e '^FAILED:' -e '^NARROWED:' "$LOGDIR/summary-demo.txt" || true
if [ $qrc -ne 0 ] || [ $prc -ne 0 ]; then
	die "make run: the demo or its kernel failed (qemu exit $qrc; $(tail -1 "$LOGDIR/summary-demo.txt")); console in $LOGDIR/console-demo.log"
fi
info "make run: the demo finished, no kernel report on its console ($(tail -1 "$LOGDIR/summary-demo.txt"))"

# shellcheck shell=sh
# run CMD: one step of the demo of "make run" (guest/demo.sh, sourced
# there and by tests/check-parser.py's demo-steps case). It shows the
# command and runs it in bash with errexit and pipefail (the guest's sh
# is dash, which has neither pipefail nor a way to see a pipeline's first
# command fail): a command that fails anywhere in the step fails it, in
# a pipeline ("grep ... | cut") as before a ";" ("cmd; cat log"). A step
# that fails is shown and counted in $failed; the demo then exits
# non-zero, which "make run" reports. A reader that stops early (head,
# grep -m, grep -q after a pipe) would make its writer die of SIGPIPE,
# a failure that depends on timing: steps read whole streams (sed -n 1,Np).
failed=0
run() {
	echo "# $*"
	bash -e -o pipefail -c "$*" && return 0
	echo "!!! demo step failed (exit $?): $*"
	failed=$((failed + 1))
}

# shellcheck shell=sh
# Helpers for guest test scripts. Results go to the console (for people)
# and to /dev/ttyS1, the results channel the host parses (nothing else
# writes there, so kernel messages never garble a result line).

TRACEFS=/sys/kernel/tracing
# (guest/repro/guest-test.sh names a file of its own instead)
if [ -z "${RESULTS:-}" ]; then
	RESULTS=/dev/ttyS1
	[ -c "$RESULTS" ] || RESULTS=/dev/null
fi

# emit LINE: copy a line to the results channel.
emit() {
	echo "$*" >>"$RESULTS"
}

# result SUITE NAME PASS|FAIL|SKIP [DETAIL...]
result() {
	_suite=$1 _name=$2 _status=$3
	shift 3
	echo "FTX-RESULT $_suite $_name $_status $*"
	emit "FTX-RESULT $_suite $_name $_status $*"
}

# check SUITE NAME DETAIL -- CMD...: PASS if CMD succeeds.
check() {
	_suite=$1 _name=$2 _detail=$3
	shift 4
	if "$@"; then
		result "$_suite" "$_name" PASS
	else
		result "$_suite" "$_name" FAIL "$_detail"
	fi
}

# wait_for SECONDS CMD...: retry CMD every 0.2 s until it succeeds.
wait_for() {
	_n=$(($1 * 5))
	shift
	while [ $_n -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		_n=$((_n - 1))
	done
	return 1
}

# Monotonic seconds, for timing sections.
secs() {
	cut -d. -f1 /proc/uptime
}

# section NAME: mark the start of a block in the console.
section() {
	echo
	echo "======== $* ========"
}

# run_limited SECONDS CMD...: run CMD in a session of its own and wait for
# it. After SECONDS, kill the whole session (background helpers too) and
# set timed_out=1, so that the caller can fail the part and go on.
run_limited() {
	_limit=$1
	shift
	timed_out=0
	rm -f /tmp/ftx-timed-out
	# A background job of a non-interactive shell is no group leader, so
	# setsid execs in place: $! is the new session and process group. Its
	# leader only waits: a session leader that opens a tty (result() opens
	# ttyS1) makes it its controlling tty, which is hung up when it exits.
	setsid sh -c '"$@" & wait $!' part "$@" &
	_pid=$!
	setsid sh -c 'sleep "$1"; : >/tmp/ftx-timed-out; kill -TERM -"$2"; sleep 10; kill -KILL -"$2"' \
		watchdog "$_limit" "$_pid" 2>/dev/null &
	_wd=$!
	wait "$_pid"
	_rc=$?
	kill -KILL -"$_wd" 2>/dev/null
	wait "$_wd" 2>/dev/null
	if [ -e /tmp/ftx-timed-out ]; then
		timed_out=1
		kill -KILL -"$_pid" 2>/dev/null
	fi
	return $_rc
}

# bench_row KEY UNIT CMD...: run CMD 3 times (it prints one number) and report
# the smallest, also in $bench_best; a run that prints no number fails the
# row. Every row goes to the host as "FTX-BENCH-STATS KEY MIN MEDIAN MAX"
# (scripts/bench-goals.py checks tests/bench-goals.txt against them); the
# host also compares "FTX-BENCH-ROW KEY MIN" with the pristine base's
# unless BENCH_COMPARE=0 (rows of features the base does not have).
bench_row() {
	_key=$1 _unit=$2
	shift 2
	_all=
	for _i in 1 2 3; do
		_v=$("$@")
		case $_v in
		'' | *[!0-9]*)
			printf '%-40s %10s\n' "$_key" "no number"
			result bench "$_key" FAIL "printed '$_v', not a number"
			return 1
			;;
		esac
		_all="$_all $_v"
	done
	# shellcheck disable=SC2086
	set -- $(printf '%s\n' $_all | sort -n)
	printf '%-40s %10s  %s  (min %s, median %s, max %s)\n' "$_key" "$1" "$_unit" "$1" "$2" "$3"
	emit "FTX-BENCH-STATS $_key $1 $2 $3"
	[ "${BENCH_COMPARE:-1}" = 0 ] || emit "FTX-BENCH-ROW $_key $1"
	bench_best=$1
	result bench "$_key" PASS
}

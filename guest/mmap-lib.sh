# The helpers of the guest tests of tools/tracing/mmap-record
# (guest/tests/mmap-record*.sh): numbered trace_marker writes on every CPU
# and the checks of what the recorder wrote. Sourced after /guest/lib.sh.

N=300
NCPU=$(ls -d $TRACEFS/per_cpu/cpu* | wc -l)

# markers FILE TAG [COUNT]: N (or COUNT) numbered writes (TAG-cC:I) to FILE from each CPU C,
# by a script, so that trace-cmd record can run it too
cat >/tmp/markers.sh <<'M'
c=0
while [ $c -lt $3 ]; do
	taskset -c $c tracefs-pipe markers "$1" "$2-c$c" $4 >/dev/null &
	c=$((c + 1))
done
wait
M
markers() {
	sh /tmp/markers.sh "$1" "$2" $NCPU "${3:-$N}"
}

# check_seqs REPORT TAG LOST [COUNT]: per CPU, every number below N (or
# COUNT) once, or LOST of them missing; a number twice or out of range fails.
check_seqs() {
	_n=${4:-$N}
	for c in $(seq 0 $((NCPU - 1))); do
		grep -o "$2-c$c:[0-9]*" "$1" | sed 's/.*://' | sort -n >/tmp/seqs
		got=$(wc -l </tmp/seqs)
		dup=$(uniq -d </tmp/seqs | wc -l)
		bad=$(awk -v n=$_n '$1 < 0 || $1 >= n' /tmp/seqs | wc -l)
		if [ "$dup" -ne 0 ] || [ "$bad" -ne 0 ] || [ $((got + $3)) -lt $_n ]; then
			echo "cpu$c: $got of $_n, $dup twice, $bad out of range, $3 lost"
			return 1
		fi
	done
}

# record_markers NAME DIR TAG ARGS...: mmap-record ARGS -o /tmp/NAME.dat
# (stderr in /tmp/NAME.err) while markers TAG go to DIR/trace_marker, then
# SIGINT ends the recording (ARGS' -d is only a safety net: a recording
# that a deadline ends may end before a slow guest wrote every marker);
# rc is its exit status
record_markers() {
	_name=$1 _dir=$2 _tag=$3
	shift 3
	rm -f /tmp/$_name.err	# a previous round's says "recording" already
	mmap-record "$@" -o /tmp/$_name.dat 2>/tmp/$_name.err &
	_pid=$!
	if wait_for 30 grep -qs "recording" /tmp/$_name.err; then
		markers $_dir/trace_marker $_tag
		kill -INT $_pid
	fi
	wait $_pid
	rc=$?
	cat /tmp/$_name.err
}

# check_subbuf_counts ERR: since 7.1 the meta page counts the sub-buffers
# the writer moved to and overwrote; with overwrite on, a CPU lost events
# to the writer (lost less never written) exactly when it overwrote a
# sub-buffer, and never overwrote more than it moved to. Before 7.1 the
# recorder says the counters are not there.
check_subbuf_counts() {
	if [ "$(uname -r | awk -F. '{ print ($1 > 7 || ($1 == 7 && $2 >= 1)) }')" = 0 ]; then
		grep -q "counts no sub-buffers before Linux 7.1" "$1" && ! grep -q "the writer moved" "$1"
		return
	fi
	awk '/^CPU[0-9]*: / {
		cpus++
		if (!match($0, /moved to [0-9]+ sub-buffers and overwrote [0-9]+/)) {
			print $1, "no sub-buffer counts"; bad++; next
		}
		split(substr($0, RSTART, RLENGTH), w, " ")
		moved = w[3]; over = w[7]
		match($0, /[0-9]+ lost \([0-9]+ never/); split(substr($0, RSTART, RLENGTH), l, "[ (]+")
		if (((l[1] - l[3]) > 0) != (over > 0) || over > moved) {
			print $1, l[1] - l[3], "lost to the writer,", over, "of", moved, "overwritten"; bad++
		}
	} END { exit !(cpus && !bad) }' "$1"
}

# lost_of ERR: the lost count the recorder reported at its end
lost_of() {
	sed -n 's/^mmap-record: .* events, \([0-9]*\) lost.*/\1/p' "$1"
}

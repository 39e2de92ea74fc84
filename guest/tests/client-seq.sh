#!/bin/sh
# What a current libtracefs (1.8) does in its own unit tests, replayed by
# guest/src/client-seq.c against the top level and an instance: the
# snapshot_raw iteration after "echo 1 > snapshot" (with and without a
# mapping opened and closed on the buffer before it, with one- and
# two-page sub-buffers), and a consumer that moves CPU 0's events into a
# file while they are written, then stops and flushes, mapped and not.
# 6.1 defined how trace_marker, snapshot_raw, read() and splice() of
# trace_pipe_raw behave; newer clients count on it.
# needs: mapped-buffers
. /guest/lib.sh

S=client-seq
T=$TRACEFS
I=$T/instances/clientseq

# run_seq NAME CMD...: one result a sequence; its line says what went wrong
run_seq() {
	_n=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	echo "$_n: $_out"
	case $_rc:$_out in
	0:OK*) result $S "$_n" PASS "$_out" ;;
	*) result $S "$_n" FAIL "exit $_rc: $(echo "$_out" | tail -3 | tr '\n' ' ')" ;;
	esac
}

mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }
echo 1 >$T/tracing_on
# libtracefs' suite resets the top level first (current_tracer), which
# grows its buffer to its set size: the 5000 samples need it
echo nop >$T/current_tracer

for where in top inst; do
	d=$T
	[ $where = inst ] && d=$I
	run_seq snapshot-raw-$where client-seq snapshot-raw $d
	run_seq snapshot-raw-$where-premap client-seq snapshot-raw $d premap
done
# two-page sub-buffers, at the top level (made at boot by its own path,
# and the one whose header_page libtracefs sizes its readers by) and in
# the instance; a size that did not take would rerun the one-page case
# under the two-page name, so it is checked
for where in top inst; do
	d=$T
	[ $where = inst ] && d=$I
	if echo 8 >$d/buffer_subbuf_size_kb && [ "$(cat $d/buffer_subbuf_size_kb)" = 8 ]; then
		run_seq snapshot-raw-$where-8k client-seq snapshot-raw $d
		run_seq snapshot-raw-$where-8k-premap client-seq snapshot-raw $d premap
	else
		result $S snapshot-raw-$where-8k FAIL "buffer_subbuf_size_kb: 8 did not take ($(cat $d/buffer_subbuf_size_kb))"
	fi
	echo 4 >$d/buffer_subbuf_size_kb
done

# the counts libtracefs uses: one event, half a sub-buffer's worth, a
# full one, one more, and a thousand sub-buffers' worth (a hundred on the
# debug kernel), with its
# estimate of 20 bytes an event (4080 / 20 = 204 a sub-buffer)
# "mapped" reads the reader sub-buffer up to the commit the writer keeps
# moving, as libtracefs does; "mapped-meta" up to what GET_READER handed
# over (reader.read), as tools/tracing/mmap-record does.
per=$(( ($(sed -n 's/.*field: char data;.*offset:\([0-9]*\);.*size:\([0-9]*\);.*/\2/p' $T/events/header_page)) / 20 ))
# the debug kernel is 5 to 8 times slower: a hundred sub-buffers' worth
# there still makes the reader follow the writer across a hundred sub-buffers
many=1000
# and it has no syscall events: one-byte trace_marker writes stand in for
# getppid() (about 24 bytes an entry, so "full" is some five-sixths of a
# sub-buffer there; "many" still spans a hundred)
marker=
[ "$(cat /etc/ftrace-ext-flavour)" = debug ] && { many=100; marker=marker; }
for where in top inst; do
	d=$T
	[ $where = inst ] && d=$I
	for how in unmapped mapped mapped-meta; do
		for n in 1:1 half:$((per / 2)) full:$per full-plus-1:$((per + 1)) many:$((per * many)); do
			# shellcheck disable=SC2086 # no word when empty
			run_seq cpu-pipe-$where-$how-${n%%:*} client-seq cpu-pipe $d ${n#*:} $how $marker
		done
	done
	# A reader that follows the writer on the reader sub-buffer lost the
	# rest of it when the writer filled it and moved on at the wrong
	# moment (rb_get_reader_page()): about one run in two of the mapped
	# "many" case before the fix. Three more runs each make a miss of
	# that bug unlikely.
	for r in 2 3 4; do
		# shellcheck disable=SC2086
		run_seq cpu-pipe-$where-mapped-many-run$r client-seq cpu-pipe $d $((per * many)) mapped $marker
	done
done

echo >$T/trace
rmdir $I || result $S cleanup FAIL "rmdir $I"

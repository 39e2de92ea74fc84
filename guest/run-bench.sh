#!/bin/sh
# The guest side of "make bench": runs guest/bench/*.sh in order, or those
# named by ftx.bench=NAME[,NAME] (the pristine base runs only what it has:
# 00-hot-paths). Each prints its table to the console and, between
# FTX-BENCH-BEGIN/END lines, to the results channel; each row it measured
# is an FTX-RESULT, so that the host fails a benchmark that printed none.
. /guest/lib.sh
stty -F /dev/ttyS1 raw -echo 2>/dev/null

only=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.bench=*) only=${arg#ftx.bench=} ;;
	esac
done

emit "FTX-RUN-BEGIN kernel=$(uname -r)"
echo "All figures are guest nanoseconds under QEMU -icount shift=0,sleep=off:"
echo "one nanosecond per executed guest instruction, so they measure path"
echo "length (instructions), not cache or branch behaviour."
for b in /guest/bench/*.sh; do
	name=$(basename "$b" .sh)
	if [ -n "$only" ]; then
		case ",$only," in
		*,"$name",*) ;;
		*) continue ;;
		esac
	fi
	section "bench $name"
	emit "FTX-BENCH-BEGIN $name"
	# the console shows each row as it comes
	{
		sh "$b" 2>&1
		echo $? >/tmp/bench-rc
	} | tee /tmp/bench-$name.out
	rc=$(cat /tmp/bench-rc)
	grep -v '^FTX-RESULT ' /tmp/bench-$name.out >>"$RESULTS"
	emit "FTX-BENCH-END $name"
	[ $rc -eq 0 ] || result bench "$name" FAIL "exit status $rc"
done
emit "FTX-RUN-END"

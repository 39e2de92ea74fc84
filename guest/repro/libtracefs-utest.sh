#!/bin/sh
# libtracefs's own unit tests, as the issue ran them: "trace-utest -r
# tracefs" in a tmpfs working directory (the static trace-utest of
# scripts/fetch-libtracefs-utest.sh, which scripts/mkinitramfs.sh copies in
# when it is built). ftx.subbuf=KB first sets the top level's
# buffer_subbuf_size_kb (where the kernel has it), and the run puts the
# old size back after. Prints the sub-buffer sizes the kernel gives (the
# top level's and a new instance's buffer_subbuf_size_kb and header_page
# data size), trace-utest's output without its numbered failure lines,
# each failed assertion once (test, file:line, condition, how often), and
# one line to compare kernels by:
#   FTX-UTEST subbuf=<KB|default> run=<tests run> asserts=<asserts run>
#     failed=<asserts failed> suites-failed=<n> tests-failed=<names|->
# (the names comma-separated, '_' for ' '; '?' where CUnit printed no
# summary). Exits with trace-utest's status when it is not 0 (this
# trace-utest returns 0 whatever failed), else 1 when an assertion or a
# suite failed or no summary came, else 0. After scripts/mkinitramfs.sh test:
#   SERIES=7.2 scripts/qemu-run.sh test repro 1800 "ftx.repro=libtracefs-utest ftx.rounds=1 ftx.subbuf=8"
. /guest/lib.sh

T=$TRACEFS
W=/tmp/ftx-utest
subbuf=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.subbuf=*) subbuf=${arg#ftx.subbuf=} ;;
	esac
done
if ! command -v trace-utest >/dev/null; then
	echo "libtracefs-utest: no trace-utest in the initramfs (scripts/fetch-libtracefs-utest.sh, then scripts/mkinitramfs.sh)"
	exit 1
fi

# sizes DIR: a tracefs directory's sub-buffer size and header_page data size
sizes() {
	printf 'buffer_subbuf_size_kb=%s header_page-data-size=%s\n' \
		"$(cat "$1/buffer_subbuf_size_kb" 2>/dev/null || echo none)" \
		"$(sed -n 's/.*field: char data;.*size:\([0-9]*\);.*/\1/p' "$1/events/header_page")"
}

saved=
used=default
if [ -n "$subbuf" ]; then
	if [ -f $T/buffer_subbuf_size_kb ]; then
		saved=$(cat $T/buffer_subbuf_size_kb)
		if ! echo "$subbuf" >$T/buffer_subbuf_size_kb; then
			echo "libtracefs-utest: cannot set the top level's buffer_subbuf_size_kb to $subbuf"
			exit 1
		fi
		used=$(cat $T/buffer_subbuf_size_kb)
	else
		echo "libtracefs-utest: ftx.subbuf=$subbuf, but this kernel has no buffer_subbuf_size_kb: default sub-buffers"
	fi
fi
echo "libtracefs-utest: kernel $(uname -r), top level: $(sizes $T)"
if mkdir $T/instances/ftx-utest-probe 2>/dev/null; then
	echo "libtracefs-utest: a new instance: $(sizes $T/instances/ftx-utest-probe)"
	rmdir $T/instances/ftx-utest-probe
fi

mkdir -p $W
mount -t tmpfs tmpfs $W || exit 1
cd $W || exit 1
t0=$(secs)
trace-utest -r tracefs >$W/out.log 2>&1
rc=$?
cd /
echo "libtracefs-utest: trace-utest exit status $rc after $(($(secs) - t0)) s"
# what the run leaves behind when it stops half way
rmdir $T/instances/cunit_test_iter 2>/dev/null
[ -z "$saved" ] || echo "$saved" >$T/buffer_subbuf_size_kb

grep -vE '^    [0-9]+\. ' $W/out.log
echo "libtracefs-utest: failed assertions (count, test, where, condition):"
awk '
	/^  Test: / { t = $0; sub(/^  Test: /, "", t); sub(/ \.\.\..*/, "", t); next }
	/^    [0-9]+\. [^ ]+:[0-9]+  - / {
		where = $2
		cond = $0
		sub(/^    [0-9]+\. [^ ]+  - /, "", cond)
		k = t "\t" where "\t" cond
		if (!(k in n)) order[++nk] = k
		n[k]++
	}
	END {
		for (i = 1; i <= nk; i++) {
			split(order[i], f, "\t")
			printf "  %5d  %s  %s  %s\n", n[order[i]], f[1], f[2], f[3]
		}
		if (!nk) print "  none"
	}' $W/out.log
line=$(awk -v subbuf="$used" '
	/^  Test: / { t = $0; sub(/^  Test: /, "", t); sub(/ \.\.\..*/, "", t); next }
	/^    [0-9]+\. [^ ]+:[0-9]+  - / {
		if (!(t in bad)) { bad[t] = 1; u = t; gsub(/ /, "_", u); list = list (list == "" ? "" : ",") u }
		next
	}
	$1 == "suites" && NF == 6 { sf = $5 }
	$1 == "tests" && NF == 6 { run = $3 }
	$1 == "asserts" && NF == 6 { as = $3; af = $5 }
	END {
		if (run == "") run = "?"
		if (as == "") { as = "?"; af = "?" }
		if (sf == "") sf = "?"
		if (list == "") list = "-"
		printf "FTX-UTEST subbuf=%s run=%s asserts=%s failed=%s suites-failed=%s tests-failed=%s\n",
			subbuf, run, as, af, sf, list
	}' $W/out.log)
echo "$line"
emit "$line"
umount $W

[ $rc -eq 0 ] || exit $rc
case $line in
*" failed=0 suites-failed=0 "*) exit 0 ;;
*) exit 1 ;;
esac

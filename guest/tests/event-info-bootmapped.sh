#!/bin/sh
# A persistent (boot-mapped) instance has an info file like any other:
# one block for each of its events, each block's format lines its format
# file's, the state its enable file reads. The guest boots with the
# instance "bootmapped" (tests/lanes.list's bootmap).
# needs: event-info boot-mapped
. /guest/lib.sh

S=event-info-bootmapped
B=$TRACEFS/instances/bootmapped
check $S instance-is-boot-mapped "no boot-mapped instance $B (per_cpu/cpu0/buffer_meta)" -- \
	test -e $B/per_cpu/cpu0/buffer_meta
check $S has-info "no $B/info" -- test -r $B/info

echo 1 >$B/events/sched/sched_switch/enable
# every event once, as events/ lists them
grep '^name: ' $B/info | sed 's/^name: //' | sort >/tmp/info.names
ls -d $B/events/*/*/ | sed 's,/$,,; s,.*/,,' | sort >/tmp/events.names
check $S every-event "info names $(wc -l </tmp/info.names) events, events/ $(wc -l </tmp/events.names)" -- \
	sh -c '[ -s /tmp/info.names ] && cmp -s /tmp/info.names /tmp/events.names'
# block SYSTEM/NAME: that event's block of $B/info
block() {
	awk -v want="$1" '
	     function flush() { if (sys "/" name == want) printf "%s", buf }
	     /^#/ { next }
	     /^system: / { flush(); buf = ""; sys = $2; name = "" }
	     /^name: / { name = $2 }
	     { buf = buf $0 "\n" }
	     END { flush() }' $B/info
}
block sched/sched_switch >/tmp/block
check $S block-enabled "sched_switch's block: $(sed -n 2p /tmp/block)" -- \
	test "$(sed -n 2p /tmp/block)" = "enabled: 1"
sed 1,2d /tmp/block >/tmp/block.format
check $S block-is-format "sched_switch's block is not its format file" -- \
	sh -c '[ -s /tmp/block.format ] && cmp -s /tmp/block.format '$B/events/sched/sched_switch/format
echo 0 >$B/events/sched/sched_switch/enable
block sched/sched_switch >/tmp/block
check $S block-disabled "sched_switch's block once off: $(sed -n 2p /tmp/block)" -- \
	test "$(sed -n 2p /tmp/block)" = "enabled: 0"

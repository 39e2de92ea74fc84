#!/bin/sh
# A persistent (boot-mapped) instance has no snapshot buffer: like
# "snapshot", snapshot_enabled and snapshot_pipe are not there, at its
# top or per CPU, while the instances that have one get both. The guest
# boots with the instance "bootmapped" (tests/lanes.list's bootmap).
# needs: snapshot-files boot-mapped
. /guest/lib.sh

S=snapshot-bootmapped
B=$TRACEFS/instances/bootmapped
check $S instance-is-boot-mapped "no boot-mapped instance $B (per_cpu/cpu0/buffer_meta)" -- \
	test -e $B/per_cpu/cpu0/buffer_meta
for f in snapshot snapshot_enabled snapshot_pipe per_cpu/cpu0/snapshot \
	per_cpu/cpu0/snapshot_pipe; do
	check $S "no-$(echo $f | tr / -)" "$B/$f exists" -- test ! -e $B/$f
done

# the same files in an instance made beside it
I=$TRACEFS/instances/notmapped
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }
for f in snapshot_enabled snapshot_pipe per_cpu/cpu0/snapshot_pipe; do
	check $S "other-has-$(echo $f | tr / -)" "$I/$f is missing" -- test -e $I/$f
done
rmdir $I || result $S cleanup FAIL "rmdir $I"

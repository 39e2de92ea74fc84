#!/bin/sh
# Stress: kernel threads (trace_instance_stress.ko) create, use and destroy
# instances while user space does mkdir/rmdir on the same names, keeps
# their files open and takes snapshots, for a bounded time. Every kernel
# return value must be one the API documents; user space may only see
# EEXIST, EBUSY and ENOENT; nothing may be left behind.
. /guest/lib.sh

S=stress
DUR=${STRESS_SECONDS:-8}
I=$TRACEFS/instances
NAMES="stress-0 stress-1 stress-2 stress-3"
ERR=/tmp/stress-errors
: >$ERR

end=$(($(secs) + DUR + 2))

user_mkdir_rmdir() {
	while [ "$(secs)" -lt $end ]; do
		for n in $NAMES; do
			mkdir $I/$n 2>>$ERR
			rmdir $I/$n 2>>$ERR
		done
	done
}

user_readers() {
	while [ "$(secs)" -lt $end ]; do
		for n in $NAMES; do
			timeout 0.2 cat $I/$n/trace_pipe >/dev/null 2>>$ERR
			cat $I/$n/trace >/dev/null 2>>$ERR
			(echo 1 >$I/$n/snapshot) 2>>$ERR
			cat $I/$n/snapshot >/dev/null 2>>$ERR
			(echo 0 >$I/$n/snapshot) 2>>$ERR
		done
	done
}

user_mkdir_rmdir &
p1=$!
user_readers &
p2=$!
user_readers &
p3=$!

if modprobe trace_instance_stress seconds=$DUR names=4 threads=2; then
	result $S kernel-load PASS
else
	result $S kernel-load FAIL "modprobe trace_instance_stress failed"
fi
wait $p1 $p2 $p3

P=/sys/module/trace_instance_stress/parameters
unexp=$(cat $P/unexpected 2>/dev/null || echo missing)
rounds=$(cat $P/rounds 2>/dev/null || echo 0)
dmesg | grep "trace_instance_stress:" | tail -14
echo "kernel rounds: $rounds, unexpected return values: $unexp"
check $S kernel-returns-documented "undocumented return values: $unexp" -- test "$unexp" = 0
check $S kernel-ran "no kernel round ran" -- test "$rounds" -gt 0
rmmod trace_instance_stress || result $S kernel-unload FAIL "rmmod failed"

# A long run can be killed: a fatal signal to modprobe stops the threads
# after their round and fails the load with EINTR. (It waited, unkillable,
# for the whole run, which the hung-task detector reported in a soak.)
# The kill comes once the thread runs: the init is at its wait, or on the
# way to it with the signal pending.
modprobe trace_instance_stress seconds=120 names=1 threads=1 prefix=killed &
mp=$!
wait_for 30 sh -c 'grep -q "^instance-stress" /proc/[0-9]*/comm 2>/dev/null' ||
	echo "the module's thread did not show in 30 s: killing modprobe anyway"
kill -9 $mp
wait $mp
check $S kernel-load-killable "modprobe was killed 120 s early, yet the module loaded" -- \
	test ! -d /sys/module/trace_instance_stress
rmmod trace_instance_stress 2>/dev/null
wait_for 5 sh -c "rmdir $I/killed-0 2>/dev/null; test ! -d $I/killed-0"

# What user space saw, by kind. Expected: EEXIST (mkdir of a name in use),
# EBUSY (rmdir of an instance owned by the kernel or in use), ENOENT (dash:
# "Directory nonexistent", busybox sh: "nonexistent directory") and ENODEV (the instance went away between
# lookup and open/rmdir), EACCES for an O_CREAT open ("cannot create" in
# dash, "can't create" in busybox sh, which the part runner may start)
# while tracefs populates or tears down the directory, and the readers
# that timeout(1) stops ("Terminated", at times with a blank line).
echo "user space errors by kind:"
sed 's/.*: //' $ERR | sort | uniq -c | sort -rn
bad=$(grep -v -e "File exists" -e "Device or resource busy" -e "No such file or directory" \
	-e "Directory nonexistent" -e "nonexistent directory" -e "No such device" -e "can.*t create .*: Permission denied" \
	-e "Terminated" -e '^[[:space:]]*$' $ERR | sort | uniq -c)
check $S user-errnos-documented "unexpected errors in user space: $bad" -- test -z "$bad"

# Nothing left behind: every name can be removed, and is gone
for n in $NAMES; do
	wait_for 5 sh -c "rmdir $I/$n 2>/dev/null; test ! -d $I/$n"
done
# (only this scenario's names: exports.sh may still hold stress-export)
left=0
for n in $NAMES; do
	[ -d $I/$n ] && left=$((left + 1))
done
check $S nothing-left "$left stress instances left behind" -- test "$left" = 0

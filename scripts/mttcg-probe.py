#!/usr/bin/env python3
"""Probe a stalled guest through QEMU's monitor (design/mttcg-stall.md).

  scripts/mttcg-probe.py SOCKET VMLINUX

Samples each vCPU's instruction pointer 40 times (info registers -a),
symbolizes the samples, and reads the guest's memory at each vCPU's most
frequent place outside idle and the int3 path, through the vCPU's page
tables (x) and at the kernel's physical address (xp).

The last line is the verdict:

  PROBE stale-code: cpuN@SYM:BYTE ...   a vCPU keeps taking int3 traps at
      an instruction whose first byte in memory is not int3 (0xcc). No CPU
      traps on a breakpoint that is not in memory for seconds on end: the
      emulator is running a translation of bytes the guest has rewritten
      (QEMU's multi-threaded TCG after text_poke_bp()). Exit status 0.
  PROBE other: ...   anything else (no vCPU trapping, or an int3 that is
      really there): the stall is the guest's to explain. Exit status 1.
Exit status 2: the monitor could not be read.
"""
import collections
import re
import socket
import subprocess
import sys
import time

# the int3 handlers: a sample here is a trap being handled
INT3_PATH = ("asm_exc_int3", "exc_int3", "do_int3", "poke_int3_handler",
             "kprobe_int3_handler", "put_desc", "try_get_desc")
# the exception entry and exit every trap (and interrupt) goes through:
# neither a trap nor the code a vCPU is stuck at
ENTRY = ("ct_dynticks", "irqentry_nmi_enter", "irqentry_nmi_exit",
         "restore_regs_and_return_to_kernel")
IDLE = ("native_safe_halt", "default_idle", "hpet_readl", "native_apic_mem_write")
SAMPLES = 40
# a vCPU "keeps trapping" when this many of its samples are in the int3
# path: a real, transient trap (text_poke_bp() in progress) lasts
# microseconds, far below one sample in 0.3 s
MIN_TRAPS = 3


def main():
    sock, vmlinux = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(sock)
    except OSError as e:
        print("PROBE error: monitor %s: %s" % (sock, e))
        return 2
    s.settimeout(0.5)

    def cmd(c):
        if c:
            s.send((c + "\n").encode())
            time.sleep(0.3)
        out = b""
        try:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                out += d
        except socket.timeout:
            pass
        # the monitor echoes with terminal escapes: keep the answer's lines
        return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.decode(errors="replace"))

    syms = {}

    def sym(a):
        if a not in syms:
            p = subprocess.run(["addr2line", "-f", "-e", vmlinux, "0x" + a],
                               capture_output=True, text=True)
            f = p.stdout.split("\n")
            syms[a] = f[0] if f and f[0] != "??" else "?"
        return syms[a]

    cmd("")
    rips = collections.defaultdict(collections.Counter)
    for _ in range(SAMPLES):
        for cpu, rip in enumerate(re.findall(r"RIP=([0-9a-f]{16})", cmd("info registers -a"))):
            rips[cpu][rip] += 1
    if not rips:
        print("PROBE error: no RIP in the monitor's answers")
        return 2
    stale, seen = [], []
    total = sum(sum(c.values()) for c in rips.values())
    trapping = 0
    for cpu in sorted(rips):
        print("  cpu%d: %s" % (cpu, ", ".join(
            "%s %s x%d" % (a, sym(a), n) for a, n in rips[cpu].most_common(4))))
        traps = sum(n for a, n in rips[cpu].items() if sym(a) in INT3_PATH)
        trapping += traps
        busy = [a for a, _ in rips[cpu].most_common() if sym(a) not in INT3_PATH + ENTRY + IDLE]
        if not busy:
            continue
        top = busy[0]
        cmd("cpu %d" % cpu)
        virt = re.findall(r"^[0-9a-f]+: (.*)$", cmd("x/5xb 0x" + top), re.M)
        phys = int(top, 16) - 0xffffffff80000000
        got = re.findall(r"^[0-9a-f]+: (.*)$", cmd("xp/5xb 0x%x" % phys), re.M) \
            if 0 <= phys < 1 << 32 else []
        print("  cpu%d's code at %s (%s): virtual %s, physical %s" % (
            cpu, top, sym(top), virt[0] if virt else "?", got[0] if got else "?"))
        byte = virt[0].split()[0] if virt else ""
        where = "cpu%d@%s:%s" % (cpu, sym(top), "int3" if byte == "0xcc"
                                  else byte.replace("0x", "") or "?")
        seen.append(where)
        # trapping, at an instruction that memory says is no breakpoint
        if traps >= MIN_TRAPS and byte and byte != "0xcc":
            stale.append(where)
    print("  samples in the int3 path: %d of %d" % (trapping, total))
    if stale:
        print("PROBE stale-code: %s; int3 path %d/%d" % (" ".join(stale), trapping, total))
        return 0
    print("PROBE other: first byte in memory: %s; int3 path %d/%d" % (
        " ".join(seen) or "none", trapping, total))
    return 1


if __name__ == "__main__":
    sys.exit(main())

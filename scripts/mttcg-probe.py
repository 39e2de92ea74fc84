#!/usr/bin/env python3
"""Probe a stalled guest through QEMU's monitor (design/mttcg-stall.md).

  scripts/mttcg-probe.py SOCKET VMLINUX
  scripts/mttcg-probe.py --self-test    the verdict on recorded samples

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
    def code_at(cpu, top):
        cmd("cpu %d" % cpu)
        virt = re.findall(r"^[0-9a-f]+: (.*)$", cmd("x/5xb 0x" + top), re.M)
        phys = int(top, 16) - 0xffffffff80000000
        got = re.findall(r"^[0-9a-f]+: (.*)$", cmd("xp/5xb 0x%x" % phys), re.M) \
            if 0 <= phys < 1 << 32 else []
        print("  cpu%d's code at %s (%s): virtual %s, physical %s" % (
            cpu, top, sym(top), virt[0] if virt else "?", got[0] if got else "?"))
        return virt[0].split()[0] if virt else ""

    for cpu in sorted(rips):
        print("  cpu%d: %s" % (cpu, ", ".join(
            "%s %s x%d" % (a, sym(a), n) for a, n in rips[cpu].most_common(4))))
    stale, line = verdict(rips, sym, code_at)
    print(line)
    return 0 if stale else 1


def verdict(rips, sym, code_at):
    """rips: {cpu: Counter(rip)}; sym(rip) its function; code_at(cpu, rip)
    the first byte in memory there ("0xcc", or "" when unreadable).
    Returns (stale, the PROBE line)."""
    stale, seen = [], []
    total = sum(sum(c.values()) for c in rips.values())
    trapping = 0
    for cpu in sorted(rips):
        traps = sum(n for a, n in rips[cpu].items() if sym(a) in INT3_PATH)
        trapping += traps
        # the vCPU's most frequent place outside idle and the trap path:
        # the code it keeps coming back to
        busy = [a for a, _ in rips[cpu].most_common() if sym(a) not in INT3_PATH + ENTRY + IDLE]
        if not busy:
            continue
        byte = code_at(cpu, busy[0])
        where = "cpu%d@%s:%s" % (cpu, sym(busy[0]), "int3" if byte == "0xcc"
                                  else byte.replace("0x", "") or "?")
        seen.append(where)
        # trapping, at an instruction that memory says is no breakpoint
        if traps >= MIN_TRAPS and byte and byte != "0xcc":
            stale.append(where)
    if stale:
        return True, "PROBE stale-code: %s; int3 path %d/%d" % (" ".join(stale), trapping, total)
    return False, "PROBE other: first byte in memory: %s; int3 path %d/%d" % (
        " ".join(seen) or "none", trapping, total)


def self_test():
    """The verdict on samples of stalls seen (design/mttcg-stall.md) and of
    stalls that are the guest's own: FTX-RESULT lines, exit status 1 on a
    wrong verdict."""
    funcs = {"a0": "asm_exc_int3", "a1": "kprobe_int3_handler", "c0": "ct_dynticks",
             "k0": "kmem_cache_free", "r0": "cpu_relax", "s0": "native_safe_halt",
             "q0": "queued_spin_lock_slowpath", "p0": "preempt_count_sub"}
    cases = [
        # (name, samples per cpu, memory's first byte, stale expected)
        ("trapping-at-nop", {0: {"r0": 38, "s0": 2}, 1: {"k0": 19, "a0": 10, "c0": 8, "a1": 1}},
         {"r0": "0xeb", "k0": "0x0f"}, True),
        ("both-trapping-at-call", {0: {"p0": 21, "a0": 12, "c0": 7}, 1: {"p0": 36, "a0": 4}},
         {"p0": "0xe8"}, True),
        ("int3-really-in-memory", {0: {"k0": 20, "a0": 20}, 1: {"s0": 40}},
         {"k0": "0xcc"}, False),
        ("lock-spin-no-trap", {0: {"q0": 40}, 1: {"r0": 39, "s0": 1}},
         {"q0": "0x8b", "r0": "0xeb"}, False),
        ("two-traps-only", {0: {"k0": 38, "a0": 2}, 1: {"s0": 40}},
         {"k0": "0x0f"}, False),
        ("memory-unreadable", {0: {"k0": 20, "a0": 20}, 1: {"s0": 40}},
         {"k0": ""}, False),
    ]
    bad = 0
    for name, samples, mem, want in cases:
        rips = {cpu: collections.Counter(c) for cpu, c in samples.items()}
        got, line = verdict(rips, lambda a: funcs[a], lambda cpu, a, m=mem: m[a])
        ok = got == want
        bad += not ok
        print("FTX-RESULT mttcg-probe %s %s %s" % (name, "PASS" if ok else "FAIL", line))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main())

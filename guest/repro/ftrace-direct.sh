#!/bin/sh
# The stall of multi-threaded TCG (issue 29): upstream ftracetest's
# direct/ftrace-direct.tc. Its tracers patch every function's call site
# with text_poke_bp() while the other vCPU runs those functions.
cd /opt/ftracetest || exit 1
./ftracetest -l /tmp/repro-ftracetest test.d/direct/ftrace-direct.tc >/tmp/repro-ftracetest.out 2>&1
rc=$?
tail -3 /tmp/repro-ftracetest.out
exit $rc

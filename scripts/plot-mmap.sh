#!/bin/bash
# Plot what guest/bench/50-mmap.sh measured, in three panels: (a) events/s
# of a consumer draining a buffer by mmap, read() and splice; (b) events/s
# of mmap-record and trace-cmd record writing a file; (c) the slowdown of
# hackbench, dbench and tbench with the events on and no reader, and while
# each tool records them.
#   scripts/plot-mmap.sh RESULTS_LOG PNG
set -euo pipefail
. "$(dirname "$0")/lib.sh"

results=${1:?results log}
png=${2:?png}
command -v gnuplot >/dev/null || die "gnuplot not found (make deps installs gnuplot-nox)"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# rows "mmap-a STREAM HOW EVENTS/S CPU", "mmap-b STREAM TOOL EVENTS/S CPU",
# "mmap-c WORKLOAD MODE SLOWDOWN" -> one table a panel, a column a variant
table() {	# KIND FIELD VARIANT...
	local kind=$1 field=$2
	shift 2
	awk -v k="$kind" -v f="$field" -v vs="$*" '
		BEGIN { n = split(vs, v, " ") }
		$1 == k { val[$2, $3] = $f; if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 } }
		END {
			for (i = 1; i <= m; i++) {
				line = order[i]
				for (j = 1; j <= n; j++)
					line = line " " ((order[i], v[j]) in val ? val[order[i], v[j]] : "NaN")
				print line
			}
		}' "$results"
}
table mmap-a 4 mmap read splice | awk '{ $2 /= 1e6; $3 /= 1e6; $4 /= 1e6; print }' >"$dir/a"
table mmap-b 4 mmap-record trace-cmd | awk '{ $2 /= 1e3; $3 /= 1e3; print }' >"$dir/b"
table mmap-c 4 events mmap-record trace-cmd >"$dir/c"
for t in a b c; do
	[ -s "$dir/$t" ] || die "no mmap-$t rows in $results"
done

gnuplot <<GP
set terminal pngcairo size 1200,470 noenhanced
set output "$png"
set multiplot layout 1,3 title "mmap of trace_pipe_raw (QEMU -icount, 1 vCPU: guest time counts instructions)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key below
set yrange [0:*]
set title "(a) draining a buffer: M events/s"
plot "$dir/a" using 2:xtic(1) title "mmap", "" using 3 title "read()", "" using 4 title "splice()"
set title "(b) recording a file: k events/s"
plot "$dir/b" using 2:xtic(1) title "mmap-record", "" using 3 title "trace-cmd record"
set title "(c) workload slowdown, % (lower is better)"
plot "$dir/c" using 2:xtic(1) title "events, no reader", "" using 3 title "mmap-record", "" using 4 title "trace-cmd record"
unset multiplot
GP
info "plot: $png"

#!/bin/bash
# Plot what guest/bench/40-function-tracers.sh measured: ns per call of a
# function against the number K of counting tracers on it, one line per
# layout (all K on it; 1 on it and K-1 elsewhere; K on it plus 8
# elsewhere) and mode (multiplexing on, off).
#   scripts/plot-function-tracers.sh RESULTS_LOG PNG
set -euo pipefail
. "$(dirname "$0")/lib.sh"

results=${1:?results log}
png=${2:?png}
command -v gnuplot >/dev/null || die "gnuplot not found (make deps installs gnuplot-nox)"

data=$(mktemp)
trap 'rm -f "$data"' EXIT
# rows "mux-ops-LAYOUT-kK-MODE NS ns/call" -> blocks "K NS" per LAYOUT-MODE
for layout in all one plus8; do
	for mode in on off; do
		echo "# $layout-$mode"
		awk -v l="$layout" -v m="$mode" '
			$1 ~ "^mux-ops-" l "-k[0-9]+-" m "$" {
				k = $1; sub("^mux-ops-" l "-k", "", k); sub("-" m "$", "", k)
				print k, $2
			}' "$results" | sort -n
		printf '\n\n'
	done
done >"$data"
[ "$(grep -c '^[0-9]' "$data")" -gt 0 ] || die "no mux-ops rows in $results"

gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced
set output "$png"
set title "Function tracers on one function: guest ns per call (QEMU -icount)"
set xlabel "K, counting tracers on the function"
set ylabel "ns per call"
set xtics (1, 2, 4, 8)
set key top left
set grid
plot "$data" index 0 using 1:2 with linespoints title "K on it, multiplexed", \
     "$data" index 1 using 1:2 with linespoints dt 2 title "K on it, list walk", \
     "$data" index 2 using 1:2 with linespoints title "1 on it + K-1 elsewhere, multiplexed", \
     "$data" index 3 using 1:2 with linespoints dt 2 title "1 on it + K-1 elsewhere, list walk", \
     "$data" index 4 using 1:2 with linespoints title "K on it + 8 elsewhere, multiplexed", \
     "$data" index 5 using 1:2 with linespoints dt 2 title "K on it + 8 elsewhere, list walk"
GP
info "plot: $png"

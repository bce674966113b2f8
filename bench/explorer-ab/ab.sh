#!/bin/bash
# n alternating runs of two bundles (build.sh) on three counters to 49 without reduction; the states
# per CPU second of each run and their medians, with the load average before and after:
#   bench/explorer-ab/ab.sh <n> <a.js> <b.js>
here=$(dirname "$0")
n=$1; a=$2; b=$3
ra=(); rb=()
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$n"); do
  ra+=($(node "$here/run.js" "$a" | awk '{print $7}'))
  rb+=($(node "$here/run.js" "$b" | awk '{print $7}'))
done
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "A $(basename "$a"): ${ra[*]} median $(med "${ra[@]}")"
echo "B $(basename "$b"): ${rb[*]} median $(med "${rb[@]}")"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

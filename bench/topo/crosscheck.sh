#!/bin/sh
# SPDX-License-Identifier: MIT
# Cross-check of rdmx-topo against SimGrid (Debian libsimgrid-dev): the same fabric and the same
# phased pairwise all-to-all in both, max-min sharing (CM02, no cross-traffic) in SimGrid.
# Usage: bench/topo/crosscheck.sh [BUILD_DIR]   (needs: apt-get install libsimgrid-dev simgrid)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-topo}
topo=$build/bin/rdmx-topo
out=${OUT:-/tmp/rdmx-topo-crosscheck}
mkdir -p "$out"
gcc -O2 -o "$out/sg_alltoall" "$here/sg_alltoall.c" -lsimgrid
sgcfg="--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --log=root.thres:critical"
run() { # name sg_topology sg_params rdmx_spec bytes
    cat > "$out/$1.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" radical="0-$(($6 - 1))" suffix="" speed="1Gf" bw="12.5GBps" lat="100ns"
           sharing_policy="SPLITDUPLEX" topology="$2" topo_parameters="$3"/>
</platform>
XML
    t0=$(date +%s.%N)
    sg=$("$out/sg_alltoall" "$out/$1.xml" "$5" $sgcfg 2>/dev/null | awk '/simulated time/ {print $3}')
    t1=$(date +%s.%N)
    rx=$("$topo" sim -t "$4" --pattern alltoall --bytes "$5" --sync phase | awk '/completion time/ {print $3}')
    t2=$(date +%s.%N)
    echo "$1 bytes=$5 simgrid=${sg}s rdmx-topo=${rx}s ratio=$(echo "$rx / $sg" | bc -l | cut -c1-6) \
simgrid_cpu=$(echo "$t1 - $t0" | bc | cut -c1-6)s rdmx_cpu=$(echo "$t2 - $t1" | bc | cut -c1-6)s"
}
run fattree-256 FAT_TREE "2;16,16;1,16;1,1" "xgft:2;16,16;1,16;1,1" 65536 256
run fattree-256-tapered FAT_TREE "2;16,16;1,8;1,1" "xgft:2;16,16;1,8;1,1" 65536 256
run fattree-1024 FAT_TREE "2;32,32;1,32;1,1" "xgft:2;32,32;1,32;1,1" 65536 1024

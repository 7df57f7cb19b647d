#!/bin/bash
# SPDX-License-Identifier: MIT
# An "ssh" for MPICH's hydra (-launcher-exec) and Open MPI (plm_rsh_agent)
# whose hosts are network namespaces: drops ssh-style options, takes the host
# (= namespace name), runs the rest as a shell command in that namespace.
while [ $# -gt 0 ]; do
    case $1 in
    -o|-p|-l|-i|-F|-E|-c|-m) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
host=$1
shift
exec ip netns exec "$host" bash -c "$*"

#!/bin/bash
# SPDX-License-Identifier: MIT
# Build-system integration of the Fortran bindings: usage: build_case.sh CASE SOURCE_DIR BINARY_DIR
#   show     rdmx-fort / mpifort / mpif90 / mpif77 answer -show, -compile-info, -showme:link
#   findmpi  a CMake project using find_package(MPI COMPONENTS Fortran) finds mpif.h, mpi and
#            mpi_f08 through build/bin/mpifort, builds and runs
#   install  cmake --install to a prefix: the installed mpifort, pkg-config (rdmx-fort.pc) and
#            find_package(rdmx) (rdmx::rdmx_fort) each build a program that runs
set -euo pipefail
case_name=$1 src=$2 bin=$3
tmp=$(mktemp -d /tmp/rdmx-fortbuild.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
hello=$src/tests/fortran/find_mpi/hello.f90

case $case_name in
show)
    out=$("$bin/bin/rdmx-fort" -show -O2 x.f90 -o x)
    [[ $out == *"-I$bin/fortran"* && $out == *"-lrdmx_fort -lrdmx"* && $out == *"x.f90"* ]] ||
        fail "rdmx-fort -show: $out"
    for w in mpifort mpif90 mpif77; do
        out=$("$bin/bin/$w" -compile-info)
        [[ $out == *"-I$bin/fortran"* && $out != *"-lrdmx"* ]] || fail "$w -compile-info: $out"
    done
    out=$("$bin/bin/mpifort" -showme:link)
    [[ $out == *"-lrdmx_fort"* ]] || fail "mpifort -showme:link: $out"
    out=$("$bin/bin/mpifort" -show -c x.f90)
    [[ $out != *"-lrdmx"* ]] || fail "compile-only command must not link: $out"
    ;;
findmpi)
    cmake -S "$src/tests/fortran/find_mpi" -B "$tmp/b" -DMPI_Fortran_COMPILER="$bin/bin/mpifort" \
        > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configure"; }
    cmake --build "$tmp/b" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build"; }
    "$bin/bin/rdmx-run" -n 3 "$tmp/b/hello" | grep -q "rdmx .*3 ranks, sum 3" || fail "run"
    ;;
install)
    cmake --install "$bin" --prefix "$tmp/prefix" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "install"; }
    p=$tmp/prefix
    for f in bin/rdmx-fort bin/mpifort bin/mpif90 bin/mpif77 include/mpif.h include/mpi.mod \
             include/mpi_f08.mod; do
        [ -e "$p/$f" ] || fail "missing $f"
    done
    pcdir=$(dirname "$(ls "$p"/lib*/pkgconfig/rdmx-fort.pc)")
    (cd "$tmp" && "$p/bin/mpifort" "$hello" -o "$tmp/h1") || fail "installed mpifort"
    "$p/bin/rdmx-run" -n 2 "$tmp/h1" | grep -q "2 ranks, sum 1" || fail "run with the installed launcher"
    (cd "$tmp" && gfortran "$hello" -o "$tmp/h2" $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs rdmx-fort) \
        -Wl,-rpath,"$(dirname "$pcdir")") || fail "pkg-config build"
    "$p/bin/rdmx-run" -n 2 "$tmp/h2" | grep -q "sum 1" || fail "pkg-config program run"
    mkdir -p "$tmp/pkg"
    cat > "$tmp/pkg/CMakeLists.txt" <<EOT
cmake_minimum_required(VERSION 3.18)
project(uses_rdmx_fortran Fortran)
find_package(rdmx REQUIRED)
add_executable(hello $hello)
target_link_libraries(hello PRIVATE rdmx::rdmx_fort)
EOT
    cmake -S "$tmp/pkg" -B "$tmp/pkg/b" -DCMAKE_PREFIX_PATH="$p" > "$tmp/log" 2>&1 &&
        cmake --build "$tmp/pkg/b" >> "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "find_package(rdmx)"; }
    "$p/bin/rdmx-run" -n 2 "$tmp/pkg/b/hello" | grep -q "sum 1" || fail "find_package(rdmx) program run"
    ;;
*) fail "unknown case $case_name" ;;
esac
echo "fortran build case $case_name: ok"

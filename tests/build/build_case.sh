#!/bin/bash
# SPDX-License-Identifier: MIT
# Build-system integration: usage: build_case.sh CASE SOURCE_DIR BINARY_DIR
#   show     rdmx-cc / mpicc answer -show, -compile-info, -showme:link as MPICH / Open MPI do
#   findmpi  a CMake project using find_package(MPI) builds against build/bin/mpicc and runs
#   install  cmake --install to a prefix; a program builds there with the installed mpicc, with
#            pkg-config (rdmx.pc, also --static against librdmx.a) and with find_package(rdmx)
#            (rdmx::rdmx and rdmx::rdmx_static), and runs with the installed launcher
set -euo pipefail
case_name=$1 src=$2 bin=$3
tmp=$(mktemp -d /tmp/rdmx-buildtest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

case $case_name in
show)
    out=$("$bin/bin/rdmx-cc" -show -O2 x.c -o x)
    [[ $out == *"-I$src/include"* && $out == *"-lrdmx"* && $out == *"x.c"* ]] || fail "rdmx-cc -show: $out"
    out=$("$bin/bin/mpicc" -compile-info)
    [[ $out == *"-I$src/include"* && $out != *"-lrdmx"* ]] || fail "mpicc -compile-info: $out"
    out=$("$bin/bin/mpicc" -showme:link)
    [[ $out == *"-lrdmx"* ]] || fail "mpicc -showme:link: $out"
    out=$("$bin/bin/rdmx-cc" -show -c x.c)
    [[ $out != *"-lrdmx"* ]] || fail "compile-only command must not link: $out"
    out=$("$bin/bin/mpicxx" -show x.cc)
    [[ $out == *"++"* ]] || fail "mpicxx uses the C++ compiler: $out"
    printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > "$tmp/t.cc"
    "$bin/bin/mpicxx" "$tmp/t.cc" -o "$tmp/tcc" || fail "mpi.h does not compile as C++"
    "$bin/bin/rdmx-run" -n 2 "$tmp/tcc" || fail "C++ program does not run"
    ;;
findmpi)
    cmake -S "$src/tests/build/find_mpi" -B "$tmp/b" -DMPI_C_COMPILER="$bin/bin/mpicc" > "$tmp/log" 2>&1 ||
        { cat "$tmp/log"; fail "configure"; }
    cmake --build "$tmp/b" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build"; }
    "$bin/bin/mpiexec" -n 3 "$tmp/b/hello" | grep -q "rdmx .*3 ranks, sum 3" || fail "run"
    ;;
install)
    cmake --install "$bin" --prefix "$tmp/prefix" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "install"; }
    p=$tmp/prefix
    for f in bin/rdmx-cc bin/mpicc bin/rdmx-cxx bin/mpicxx bin/rdmx-run bin/mpiexec include/mpi.h; do
        [ -e "$p/$f" ] || fail "missing $f"
    done
    ls "$p"/lib*/librdmx.so "$p"/lib*/librdmx.a "$p"/lib*/pkgconfig/rdmx.pc \
       "$p"/lib*/cmake/rdmx/rdmxConfig.cmake > /dev/null || fail "missing library files"
    hello=$src/tests/build/find_mpi/hello.c
    "$p/bin/mpicc" "$hello" -o "$tmp/h1" || fail "installed mpicc"
    "$p/bin/mpiexec" -n 2 "$tmp/h1" | grep -q "2 ranks, sum 1" || fail "run with installed launcher"
    pcdir=$(dirname "$(ls "$p"/lib*/pkgconfig/rdmx.pc)")
    cc "$hello" -o "$tmp/h2" $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs rdmx) \
        -Wl,-rpath,"$(dirname "$pcdir")" || fail "pkg-config build"
    "$p/bin/rdmx-run" -n 2 "$tmp/h2" | grep -q "sum 1" || fail "pkg-config program run"
    # static librdmx: Libs.private must name every library it needs (libfabric, PMIx, ...)
    libdir=$(dirname "$pcdir")
    static_libs=$(PKG_CONFIG_PATH=$pcdir pkg-config --static --libs rdmx | sed 's/ -lrdmx / /')
    cc "$hello" -o "$tmp/h3" -I"$p/include" "$libdir/librdmx.a" $static_libs || fail "static build from pkg-config --static"
    ! ldd "$tmp/h3" | grep -q librdmx || fail "static program still loads librdmx.so"
    "$p/bin/rdmx-run" -n 2 "$tmp/h3" | grep -q "sum 1" || fail "static program run"
    mkdir -p "$tmp/pkg"
    cat > "$tmp/pkg/CMakeLists.txt" <<EOT
cmake_minimum_required(VERSION 3.18)
project(uses_rdmx C)
find_package(rdmx REQUIRED)
add_executable(hello $hello)
target_link_libraries(hello PRIVATE rdmx::rdmx)
add_executable(hello_static $hello)
target_link_libraries(hello_static PRIVATE rdmx::rdmx_static)
EOT
    cmake -S "$tmp/pkg" -B "$tmp/pkg/b" -DCMAKE_PREFIX_PATH="$p" > "$tmp/log" 2>&1 &&
        cmake --build "$tmp/pkg/b" >> "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "find_package(rdmx)"; }
    "$p/bin/rdmx-run" -n 2 "$tmp/pkg/b/hello" | grep -q "sum 1" || fail "find_package(rdmx) program run"
    "$p/bin/rdmx-run" -n 2 "$tmp/pkg/b/hello_static" | grep -q "sum 1" || fail "find_package(rdmx) static program run"
    ;;
*) fail "unknown case $case_name" ;;
esac
echo "build case $case_name: ok"

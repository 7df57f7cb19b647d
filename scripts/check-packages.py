#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every Debian package the build and the tests use is named in
scripts/packages/*.txt (directly, or as a dependency of a named package, or
as part of every Debian system: Essential or Priority required).

What "uses" means, derived from the tree rather than listed by hand:
  - commands: the first word of every simple command in the shell scripts,
    `command -v X` probes, CMake `COMMAND X` and `find_program(... X)`, and
    exec/system/popen strings in C test programs, where X is on PATH;
  - headers: every `#include <...>` of the C sources, resolved through the
    compiler's search path (and pkg-config's for the libraries we link);
  - foreign MPI compilers the tests call (mpicc.mpich, mpicc.openmpi, ...):
    the headers a program including mpi.h needs through that compiler.
Each of those files is mapped to its package with dpkg -S. A machine where a
package was installed by hand passes the tests but fails this check, which is
the point: a fresh Debian 12 machine has only what the lists name.

usage: scripts/check-packages.py [--verbose] [-IDIR ...]   exit 0: all named; 1: not.
  -IDIR adds a header search directory the build uses (CMake passes those it found)."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# bench/ is left out: benchmarks are not tests (their peers are named for the tests anyway)
SCAN_DIRS = ["tests", "scripts", "examples", "tools", "cmake", "src", "include"]
PKG_CONFIG_LIBS = ["hwloc", "libfabric", "pmix", "scotch"]
SHELL_WORDS = {
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case",
    "esac", "in", "function", "return", "local", "export", "exec", "command", "time",
    "!", "[", "[[", "]]", "]", "test", "declare", "readonly", "shift", "set", "unset",
    "trap", "wait", "exit", "break", "continue", "eval", "source", ".", "true", "false",
    "echo", "printf", "read", "cd", "pwd", "kill", "type", "mapfile", "let", "builtin",
    "getopts", "ulimit", "umask", "alias", "jobs", "disown", "select", "coproc", "{", "}",
}
# commands that run the command named after their own options
WRAPPERS = {"timeout", "env", "nice", "sudo", "setsid", "stdbuf", "taskset", "xargs", "nohup"}


def tracked_files():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others",
                          "--exclude-standard", "--"] + SCAN_DIRS + ["CMakeLists.txt"],
                         capture_output=True, text=True)
    if out.returncode == 0:
        return [os.path.join(ROOT, f) for f in out.stdout.split() if os.path.isfile(os.path.join(ROOT, f))]
    files = []
    for d in SCAN_DIRS:
        files += [f for f in glob.glob(os.path.join(ROOT, d, "**", "*"), recursive=True)
                  if os.path.isfile(f)]
    return files


def is_shell(path, text):
    return path.endswith(".sh") or re.match(r"#!.*\b(ba)?sh\b", text) is not None


def shell_functions(text):
    return set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{?", text, re.M))


def strip_heredocs(lines):
    """Drops the bodies of here-documents (they are data or another language)."""
    out, end = [], None
    for line in lines:
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line)
        if m and "<<<" not in line:
            end = m.group(1)
        out.append(line)
    return out


def command_words(segment):
    """The command a simple shell command runs (and, for probes, the probed name)."""
    try:
        words = shlex.split(segment, comments=True, posix=True)
    except ValueError:
        words = segment.split()
    i = 0
    while i < len(words) and re.match(r"^[A-Za-z_]\w*(\[.*\])?\+?=", words[i]):
        i += 1
    words = words[i:]
    found = []
    while words:
        w = words[0]
        if w in ("command", "type", "which", "hash") and len(words) > 1:
            probe = [x for x in words[1:] if not x.startswith("-")]
            return found + probe[:1]
        if w == "ip" and words[1:3] == ["netns", "exec"] and len(words) > 4:
            found.append("ip")
            words = words[4:]
            continue
        if w in WRAPPERS:
            found.append(w)
            rest = words[1:]
            while rest and (rest[0].startswith("-") or re.match(r"^[\d.]+[smhd]?$", rest[0])
                            or "=" in rest[0]):
                rest = rest[1:]
            words = rest
            continue
        if w in ("exec", "then", "else", "do", "!", "time", "if", "while", "until", "elif"):
            words = words[1:]
            continue
        found.append(w)
        break
    return found


def shell_commands(text):
    funcs = shell_functions(text)
    names = set()
    for line in strip_heredocs(text.splitlines()):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        for seg in re.split(r"\|\||&&|[|;&`]|\$\(|\(|\)|\bthen\b|\bdo\b|\belse\b", line):
            for w in command_words(seg):
                if w and w not in funcs and not w.startswith(("$", "-", "/", ".", "~")) \
                        and "/" not in w and "$" not in w and "=" not in w:
                    names.add(w)
    return names - SHELL_WORDS


def cmake_commands(text):
    names = set(re.findall(r"\bCOMMAND\s+([A-Za-z][\w.+-]*)", text))
    for m in re.finditer(r"find_program\s*\(\s*\w+\s+([^)]*)\)", text):
        for w in m.group(1).split():
            if w not in ("NAMES", "PATHS", "HINTS", "REQUIRED", "NO_DEFAULT_PATH", "DOC") \
                    and re.match(r"^[A-Za-z][\w.+-]*$", w):
                names.add(w)
    return names


def c_commands(text):
    names = set()
    for m in re.finditer(r'\b(?:execlp|execvp|system|popen)\s*\(\s*"([A-Za-z][\w.+-]*)', text):
        names.add(m.group(1))
    return names


def c_includes(text):
    return set(re.findall(r'^\s*#\s*include\s*<([^>]+)>', text, re.M))


def search_dirs(extra):
    p = subprocess.run(["cc", "-E", "-x", "c", "-", "-v"], input="", capture_output=True, text=True)
    m = re.search(r"#include <\.\.\.> search starts here:\n(.*?)End of search list", p.stderr, re.S)
    dirs = [d.strip() for d in m.group(1).splitlines()] if m else []
    dirs += extra
    for lib in PKG_CONFIG_LIBS:
        q = subprocess.run(["pkg-config", "--cflags-only-I", lib], capture_output=True, text=True)
        dirs += [f[2:] for f in q.stdout.split() if f.startswith("-I")]
    return dirs


def own_header(name, files):
    return any(f.endswith("/" + name) for f in files)


def mpi_wrapper_headers(wrapper):
    """Files a program including mpi.h needs when built with a foreign MPI compiler."""
    p = subprocess.run([wrapper, "-M", "-E", "-x", "c", "-"], input="#include <mpi.h>\n",
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[:1]
    deps = p.stdout.replace("\\\n", " ").split(":", 1)[-1].split()
    return [d for d in deps if d != "-" and os.path.isabs(d)], None


def dpkg_owners(paths):
    """path -> package for each path dpkg knows (tries the /usr-merged twin too)."""
    owners = {}
    cands = {}
    for p in paths:
        alts = {p, os.path.realpath(p)}
        for a in list(alts):
            for pre in ("/usr/bin/", "/usr/sbin/", "/usr/lib/"):
                if a.startswith(pre):
                    alts.add(a[4:])
        cands[p] = alts
    allc = sorted({a for s in cands.values() for a in s})
    q = subprocess.run(["dpkg", "-S"] + allc, capture_output=True, text=True)
    found = {}
    for line in q.stdout.splitlines():
        m = re.match(r"^([^:]+(?::[\w-]+)?(?:, [^:]+(?::[\w-]+)?)*): (/.*)$", line)
        if m:
            pkgs = [x.split(":")[0].strip() for x in m.group(1).split(",")]
            found[m.group(2)] = pkgs
    for p, alts in cands.items():
        for a in alts:
            if a in found and not any(x.startswith("diversion") for x in found[a]):
                owners[p] = found[a]
                break
    return owners


def installed_graph():
    q = subprocess.run(["dpkg-query", "-W", "-f",
                        "${Package}\t${Status}\t${Essential}\t${Priority}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                       capture_output=True, text=True)
    deps, base, provides, installed = {}, set(), {}, set()
    for line in q.stdout.splitlines():
        f = line.split("\t")
        if len(f) < 6 or "install ok installed" not in f[1]:
            continue
        name = f[0]
        installed.add(name)
        if f[2] == "yes" or f[3] == "required":
            base.add(name)
        groups = []
        for g in f[4].split(","):
            alts = [re.sub(r"[\s(:].*", "", a.strip()) for a in g.split("|")]
            alts = [a for a in alts if a]
            if alts:
                groups.append(alts)
        deps[name] = groups
        for pv in f[5].split(","):
            pv = re.sub(r"[\s(:].*", "", pv.strip())
            if pv:
                provides.setdefault(pv, []).append(name)
    return deps, base, provides, installed


def closure(roots, deps, provides, installed):
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        for alts in deps.get(p, []):
            for a in alts:
                real = [a] if a in installed else provides.get(a, [])
                real = [r for r in real if r in installed]
                if real:
                    todo.extend(real)
                    break
    return seen


def named_packages():
    names = set()
    for f in glob.glob(os.path.join(ROOT, "scripts", "packages", "*.txt")):
        for line in open(f):
            line = line.split("#")[0].strip()
            if line:
                names.add(line.split()[0])
    return names


def main():
    verbose = "--verbose" in sys.argv
    files = tracked_files()
    commands, headers = {}, {}
    for f in files:
        try:
            text = open(f, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        rel = os.path.relpath(f, ROOT)
        found = set()
        if is_shell(f, text):
            found = shell_commands(text)
        elif os.path.basename(f) == "CMakeLists.txt" or f.endswith(".cmake"):
            found = cmake_commands(text)
        elif f.endswith((".c", ".h")):
            found = c_commands(text)
            for h in c_includes(text):
                headers.setdefault(h, set()).add(rel)
        for c in found:
            commands.setdefault(c, set()).add(rel)

    problems = []
    used = {}  # file on this machine -> (what, where)
    for c, where in sorted(commands.items()):
        path = shutil.which(c)
        if path:
            used[path] = ("command " + c, where)
        elif verbose:
            print(f"  not on PATH (skipped): {c} ({', '.join(sorted(where)[:2])})")
    dirs = search_dirs([a[2:] for a in sys.argv[1:] if a.startswith("-I") and len(a) > 2])
    for h, where in sorted(headers.items()):
        if own_header(h, files):
            continue
        hit = next((os.path.join(d, h) for d in dirs if os.path.isfile(os.path.join(d, h))), None)
        if hit:
            used[hit] = ("header <%s>" % h, where)
        else:
            problems.append(f"header <{h}> (used by {', '.join(sorted(where)[:3])}) is on no "
                            "search path: its -dev package is not installed")
    for c in sorted(commands):
        if re.match(r"^(mpicc|mpicxx|mpic\+\+|oshcc)\.", c) and shutil.which(c):
            hdrs, err = mpi_wrapper_headers(c)
            if hdrs is None:
                problems.append(f"{c} is installed but cannot compile a program including "
                                f"mpi.h ({'; '.join(err)}): its development package is missing")
                continue
            for h in hdrs:
                used.setdefault(h, (f"header {os.path.basename(h)} through {c}", commands[c]))

    owners = dpkg_owners(list(used))
    deps, base, provides, installed = installed_graph()
    named = named_packages()
    unknown = sorted(n for n in named if n not in installed)
    if unknown:
        problems.append("named but not installed (run scripts/setup.sh): " + " ".join(unknown))
    covered = closure(named | base, deps, provides, installed)
    for path, (what, where) in sorted(used.items()):
        pkgs = owners.get(path)
        if not pkgs:
            if verbose:
                print(f"  not from a package: {what} = {path}")
            continue
        ok = any(p in covered for p in pkgs)
        if verbose:
            print(f"  {'ok ' if ok else 'MISSING'} {what}: {path} <- {', '.join(pkgs)}")
        if not ok:
            problems.append(f"{what} (used by {', '.join(sorted(where)[:3])}) comes from "
                            f"package {', '.join(pkgs)}, which scripts/packages/ does not name")
    for p in problems:
        print("check-packages: " + p)
    if problems:
        print(f"check-packages: FAILED ({len(problems)} problem(s)); a fresh Debian 12 machine "
              "would not have these")
        return 1
    print(f"check-packages: ok ({len(used)} files of {len(commands)} commands and "
          f"{len(headers)} headers, all from {len(named)} named packages or their dependencies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

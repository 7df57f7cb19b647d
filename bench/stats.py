#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads the raw outputs of one bench/run.sh run, writes results.csv and
prints a Markdown summary: per-size medians over repetitions with their
min-max spread, and the ratio of the reference implementation (rdmx when it
ran, else the first one) to each peer."""

import argparse
import csv
import datetime
import os
import platform
import statistics
import subprocess
import sys


def parse_raw(path):
    """Returns (meta dict, [(size, value)]) of one benchmark output."""
    meta, rows = {}, []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if line.startswith("# rdmx-bench "):
                    rest = line[len("# rdmx-bench "):]
                    head, _, lib = rest.partition(" lib=")
                    for kv in head.split():
                        k, _, v = kv.partition("=")
                        meta[k] = v
                    meta["lib"] = lib
                elif line and not line.startswith("#"):
                    parts = line.split()
                    try:
                        rows.append((int(parts[0]), float(parts[1])))
                    except (ValueError, IndexError):
                        pass
    except OSError:
        pass
    return meta, rows


def fmt_size(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1 << 10 and b % (1 << 10) == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"


def fmt_val(v):
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def cell(vals):
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt_val(med)
    return f"{fmt_val(med)} ({fmt_val(min(vals))}–{fmt_val(max(vals))})"


def machine_lines():
    cpu = platform.processor() or "unknown"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cpu, os.cpu_count()


UNIT_NAMES = {"us": "µs", "MB/s": "MB/s (10^6 B/s)", "msg/s": "messages/s"}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, help="run directory with manifest.tsv and raw/")
    ap.add_argument("--impls", default="", help="implementations in run order")
    ap.add_argument("--command", default="", help="the command that reproduces the run")
    ap.add_argument("--quick", default="0")
    args = ap.parse_args()

    manifest = os.path.join(args.out, "manifest.tsv")
    with open(manifest, encoding="utf-8") as f:
        runs = list(csv.DictReader(f, delimiter="\t"))

    order = [i for i in args.impls.split(",") if i]
    libs = {}
    sections = {}  # (suite, bench, np) -> {"unit", "better", "data": impl -> size -> [values]}
    failures = []
    csv_rows = []
    reps = set()
    for r in runs:
        reps.add(r["rep"])
        meta, rows = parse_raw(os.path.join(args.out, r["file"]))
        impl = r["impl"]
        if r["rc"] != "0":
            failures.append(r)
        if meta.get("lib") and impl != "none":
            libs.setdefault(impl, meta["lib"])
        key = (r["suite"], r["bench"], int(r["np"]))
        sec = sections.setdefault(key, {"unit": meta.get("unit", "?"),
                                         "better": meta.get("better", "?"), "data": {}})
        if sec["unit"] == "?" and meta.get("unit"):
            sec["unit"], sec["better"] = meta["unit"], meta.get("better", "?")
        for size, value in rows:
            sec["data"].setdefault(impl, {}).setdefault(size, []).append(value)
            csv_rows.append([r["rep"], r["np"], impl, r["suite"], r["bench"], size, value,
                             meta.get("unit", ""), meta.get("better", ""), r["rc"],
                             meta.get("lib", "")])

    with open(os.path.join(args.out, "results.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["rep", "np", "impl", "suite", "bench", "size", "value", "unit", "better",
                    "rc", "lib"])
        w.writerows(csv_rows)

    present = [i for i in order if any(i in s["data"] for s in sections.values())]
    ref = "rdmx" if "rdmx" in present else (present[0] if present else None)
    peers = [i for i in present if i != ref]

    # floor figures, for the lines that quote latency and bandwidth against them
    floor_rtt = None
    memcpy_out = None
    for (suite, bench, _), sec in sections.items():
        vals = sec["data"].get("none", {})
        if suite == "floor" and bench == "cacheline" and vals:
            floor_rtt = statistics.median(next(iter(vals.values())))
        if suite == "floor" and bench == "memcpy" and vals:
            biggest = max(vals)
            memcpy_out = (biggest, statistics.median(vals[biggest]))

    cpu, cores = machine_lines()
    nreps = len(reps)
    p = print
    p(f"## Benchmark run {datetime.date.today().isoformat()}")
    p()
    p(f"- Machine: {cpu}, {cores} cores (`lscpu`), Linux {platform.release()}")
    for impl in present:
        p(f"- {impl}: {libs.get(impl, 'unknown')}")
    try:
        with open(os.path.join(args.out, "loadavg.txt"), encoding="utf-8") as f:
            loads = dict(line.split(" ", 1) for line in f.read().splitlines() if " " in line)
        p(f"- Load average (1, 5, 15 min) at start: {loads.get('start', '?')}; "
          f"at end: {loads.get('end', '?')} — on {cores} cores anything near 1 or more "
          "besides the benchmark makes the figures unreliable")
    except OSError:
        pass
    p(f"- Command: `{args.command}`")
    p(f"- {nreps} repetition(s) per implementation, run interleaved; a cell is the median over "
      f"repetitions with (min–max); ratio = {ref} / peer of the medians"
      + (", marked ≈ where the two ranges overlap: such a difference is within the noise "
         "of repeated runs" if ref else ""))
    if args.quick == "1":
        p("- Quick mode (iteration counts / 10): a smoke run, not figures to quote")
    if nreps < 5:
        p(f"- Only {nreps} repetition(s): bench-method.md asks for at least 5")
    p()

    for (suite, bench, np), sec in sections.items():
        data = sec["data"]
        if suite == "floor":
            continue
        cols = [i for i in present if i in data]
        if not cols:
            continue
        unit = UNIT_NAMES.get(sec["unit"], sec["unit"])
        p(f"### {suite} {bench}, {np} ranks — {unit}, {sec['better']} is better")
        p()
        ratio_peers = [q for q in peers if q in data] if ref in data else []
        head = ["size"] + cols + [f"{ref}/{q}" for q in ratio_peers]
        p("| " + " | ".join(head) + " |")
        p("|" + "---:|" * len(head))
        sizes = sorted({s for i in cols for s in data[i]})
        for size in sizes:
            row = [fmt_size(size)]
            for i in cols:
                row.append(cell(data[i][size]) if size in data[i] else "—")
            for q in ratio_peers:
                a, b = data[ref].get(size), data[q].get(size)
                if not a or not b or statistics.median(b) == 0:
                    row.append("—")
                    continue
                ratio = statistics.median(a) / statistics.median(b)
                overlap = min(a) <= max(b) and min(b) <= max(a)
                row.append(f"{ratio:.2f}" + (" ≈" if overlap else ""))
            p("| " + " | ".join(row) + " |")
        p()
        if sec["unit"] == "us" and suite == "p2p" and floor_rtt:
            smallest = min(sizes)
            parts = [f"{i} {statistics.median(data[i][smallest]) / (floor_rtt / 2):.1f}×"
                     for i in cols if smallest in data[i]]
            p(f"{fmt_size(smallest)} latency against the one-way cache-line floor "
              f"({floor_rtt / 2:.3f} µs): " + ", ".join(parts))
            p()
        if sec["unit"] == "MB/s" and "bibw" not in bench and memcpy_out:
            largest = max(sizes)
            parts = [f"{i} {statistics.median(data[i][largest]) / memcpy_out[1]:.2f}"
                     for i in cols if largest in data[i]]
            p(f"{fmt_size(largest)} bandwidth as a fraction of single-core memcpy out of cache "
              f"({memcpy_out[1]:.0f} MB/s at {fmt_size(memcpy_out[0])}): " + ", ".join(parts))
            p()

    for (suite, bench, _), sec in sections.items():
        vals = sec["data"].get("none")
        if suite != "floor" or not vals:
            continue
        if bench == "cacheline":
            v = next(iter(vals.values()))
            p("### floor: cache-line round trip between two cores")
            p()
            p(f"Round trip {cell(v)} µs; one way {fmt_val(statistics.median(v) / 2)} µs.")
            p()
        elif bench == "memcpy":
            p("### floor: single-core memcpy bandwidth, MB/s")
            p()
            p("| size | MB/s |")
            p("|---:|---:|")
            for size in sorted(vals):
                p(f"| {fmt_size(size)} | {cell(vals[size])} |")
            p()

    if failures:
        p("### Failed runs")
        p()
        for r in failures:
            p(f"- {r['impl']} {r['suite']}:{r['bench']} np={r['np']} rep {r['rep']}: "
              f"exit {r['rc']} (see {r['file']}.err)")
        p()
    return 0


if __name__ == "__main__":
    sys.exit(main())

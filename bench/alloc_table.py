#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Joins bench/run.sh results of the same suite taken with different buffer
kinds (--alloc page, malloc, mpi) into one Markdown table per benchmark:
per size and buffer kind, rdmx's median, the better peer's median (which
peer, by initial) and the ratio rdmx / better peer, marked with ≈ where the
two min-max ranges overlap (within the noise of repeated runs) and with a
trailing ! where rdmx is behind beyond that noise. Then one line per
benchmark counting the cells ahead, equal and behind.

    bench/alloc_table.py KIND=DIR [KIND=DIR ...]

e.g. bench/alloc_table.py page=out/p2p-page malloc=out/p2p-malloc mpi=out/p2p-mpi
"""

import csv
import statistics
import sys

from stats import fmt_size, fmt_val


def load(path):
    """{(suite, bench, np): {size: {impl: [values]}}} and the units."""
    data, units = {}, {}
    with open(f"{path}/results.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["rc"] != "0" or not row["value"]:
                continue
            key = (row["suite"], row["bench"], int(row["np"]))
            cell = data.setdefault(key, {}).setdefault(int(row["size"]), {})
            cell.setdefault(row["impl"], []).append(float(row["value"]))
            units[key] = (row["unit"], row["better"])
    return data, units


def main(argv):
    if not argv or any("=" not in a for a in argv):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    kinds = [a.split("=", 1) for a in argv]
    runs = {k: load(d) for k, d in kinds}
    keys = []
    for k, _ in kinds:
        for key in runs[k][0]:
            if key not in keys:
                keys.append(key)
    for key in keys:
        suite, bench, np = key
        unit, better = next(runs[k][1][key] for k, _ in kinds if key in runs[k][1])
        lower = better == "lower"
        print(f"#### {suite} {bench}, {np} ranks — {unit}, "
              f"{'lower' if lower else 'higher'} is better; ratio rdmx / better peer\n")
        head = "| size |" + "".join(f" {k}: rdmx | peer | ratio |" for k, _ in kinds)
        print(head)
        print("|---:|" + "---:|---:|---:|" * len(kinds))
        sizes = sorted({s for k, _ in kinds for s in runs[k][0].get(key, {})})
        tally = {"ahead": 0, "equal": 0, "behind": 0}
        for size in sizes:
            line = f"| {fmt_size(size)} |"
            for k, _ in kinds:
                cell = runs[k][0].get(key, {}).get(size, {})
                mine = cell.get("rdmx")
                peers = {i: v for i, v in cell.items() if i != "rdmx" and v}
                if not mine or not peers:
                    line += " – | – | – |"
                    continue
                med = {i: statistics.median(v) for i, v in peers.items()}
                best = (min if lower else max)(med, key=med.get)
                m = statistics.median(mine)
                ratio = m / med[best] if med[best] else float("inf")
                overlap = min(mine) <= max(peers[best]) and min(peers[best]) <= max(mine)
                ahead = ratio < 1 if lower else ratio > 1
                mark = " ≈" if overlap else ("" if ahead else " !")
                tally["equal" if overlap else "ahead" if ahead else "behind"] += 1
                line += f" {fmt_val(m)} | {fmt_val(med[best])} {best[0]} | {ratio:.2f}{mark} |"
            print(line)
        print(f"\nAhead {tally['ahead']}, equal within noise {tally['equal']}, "
              f"behind {tally['behind']} (cells of size x buffer kind).\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

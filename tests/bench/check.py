#!/usr/bin/env python3
"""Checks the files of one `kjit bench` run (tests/bench/run.sh):

    check.py JSON CSV SVG PARAM VALUES TARGETS

VALUES and TARGETS comma-separated: the swept values and the targets that
ran. The JSON against its schema (docs/bench.md), the CSV's columns and
rows, the SVG parsed as XML: axes, one line per target, labels, the bars.
Prints what is wrong and exits 1, or exits 0."""
import csv
import json
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_copy(c, where):
    need(isinstance(c, dict) and set(c) == {"count", "bytes", "s"}, f"{where}: copy fields {c}")
    if isinstance(c, dict):
        need(all(is_num(c.get(k)) and c.get(k) >= 0 for k in ("count", "bytes", "s")), f"{where}: copy values {c}")


def check_run(r, where, repeat):
    keys = {"value", "median_s", "min_s", "max_s", "repeats_s", "breakdown"}
    need(set(r) == keys, f"{where}: run fields {sorted(r)}")
    need(r["min_s"] <= r["median_s"] <= r["max_s"], f"{where}: min <= median <= max")
    need(len(r["repeats_s"]) == repeat and all(is_num(x) and x > 0 for x in r["repeats_s"]), f"{where}: repeats")
    b = r["breakdown"]
    need(set(b) == {"kernels_s", "host_s", "h2d", "d2h", "d2d", "kernels"}, f"{where}: breakdown fields {sorted(b)}")
    for k in ("h2d", "d2h", "d2d"):
        check_copy(b[k], f"{where}.{k}")
    for k in b["kernels"]:
        need(set(k) == {"name", "launches", "s"} and k["launches"] >= 1, f"{where}: kernel {k}")
    need(abs(sum(k["s"] for k in b["kernels"]) - b["kernels_s"]) <= 1e-9 + 1e-6 * b["kernels_s"],
         f"{where}: kernels_s is the sum of the kernels")


def check_json(path, param, values, targets):
    with open(path) as f:
        d = json.load(f)
    keys = {"kjit_bench", "file", "param", "values", "repeat", "tolerance", "outputs_agree", "targets", "crossovers"}
    need(set(d) == keys, f"json: top-level fields {sorted(d)}")
    need(d["kjit_bench"] == 1, "json: version 1")
    need(d["param"] == param, f"json: param {d['param']!r}")
    need(d["values"] == values, f"json: values {d['values']} != {values}")
    need(d["outputs_agree"] is True, "json: outputs agree")
    ran = [t["name"] for t in d["targets"] if t["status"] == "ok"]
    need(ran == targets, f"json: targets that ran {ran} != {targets}")
    for t in d["targets"]:
        need(set(t) == {"name", "status", "reason", "compile", "runs", "fit"}, f"json: target fields {sorted(t)}")
        need(t["status"] in ("ok", "skipped", "failed"), f"json: status {t['status']}")
        if t["status"] != "ok":
            need(isinstance(t["reason"], str) and t["reason"], f"json: {t['name']} says why it did not run")
            continue
        c = t["compile"]
        need(set(c) == {"cold_s", "cached_s", "gpu_cold_s", "gpu_cached_s"} and c["cold_s"] > 0 and c["cached_s"] > 0,
             f"json: {t['name']} compile {c}")
        need([r["value"] for r in t["runs"]] == values, f"json: {t['name']} runs at every value")
        for r in t["runs"]:
            check_run(r, f"json: {t['name']}@{r['value']}", d["repeat"])
        if len(values) > 1:
            fit = t["fit"]
            need(isinstance(fit, dict) and set(fit) == {"overhead_s", "bandwidth_bytes_per_s", "throughput",
                                                        "work_exponent", "bytes_coefficient", "bytes_exponent",
                                                        "rms_relative_error"}, f"json: {t['name']} fit {fit}")
    for c in d["crossovers"]:
        need(set(c) == {"targets", "measured", "predicted", "faster_at_smallest", "changes"}, f"json: crossover {c}")
        need(c["measured"] is None or c["measured"] > 0, f"json: crossover {c}")
        need((c["measured"] is None) == (c["changes"] == 0), f"json: a crossover measured iff the faster one changes {c}")
    if len(targets) > 1 and len(values) > 1:
        need(len(d["crossovers"]) == len(targets) - 1, "json: a crossover entry per target after the first")
    return d


def check_csv(path, param, values, targets, repeat):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    cols = ["target", "status", "param", "value", "repeat", "total_s", "kernels_s", "host_s", "h2d_bytes", "h2d_s",
            "d2h_bytes", "d2h_s", "d2d_bytes", "d2d_s"]
    with open(path) as f:
        need(f.readline().strip().split(",") == cols, "csv: header")
    for t in targets:
        mine = [r for r in rows if r["target"] == t]
        need(len(mine) == len(values) * repeat, f"csv: {t} has {len(mine)} rows, want {len(values) * repeat}")
        need(all(r["param"] == (param or "") and float(r["total_s"]) > 0 for r in mine), f"csv: {t} rows")


def check_svg(path, param, targets):
    root = ET.parse(path).getroot()
    need(root.tag == SVG + "svg", f"svg: root {root.tag}")
    by_class = {}
    for e in root.iter():
        by_class.setdefault(e.get("class"), []).append(e)
    need(len(by_class.get("axis", [])) >= 3, "svg: two axes and the bars' base line")
    series = [e.get("data-target") for e in by_class.get("series", [])]
    need(series == targets, f"svg: lines {series} != {targets}")
    for e in by_class.get("series", []):
        need(len(e.get("points").split()) >= 1, "svg: a line has points")
    labels = " ".join("".join(e.itertext()) for e in by_class.get("label", []))
    need(param is None or param in labels, f"svg: the x axis is labelled {param}: {labels}")
    need("time" in labels, "svg: the y axis is labelled")
    need(len(by_class.get("tick", [])) >= 4, "svg: tick labels")
    bars = {e.get("data-target") for e in by_class.get("bar", [])}
    need(bars == set(targets), f"svg: bars for {bars}")


def main():
    js, cs, sv, param, values, targets = sys.argv[1:7]
    param = param or None
    values = [float(v) if "." in v or "e" in v else int(v) for v in values.split(",")] if param else []
    targets = targets.split(",")
    d = check_json(js, param, values, targets)
    check_csv(cs, param, values or [None], targets, d["repeat"])
    check_svg(sv, param, targets)
    for p in problems:
        print("bench check:", p)
    sys.exit(1 if problems else 0)


main()

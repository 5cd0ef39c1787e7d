"""Applications benchmarks: the constructions sweep, a float32 precision sweep, the full audit and the mitigation study.

Parts (``--parts``, default all):
  sweep       every construction to n = --max-n (256): gap/temperature table, plots, attention pictures
  precision   prefix-argmax (gap 1/n^3) in float32, doubling then bisection up to n = 4096
  audit       every construction x format up to n = --audit-max-n: largest n deciding every tested input vs prediction
  mitigation  flip-flop in float16 and prefix-argmax in float32: baseline, row max subtracted before scaling,
              scores and softmax in float32 (rest float16), position feature rescaled by 3
Prints figures and timings; writes report/applications/ and report/precision/.
Usage: python benchmarks/applications.py [--parts sweep precision audit mitigation] [--max-n 256]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hardsoft.checks.commands import audit as audit_command
from hardsoft.checks.commands import constructions as constructions_command
from hardsoft.constructive import audit as au
from hardsoft.constructive import applications as cs
from hardsoft.constructive.applications import Construction


def say(s: str) -> None:
    """Print a progress line to stderr."""
    print(s, file=sys.stderr, flush=True)


def part_sweep(max_n: int, out: Path) -> None:
    """Run ``hardsoft constructions`` for every construction up to max_n."""
    t0 = time.perf_counter()
    constructions_command.main_constructions(list(cs.CONSTRUCTIONS), max_n, 32, out)
    print(f"constructions sweep to n = {max_n}: {time.perf_counter() - t0:.0f} s")


def part_precision(out: Path) -> list[au.AuditRow]:
    """prefix-argmax in float32 up to n = 4096."""
    t0 = time.perf_counter()
    r = au.precision_audit(cs.build_prefix_argmax(), "float32", n_max=4096, samples=8, progress=say)
    print(audit_command.audit_table([r]))
    print(f"prefix-argmax float32 precision sweep to n = 4096: {time.perf_counter() - t0:.0f} s")
    return [r]


def part_audit(max_n: int, out: Path) -> list[au.AuditRow]:
    """Every construction x format."""
    t0 = time.perf_counter()
    rows = []
    for name in cs.CONSTRUCTIONS:
        con = cs.get_construction(name)
        for f in au.FORMATS:
            rows.append(au.precision_audit(con, f, n_max=max_n, samples=4, progress=say))
            say(f"-> {rows[-1]}")
    print(audit_command.audit_table(rows))
    print(f"audit of {len(rows)} construction x format pairs to n = {max_n}: {time.perf_counter() - t0:.0f} s")
    return rows


def _rescaled(con: Construction, feature: str, c: float) -> Construction:
    """Return the construction with one position feature rescaled by c (weights reading it divided by c)."""
    from dataclasses import replace

    return replace(con, model=au.rescale_position_feature(con.model, feature, c), name=f"{con.name}")


def part_mitigation(out: Path) -> list[au.AuditRow]:
    """The mitigation study."""
    t0 = time.perf_counter()
    rows = []
    cases = [
        (cs.build_flip_flop(), "float16", ("i/n",), 3.0, 8192, 4),
        (cs.build_prefix_argmax(), "float32", ("i/n^3",), 3.0, 8192, 4),
        (cs.build_dyck(2), "float32", ("i", "i^2"), 0.25, 4096, 8),
    ]
    for con, fmt, feats, scale, nmax, samples in cases:
        variants = [("baseline", con, {}), ("max-first", con, {"order": "max-first"})]
        if fmt == "float16":
            variants.append(("float32 scores+softmax", con, {"softmax_format": "float32"}))
        else:
            variants.append(("float64 scores+softmax", con, {"softmax_format": "float64"}))
        rescaled = con
        for feat in feats:
            rescaled = _rescaled(rescaled, feat, scale)
        variants.append((f"{' and '.join(feats)} x {scale:g}", rescaled, {}))
        for label, c, opts in variants:
            r = au.precision_audit(c, fmt, n_max=nmax, samples=samples, progress=say, **opts)
            r = au.AuditRow(r.construction, r.fmt, label, r.largest_ok, r.first_fail, r.fail_reason, r.mass_at_fail,
                            r.predicted, r.predicted_reason, r.inputs_per_n, r.seconds)
            rows.append(r)
            say(f"-> {r}")
    print(audit_command.audit_table(rows))
    audit_command.plot_audit(rows, out, "mitigation.png")
    print(f"mitigation study: {time.perf_counter() - t0:.0f} s")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", nargs="+", default=["sweep", "precision", "audit", "mitigation"],
                    choices=["sweep", "precision", "audit", "mitigation"])
    ap.add_argument("--max-n", type=int, default=256)
    ap.add_argument("--audit-max-n", type=int, default=2048)
    ap.add_argument("--out", default="report")
    args = ap.parse_args()
    apps, prec = Path(args.out) / "applications", Path(args.out) / "precision"
    apps.mkdir(parents=True, exist_ok=True)
    prec.mkdir(parents=True, exist_ok=True)
    if "sweep" in args.parts:
        part_sweep(args.max_n, apps)
    for part, fn in (("precision", lambda: part_precision(prec)), ("audit", lambda: part_audit(args.audit_max_n, prec)),
                     ("mitigation", lambda: part_mitigation(prec))):
        if part in args.parts:
            rows = fn()
            (prec / f"{part}.json").write_text(json.dumps([r.to_json() for r in rows], indent=1))
            (prec / f"{part}.md").write_text(audit_command.audit_table(rows))
            if part == "audit":
                audit_command.plot_audit(rows, prec, "precision.png")


if __name__ == "__main__":
    main()

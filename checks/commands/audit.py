"""``hardsoft audit precision``: the constructions in low-precision arithmetic; the largest n each format decides, vs the predicted breakdown.

Every bad input (unknown construction or format, n too small, an overflowing run where a
result was asked for) is a ValueError, which ``checks.cli.main`` prints as one line
``hardsoft: error: ...`` with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hardsoft.checks.args import Parser, positive_int
from hardsoft.checks.commands.constructions import construction_names, format_number
from hardsoft.constructive import applications as cs

if TYPE_CHECKING:
    from hardsoft.constructive import audit as au

#: The formats audited by default (every one of constructive.lowprec.FORMATS, tested), named here so that
#: the command line is built without importing lowprec (and ml_dtypes, about 1 s of CPU at every start).
DEFAULT_FORMATS = ("float64", "float32", "float16", "bfloat16", "mixed-float16", "mixed-bfloat16")


def register(sub: Any) -> None:
    """Add the audit subcommand and its one audit, precision."""
    a = sub.add_parser("audit", help="audits: 'audit precision' runs the constructions in low-precision arithmetic")
    asub = a.add_subparsers(dest="audit", required=True, parser_class=Parser)
    p = asub.add_parser("precision", help="largest n each format decides correctly, vs the predicted breakdown")
    p.add_argument("--construction", help=f"comma-separated construction names (default all: {', '.join(cs.CONSTRUCTIONS)})")
    p.add_argument("--formats", nargs="+", help=f"formats (default all: {', '.join(DEFAULT_FORMATS)})")
    p.add_argument("--max-n", type=positive_int("--max-n"), default=4096, help="largest n tried (default 4096)")
    p.add_argument("--samples", type=positive_int("--samples"), default=8, help="inputs per n (default 8)")
    p.add_argument("--n", type=positive_int("--n"), help="instead of the search: run once at this n and report")
    p.add_argument("--out", default="report/precision", help="output folder (default report/precision)")
    p.set_defaults(func=run)


def selected_formats(fmts: list[str] | None) -> list[str]:
    """Return the selected formats after checking each."""
    from hardsoft.constructive.lowprec import FORMATS

    out = []
    for f in fmts or DEFAULT_FORMATS:
        for g in f.split(","):
            if g not in FORMATS:
                raise ValueError(f"unknown format {g!r}; known: {', '.join(FORMATS)}")
            out.append(g)
    return out


def audit_table(rows: list[au.AuditRow]) -> str:
    """Return the markdown table of precision-audit rows."""
    head = (
        "| construction | format | options | largest n deciding all (tested) | first failing n | why | "
        "least mass on the max set at failure | predicted safe up to n | predicted breakdown n | prediction's reason |\n"
        "|---|---|---|---:|---:|---|---:|---:|---:|---|\n"
    )
    return head + "".join(
        f"| {r.construction} | {r.fmt} | {r.options} | {r.largest_ok} | {r.first_fail if r.first_fail else '-'} | "
        f"{r.fail_reason[:90]} | {format_number(r.mass_at_fail)} | {r.predicted_safe if r.predicted_safe else '-'} | "
        f"{r.predicted if r.predicted else '-'} | {r.predicted_reason} |\n"
        for r in rows
    )


def plot_audit(rows: list[au.AuditRow], out: Path, name: str = "precision.png") -> Path:
    """Plot measured largest-deciding n against the predicted breakdown per construction and format."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(7.5, 0.42 * len(rows) + 2), 4.6))
    labels = [f"{r.construction} {r.fmt}{'' if r.options == 'baseline' else ' ' + r.options}" for r in rows]
    x = np.arange(len(rows))
    cap = 2**20
    meas = [r.largest_ok or 1 for r in rows]
    safe = [min(r.predicted_safe, cap) if r.predicted_safe else np.nan for r in rows]
    pred = [r.predicted or np.nan for r in rows]
    ax.bar(x - 0.27, safe, 0.27, label="predicted safe up to n", color="tab:green")
    ax.bar(
        x,
        meas,
        0.27,
        label="largest n deciding every tested input (measured; hatched: no failure up to the search's end)",
        color="tab:blue",
        hatch=["//" if r.first_fail is None else "" for r in rows],
    )
    ax.bar(x + 0.27, pred, 0.27, label="predicted breakdown n (gap below one spacing)", color="tab:orange")
    ax.set_yscale("log", base=2)
    ax.set_xticks(x, labels, fontsize=6, rotation=70, ha="right")
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = out / name
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def run(args: argparse.Namespace) -> int:
    """Run the precision audit and write precision.md / .json / .png."""
    from hardsoft.constructive import audit as au

    names = construction_names(args.construction)
    fmts = selected_formats(args.formats)
    cons = [cs.get_construction(nm) for nm in names]
    for con in cons:
        con.require_n(args.max_n if args.n is None else args.n)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def say(s: str) -> None:
        sys.stderr.write(s + "\n")

    if args.n is not None:
        results = []
        for con in cons:
            for f in fmts:
                w, ex = au.test_inputs(con, args.n, args.samples)
                wrong, mass = au.decide(con, w, "soft", con.tau(args.n), f, watch=True)  # overflow -> ValueError, exit 2
                results.append({"construction": con.name, "format": f, "n": args.n, "inputs": len(w), "wrong": wrong, "mass_on_winner": mass})
                print(f"{con.name} {f} n={args.n}: {wrong}/{len(w)} inputs decided wrongly; least mass on the winner {mass:.6g}")
        (out / "precision-at-n.json").write_text(json.dumps(results, indent=1))
        return 0
    rows = [au.precision_audit(con, f, n_max=args.max_n, samples=args.samples, progress=say) for con in cons for f in fmts]
    table = audit_table(rows)
    (out / "precision.md").write_text("# Precision audit\n\n" + table)
    (out / "precision.json").write_text(json.dumps([r.to_json() for r in rows], indent=1))
    plot_audit(rows, out)
    print(table)
    print(f"written to {out}/ (precision.md, precision.json, precision.png)")
    return 0

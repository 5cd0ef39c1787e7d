"""``hardsoft constructions``: the applications (flip-flop, induction heads, prefix-argmax, Dyck-2) verified; gap/temperature table, plots.

Also the attention pictures (hard and soft weights of every head on one input).  With ``--lang L
(PROGRAM | --file F)`` a user's program, compiled as ``hardsoft compile`` compiles it, is run
through the same measurement (``constructive.lang.construction.construction_of_program``: its
output at every position against the language's interpreter, exhaustively for small n and on
sampled inputs beyond) and written in the same report format.

Every bad input (unknown construction, n too small) is a ValueError, which ``checks.cli.main``
prints as one line ``hardsoft: error: ...`` with exit status 2.  Exit 1 if an input was decided wrongly.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hardsoft.checks.args import add_alphabet_option, add_lang_option, add_regime_option, positive_int, program_text, refuse_unused
from hardsoft.constructive import applications as cs

if TYPE_CHECKING:
    from hardsoft.constructive import audit as au


def register(sub: Any) -> None:
    """Add the constructions subcommand."""
    c = sub.add_parser(
        "constructions", help="the applications (flip-flop, induction heads, prefix-argmax, Dyck-2): verification, gap/tau table, attention pictures"
    )
    c.add_argument("--only", help=f"comma-separated construction names ({', '.join(cs.CONSTRUCTIONS)})")
    c.add_argument("program", nargs="?", help="with --lang: a program to measure as a construction (instead of the built-in ones)")
    c.add_argument("--file", metavar="F", help="with --lang: read the program from a file")
    add_lang_option(c)
    add_regime_option(c)
    add_alphabet_option(c)
    c.add_argument("--max-n", type=positive_int("--max-n"), default=256, help="largest length n (default 256)")
    c.add_argument("--samples", type=positive_int("--samples"), default=32, help="sampled inputs per length beyond exhaustive (default 32)")
    c.add_argument("--out", default="report/applications", help="output folder (default report/applications)")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Verify every selected construction (or the program of --lang), write the gap/temperature table, plots and attention pictures."""
    given = args.program is not None or args.file is not None
    if not given:
        if args.lang != "tl":
            raise ValueError("--lang goes with a program (PROGRAM or --file F)")
        refuse_unused(args, ("--alphabet", "--regime"), "by the built-in constructions (they go with --lang and a program)")
        return main_constructions(construction_names(args.only), args.max_n, args.samples, Path(args.out))
    if args.program is not None and args.file is not None:
        raise ValueError("give the program or --file F, not both")
    if args.only is not None:
        raise ValueError("--only names built-in constructions; it does not go with a program")
    return run_constructions([program_construction(args)], args.max_n, args.samples, Path(args.out))


def program_construction(args: argparse.Namespace) -> cs.Construction:
    """Return the program of --lang (PROGRAM or --file F), compiled as ``hardsoft compile`` does, as a construction."""
    from hardsoft.checks.commands.compile import compile_program_args
    from hardsoft.constructive.lang.construction import construction_of_program

    compiled = compile_program_args(args, program_text(args, "program"))
    name = Path(args.file).stem if args.file else "program"
    return construction_of_program(compiled, f"{args.lang}-{name}")


def construction_names(only: str | None) -> list[str]:
    """Return the construction names selected by a comma-separated list (all if None)."""
    if only is None:
        return list(cs.CONSTRUCTIONS)
    names = [t.strip() for t in only.split(",")]
    for t in names:
        cs.get_construction(t)  # ValueError naming the known ones
    return names


def lengths(con: cs.Construction, max_n: int) -> list[int]:
    """Return the lengths of the table: min_n..8, then powers of two up to max_n, leaving out lengths of infinite claimed gap.

    An infinite gap (every head sees ties or one key: e.g. n = 1, or n = 2 under
    strict masks) leaves nothing for statement T to certify: soft equals hard there.
    """
    con.require_n(max_n)
    ns = [n for n in range(con.min_n, min(8, max_n) + 1) if math.isfinite(con.gap(n))]
    k = 16
    while k <= max_n:
        ns.append(k)
        k *= 2
    if ns[-1] != max_n:
        ns.append(max_n)
    return ns


def format_number(v: float) -> str:
    """Return a number for a markdown table."""
    return "nan" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.3g}"


def constructions_table(rows: list[au.GapRow]) -> str:
    """Return the markdown table of gap/temperature rows."""
    head = (
        "| construction | n | inputs | gap measured | gap claimed | x_max | tau (statement T, eps 1/4) | "
        "tau (construction) | largest deciding tau | tau_c / tau_T | tau_max / tau_c | wrong hard / soft |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    body = "".join(
        f"| {r.construction} | {r.n} | {r.inputs}{' (all)' if r.exhaustive else ''} | {format_number(r.gap_measured)} | "
        f"{format_number(r.gap_claimed)} | {format_number(r.x_max)} | {format_number(r.tau_T)} | "
        f"{format_number(r.tau_construction)} | {format_number(r.tau_largest)} | "
        f"{format_number(r.tau_construction / r.tau_T)} | {format_number(r.tau_largest / r.tau_construction)} | {r.wrong_hard} / {r.wrong_soft} |\n"
        for r in rows
    )
    return head + body


def plot_constructions(rows: list[au.GapRow], out: Path) -> Path:
    """Plot measured/claimed gap and the three temperatures against n, one panel per construction."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(r.construction for r in rows))
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.6), squeeze=False)
    for ax, name in zip(axes[0], names):
        rs = [r for r in rows if r.construction == name]
        ns = [r.n for r in rs]
        ax.loglog(ns, [r.gap_measured for r in rs], "o", label="gap measured")
        ax.loglog(ns, [r.gap_claimed for r in rs], "-", label="gap claimed")
        ax.loglog(ns, [r.tau_T for r in rs], "s--", label="tau statement T")
        ax.loglog(ns, [r.tau_construction for r in rs], "^-", label="tau construction")
        ax.loglog(ns, [r.tau_largest for r in rs], "v:", label="largest deciding tau")
        ax.set_title(name)
        ax.set_xlabel("n")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    path = out / "constructions.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def picture_input(con: cs.Construction, n: int) -> np.ndarray:
    """Return one illustrative input of length n for the attention pictures."""
    return con.sample(np.random.default_rng(7), n, 2)[1][None]


def plot_attention(con: cs.Construction, n: int, out: Path) -> Path:
    """Save hard and soft attention weights (at the construction's temperature) side by side for every head of one input."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hardsoft.constructive.lowprec import float64_weights  # here: lowprec imports ml_dtypes (about 1 s of CPU)

    w = picture_input(con, n)
    hard = float64_weights(con.model, w[0], "average")
    soft = float64_weights(con.model, w[0], "soft", con.tau(n))
    heads = [(l, h) for l in range(len(hard)) for h in range(len(hard[l]))]
    fig, axes = plt.subplots(len(heads), 2, figsize=(6.4, 3.0 * len(heads)), squeeze=False)
    word = "".join(con.model.alphabet[c] for c in w[0])
    for r, (l, h) in enumerate(heads):
        for c, (mat, what) in enumerate(((hard, "hard (average)"), (soft, f"soft tau={con.tau(n):.2g}"))):
            ax = axes[r][c]
            ax.imshow(mat[l][h], cmap="viridis", vmin=0, vmax=1, interpolation="nearest")
            ax.set_title(f"layer {l} head {h}: {what}", fontsize=8)
            ax.set_xlabel("key j", fontsize=7)
            ax.set_ylabel("query i", fontsize=7)
            ax.tick_params(labelsize=6)
    fig.suptitle(f"{con.name}: {word}", fontsize=9)
    fig.tight_layout()
    path = out / f"attention-{con.name}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def require_sweep_memory(con: cs.Construction, max_n: int, samples: int) -> int:
    """Refuse (ValueError, before any length runs) a sweep whose largest run needs more memory than the machine has.

    The largest run is at max_n, on every input when there are at most ``audit.EXHAUSTIVE_LIMIT``, else on ``samples``
    sampled ones (``audit.test_inputs``); its memory is ``spec.transformer.estimate_run_bytes``.
    """
    from hardsoft.constructive.audit import EXHAUSTIVE_LIMIT
    from hardsoft.spec import transformer as tf

    s = len(con.model.alphabet)
    batch = s**max_n if max_n * math.log2(max(s, 2)) <= math.log2(EXHAUSTIVE_LIMIT) else samples
    try:
        return tf.require_run_memory(con.model, batch, max_n)
    except ValueError as e:
        raise ValueError(f"{con.name} at --max-n {max_n}: {e}") from None


def main_constructions(names: list[str], max_n: int, samples: int, out: Path) -> int:
    """Run the constructions sweep over built-in constructions by name; return the exit status (1 if an input was decided wrongly)."""
    return run_constructions([cs.get_construction(nm) for nm in names], max_n, samples, out)


def run_constructions(cons: list[cs.Construction], max_n: int, samples: int, out: Path) -> int:
    """Run the constructions sweep (built-in or programs): table, JSON, plots, attention pictures; exit 1 if an input was decided wrongly."""
    from hardsoft.constructive import audit as au  # here, not at import: it brings in lowprec and ml_dtypes

    for con in cons:
        con.require_n(max_n)
        require_sweep_memory(con, max_n, samples)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[au.GapRow] = []
    t0 = time.perf_counter()
    for con in cons:
        for n in lengths(con, max_n):
            r = au.gap_row(con, n, samples=samples)
            rows.append(r)
            sys.stderr.write(
                f"{con.name:14} n={n:>5} inputs={r.inputs:>6}{' (all)' if r.exhaustive else '      '} "
                f"gap={r.gap_measured:.3g} tau_T={r.tau_T:.3g} tau_c={r.tau_construction:.3g} "
                f"tau_max={r.tau_largest:.3g} wrong hard/soft={r.wrong_hard}/{r.wrong_soft}\n"
            )
        plot_attention(con, min(16, max_n), out)
    table = constructions_table(rows)
    plot_constructions(rows, out)
    ok = all(r.wrong_hard == 0 and r.wrong_soft == 0 for r in rows)
    doc = {
        "rows": [r.to_json() for r in rows],
        "all_decided": ok,
        "seconds": time.perf_counter() - t0,
        "constructions": {
            c.name: {
                "gap": c.gap_formula,
                "tau": c.tau_formula,
                "description": c.description,
                "min_n": c.min_n,
                "depth": c.model.depth,
                "d": c.model.d,
            }
            for c in cons
        },
    }
    (out / "constructions.json").write_text(json.dumps(doc, indent=1))
    (out / "constructions.md").write_text("# Constructions: gap and temperatures\n\n" + table)
    print(table)
    print(
        f"{'every tested input decided in hard and soft mode' if ok else 'SOME INPUT DECIDED WRONGLY'}; "
        f"{time.perf_counter() - t0:.0f} s; written to {out}/ (constructions.md, constructions.json, constructions.png, "
        f"attention-*.png)"
    )
    return 0 if ok else 1

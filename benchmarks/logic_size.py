"""Benchmark (compiled size and compile time of the temporal-logic compiler against the formula's size).

1. Chains: S-chains (((a S b) S a) S b ...), &-chains of Y-atoms (Y a & Y b & ...), alternating
   &/| chains of Y-atoms, and random formulas (seeded; the family's leaves and operators), of
   25, 50, 100 and 200 operators: compile time, layers, d, FFN width (widest layer), heads and
   the Boolean nodes computed from a truth table / as one circuit gate.  Growth is linear when
   d, FFN width and heads per operator stay flat down each column.
2. Random formulas of depth 5 (seeded): the same figures plus the run time of every string of
   length 10 in soft mode.
3. The basic induction head: the hand-built construction (``constructive.applications``,
   "induction") against the one compiled from TL[since] formulas ("induction-tl"): FFN width,
   d, heads, layers and, per length n, the run time of the same batch of words in soft mode at
   each one's tau(n) (best of several runs: the machine is shared).
4. Comparisons mixing past and future counts (lookups over positions), in both regimes, beside a
   one-direction comparison of the same shape: size, the temperature rule, claimed and measured
   gap at n = 8, and the time of verifying every string to length 8 in hard and soft mode.

Usage: python benchmarks/logic_size.py [--quick] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from hardsoft.checks.engine import formulas as fm
from hardsoft.constructive import applications as ap
from hardsoft.constructive import logic as lg
from hardsoft.spec import transformer as tf

SIZES = (25, 50, 100, 200)
SEED = 20241209


def _temporal_leaves() -> list[lg.Formula]:
    """Return distinct formulas of 1 or 2 operators with a temporal operator on top (none symbol-only), family order."""
    return [g for g in fm.formulas_with_ops(1) + fm.formulas_with_ops(2) if isinstance(g, (lg.Prev, lg.Next, lg.Since, lg.Until))]


def chain(kind: str, ops: int) -> lg.Formula:
    """Return a left-nested chain with ``ops`` operators (kind: S; and, andor: distinct temporal leaves joined by & or alternately & and |)."""
    if kind == "S":
        f: lg.Formula = lg.Atom("a")
        for k in range(ops):
            f = lg.Since(f, lg.Atom("a" if k % 2 else "b"))
        return f
    leaves = iter(_temporal_leaves())
    f = next(leaves)
    k = 0
    while lg.size(f) < ops:
        g = next(leaves)
        f = lg.And(f, g) if kind == "and" or k % 2 == 0 else lg.Or(f, g)
        k += 1
    return f


def random_formula(ops: int, seed: int) -> lg.Formula:
    """Return a seeded random formula with exactly ``ops`` operators (the generated family's leaves and operators)."""
    return fm._random_formula(random.Random(seed), ops, fm.FAMILY_LEAVES)


def random_depth(depth: int, seed: int) -> lg.Formula:
    """Return a seeded random formula of the given depth over the family's leaves and its one-operator temporal formulas.

    At every level: a binary operator over two subtrees one level shallower (4 in 5) or a unary one.
    """
    rng = random.Random(seed)
    leaves = [fm._leaf(x) for x in fm.FAMILY_LEAVES] + [g for g in fm.formulas_with_ops(1) if not isinstance(g, lg.Not)]

    def build(d: int) -> lg.Formula:
        if d == 0:
            return rng.choice(leaves)
        if rng.random() < 0.2:
            return fm._unary(rng.choice(fm.FAMILY_UNARY), build(d - 1))
        return fm._binary(rng.choice(fm.FAMILY_BINARY), build(d - 1), build(d - 1))

    return build(depth)


def shape(c: Any) -> dict[str, Any]:
    """Return the size figures of a compiled formula."""
    d = c.describe()
    forms = d.get("boolean_forms", {})
    return {
        "layers": d["layers"],
        "d": d["d"],
        "ffn_width": d["ffn_width"],
        "heads": d["heads"],
        "table": forms.get("table"),
        "circuit": forms.get("circuit"),
    }


def compile_timed(f: lg.Formula) -> tuple[Any, float]:
    """Return (compiled model, seconds) in the bounded regime."""
    t0 = time.perf_counter()
    c = lg.compile_formula(f, ("a", "b"), "bounded")
    return c, time.perf_counter() - t0


def part_sizes(sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """Return part 1's rows."""
    rows = []
    print("part 1: compiled size against formula size (bounded regime)")
    print(f"  {'formula':<10} {'ops':>4} {'compile s':>10} {'layers':>6} {'d':>6} {'FFN':>6} {'heads':>6} {'table':>6} {'circuit':>7}  d/op FFN/op")
    for kind in ("S", "and", "andor", "random"):
        for n in sizes:
            f = random_formula(n, SEED + n) if kind == "random" else chain(kind, n)
            try:
                c, secs = compile_timed(f)
            except ValueError as e:
                print(f"  {kind:<10} {lg.size(f):>4} refused: {e}")
                rows.append({"kind": kind, "ops": lg.size(f), "refused": str(e)})
                continue
            row = {"kind": kind, "ops": lg.size(f), "compile_seconds": secs, **shape(c)}
            rows.append(row)
            print(
                f"  {kind:<10} {row['ops']:>4} {secs:>10.3f} {row['layers']:>6} {row['d']:>6} {row['ffn_width']:>6} "
                f"{row['heads']:>6} {row['table']!s:>6} {row['circuit']!s:>7}  {row['d'] / row['ops']:.2f} {row['ffn_width'] / row['ops']:.2f}"
            )
    return rows


def time_run(model: Any, words: np.ndarray, tau: float, repeats: int) -> float:
    """Return the best of ``repeats`` wall times of one soft run over the batch."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        tf.run(model, words, "soft", tau=tau)
        best = min(best, time.perf_counter() - t0)
    return best


def part_depth5(count: int) -> list[dict[str, Any]]:
    """Return part 2's rows."""
    print("part 2: random formulas of depth 5 (bounded regime), soft run of all 1,024 strings of length 10")
    words = np.concatenate(list(tf.enumerate_inputs(2, 10)))
    rows = []
    for k in range(count):
        f = random_depth(5, SEED + k)
        c, secs = compile_timed(f)
        run = time_run(c.model, words, c.tau(10), 1)
        row = {"formula": str(f), "ops": lg.size(f), "compile_seconds": secs, "run_seconds": run, **shape(c)}
        rows.append(row)
        print(
            f"  ops {row['ops']:>3}: layers {row['layers']}, d {row['d']}, FFN {row['ffn_width']}, heads {row['heads']}, "
            f"table/circuit {row['table']}/{row['circuit']}, compile {secs:.3f} s, run {run:.3f} s   {f}"
        )
    return rows


def part_induction(ns: tuple[int, ...], count: int, repeats: int) -> dict[str, Any]:
    """Return part 3's figures: hand-built vs TL-compiled induction head on the same words, per length."""
    print(f"part 3: basic induction head, {count} words per length, soft mode at each one's tau(n), best of {repeats} runs")
    cons = {name: ap.CONSTRUCTIONS[name]() for name in ("induction", "induction-tl")}
    out: dict[str, Any] = {}
    for name, con in cons.items():
        m = con.model
        out[name] = {"layers": m.depth, "d": m.d, "ffn_width": max(l.W1.shape[1] for l in m.layers), "heads": sum(len(l.heads) for l in m.layers)}
        row = out[name]
        print(f"  {name:<13} layers {row['layers']}, d {row['d']}, FFN {row['ffn_width']}, heads {row['heads']}")
    out["runs"] = []
    for n in ns:
        words = cons["induction"].sample(np.random.default_rng(SEED + n), n, count)
        secs = {name: time_run(con.model, words, con.tau(n), repeats) for name, con in cons.items()}
        ratio = secs["induction-tl"] / secs["induction"]
        out["runs"].append({"n": n, **{f"{k}_seconds": v for k, v in secs.items()}, "ratio": ratio})
        print(f"  n = {n:>3}: hand-built {secs['induction']:.4f} s, TL-compiled {secs['induction-tl']:.4f} s: {ratio:.2f}x")
    return out


#: Part 4's formulas: one-direction comparisons for reference, then mixed ones.
MIXED_FORMULAS = ("#<[a] > #<[b]", "#<[a] > #>[b]", "2*#<[a] - 3*#>[b] + 1 > 0", "(#<[a] > #>[a]) S b", "#>[#<[a] >= #>[b]] > #<[b]")


def part_mixed(max_len: int) -> list[dict[str, Any]]:
    """Return part 4's rows: mixed comparisons' size, rule, gap and exhaustive verification time."""
    from hardsoft.constructive.logic.selfcheck import check_compiled

    print(f"part 4: comparisons mixing past and future counts, verified on every string to length {max_len} (hard and soft)")
    rows = []
    for text in MIXED_FORMULAS:
        for regime in ("bounded", "unbounded"):
            t0 = time.perf_counter()
            c = lg.compile_formula(text, ("a", "b"), regime)
            secs = time.perf_counter() - t0
            report = check_compiled(c, max_len)
            measured = tf.measure(c.model, 8).gap
            row = {
                "formula": text,
                "regime": regime,
                "compile_seconds": secs,
                **shape(c),
                "temperature": c.describe()["temperature"],
                "tau_8": c.tau(8),
                "gap_8": c.gap(8),
                "measured_gap_8": measured,
                "ok": report["ok"],
                "verify_seconds": report["seconds"],
            }
            rows.append(row)
            print(
                f"  {regime:<9} {text:<28} layers {row['layers']}, d {row['d']}, FFN {row['ffn_width']}, heads {row['heads']}; "
                f"tau(8) {row['tau_8']:.3g}, gap(8) claimed {row['gap_8']:.3g} measured {measured:.3g}; "
                f"verified {'OK' if report['ok'] else 'MISMATCH'} in {report['seconds']:.2f} s   [{row['temperature']}]"
            )
    return rows


def main() -> None:
    ap_ = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap_.add_argument("--quick", action="store_true", help="sizes 25 and 50 only, fewer depth-5 formulas and words")
    ap_.add_argument("--json", help="write the figures to this file")
    a = ap_.parse_args()
    doc = {
        "sizes": part_sizes(SIZES[:2] if a.quick else SIZES),
        "depth5": part_depth5(2 if a.quick else 5),
        "induction": part_induction((16, 32) if a.quick else (16, 32, 64, 128), 64 if a.quick else 128, 3 if a.quick else 5),
        "mixed": part_mixed(6 if a.quick else 8),
    }
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()

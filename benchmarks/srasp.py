"""Benchmark (S-RASP compiler and verification): compile time, depth, d and FFN width against program size; library verification times.

1. Random programs the compiler covers (a fixed seed; every operation kind the compiler compiles:
   Boolean connectives and conditionals, constants, index, linear forms, comparisons, inclusive and
   strict prefix sums, once, selects with ==, with < <= > >= on the index, or no selector), of 25 to
   400 operations: the compile
   time, the layers, d, the FFN width (the widest layer's hidden units) and the total hidden units,
   printed per size (the growth is linear in the size when d and the units grow by a bounded
   amount per operation).  The 200-operation program is the speed target's (under 1 s); it is also
   verified exhaustively to length 5 (hard and soft, every cell).
2. Every library program (constructive/srasp/programs) verified exhaustively, hard and soft, every
   cell, to its length (8, Dyck-2 6, Dyck-3 5, Dyck-4 4): words, cells and seconds.
3. Every library program on 64 random words of length 64 (hard and soft, every cell): beyond the
   exhaustive lengths, at the compiled temperature.
4. Every library program at n = 5: the gap and x_max measured over every input, the claimed gap, the
   compiled temperature tau(n) and statement T's sufficient temperature (Theorem 26) for eps = 0.01.

Usage: python benchmarks/srasp.py [--quick] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from hardsoft.constructive import srasp as sr
from hardsoft.constructive.srasp import language as L
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf

#: Program sizes (operations, the two tokens included) of part 1.
SIZES = (25, 50, 100, 200, 400)
#: Length each library program is verified to.
LIBRARY_LENGTH = {"dyck2": 6, "dyck3": 5, "dyck4": 4}


def random_program(size: int, seed: int = 0) -> L.Program:
    """Return a program of `size` operations over {a, b} that the compiler covers (fixed seed)."""
    rng = random.Random(seed)
    defs: list[tuple[str, L.Op]] = [("A", L.Token(("a",))), ("B", L.Token(("b",))), ("pos", L.Index()), ("f", L.BoolConst(False))]
    bools, squarable, expandable, ints = ["A", "B", "f"], ["pos"], ["pos"], ["pos"]
    while len(defs) < size:
        name = f"d{len(defs)}"
        b1, b2, b3 = (rng.choice(bools) for _ in range(3))
        kind = rng.choice(["not", "and", "or", "cond", "lin", "cmp", "psum", "spsum", "once", "select", "select_eq", "select_order"])
        op: L.Op
        if kind == "not":
            op = L.BoolNot(b1)
        elif kind == "and":
            op = L.BoolAnd(b1, b2)
        elif kind == "or":
            op = L.BoolOr(b1, b2)
        elif kind == "cond":
            op = L.Cond(b1, b2, b3)
        elif kind == "lin":
            x = rng.choice(squarable)
            op = L.Lin(((rng.choice([1, -1, 2]), x),), rng.randint(-2, 2))
        elif kind == "cmp":
            x, y = rng.sample(ints, 2) if len(ints) > 1 else (ints[0], ints[0])
            op = L.Compare(rng.choice(L.COMPARISONS), L.Lin(((1, x),)), L.Lin(((1, y),) if y != x else (), rng.randint(0, 2)))
        elif kind == "psum":
            terms = tuple((c, x) for c, x in zip((1, -1), rng.sample(bools, 2)))
            op = L.PrefixSum(L.Lin(terms))
        elif kind == "spsum":
            op = L.Psum(b1, b2 if b2 != b1 else None)
        elif kind == "once":
            op = L.Once(b1)
        elif kind == "select":
            op = L.Select(rng.choice(L.DIRECTIONS), rng.choice(tuple(L.SELECT_MASKS)), None, None, None, 0, rng.choice([None, b1]), b2, b3)
        elif kind == "select_order":
            cmp, q = rng.choice(("<", "<=", ">", ">=")), rng.choice(ints)
            op = L.Select(rng.choice(L.DIRECTIONS), rng.choice(tuple(L.SELECT_MASKS)), "pos", cmp, q, rng.randint(-1, 1), None, b2, b3)
        else:
            k, q = rng.choice(squarable), rng.choice(ints)
            op = L.Select(rng.choice(L.DIRECTIONS), rng.choice(tuple(L.SELECT_MASKS)), k, "==", q, rng.randint(-1, 1), rng.choice([None, b1]), b2, b3)
        defs.append((name, op))
        if isinstance(op, (L.Lin, L.PrefixSum, L.Psum)):
            ints.append(name)
            if isinstance(op, (L.Lin, L.Psum)) and len(ints) < 40:  # keys stay few: growth of a x + c chains is bounded by the scale
                squarable.append(name)
            if isinstance(op, L.Lin):
                expandable.append(name)
        else:
            bools.append(name)
    outs = (("o", bools[-1]),)
    return L.Program(f"random-{size}", ("a", "b"), tuple(defs), outs, "none")


def measure_sizes(sizes: tuple[int, ...]) -> list[dict[str, float]]:
    """Return, per size, the compile time and the model's layers, d, FFN width and total hidden units."""
    rows = []
    for size in sizes:
        prog = random_program(size)
        start = time.perf_counter()
        comp = sr.compile_program(prog)
        seconds = time.perf_counter() - start
        m = comp.model
        rows.append(
            {
                "size": size,
                "seconds": seconds,
                "layers": len(m.layers),
                "heads": sum(len(layer.heads) for layer in m.layers),
                "d": m.WE.shape[1],
                "ffn_width": max(layer.W1.shape[1] for layer in m.layers),
                "hidden_units": sum(layer.W1.shape[1] for layer in m.layers),
            }
        )
    return rows


def measure_library(quick: bool) -> list[dict[str, object]]:
    """Return, per library program, the exhaustive verification's words, cells, verdict and seconds."""
    rows = []
    for name in sr.library_names():
        n = min(LIBRARY_LENGTH.get(name, 8), 5 if quick else 8)
        r = sr.verify_program(sr.load_library(name), None, n)
        rows.append({"program": name, "max_len": n, "words": r.words, "cells": r.cells, "ok": r.ok, "seconds": r.seconds})
    return rows


def measure_temperatures(n: int = 5, eps: float = 0.01) -> list[dict[str, object]]:
    """Return, per library program, the measured gap and x_max at n, the claimed gap, tau(n) and statement T's tau for eps."""
    rows: list[dict[str, object]] = []
    for name in sr.library_names():
        prog = sr.load_library(name)
        comp = sr.compile_program(prog)
        m = tf.measure(comp.model, n)
        consts = bd.RecursionConstants.from_norms(tf.compute_model_norms(comp.model), max(m.x_max, 1e-300), n, m.gap)
        tau_t = bd.compute_sufficient_inverse_temperature(consts, eps).tau
        row = {"program": name, "n": n, "gap": m.gap, "claimed_gap": sr.claimed_gap(prog, n), "x_max": m.x_max}
        rows.append({**row, "tau": comp.tau(n), "tau_T": tau_t})
    return rows


def main() -> None:
    """Print both tables (and write them as JSON with --json)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 200, library to length 5")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    sizes = tuple(s for s in SIZES if s <= 200) if args.quick else SIZES
    rows = measure_sizes(sizes)
    print(f"{'ops':>5} {'compile s':>10} {'layers':>7} {'heads':>6} {'d':>6} {'FFN width':>10} {'units':>7} {'d/op':>6} {'units/op':>9}")
    for r in rows:
        print(
            f"{r['size']:>5} {r['seconds']:>10.3f} {r['layers']:>7} {r['heads']:>6} {r['d']:>6} {r['ffn_width']:>10} {r['hidden_units']:>7}"
            f" {r['d'] / r['size']:>6.2f} {r['hidden_units'] / r['size']:>9.2f}"
        )
    big = sr.verify_program(random_program(200), None, 5)
    print(f"the 200-operation program, verified: {big.summary()}")
    lib = measure_library(args.quick)
    total = sum(float(str(r["seconds"])) for r in lib)
    print(f"\n{'program':<16} {'up to':>5} {'words':>7} {'cells':>10} {'verdict':>8} {'seconds':>8}")
    for r in lib:
        verdict = "ok" if r["ok"] else "WRONG"
        print(f"{r['program']:<16} {r['max_len']:>5} {r['words']:>7} {r['cells']:>10} {verdict:>8} {float(str(r['seconds'])):>8.2f}")
    print(f"{'total':<16} {'':>5} {'':>7} {'':>10} {'':>8} {total:>8.2f}")
    print(f"\n{'program':<16} {'n':>4} {'words':>6} {'verdict':>8} {'seconds':>8}  (random words)")
    for name in sr.library_names():
        r = sr.verify_sampled(sr.compile_program(sr.load_library(name)), 64, 16 if args.quick else 64, seed=1)
        print(f"{name:<16} {64:>4} {r.words:>6} {'ok' if r.ok else 'WRONG':>8} {r.seconds:>8.2f}")
    temps = measure_temperatures()
    print(f"\n{'program':<16} {'n':>3} {'gap':>8} {'claimed':>8} {'x_max':>6} {'tau(n)':>9} {'tau_T':>10} {'tau/tau_T':>9}")
    for t in temps:
        g, cg, x, tau, tt = (float(str(t[k])) for k in ("gap", "claimed_gap", "x_max", "tau", "tau_T"))
        print(f"{t['program']:<16} {t['n']:>3} {g:>8.4f} {cg:>8.4f} {x:>6.1f} {tau:>9.5f} {tt:>10.3g} {tau / tt:>9.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"sizes": rows, "library": lib, "temperatures": temps}, fh, indent=2)


if __name__ == "__main__":
    main()

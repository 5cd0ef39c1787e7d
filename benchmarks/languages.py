"""Benchmark (the program languages, docs/languages.md): compile time and model size against program size, and the library's verification time.

1. Random programs of every language (TL formulas, B-RASP, C-RASP, S-RASP) of 10, 25, 50, 100 and
   200 operations (fixed seeds): the seconds to parse the printed program and compile it
   (translation to TL + the TL compiler, or the S-RASP compiler), the vectors the output depends
   on, the TL formula's distinct nodes, and the model's layers, heads, d and FFN width; then, per
   language, d and FFN width per operation at 50, 100 and 200 operations (constant when the
   size grows linearly with the program) and the slowest compile.  Refusals are counted and named.
2. Every library program compiled in both regimes and verified on every string up to length 8
   (three letters too), hard and soft, every compiled vector at every position against the
   language's interpreter; total seconds.

Usage: python benchmarks/languages.py [--quick] [--sizes-only] [--limit SECONDS] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import time
from typing import Any

from hardsoft.checks.engine.programs import verify_program
from hardsoft.constructive.lang import LANGUAGES
from hardsoft.constructive.lang import brasp as B
from hardsoft.constructive.lang.grammar import load_parser
from hardsoft.constructive.lang.library import library

SIZES = (10, 25, 50, 100, 200)
SEEDS = (1, 2, 3)
#: Operands are drawn from the WINDOW most recent vectors (a program reads what it has just computed).
WINDOW = 6
#: Defaults of the random B-RASP attention operations.
DEFAULTS = ("Q_a", "Q_b", "true", "false")
#: The sizes of the linear-growth summary (operations), and the compile time they must stay under (seconds).
GROWTH_SIZES = (50, 100, 200)
COMPILE_TARGET_SECONDS = 1.0


def random_tl(ops: int, seed: int) -> str:
    """Return a random TL formula of exactly `ops` operators (Y, X, !, &, |, S, U and count comparisons, each one operator).

    A tree is grown from a pool of subformulas: a unary operator replaces one of the WINDOW most
    recent, a binary one joins two (an atom is added when fewer than two are left); the pool left
    at the end is joined with &, those & counted in the `ops`.
    """
    rng = random.Random(seed)
    pool: list[str] = ["a"]
    done = 0
    while done + len(pool) - 1 < ops:
        r = rng.random()
        if r < 0.3:
            k = rng.randrange(max(0, len(pool) - WINDOW), len(pool))
            pool[k] = f"{rng.choice(('Y', 'X', '!'))} ({pool[k]})"
        elif r < 0.4:
            k = rng.randrange(max(0, len(pool) - WINDOW), len(pool))
            pool[k] = f"#<[{pool[k]}] {rng.choice(('>=', '<'))} {rng.randint(1, 3)}"
        else:
            if len(pool) < 2 or rng.random() < 0.3:
                pool.append(rng.choice("ab"))
                continue
            y, x = pool.pop(), pool.pop()
            pool.append(f"({x}) {rng.choice(('&', '|', 'S', 'U'))} ({y})")
        done += 1
    return " & ".join(f"({p})" for p in pool)


def random_srasp(ops: int, seed: int) -> str:
    """Return a random S-RASP program of `ops` definitions after its two tokens (Boolean operations, once, prefix sums, differences, comparisons, aggregations)."""
    rng = random.Random(seed)
    lines = ['program "random"', 'alphabet "a" "b"', 'A = token("a")', 'B = token("b")', "f = false"]
    bools, ints = ["A", "B"], []
    for k in range(ops):
        name, r = f"v{k}", rng.random()
        b1, b2 = rng.choice(bools[-WINDOW:]), rng.choice(bools[-WINDOW:])
        if r < 0.2 or (not ints and r < 0.5):
            lines.append(f"{name} = psum({b1})")
            ints.append(name)
        elif r < 0.3 and len(ints) >= 2:
            lines.append(f"{name} = {rng.choice(ints[-WINDOW:])} - {rng.choice(ints[-WINDOW:])}")
            ints.append(name)
        elif r < 0.45 and ints:
            lines.append(f"{name} = {rng.choice(ints[-WINDOW:])} {rng.choice(('>', '<=', '=='))} {rng.choice(ints[-WINDOW:])}")
            bools.append(name)
        elif r < 0.6:
            lines.append(f"{name} = {rng.choice(('rightmost', 'leftmost'))} j < i with {b1}[j] value {b2} default f")
            bools.append(name)
        elif r < 0.7:
            lines.append(f"{name} = once({b1})")
            bools.append(name)
        elif r < 0.8:
            lines.append(f"{name} = not {b1}")
            bools.append(name)
        else:
            lines.append(f"{name} = {b1} {rng.choice(('and', 'or'))} {b2}")
            bools.append(name)
    return "\n".join(lines) + f'\noutput "y" if {bools[-1]}, else "n"\n'


def random_brasp(ops: int, seed: int) -> str:
    """Return a random B-RASP program text of `ops` operations (half attention, half Boolean), the last one (an attention) the output.

    Boolean operations read tokens and attention results only, masks are past or future and defaults
    are tokens or constants, so that every Boolean node of the TL formula has a few leaves: the TL
    compiler builds each Boolean node from the truth table of its leaves (at most 12), and a value
    or default read at i merges the Boolean node of the vector it reads into the attention's own.
    """
    rng = random.Random(seed)
    attended: list[str] = ["Q_a", "Q_b"]  # tokens and attention results: the operands of values, defaults and Boolean operations
    names: list[str] = ["Q_a", "Q_b"]  # every vector: the operands of selectors
    lines = []
    for k in range(ops):
        name = f"v{k}"
        if rng.random() < 0.5 or k == ops - 1:
            d, m = rng.choice(B.DIRECTIONS), rng.choice(("past", "future"))
            key, query = rng.choice(names[-WINDOW:]), rng.choice(attended[-WINDOW:])
            sel = f"{key}@j" if rng.random() < 0.6 else f"{key}@j & !{query}@i"
            lines.append(f"{name} = {d} {m} [{sel}] {rng.choice(attended[-WINDOW:])} default {rng.choice(DEFAULTS)}")
            attended.append(name)
        else:
            lines.append(f"{name} = {rng.choice(attended[-WINDOW:])} {rng.choice('&|')} !{rng.choice(attended[-WINDOW:])}")
        names.append(name)
    return "\n".join(lines) + f"\noutput v{ops - 1}\n"


def random_crasp(ops: int, seed: int) -> str:
    """Return a random C-RASP program text of `ops` operations (counts, linear combinations, comparisons, Boolean operations)."""
    rng = random.Random(seed)
    bools: list[str] = ["Q_a", "Q_b"]
    counts: list[str] = []
    lines = []
    for k in range(ops):
        name = f"v{k}"
        r = rng.random()
        if k == ops - 1 or (len(counts) >= 2 and r < 0.3):
            c1, c2 = rng.sample(counts[-WINDOW:], 2) if len(counts) >= 2 else (counts[-1] if counts else "1", "0")
            lines.append(f"{name} = {rng.randint(1, 3)}*{c1} {rng.choice(['<', '<=', '>', '>='])} {c2} + {rng.randint(0, 2)}")
            bools.append(name)
        elif r < 0.6 or not counts:
            lines.append(f"{name} = #[{rng.choice(bools[-WINDOW:])}]")
            counts.append(name)
        elif r < 0.8:
            lines.append(f"{name} = {rng.choice(counts[-WINDOW:])} - {rng.choice(counts[-WINDOW:])}")
            counts.append(name)
        else:
            x, y = rng.sample(bools[-WINDOW:], 2)
            lines.append(f"{name} = {x} {rng.choice('&|')} !{y}")
            bools.append(name)
    return "\n".join(lines) + f"\noutput v{ops - 1}\n"


def _compile_row(lang: str, text: str, out: Any) -> None:
    """Compile one program and put its figures (or the refusal) on the queue (runs in a child process)."""
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        program = LANGUAGES[lang].parse(text)
        cp = LANGUAGES[lang].to_model(program, () if lang == "srasp" else ("a", "b"), "bounded")
    except ValueError as e:
        out.put({"refused": str(e)[:120], "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0})
        return
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    m = cp.model
    tl = lang != "srasp"
    out.put(
        {
            "seconds": secs,
            "cpu_seconds": cpu,
            "live_vectors": len(cp.vectors) if tl else len(cp.coords),
            "tl_nodes": len(cp.tl.coords) if tl else "-",
            "layers": m.depth,
            "heads": sum(len(layer.heads) for layer in m.layers),
            "d": m.d,
            "ffn_width": max((layer.W1.shape[1] for layer in m.layers), default=0),
        }
    )


def part_sizes(quick: bool, limit: float) -> list[dict]:
    """Return part 1's rows (one per language, size and seed); a compile running past `limit` seconds is stopped and reported."""
    rows = []
    ctx = mp.get_context("fork")
    for grammar in ("brasp.lark", "crasp.lark"):  # built once here, inherited by every child: not in the timings
        load_parser(grammar)
    LANGUAGES["srasp"].parse(random_srasp(3, 0))  # the S-RASP parser likewise
    for lang, make in (("tl", random_tl), ("brasp", random_brasp), ("crasp", random_crasp), ("srasp", random_srasp)):
        stopped = False
        for ops in SIZES[:3] if quick else SIZES:
            for seed in SEEDS:
                row: dict[str, Any] = {"lang": lang, "ops": ops, "seed": seed}
                if stopped:
                    rows.append({**row, "refused": "skipped: a smaller program ran past the limit", "seconds": 0.0, "cpu_seconds": 0.0})
                    continue
                q = ctx.Queue()
                child = ctx.Process(target=_compile_row, args=(lang, make(ops, seed), q))
                child.start()
                child.join(limit)
                if child.is_alive():
                    child.terminate()
                    child.join()
                    stopped = True
                    rows.append({**row, "refused": f"stopped after {limit:.0f} s", "seconds": limit, "cpu_seconds": limit})
                else:
                    rows.append({**row, **q.get()})
                _print_size_row(rows[-1])
    return rows


def _print_size_row(r: dict) -> None:
    """Print one row of part 1."""
    if "refused" in r:
        print(f"   {r['lang']:6} {r['ops']:>4} {r['seed']:>4} {r['seconds']:>8.3f} {r['cpu_seconds']:>6.3f} {r['refused']}", flush=True)
    else:
        print(
            f"   {r['lang']:6} {r['ops']:>4} {r['seed']:>4} {r['seconds']:>8.3f} {r['cpu_seconds']:>6.3f} {r['live_vectors']:>5} {r['tl_nodes']:>8} "
            f"{r['layers']:>6} {r['heads']:>5} {r['d']:>5} {r['ffn_width']:>6}",
            flush=True,
        )


def print_growth(rows: list[dict]) -> None:
    """Print, per language, the mean d and FFN width per operation at GROWTH_SIZES and the slowest compile there."""
    print(
        f"   linear growth: d / ops and FFN width / ops (mean over the compiled seeds); slowest compile (target < {COMPILE_TARGET_SECONDS:g} s; "
        "CPU seconds are the compiling process's own, less sensitive to other jobs on the machine)"
    )
    for lang in dict.fromkeys(r["lang"] for r in rows):
        parts, slowest, slowest_cpu = [], 0.0, 0.0
        for ops in GROWTH_SIZES:
            ok = [r for r in rows if r["lang"] == lang and r["ops"] == ops and "refused" not in r]
            mine = [r for r in rows if r["lang"] == lang and r["ops"] == ops]
            slowest = max([slowest] + [r["seconds"] for r in mine])
            slowest_cpu = max([slowest_cpu] + [r["cpu_seconds"] for r in mine])
            if ok:
                d = sum(r["d"] for r in ok) / len(ok) / ops
                w = sum(r["ffn_width"] for r in ok) / len(ok) / ops
                parts.append(f"{ops}: {d:.2f}, {w:.2f} ({len(ok)}/{len(SEEDS)} compiled)")
            else:
                parts.append(f"{ops}: none compiled")
        print(f"   {lang:6} {';  '.join(parts)};  slowest {slowest:.2f} s wall, {slowest_cpu:.2f} s CPU", flush=True)


#: The target error and the length at which the library's temperatures are certified (statement T, Lemma 25).
CERTIFY_EPS = 0.1


def certified_temperature(model: Any, n: int, eps: float = CERTIFY_EPS) -> dict:
    """Return the gap and x_max measured over every input of length n and the tightest certified tau (as `hardsoft temperature --model`)."""
    from hardsoft.checks.engine import theorem26
    from hardsoft.spec import bounds as bd
    from hardsoft.spec import transformer as tf

    meas = theorem26.measure_exhaustively(model, n)
    consts = bd.RecursionConstants.from_norms(tf.compute_model_norms(model), max(meas.x_max, 1e-300), n, meas.gap)
    tight = bd.compute_tightest_inverse_temperature(consts, eps)
    return {"n": n, "measured_gap": meas.gap, "certified_tau": tight.tau, "eps": eps}


def part_library(quick: bool) -> dict:
    """Return part 2's figures: per program and regime, compile and verification seconds, shape, gap and temperature."""
    rows = []
    t0 = time.perf_counter()
    for name, ex in library().items():
        lang = LANGUAGES[ex.language]
        for regime in ("bounded",) if quick else ("bounded", "unbounded"):
            t = time.perf_counter()
            cp = lang.to_model(lang.parse(ex.text), ex.alphabet, regime)
            tc = time.perf_counter() - t
            N = 8
            rep = verify_program(cp, N)
            d = cp.describe()
            cert = certified_temperature(cp.model, N)
            rows.append(
                {
                    "name": name,
                    "lang": ex.language,
                    "regime": regime,
                    "ok": rep.ok,
                    "N": N,
                    "strings": rep.strings,
                    "compile_seconds": tc,
                    "verify_seconds": rep.seconds,
                    "layers": d["layers"],
                    "heads": d["heads"],
                    "d": d["d"],
                    "ffn_width": d["ffn_width"],
                    "gap": d["gap"],
                    "temperature": d["temperature"],
                    "vectors": len(cp.vectors),
                    "claimed_tau_at_N": cp.tau(N),
                    **cert,
                }
            )
    return {"rows": rows, "total_seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 50 only; the library in the bounded regime only")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--sizes-only", action="store_true", help="part 1 only (the random programs), not the library")
    ap.add_argument("--limit", type=float, default=60.0, help="stop one compile after this many seconds (default 60)")
    args = ap.parse_args()
    print("1. random programs: compile seconds (parse + translate + TL compile) and model size, bounded regime")
    print(f"   {'lang':6} {'ops':>4} {'seed':>4} {'seconds':>8} {'CPU s':>6} {'live':>5} {'TL nodes':>8} {'layers':>6} {'heads':>5} {'d':>5} {'FFN':>6}")
    sizes = part_sizes(args.quick, args.limit)
    print_growth(sizes)
    if args.sizes_only:
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"sizes": sizes}, fh, indent=1)
        return
    lib = part_library(args.quick)
    print("2. the library, every string to length N, hard and soft, every compiled vector at every position")
    for r in lib["rows"]:
        print(
            f"   {r['name']:15} {r['lang']:6} {r['regime']:9} N={r['N']} {'OK' if r['ok'] else 'MISMATCH':8} compile {r['compile_seconds']:.2f} s, "
            f"verify {r['verify_seconds']:.2f} s; {r['layers']} layers, {r['heads']} heads, d = {r['d']}, FFN {r['ffn_width']}; "
            f"gap {r['gap']}, {r['temperature']}; at n = {r['n']}: measured gap {r['measured_gap']:.4g}, "
            f"certified tau {r['certified_tau']:.4g} (eps {r['eps']}) vs the rule's {r['claimed_tau_at_N']:.4g}"
        )
    print(f"   total {lib['total_seconds']:.1f} s")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"sizes": sizes, "library": lib}, fh, indent=1)


if __name__ == "__main__":
    main()

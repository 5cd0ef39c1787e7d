"""Benchmark (the program languages, docs/languages.md): compile time and memory against program size, and the library's verification time.

1. Programs of every language (TL formulas, B-RASP, C-RASP, S-RASP) of 250, 500, 1,000, 2,000 and
   4,000 operations, in three families each: ``chain`` (every operation reads the one before: deep),
   ``layered`` (levels of LAYER_WIDTH operations, each reading two of the level before, the last
   level combined into the output: wide and deep, every operation read twice; TL: ``tree``, a
   balanced tree of operators, since a TL text cannot share subterms) and ``random`` (the random
   programs of the earlier figures, fixed seed, most of them dead code).  The output of a chain or
   layered program depends on every operation.  Per program, in a fresh process: the CPU seconds
   to parse the text and compile it (translation to TL + the TL compiler, or the S-RASP
   compiler; best of two), the peak memory of that (tracemalloc: every Python and numpy
   allocation of the compile), and the model's layers, d and FFN width; then, per language and
   family, the ratio of time and of memory per doubling of the program (linear: 2; the target
   is at most DOUBLING_TARGET).  Refusals are counted and named.
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
from collections.abc import Sequence
from typing import Any

from hardsoft.checks.engine.programs import verify_program
from hardsoft.constructive.lang import LANGUAGES
from hardsoft.constructive.lang import brasp as B
from hardsoft.constructive.lang.grammar import load_parser
from hardsoft.constructive.lang.library import library

SIZES = (250, 500, 1000, 2000, 4000)
SEEDS = (1,)
#: The linear-growth target: time and memory at most this factor per doubling of the program.
DOUBLING_TARGET = 2.3
#: The program families, per language (module docstring).
FAMILIES = {"tl": ("chain", "tree", "random"), "brasp": ("chain", "layered", "random"), "crasp": ("chain", "layered", "random"), "srasp": ("chain", "layered", "random")}
#: Operands are drawn from the WINDOW most recent vectors (a program reads what it has just computed).
WINDOW = 6
#: Defaults of the random B-RASP attention operations.
DEFAULTS = ("Q_a", "Q_b", "true", "false")


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


# --------------------------------------------------------------------------- families whose output reads every operation


#: Width of the layered families: each level has this many operations, each reading two of the level before.
LAYER_WIDTH = 16
BR_ATT = (("rightmost", "past"), ("leftmost", "future"), ("leftmost", "past"), ("rightmost", "future"))


def brasp_chain(ops: int) -> str:
    """B-RASP, deep: every operation an attention whose selector and default read the one before."""
    lines, prev = [], "Q_a"
    for k in range(ops):
        d, m = BR_ATT[k % 4]
        lines.append(f"v{k} = {d} {m} [{prev}@j] {'Q_b' if k % 2 else 'Q_a'} default {prev}")
        prev = f"v{k}"
    return "\n".join(lines) + f"\noutput {prev}\n"


def _levels(ops: int, width: int) -> list[int]:
    """Return the sizes of the levels of a layered program of about ops operations (the final combination counted: width - 1)."""
    levels = max(1, (ops - (width - 1)) // width)
    return [width] * levels


def brasp_layered(ops: int, width: int = LAYER_WIDTH) -> str:
    """B-RASP, wide and deep with shared subterms: levels of attentions, operation j of a level reading operations j and j+1 of
    the level before (every operation read twice), the last level or-ed into the output."""
    lines, prev, k = [], [("Q_a", "Q_b")[j % 2] for j in range(width)], 0
    for size in _levels(ops, width):
        level = []
        for j in range(size):
            a, b = prev[j], prev[(j + 1) % width]
            d, m = BR_ATT[k % 4]
            sel = f"{a}@j" if k % 3 else f"{a}@j & !{b}@i"
            lines.append(f"v{k} = {d} {m} [{sel}] {b} default {'Q_a' if k % 2 else a}")
            level.append(f"v{k}")
            k += 1
        prev = level
    acc = prev[0]
    for j, x in enumerate(prev[1:]):
        lines.append(f"o{j} = {acc} | {x}")
        acc = f"o{j}"
    return "\n".join(lines) + f"\noutput {acc}\n"


def crasp_chain(ops: int) -> str:
    """C-RASP, deep: a count of the previous comparison, then a comparison of it with the count before (every operation read)."""
    lines = ["c0 = #[Q_a]", "b1 = c0 > 0"]
    k = 2
    while k < ops:
        lines.append(f"c{k} = #[b{k - 1}]")
        lines.append(f"b{k + 1} = 2*c{k} > c{k - 2} + 1")
        k += 2
    return "\n".join(lines) + f"\noutput b{k - 1}\n"


def crasp_layered(ops: int, width: int = LAYER_WIDTH) -> str:
    """C-RASP, wide and deep: levels of (count, comparison) pairs; a level's count reads a comparison of the level before, its
    comparison two counts (every operation read), the last level's comparisons and-ed / or-ed into the output."""
    pairs = max(1, width // 2)
    lines, prev, k = [], [("Q_a", "Q_b")[j % 2] for j in range(pairs)], 0
    for _ in _levels(ops, width):
        counts = []
        for j in range(pairs):
            lines.append(f"c{k} = #[{prev[j]} | {prev[(j + 1) % pairs]}]")
            counts.append(f"c{k}")
            k += 1
        level = []
        for j in range(pairs):
            lines.append(f"b{k} = {1 + j % 3}*{counts[j]} >= {counts[(j + 1) % pairs]} + {j % 2}")
            level.append(f"b{k}")
            k += 1
        prev = level
    acc = prev[0]
    for j, x in enumerate(prev[1:]):
        lines.append(f"o{j} = {acc} {'&|'[j % 2]} {x}")
        acc = f"o{j}"
    return "\n".join(lines) + f"\noutput {acc}\n"


SR_HEAD = ['program "family"', 'alphabet "a" "b"', 'A = token("a")', 'B = token("b")', "f = false"]


def srasp_chain(ops: int) -> str:
    """S-RASP, deep: a select, a once and an and in turn, each reading the definition before."""
    lines, prev = list(SR_HEAD), "A"
    for k in range(ops):
        op = (f"rightmost j < i with {prev}[j] value B default f", f"once({prev})", f"{prev} and A")[k % 3]
        lines.append(f"v{k} = {op}")
        prev = f"v{k}"
    return "\n".join(lines) + f'\noutput "y" if {prev}, else "n"\n'


def srasp_layered(ops: int, width: int = LAYER_WIDTH) -> str:
    """S-RASP, wide and deep: levels of selects and prefix-sum comparisons reading two definitions of the level before."""
    lines, prev, k = list(SR_HEAD), [("A", "B")[j % 2] for j in range(width)], 0
    for size in _levels(ops, width):
        level = []
        for j in range(size):
            a, b = prev[j], prev[(j + 1) % width]
            if k % 4 == 3:  # a prefix sum compared, then combined: three definitions
                lines.append(f"s{k} = psum({a})")
                lines.append(f"c{k} = s{k} > 1")
                lines.append(f"v{k} = c{k} and {b}")
            else:
                d = ("rightmost", "leftmost")[k % 2]
                lines.append(f"v{k} = {d} j < i with {a}[j] value {b} default f")
            level.append(f"v{k}")
            k += 1
        prev = level
    acc = prev[0]
    for j, x in enumerate(prev[1:]):
        lines.append(f"o{j} = {acc} or {x}")
        acc = f"o{j}"
    return "\n".join(lines) + f'\noutput "y" if {acc}, else "n"\n'


def tl_chain(ops: int) -> str:
    """TL, deep: temporal operators nested down one spine (Y, S b, U a, X in turn)."""
    text = "a"
    for k in range(ops):
        text = (f"Y ({text})", f"({text}) S b", f"({text}) U a", f"X ({text})")[k % 4]
    return text


def tl_tree(ops: int) -> str:
    """TL, wide: a balanced binary tree of S, U, & and | over leaves Y a / X b (every operator on a path to the root)."""
    leaves = ["Y a", "X b", "Y b", "X a"]
    pool = [leaves[k % 4] for k in range((ops + 1) // 2)]
    k = 0
    while len(pool) > 1:
        nxt = [f"({pool[j]}) {'SU&|'[(k + j) % 4]} ({pool[j + 1]})" for j in range(0, len(pool) - 1, 2)]
        if len(pool) % 2:
            nxt.append(pool[-1])
        pool, k = nxt, k + 1
    return pool[0]


def program_text(lang: str, family: str, ops: int, seed: int = 1) -> str:
    """Return the text of one program of a family (module docstring)."""
    if family == "random":
        return {"tl": random_tl, "brasp": random_brasp, "crasp": random_crasp, "srasp": random_srasp}[lang](ops, seed)
    return globals()[f"{lang}_{family}"](ops)


def count_operations(lang: str, text: str) -> int:
    """Return a program's operations: its definitions (S-RASP: after the two tokens and 'false'), or a formula's operators."""
    if lang == "tl":
        from hardsoft.constructive import logic as lg

        return lg.size(lg.parse(text))
    lines = [ln for ln in text.splitlines() if " = " in ln]
    return len(lines) - (3 if lang == "srasp" else 0)


def _compile(lang: str, text: str) -> Any:
    """Parse and compile one program (the measured work)."""
    program = LANGUAGES[lang].parse(text)
    return LANGUAGES[lang].to_model(program, () if lang == "srasp" else ("a", "b"), "average-hard" if lang == "srasp" else "bounded")


def _compile_row(lang: str, text: str, out: Any) -> None:
    """Compile one program twice (CPU seconds: the better), then once more under tracemalloc (peak memory); put the figures on the queue."""
    import tracemalloc

    cpu = []
    try:
        for _ in range(2):
            c0 = time.process_time()
            cp = _compile(lang, text)
            cpu.append(time.process_time() - c0)
            del cp
        tracemalloc.start()
        cp = _compile(lang, text)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    except ValueError as e:
        out.put({"refused": str(e)[:160], "cpu_seconds": min(cpu, default=0.0)})
        return
    m = cp.model
    out.put(
        {
            "cpu_seconds": min(cpu),
            "peak_mb": peak / 2**20,
            "layers": m.depth,
            "heads": sum(len(layer.heads) for layer in m.layers),
            "d": m.d,
            "ffn_width": max((layer.W1.shape[1] for layer in m.layers), default=0),
        }
    )


def part_sizes(quick: bool, limit: float, langs: Sequence[str] = tuple(FAMILIES)) -> list[dict]:
    """Return part 1's rows (one per language, family and size); a compile running past `limit` seconds is stopped and reported."""
    rows = []
    ctx = mp.get_context("fork")
    for grammar in ("brasp.lark", "crasp.lark"):  # built once here, inherited by every child: not in the timings
        load_parser(grammar)
    LANGUAGES["srasp"].parse(random_srasp(3, 0))  # the S-RASP parser likewise
    for lang, families in FAMILIES.items():
        if lang not in langs:
            continue
        for family in families:
            stopped = False
            for size in SIZES[:3] if quick else SIZES:
                text = program_text(lang, family, size)
                row: dict[str, Any] = {"lang": lang, "family": family, "ops": count_operations(lang, text)}
                if stopped:
                    rows.append({**row, "refused": "skipped: a smaller program ran past the limit", "cpu_seconds": 0.0})
                    _print_size_row(rows[-1])
                    continue
                q = ctx.Queue()
                child = ctx.Process(target=_compile_row, args=(lang, text, q))
                child.start()
                child.join(limit)
                if child.is_alive():
                    child.terminate()
                    child.join()
                    stopped = True
                    rows.append({**row, "refused": f"stopped after {limit:.0f} s", "cpu_seconds": limit})
                else:
                    rows.append({**row, **q.get()})
                _print_size_row(rows[-1])
    return rows


def _print_size_row(r: dict) -> None:
    """Print one row of part 1."""
    head = f"   {r['lang']:6} {r['family']:8} {r['ops']:>5}"
    if "refused" in r:
        print(f"{head} {r['cpu_seconds']:>7.2f} {r['refused']}", flush=True)
    else:
        print(
            f"{head} {r['cpu_seconds']:>7.2f} {r['peak_mb']:>8.1f} {r['layers']:>6} {r['heads']:>5} {r['d']:>5} {r['ffn_width']:>6} {r['d'] / r['ops']:>6.3f}",
            flush=True,
        )


def doublings(rows: list[dict]) -> list[dict]:
    """Return, per language and family, the time and memory ratios between consecutive sizes (each about twice the one before)."""
    out = []
    for lang, families in FAMILIES.items():
        for family in families:
            mine = [r for r in rows if r["lang"] == lang and r["family"] == family and "refused" not in r]
            if not any(r["lang"] == lang and r["family"] == family for r in rows):
                continue  # a language not run (--langs)
            pairs = list(zip(mine, mine[1:]))
            out.append(
                {
                    "lang": lang,
                    "family": family,
                    "ops": [r["ops"] for r in mine],
                    "time": [b["cpu_seconds"] / max(a["cpu_seconds"], 1e-9) for a, b in pairs],
                    "memory": [b["peak_mb"] / max(a["peak_mb"], 1e-9) for a, b in pairs],
                    "d_per_op": [r["d"] / r["ops"] for r in mine],
                    "refused": sum(1 for r in rows if r["lang"] == lang and r["family"] == family and "refused" in r),
                }
            )
    return out


def print_growth(rows: list[dict]) -> list[dict]:
    """Print, per language and family, the time and memory ratios per doubling and d per operation; return them."""
    summary = doublings(rows)
    print(f"   per doubling of the program (target <= {DOUBLING_TARGET}): CPU time ratios; peak memory ratios; d per operation at each size")
    worst_t = worst_m = 0.0
    for g in summary:
        t = " ".join(f"{x:.2f}" for x in g["time"])
        m = " ".join(f"{x:.2f}" for x in g["memory"])
        dpo = " ".join(f"{x:.3f}" for x in g["d_per_op"])
        worst_t, worst_m = max([worst_t, *g["time"]]), max([worst_m, *g["memory"]])
        refused = f"; {g['refused']} refused" if g["refused"] else ""
        print(f"   {g['lang']:6} {g['family']:8} time {t:24} memory {m:24} d/op {dpo}{refused}", flush=True)
    verdict = "within" if max(worst_t, worst_m) <= DOUBLING_TARGET else "ABOVE"
    print(f"   largest ratio per doubling: time {worst_t:.2f}, memory {worst_m:.2f} ({verdict} the target {DOUBLING_TARGET})")
    return summary


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
    ap.add_argument("--quick", action="store_true", help="sizes up to 1,000 only; the library in the bounded regime only")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--sizes-only", action="store_true", help="part 1 only (the random programs), not the library")
    ap.add_argument("--langs", default=",".join(FAMILIES), help="part 1's languages, comma-separated (default every one)")
    ap.add_argument("--limit", type=float, default=300.0, help="stop one program's three compiles after this many seconds (default 300)")
    args = ap.parse_args()
    print("1. compile CPU seconds (parse + compile, best of 2) and peak memory (tracemalloc) against program size; model shape")
    print(f"   {'lang':6} {'family':8} {'ops':>5} {'CPU s':>7} {'peak MB':>8} {'layers':>6} {'heads':>5} {'d':>5} {'FFN':>6} {'d/op':>6}")
    sizes = part_sizes(args.quick, args.limit, tuple(x.strip() for x in args.langs.split(",")))
    growth = print_growth(sizes)
    if args.sizes_only:
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"sizes": sizes, "growth": growth}, fh, indent=1)
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
            json.dump({"sizes": sizes, "growth": growth, "library": lib}, fh, indent=1)


if __name__ == "__main__":
    main()

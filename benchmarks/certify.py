"""Certificates: Lean's time and the certificate's size for programs of about 5, 20 and 80 operations (the speed target).

For each size a deterministic B-RASP program is built (``program(k)``: k operations, cycling through
past and future lookups and Boolean operations, each over the last vector and an earlier one), compiled in the bounded regime,
described, and certified in a Lean module of its own (one wasm process each, against the kept
compiled library; ``HARDSOFT_LEAN_CACHE=off`` is not needed: a new module text is never cached, but a
repeated run reuses the cached verdicts unless ``--fresh`` adds a nonce comment).  A module holding
no certificate measures the floor (Lean's start and the import of the library); the rest of a
certificate's time is its elaboration and the kernel's evaluation of ``check``.

Prints, per program: B-RASP operations, TL operations (non-leaf nodes of the formula DAG), layers, width d, nonzero weights,
the module's bytes, Lean's wall and CPU seconds, CPU seconds above the floor and that per thousand
weights (the target: kernel time at most linear in the parameter count; 20 operations within 2 minutes).
Asserts nothing.

Usage: python benchmarks/certify.py [--sizes 5,20,80] [--fresh]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from hardsoft.checks.families.certify import verdict as vd
from hardsoft.checks.families.certify.lean_text import MODULE, Entry
from hardsoft.checks.families.certify.subjects import Subject, prepare
from hardsoft.checks.families.lean.family import compiled_library


def program(k: int) -> str:
    """Return a B-RASP program of k operations, each over the last vector p and the one three back q (cycling through
    a past lookup, a conjunction, a future lookup, a disjunction with a negation, and a past lookup selecting on q)."""
    names = ["Q_a", "Q_b", "Q_a"]
    lines = []
    for j in range(k):
        p, q, v = names[-1], names[-3], f"v{j}"
        step = j % 5
        if step == 0:
            lines.append(f"{v} = rightmost past [true] {p} default false")
        elif step == 1:
            lines.append(f"{v} = {p} & {q}")
        elif step == 2:
            lines.append(f"{v} = leftmost future [true] {p} default true")
        elif step == 3:
            lines.append(f"{v} = {p} | !{q}")
        else:
            lines.append(f"{v} = rightmost past [{q}@j] {p} default false")
        names.append(v)
    return "\n".join([*lines, f"output {names[-1]}"]) + "\n"


def operations(p) -> int:  # noqa: ANN001 - a Prepared
    """Return the non-leaf nodes of the certificate's formula DAG (atoms, constants and position predicates are leaves)."""
    return sum(nd.kind not in ("atom", "const", "modEq", "lin", "first", "last") for nd in p.cert.prog)


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5,20,80", help="operations of the programs (comma-separated)")
    ap.add_argument("--fresh", action="store_true", help="add a nonce to every module, so no cached verdict is reused")
    a = ap.parse_args(argv)
    sizes = [int(x) for x in a.sizes.split(",")]
    nonce = f"benchmark run {time.time_ns()}" if a.fresh else ""
    with tempfile.TemporaryDirectory(prefix="hardsoft-bench-certify-") as tmp:
        out = Path(tmp)
        lib = compiled_library(out, lambda m: print(f"  {m}", file=sys.stderr))
        if lib.failure is not None:
            print(f"the Lean library is not confirmed: {lib.failure}")
            return 1

        def run(entries: list[Entry], label: str) -> vd.ModuleVerdict:
            """Return the verdict of a module of ``entries`` (with the nonce, when asked)."""
            return vd.check_module(entries, out / label, lambda m: None, lib, nonce)

        floor = run([], "floor")
        fl = f"{floor.seconds:.1f} s wall, {floor.cpu_seconds or 0:.1f} s CPU"
        print(f"module {MODULE}, one wasm Lean process per program; floor (no certificate): {fl}")
        cols = f"{'B-RASP':>6} {'TL ops':>6} {'layers':>6} {'d':>4} {'weights':>8} {'bytes':>8}"
        print(f"{cols} {'wall s':>7} {'CPU s':>6} {'CPU-floor':>9} {'s/1k weights':>12}  verdict")
        for k in sizes:
            p = prepare(Subject("brasp", program(k), name=f"bench{k}"))
            if p.mirror is not None:
                print(f"{k}: the mirror rejects the certificate: {p.mirror}")
                continue
            entry = p.entry()
            v = run([entry], f"k{k}")
            size = len(vd.module_text([entry])[0].encode("utf-8"))
            cpu = v.cpu_seconds or 0.0
            above = cpu - (floor.cpu_seconds or 0.0)
            state = (
                "accepted"
                if v.accepted(entry.tag)
                else f"not decided: {v.why}"
                if v.status == "undecided"
                else f"NOT accepted: {v.reason(entry.tag)}"
            )
            cached = " (cached verdict: its times are those of the run that stored it)" if v.cached else ""
            shape = f"{k:>6} {operations(p):>6} {len(p.cert.layers):>6} {p.weights.d:>4} {p.weights.parameters:>8} {size:>8}"
            print(f"{shape} {v.seconds:>7.1f} {cpu:>6.1f} {above:>9.1f} {1000 * above / p.weights.parameters:>12.2f}  {state}{cached}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark (docs/verification.md, "Long inputs"): ``hardsoft verify --sample K --length 10000`` on 20-operation programs.

Two B-RASP programs of 20 operations over {a, b}, compiled in the bounded regime: the random program of
benchmarks/languages.py (seed 1) and the chain (20 attentions, each reading the one before: the deepest
20-operation program, two heads per attention).  For each: the model's layers, heads and d, then the
wall-clock seconds of the sampled run at n = 10,000 (the 8 adversarial words and K uniform ones, hard and
soft, every compiled vector at every position against the numpy-wide interpreter) on the local process
pool, the same run as the command line makes.  The target: at most TARGET_SECONDS.

    python benchmarks/long_inputs.py [--sample K] [--length N] [--workers W]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from languages import brasp_chain, random_brasp  # noqa: E402

from hardsoft.checks.engine import verify as vf  # noqa: E402
from hardsoft.checks.engine.programs import compile_text, target_from_program  # noqa: E402

TARGET_SECONDS = 60.0


def main() -> int:
    """Run the benchmark and print its figures; exit 0 (the figures are the result)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=4, help="uniform words per length (default 4)")
    ap.add_argument("--length", type=int, default=10_000, help="the length (default 10,000)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    args = ap.parse_args()
    print(f"sampled verification at n = {args.length:,}: {args.sample} uniform + the adversarial words, hard and soft, {args.workers} worker(s)")
    for name, text in (("brasp random (seed 1)", random_brasp(20, 1)), ("brasp chain", brasp_chain(20))):
        compiled = compile_text("brasp", text, ("a", "b"), "bounded")
        m = compiled.model
        heads = sum(len(layer.heads) for layer in m.layers)
        target = target_from_program(compiled, columns=True)
        t0 = time.perf_counter()
        report = vf.verify_sampled(target, [args.length], args.sample, workers=args.workers, max_seconds=None)
        secs = time.perf_counter() - t0
        verdict = "within" if secs <= TARGET_SECONDS else "over"
        print(
            f"  {name:22} 20 operations: {m.depth} layers, {heads} heads, d {m.d}: {report.strings} words "
            f"{'agree' if report.ok else 'DISAGREE'} in {secs:.1f} s ({verdict} the {TARGET_SECONDS:.0f} s target; {report.backend})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

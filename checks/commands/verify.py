"""``hardsoft verify``: compile a formula (or take a built-in example) and verify it on every string of lengths 1..N.

Also the options ``--workers`` / ``--scheduler`` / ``--max-seconds`` that other
subcommands running the engine share (``add_engine_options``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hardsoft.checks.engine import verify as vf


def _workers(text: str) -> int:
    """Return a positive worker count (argparse type)."""
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"--workers must be a positive integer, got {text!r}")
    return v


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """Add --workers, --scheduler and --max-seconds to a subcommand that runs the verification engine."""
    p.add_argument("--workers", type=_workers, metavar="N", help="local worker processes (default: every core; 1 = in this process)")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on a Dask cluster at this scheduler address (e.g. tcp://host:8786) "
        "instead of the local pool; needs the distributed extra",
    )
    p.add_argument(
        "--max-seconds",
        type=float,
        default=vf.MAX_SECONDS_DEFAULT,
        metavar="S",
        help=f"refuse runs estimated to take longer (default {vf.MAX_SECONDS_DEFAULT:.0f})",
    )


def add_parser(sub: Any, positive_int: Any) -> argparse.ArgumentParser:
    """Add the verify subcommand to the subparsers of hardsoft."""
    v = sub.add_parser(
        "verify",
        help="verify a compiled formula (or a built-in example) on every string up to a length, hard and soft, against the reference evaluator",
    )
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("formula", nargs="?", help="a formula, e.g. 'a S b' (docs/temporal-logic.md)")
    src.add_argument("--example", choices=sorted(vf.example_targets()), help="a built-in example with a plain-Python reference")
    v.add_argument("--up-to", type=positive_int("--up-to"), required=True, metavar="N", help="every string of lengths 1..N")
    v.add_argument(
        "--regime",
        choices=["bounded", "unbounded"],
        default="bounded",
        help="bounded position embeddings at tau = c/n, or unbounded ones at tau = 1 (default bounded)",
    )
    v.add_argument("--alphabet", default="a,b", help="comma-separated symbols (default a,b)")
    v.add_argument("--modes", default="hard,soft", help="hard, soft or both (default hard,soft)")
    add_engine_options(v)
    v.add_argument("--json", action="store_true", help="print the report as JSON")
    return v


def target_of(args: argparse.Namespace) -> vf.VerificationTarget:
    """Return the target named by the arguments (a compiled formula or a built-in example)."""
    if args.example:
        return vf.example_targets()[args.example]
    from hardsoft.constructive import logic

    alphabet = tuple(a.strip() for a in args.alphabet.split(","))
    if not all(alphabet):
        raise ValueError(f"--alphabet {args.alphabet!r} has an empty symbol")
    compiled = logic.compile_formula(logic.parse(args.formula), alphabet=alphabet, regime=args.regime)
    return vf.target_from_compiled(compiled)


def run_engine(target: vf.VerificationTarget, N: int, args: argparse.Namespace, modes: tuple[str, ...] = vf.MODES) -> vf.VerificationReport:
    """Return the engine's report for the options of add_engine_options."""
    return vf.verify(
        target, N, modes=modes, workers=args.workers, scheduler=args.scheduler, max_seconds=args.max_seconds if args.max_seconds > 0 else None
    )


def compile_report(compiled: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Return ``hardsoft compile --verify-up-to N``'s verification dict, computed by the engine (workers, scheduler)."""
    rep = run_engine(vf.target_from_compiled(compiled), args.verify_up_to, args)
    first = next((c for t in rep.per_mode.values() for c in t.counterexamples), None)
    return {
        "ok": rep.ok,
        "max_len": rep.N,
        "words": rep.strings,
        "seconds": rep.seconds,
        "backend": rep.backend,
        "tasks": rep.tasks,
        "per_length": [
            {
                "n": n,
                "words": row["strings"],
                "accepted": row["accepted"],
                "hard_mismatches": row["hard"]["wrong_strings"],
                "soft_mismatches": row["soft"]["wrong_strings"],
                "tau": row["soft"]["tau"],
            }
            for n, row in sorted(rep.per_length.items())
        ],
        "first_counterexample": None
        if first is None
        else {"word": first["word"], "mode": first["mode"], "position": first["position"], "subformula": first["coordinate"]},
    }


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify and print the outcome; exit 0 if everything agrees, 1 if something disagrees."""
    modes = tuple(m.strip() for m in args.modes.split(","))
    bad = [m for m in modes if m not in vf.MODES]
    if bad or not modes:
        raise ValueError(f"--modes: expected hard and/or soft, got {args.modes!r}")
    target = target_of(args)
    report = run_engine(target, args.up_to, args, modes)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(report.summary())
        for m, t in report.per_mode.items():
            for c in t.counterexamples[:3]:
                print(
                    f"  {m} counterexample: {c['word']!r} at position {c['position']}, coordinate {c['coordinate']}: "
                    f"expected {c['expected']}; accepted {c['accept_got']} (expected {c['accept_expected']})"
                )
    return 0 if report.ok else 1

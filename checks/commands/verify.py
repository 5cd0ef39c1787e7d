"""``hardsoft verify``: compile a formula (or take a built-in example) and verify it on every string of lengths 1..N.

Every subformula's coordinate at every position and the acceptance are compared with the
reference in hard and in soft mode (``checks.engine.verify``): exit 0 if everything agrees,
1 if anything disagrees.  With ``--model FILE --reference OUTPUTS.json`` (docs/interchange.md)
the model's per-position outputs in hard mode and in soft mode (at ``--tau``, default the
model's own temperature) are compared with the reference table and with each other, and the
three agreements are reported separately; a bad table exits 2 with one line.  Also the options ``--workers`` / ``--scheduler`` / ``--max-seconds``
that the subcommands running the engine share (``add_engine_options``, ``run_engine``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hardsoft.checks.args import add_alphabet_option, add_lang_option, add_regime_option, positive_float, positive_int, program_text
from hardsoft.checks.engine import verify as vf


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """Add --workers, --scheduler and --max-seconds to a subcommand that runs the verification engine."""
    p.add_argument("--workers", type=positive_int("--workers"), metavar="N", help="local worker processes (default: every core; 1 = in this process)")
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


def run_engine(target: vf.VerificationTarget, N: int, args: argparse.Namespace, modes: tuple[str, ...] = vf.MODES) -> vf.VerificationReport:
    """Return the engine's report for the options of add_engine_options."""
    return vf.verify(
        target, N, modes=modes, workers=args.workers, scheduler=args.scheduler, max_seconds=args.max_seconds if args.max_seconds > 0 else None
    )


def register(sub: Any) -> None:
    """Add the verify subcommand."""
    v = sub.add_parser(
        "verify",
        help="verify a compiled formula (or a built-in example) on every string up to a length, hard and soft, against the reference evaluator",
    )
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("formula", nargs="?", help="a formula, e.g. 'a S b' (docs/temporal-logic.md), or, with --lang, a program")
    src.add_argument("--file", metavar="F", help="read the formula or program from a file")
    src.add_argument("--example", choices=sorted(vf.example_targets()), help="a built-in example with a plain-Python reference")
    src.add_argument("--model", help="a model file with a per-position output (format 3); needs --reference")
    add_lang_option(v)
    v.add_argument("--reference", metavar="OUTPUTS.json", help="with --model: the reference table (every input and the program's outputs)")
    v.add_argument("--tau", type=positive_float("--tau"), help="with --model: the soft run's temperature (default: the model's own, else 1)")
    v.add_argument("--up-to", type=positive_int("--up-to"), metavar="N", help="every string of lengths 1..N (formula, program or --example)")
    add_regime_option(v)
    add_alphabet_option(v)
    v.add_argument("--modes", default="hard,soft", help="hard, soft or both (default hard,soft)")
    add_engine_options(v)
    v.add_argument("--json", action="store_true", help="print the report as JSON")
    v.set_defaults(func=run)


def target_of(args: argparse.Namespace) -> vf.VerificationTarget:
    """Return the target named by the arguments (a compiled formula or a built-in example)."""
    if args.example:
        return vf.example_targets()[args.example]
    from hardsoft.constructive import logic

    text = program_text(args)
    if args.lang != "tl":
        from hardsoft.checks.engine.programs import compile_text, target_from_program

        return target_from_program(compile_text(args.lang, text, args.alphabet, args.regime))
    compiled = logic.compile_formula(logic.parse(text), alphabet=args.alphabet, regime=args.regime)
    return vf.target_from_compiled(compiled)


def run(args: argparse.Namespace) -> int:
    """Verify and print the outcome; exit 0 if everything agrees, 1 if something disagrees."""
    if args.model:
        return run_reference(args)
    if args.reference or args.tau:
        raise ValueError("--reference and --tau go with --model")
    if args.up_to is None:
        raise ValueError("--up-to N is required with a formula or --example")
    modes = tuple(m.strip() for m in args.modes.split(","))
    bad = [m for m in modes if m not in vf.MODES]
    if bad or not modes:
        raise ValueError(f"--modes: expected hard and/or soft, got {args.modes!r}")
    if args.lang == "srasp" and not args.example:
        from hardsoft.checks.commands.srasp_program import run_verify

        if modes != vf.MODES:
            raise ValueError("--lang srasp verifies hard and soft together (--modes is for formulas and examples)")
        return run_verify(args, program_text(args))
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


def run_reference(args: argparse.Namespace) -> int:
    """Compare a model's hard and soft outputs with a reference table; exit 0 if all three agreements are complete, else 1."""
    from hardsoft.interchange import reference
    from hardsoft.spec.modelio import load_model

    if not args.reference:
        raise ValueError("--model needs --reference OUTPUTS.json")
    if args.up_to is not None:
        raise ValueError("--up-to goes with a formula or --example; with --model the reference table fixes the inputs")
    model = load_model(args.model)
    ref = reference.load_reference(args.reference, model)
    tau = args.tau or model.own_tau or 1.0
    rep = reference.compare_with_reference(model, ref, tau)
    rows = [("hard = reference", rep.hard_ref), ("soft = reference", rep.soft_ref), ("soft = hard", rep.soft_hard)]
    if args.json:
        doc = {"model": model.name, "tau": tau, "cases": rep.hard_ref.total, "max_len": ref.max_len}
        doc |= {k.replace(" = ", "_vs_").replace(" ", ""): {"agree": a.agree, "total": a.total, "first_disagreement": a.first} for k, a in rows}
        print(json.dumps(doc, indent=1))
    else:
        print(
            f"{model.name}: {rep.hard_ref.total} reference inputs of lengths 1..{ref.max_len}; hard mode {model.hard_mode}, soft at tau = {tau:.6g}"
        )
        for k, a in rows:
            print(f"  {k}: {reference.first_disagreement(a)}")
    return 0 if rep.ok else 1

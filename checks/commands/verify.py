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

from hardsoft.checks.args import (
    Given,
    add_alphabet_option,
    add_lang_option,
    add_regime_option,
    lengths,
    non_negative_int,
    positive_float,
    positive_int,
    program_text,
    refuse_unused,
)
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
    src = v.add_mutually_exclusive_group()
    src.add_argument("formula", nargs="?", help="a formula, e.g. 'a S b' (docs/temporal-logic.md), or, with --lang, a program")
    src.add_argument("--file", metavar="F", help="read the formula or program from a file")
    src.add_argument("--example", choices=sorted(vf.example_targets()), help="a built-in example with a plain-Python reference")
    v.add_argument(
        "--model",
        help="a model file: against --reference OUTPUTS.json (format 3, a per-position output), or against a reference program "
        "(PROGRAM or --file, with --lang) through its read-out (format 2)",
    )
    add_lang_option(v)
    v.add_argument("--reference", metavar="OUTPUTS.json", help="with --model: the reference table (every input and the program's outputs)")
    v.add_argument(
        "--tau",
        type=positive_float("--tau"),
        help="with --model: the soft run's temperature (default: the model's own; against a program, else the program's "
        "compiled rule tau(n); else 1)",
    )
    v.add_argument("--up-to", type=positive_int("--up-to"), metavar="N", help="every string of lengths 1..N (formula, program or --example)")
    v.add_argument(
        "--sample",
        type=non_negative_int("--sample"),
        metavar="K",
        help="at each --length: the adversarial families (docs/verification.md) and K uniform random words, hard and soft (evidence, not proof)",
    )
    v.add_argument("--length", type=lengths, metavar="N[,N2,...]", help="with --sample: the lengths to sample (e.g. 1000,10000)")
    v.add_argument("--seed", type=non_negative_int("--seed"), default=0, action=Given, help="with --sample: the random words' seed (default 0)")
    add_regime_option(v)
    add_alphabet_option(v)
    v.add_argument("--modes", default="hard,soft", help="hard, soft or both (default hard,soft)")
    add_engine_options(v)
    v.add_argument("--json", action="store_true", help="print the report as JSON")
    v.set_defaults(func=run)


def target_of(args: argparse.Namespace, long: bool = False) -> vf.VerificationTarget:
    """Return the target named by the arguments (a compiled formula or a built-in example).

    long: the reference evaluated numpy-wide (the TL's vectorized evaluator, a language's ``interpret_columns``),
    for sampled long words; each is tested equal to the word-by-word reference.
    """
    if args.example:
        return vf.example_targets()[args.example]
    from hardsoft.constructive import logic

    text = program_text(args)
    if args.lang != "tl":
        from hardsoft.checks.engine.programs import compile_text, target_from_program

        return target_from_program(compile_text(args.lang, text, args.alphabet, args.regime), columns=long)
    compiled = logic.compile_formula(logic.parse(text), alphabet=args.alphabet, regime=args.regime)
    return vf.target_from_compiled(compiled, evaluator="vectorized" if long else "reference")


def _sampling(args: argparse.Namespace) -> bool:
    """Return whether the run samples (--sample with --length), refusing one without the other or beside --up-to."""
    if (args.sample is None) != (args.length is None):
        raise ValueError("--sample K and --length N[,N2,...] go together")
    if args.sample is not None and args.up_to is not None:
        raise ValueError("--up-to N (every string) and --sample/--length (sampled words) are two ways to run: choose one")
    return args.sample is not None


def print_report(report: vf.VerificationReport, as_json: bool) -> int:
    """Print an engine report (the summary and the first counterexamples, or JSON); return exit 0 if it agrees, else 1."""
    if as_json:
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


def run(args: argparse.Namespace) -> int:
    """Verify and print the outcome; exit 0 if everything agrees, 1 if something disagrees."""
    sampled = _sampling(args)
    if not sampled:
        refuse_unused(args, ("--seed",), "without --sample")
    has_program = args.formula is not None or args.file is not None
    if args.example:
        refuse_unused(args, ("--alphabet", "--regime"), "with --example (a built-in model with its own alphabet)")
    if args.model:
        refuse_unused(args, ("--alphabet",), "with --model (the model file fixes the alphabet)")
        if args.reference:
            refuse_unused(args, ("--regime",), "with --reference OUTPUTS.json (the table fixes the outputs)")
        if args.example:
            raise ValueError("--model goes with --reference OUTPUTS.json or a reference program, not with --example")
        if args.reference:
            if has_program:
                raise ValueError("--model takes --reference OUTPUTS.json or a reference program, not both")
            return run_reference(args)
        if not has_program:
            raise ValueError("--model needs --reference OUTPUTS.json or a reference program (PROGRAM or --file, with --lang)")
        return run_model_program(args, sampled)
    if args.reference or args.tau:
        raise ValueError("--reference and --tau go with --model")
    if not has_program and not args.example:
        raise ValueError("give a formula or program (PROGRAM or --file), --example NAME or --model FILE")
    if args.up_to is None and not sampled:
        raise ValueError("--up-to N (every string) or --sample K --length N (sampled words) is required with a formula or --example")
    modes = tuple(m.strip() for m in args.modes.split(","))
    bad = [m for m in modes if m not in vf.MODES]
    if bad or not modes:
        raise ValueError(f"--modes: expected hard and/or soft, got {args.modes!r}")
    if args.lang == "srasp" and not args.example:
        from hardsoft.checks.commands.srasp_program import compile_srasp, given_alphabet, refuse_regime, run_verify

        if modes != vf.MODES:
            raise ValueError("--lang srasp verifies hard and soft together (--modes is for formulas and examples)")
        if not sampled:
            return run_verify(args, program_text(args))
        from hardsoft.checks.engine.programs import target_from_srasp

        refuse_regime(args)
        _, compiled = compile_srasp(program_text(args), given_alphabet(args))
        return print_report(run_sampled(target_from_srasp(compiled), args, modes), args.json)
    target = target_of(args, long=sampled)
    if sampled:
        return print_report(run_sampled(target, args, modes), args.json)
    return print_report(run_engine(target, args.up_to, args, modes), args.json)


def run_sampled(target: vf.VerificationTarget, args: argparse.Namespace, modes: tuple[str, ...] = vf.MODES) -> vf.VerificationReport:
    """Return the engine's sampled report for --sample/--length/--seed and the engine options."""
    return vf.verify_sampled(
        target,
        args.length,
        args.sample,
        seed=args.seed,
        modes=modes,
        workers=args.workers,
        scheduler=args.scheduler,
        max_seconds=args.max_seconds if args.max_seconds > 0 else None,
    )


def run_model_program(args: argparse.Namespace, sampled: bool) -> int:
    """Verify a model file's read-out against a reference program, on every string up to --up-to or sampled; exit 0 / 1."""
    from hardsoft.checks.engine.programs import target_from_model
    from hardsoft.spec.modelio import load_model

    if args.up_to is None and not sampled:
        raise ValueError("--up-to N (every string) or --sample K --length N (sampled words) is required with --model and a program")
    model = load_model(args.model)
    target = target_from_model(model, args.lang, program_text(args), args.regime, args.tau)
    modes = tuple(m.strip() for m in args.modes.split(","))
    if [m for m in modes if m not in vf.MODES] or not modes:
        raise ValueError(f"--modes: expected hard and/or soft, got {args.modes!r}")
    report = run_sampled(target, args, modes) if sampled else run_engine(target, args.up_to, args, modes)
    return print_report(report, args.json)


def run_reference(args: argparse.Namespace) -> int:
    """Compare a model's hard and soft outputs with a reference table; exit 0 if all three agreements are complete, else 1."""
    from hardsoft.interchange import reference
    from hardsoft.spec.modelio import load_model

    if args.up_to is not None or args.sample is not None:
        raise ValueError("--up-to and --sample go with a formula, a program or --example; with --reference OUTPUTS.json the table fixes the inputs")
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

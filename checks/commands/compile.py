"""``hardsoft compile [--lang tl|brasp|crasp] (PROGRAM | --file F)``: compile a formula or program to a transformer, optionally verify and save it.

The default language is the temporal logic (docs/temporal-logic.md); ``--lang brasp`` and
``--lang crasp`` compile B-RASP and C-RASP programs through it (docs/languages.md), and
their verification compares every compiled vector with the language's interpreter.
Bad input (a program that does not parse, an unbound name, a type error, a cycle, an atom
outside the alphabet, an operation the compiler does not support, a length bound < 1 or
too large) is one line ``hardsoft: error: ...`` and exit status 2, with nothing written.
Exit 1 when the verification finds a mismatch (the model is still saved when asked).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hardsoft.checks.args import add_alphabet_option, add_lang_option, add_regime_option, positive_int, program_text
from hardsoft.checks.commands.verify import add_engine_options, run_engine
from hardsoft.checks.engine import verify as vf


def register(sub: Any) -> None:
    """Add the compile subcommand."""
    c = sub.add_parser("compile", help="compile a temporal-logic formula or a B-RASP / C-RASP / S-RASP program to a transformer (docs/languages.md)")
    src = c.add_mutually_exclusive_group(required=True)
    src.add_argument("formula", nargs="?", help="a formula (e.g. 'a S b', '#<[a] > #<[b]') or, with --lang, a program")
    src.add_argument("--file", metavar="F", help="read the formula or program from a file")
    add_lang_option(c)
    add_regime_option(c)
    add_alphabet_option(c)
    c.add_argument(
        "--verify-up-to",
        type=positive_int("--verify-up-to"),
        metavar="N",
        help="run every word of length 1..N in hard and soft mode against the reference evaluator",
    )
    c.add_argument("--save-model", metavar="FILE", help="write the model (format hardsoft-model/2); runs in 'hardsoft simulate --model'")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument(
        "--certify",
        action="store_true",
        help="then certify the model in Lean for every n, as 'hardsoft certify' does (one more line; docs/certify.md)",
    )
    add_engine_options(c)  # --workers, --scheduler, --max-seconds of the verification engine
    c.set_defaults(func=run)


def verification_report(compiled: Any, args: argparse.Namespace, target: vf.VerificationTarget | None = None) -> dict[str, Any]:
    """Return ``hardsoft compile --verify-up-to N``'s verification dict, computed by the engine (workers, scheduler)."""
    rep = run_engine(target or vf.target_from_compiled(compiled), args.verify_up_to, args)
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


def run(args: argparse.Namespace) -> int:
    """Compile, verify, save and print."""
    from hardsoft.constructive.logic import compile_formula, parse
    from hardsoft.spec.modelio import save_model

    text = program_text(args)
    if args.certify and args.json:
        raise ValueError("--certify prints one line after the compile output: use it without --json (or run hardsoft certify)")
    if args.lang == "srasp":
        from hardsoft.checks.commands.srasp_program import run_compile

        return _then_certify(args, text, run_compile(args, text))
    if args.lang != "tl":
        return _then_certify(args, text, run_program(args, text))
    try:
        f = parse(text)
    except ValueError as e:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise ValueError(f"cannot parse the formula {shown!r}: {e}") from None
    compiled = compile_formula(f, args.alphabet, args.regime)
    _check_work(compiled, args)
    report = verification_report(compiled, args) if args.verify_up_to is not None else None
    if args.save_model:
        save_model(compiled.model, args.save_model, description=f"compiled by hardsoft compile ({args.regime}) from: {f}")
    doc = compiled.describe()
    doc["verification"] = report
    if args.save_model:
        doc["saved_model"] = args.save_model
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print(f"formula   {doc['formula']}   (alphabet {','.join(compiled.alphabet)}, regime {args.regime})")
        print(f"model     {doc['layers']} layer(s), {doc['heads']} head(s) {doc['heads_per_layer']}, d = {doc['d']}, FFN width {doc['ffn_width']}")
        print(f"features  {', '.join(doc['position_features'])}")
        for line in doc.get("constant_predicates", ()):
            print(f"constant  {line}")
        print(f"temp.     {doc['temperature']};  claimed gap {doc['gap']};  mass off the hard max set <= {doc['mass_off_bound']:.4g} per head")
        for line in dict.fromkeys(doc["constructions"]):  # a head shared by several nodes is listed once
            print(f"          {line}")
        forms = doc["boolean_forms"]
        print(f"boolean   {forms['table']} node(s) from a truth table, {forms['circuit']} as one circuit gate (--json lists each)")
        print(f"readout   coordinate {compiled.readout.coordinate} at the last position > {compiled.readout.threshold}")
        if report is not None:
            verdict = "OK" if report["ok"] else "MISMATCH"
            print(
                f"verified  {verdict}: {report['words']:,} words of length 1..{report['max_len']}, hard and soft "
                f"(every subformula at every position) in {report['seconds']:.2f} s"
            )
            if report["first_counterexample"] is not None:
                print(f"          first counterexample: {report['first_counterexample']}")
        if args.save_model:
            print(f"saved     {args.save_model}")
    return _then_certify(args, text, 0 if report is None or report["ok"] else 1)


def _then_certify(args: argparse.Namespace, text: str, code: int) -> int:
    """With --certify, certify the program as ``hardsoft certify`` does (its line after the compile output); return the worse status.

    The statuses combine as the check runner's do: a failure (1) or an internal error (4) wins over OK.
    """
    if not getattr(args, "certify", False):
        return code
    from hardsoft.checks.commands.certify import certify_subject
    from hardsoft.checks.families.certify.subjects import Subject

    cert_code = certify_subject(Subject(args.lang, text, tuple(args.alphabet), args.regime))
    return max(code, cert_code)


def _check_work(compiled: Any, args: argparse.Namespace) -> None:
    """Refuse --verify-up-to N when the estimated work is above the limit (ValueError naming the estimate)."""
    from hardsoft.constructive.logic.selfcheck import MAX_WORK, estimate_work

    if args.verify_up_to is not None:
        words, work = estimate_work(compiled, args.verify_up_to)
        if work > MAX_WORK:
            raise ValueError(
                f"--verify-up-to {args.verify_up_to}: {words:,} words, about {work:.2g} operations (limit {MAX_WORK:.0e}); choose a smaller N"
            )


def run_program(args: argparse.Namespace, text: str) -> int:
    """Compile, verify, save and print a program of a language other than tl."""
    from hardsoft.checks.engine.programs import compile_text, target_from_program
    from hardsoft.spec.modelio import save_model

    cp = compile_text(args.lang, text, args.alphabet, args.regime)
    _check_work(cp.tl, args)
    report = verification_report(cp.tl, args, target_from_program(cp)) if args.verify_up_to is not None else None
    if args.save_model:
        save_model(cp.model, args.save_model, description=f"compiled by hardsoft compile --lang {cp.language} ({args.regime}) from: {cp.text}")
    doc = cp.describe()
    doc["verification"] = report
    if args.save_model:
        doc["saved_model"] = args.save_model
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print(f"program   {cp.language}, output {cp.vectors[-1]}   (alphabet {','.join(cp.alphabet)}, regime {args.regime})")
        print(f"vectors   {len(cp.vectors)} compiled: {', '.join(cp.vectors)}")
        if cp.omitted:
            print(f"          not in the model: {', '.join(cp.omitted)} (count vectors, or not needed by the output)")
        print(f"model     {doc['layers']} layer(s), {doc['heads']} head(s) {doc['heads_per_layer']}, d = {doc['d']}, FFN width {doc['ffn_width']}")
        print(f"features  {', '.join(doc['position_features'])}")
        for line in doc.get("constant_predicates", ()):
            print(f"constant  {line}")
        print(f"temp.     {doc['temperature']};  claimed gap {doc['gap']};  mass off the hard max set <= {doc['mass_off_bound']:.4g} per head")
        for line in dict.fromkeys(doc["constructions"]):  # a head shared by several nodes is listed once
            print(f"          {line}")
        if report is not None:
            verdict = "OK" if report["ok"] else "MISMATCH"
            print(
                f"verified  {verdict}: {report['words']:,} words of length 1..{report['max_len']}, hard and soft "
                f"(every compiled vector at every position, against the {cp.language} interpreter) in {report['seconds']:.2f} s"
            )
            if report["first_counterexample"] is not None:
                print(f"          first counterexample: {report['first_counterexample']}")
        if args.save_model:
            print(f"saved     {args.save_model}")
    return 0 if report is None or report["ok"] else 1


def compile_program_args(args: argparse.Namespace, text: str) -> Any:
    """Return the program of --lang compiled as ``hardsoft compile`` compiles it (a CompiledProgram, or an S-RASP Compiled); ValueError if bad."""
    from hardsoft.checks.commands import srasp_program
    from hardsoft.checks.engine.programs import compile_text

    if args.lang == "srasp":
        srasp_program.refuse_regime(args)
        return srasp_program.compile_srasp(text, srasp_program.given_alphabet(args))[1]
    return compile_text(args.lang, text, args.alphabet, args.regime)

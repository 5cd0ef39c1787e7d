"""``hardsoft certify PROGRAM [--lang tl|brasp|crasp] [--regime R] [--out DIR] [--model FILE]``: a Lean certificate for every n.

Compiles the program (or takes the saved model of ``--model`` and checks it against the
program), writes the model's weights and the compiler's description of it as Lean data
(``checks.families.certify``), has Lean check it against the compiled library, and prints ONE
line: Lean's verdict, named by the mirror of the checker when Lean rejects (docs/certify.md).

Exit status: 0 certified; 1 not certified (a failing check, a model that does not match the
program, a program outside the checker's fragment such as a comparison of strict counts, a library
that is not confirmed); 2 bad input (the compiler's one-line error, an unreadable model file, an
--out that is a file); 3 undecided (toolchain missing, timeout); 4 internal (Lean and the mirror
disagree, or a bug).  Nothing is written to --out unless Lean accepted the certificate.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hardsoft.checks.args import add_alphabet_option, add_lang_option, add_regime_option, program_text
from hardsoft.checks.runner import EXIT_FAILED, EXIT_OK

#: The files ``--out`` receives (only when Lean accepted): the Lean module and a JSON summary.
OUT_LEAN = "Certificate.lean"
OUT_JSON = "certificate.json"
#: Format of the JSON summary.
SUMMARY_FORMAT = "hardsoft-certificate/1"


def register(sub: Any) -> None:
    """Add the certify subcommand."""
    c = sub.add_parser(
        "certify",
        help="prove in Lean that a compiled program's transformer computes it at every position of every length (docs/certify.md)",
    )
    src = c.add_mutually_exclusive_group(required=True)
    src.add_argument("formula", nargs="?", help="a formula (e.g. 'a S b') or, with --lang, a program")
    src.add_argument("--file", metavar="F", help="read the formula or program from a file")
    add_lang_option(c)
    add_regime_option(c)
    add_alphabet_option(c)
    c.add_argument("--out", metavar="DIR", help=f"write {OUT_LEAN} and {OUT_JSON} there, only when Lean accepted the certificate")
    c.add_argument(
        "--model", metavar="FILE", help="certify this saved model (hardsoft compile --save-model) against the program instead of compiling one"
    )
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Certify the program (or the saved model) and print one line."""
    from hardsoft.checks.families.certify.subjects import Subject

    text = program_text(args)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    model = None
    if args.model:
        from hardsoft.spec.modelio import load_model

        try:
            model = load_model(args.model)
        except OSError as e:
            raise ValueError(f"--model {args.model}: {e.strerror or e}") from None
    return certify_subject(Subject(args.lang, text, tuple(args.alphabet), args.regime), model, out)


def certify_subject(subject: Any, model: Any = None, out: Path | None = None) -> int:
    """Print the one line of a subject's certificate and return its exit status (shared with ``hardsoft compile --certify``).

    ValueError (bad input) propagates; NotCertifiable is "not certified", exit 1.
    """
    from hardsoft.checks.families.certify.decide import certify
    from hardsoft.checks.families.certify.subjects import prepare
    from hardsoft.constructive.logic.certificate import NotCertifiable

    try:
        prepared = prepare(subject, model)
    except NotCertifiable as e:
        print(f"not certified: {subject.title}: {e}")
        return EXIT_FAILED
    with tempfile.TemporaryDirectory(prefix="hardsoft-certify-") as logs:
        decision = certify([prepared], Path(logs), _progress())[0]
        text = decision.verdict.text
    print(decision.line)
    if decision.code == EXIT_OK and out is not None:
        _write(out, text, decision)
    return decision.code


def _progress() -> Any:
    """Return a progress callback: one line on stderr per step when stderr is a terminal, else silence."""
    if not sys.stderr.isatty():
        return lambda _msg: None
    return lambda msg: print(f"  {msg}", file=sys.stderr)


def _write(out: Path, text: str, decision: Any) -> None:
    """Write the accepted certificate's Lean module and its JSON summary into ``out``."""
    from hardsoft.checks.families.certify.lean_text import MODULE, THEOREM_FORM, theorem_name

    p = decision.prepared
    s = p.subject
    summary = {
        "format": SUMMARY_FORMAT,
        "line": decision.line,
        "program": {"language": s.language, "text": s.text, "alphabet": list(s.alphabet), "regime": s.regime},
        "module": MODULE,
        "lean_file": OUT_LEAN,
        "theorem": theorem_name(s.tag),
        "theorem_form": THEOREM_FORM,
        "parameters": p.weights.parameters,
        "lean_seconds": round(decision.verdict.seconds, 1),
        "lean_cpu_seconds": decision.verdict.cpu_seconds,
        "cached": decision.verdict.cached,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / OUT_LEAN).write_text(text, encoding="utf-8")
    (out / OUT_JSON).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")

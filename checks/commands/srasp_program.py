"""``hardsoft compile --lang srasp`` and ``hardsoft verify --lang srasp``: S-RASP programs through their own compiler (docs/srasp.md).

S-RASP compiles with ``constructive.srasp`` (average-hard attention, position features i, i^2,
1/max(i,1), i/n), not through temporal logic: the program declares its alphabet, the regime
is the compiler's own (``tau(n) = 1/(n ln(128 S n^3))``), and verification compares every
definition (and every square the model holds) at every position with the S-RASP interpreter,
hard and soft (``constructive.srasp.verify_compiled``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

#: Words of the exhaustive S-RASP verification above which --verify-up-to / --up-to is refused.
MAX_WORDS = 2_000_000


def given_alphabet(args: argparse.Namespace) -> tuple[str, ...] | None:
    """Return --alphabet when the user gave one (an S-RASP program declares its own; a given one must match it)."""
    from hardsoft.checks.args import DEFAULT_ALPHABET, given

    if given(args, "--alphabet"):
        return tuple(args.alphabet)
    return None if tuple(args.alphabet) == tuple(DEFAULT_ALPHABET) else tuple(args.alphabet)


def refuse_regime(args: argparse.Namespace) -> None:
    """Refuse --regime (any value given): S-RASP has its own encoding, and a silently ignored option would mislead."""
    from hardsoft.checks.args import REGIMES, given

    if getattr(args, "regime", REGIMES[0]) != REGIMES[0] or given(args, "--regime"):
        raise ValueError(f"--regime {args.regime}: S-RASP compiles with its own average-hard encoding; --regime is for tl, brasp and crasp")


def compile_srasp(text: str, alphabet: tuple[str, ...] | None) -> Any:
    """Return (program, compiled) of an S-RASP text; ValueError naming what is wrong."""
    from hardsoft.constructive.lang import get_language

    lang = get_language("srasp")
    try:
        program = lang.parse(text)
    except ValueError as e:
        raise ValueError(f"cannot parse the srasp program: {e}") from None
    return program, lang.to_model(program, alphabet or (), "average-hard")


def _verify(program: Any, compiled: Any, up_to: int) -> Any:
    """Return the exhaustive verdict (refusing more than MAX_WORDS words)."""
    from hardsoft.constructive.srasp import verify_compiled

    k = len(program.alphabet)
    words = sum(k**n for n in range(1, up_to + 1))
    if words > MAX_WORDS:
        raise ValueError(f"{up_to}: {words:,} words over {k} symbols (limit {MAX_WORDS:,}); choose a smaller N")
    return verify_compiled(compiled, up_to)


def describe(program: Any, compiled: Any, n: int = 16) -> dict[str, Any]:
    """Return the compiled program's summary: sizes, the temperature and gap rules, tau and gap at length n."""
    from hardsoft.constructive.srasp import claimed_gap

    m = compiled.model
    return {
        "program": program.name,
        "language": "srasp",
        "alphabet": list(program.alphabet),
        "definitions": len(program.defs),
        "layers": len(m.layers),
        "heads": sum(len(layer.heads) for layer in m.layers),
        "d": int(m.d),
        "ffn_width": max((int(layer.W1.shape[1]) for layer in m.layers), default=0),
        "temperature": f"tau(n) = 1/(n ln(128 S n^3)), S = {compiled.scale:g}",
        "gap_at": {"n": n, "gap": claimed_gap(program, n), "tau": compiled.tau(n)},
    }


def run_compile(args: argparse.Namespace, text: str) -> int:
    """Compile (and with --verify-up-to verify) an S-RASP program; print and optionally save the model."""
    from hardsoft.spec.modelio import save_model

    refuse_regime(args)
    program, compiled = compile_srasp(text, given_alphabet(args))
    result = _verify(program, compiled, args.verify_up_to) if args.verify_up_to is not None else None
    if args.save_model:
        save_model(compiled.model, args.save_model, description=f"compiled by hardsoft compile --lang srasp from the program {program.name}")
    doc = describe(program, compiled)
    doc["verification"] = None if result is None else {"ok": result.ok, "summary": result.summary(), "words": result.words, "cells": result.cells}
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        g = doc["gap_at"]
        print(f"program   srasp {program.name}, {doc['definitions']} definitions   (alphabet {','.join(program.alphabet)}, average-hard)")
        print(f"model     {doc['layers']} layer(s), {doc['heads']} head(s), d = {doc['d']}, FFN width {doc['ffn_width']}")
        print(f"temp.     {doc['temperature']};  at n = {g['n']}: claimed gap {g['gap']:.4g}, tau {g['tau']:.4g}")
        if result is not None:
            print(f"verified  {'OK' if result.ok else 'MISMATCH'}: {result.summary()}")
        if args.save_model:
            print(f"saved     {args.save_model}")
    return 0 if result is None or result.ok else 1


def run_verify(args: argparse.Namespace, text: str) -> int:
    """Verify an S-RASP program on every word up to --up-to, hard and soft, every cell; exit 0 if all agree, else 1."""
    refuse_regime(args)
    program, compiled = compile_srasp(text, given_alphabet(args))
    result = _verify(program, compiled, args.up_to)
    if args.json:
        doc = {"ok": result.ok, "words": result.words, "cells": result.cells, "wrong_cells": result.mismatch_count, "seconds": result.seconds}
        doc["first_mismatch"] = None if result.ok else vars(result.mismatches[0])
        print(json.dumps(doc, indent=1))
    else:
        print(result.summary())
    return 0 if result.ok else 1

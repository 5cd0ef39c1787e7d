"""Exhaustive verification of a compiled program (B-RASP, C-RASP, TL): every vector at every position against the language's interpreter.

``target_from_program(compiled)`` is the engine's ``VerificationTarget`` of a
``constructive.lang.CompiledProgram``: its reference is the language's own interpreter
(the paper's definitions, written independently of the TL translation and of the model),
its decoder reads the model coordinate of every Boolean vector the model computes, the
output last; the engine (``checks.engine.verify``) then compares every such vector at
every position of every string of lengths 1..N, in hard and in soft mode, and the verdict
fails on any wrong cell.  Count vectors of C-RASP have no coordinate of their own (the
model holds them only as averages inside comparison heads); they are checked through the
Boolean vectors that compare them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hardsoft.checks.engine import verify as vf


def compile_text(language: str, text: str, alphabet: Sequence[str], regime: str) -> Any:
    """Return a program's text in a language compiled (constructive.lang.CompiledProgram); ValueError naming what is wrong."""
    from hardsoft.constructive.lang import get_language

    lang = get_language(language)
    if lang.via != "tl":
        raise ValueError(f"the {lang.name} language has its own compiler (hardsoft compile --lang {lang.name}), not the temporal-logic one")
    try:
        program = lang.parse(text)
    except ValueError as e:
        raise ValueError(f"cannot parse the {lang.name} program: {e}") from None
    except RecursionError:  # the syntax tree is built recursively per level of one expression's nesting
        raise ValueError(f"cannot parse the {lang.name} program: one expression is nested too deeply") from None
    try:
        return lang.to_model(program, tuple(alphabet), regime)
    except RecursionError:  # the translation to TL recurses per level of one expression's nesting (the TL stages do not)
        raise ValueError(f"the {lang.name} program nests one expression too deeply for the translation to temporal logic") from None


def target_from_program(compiled: Any, name: str | None = None) -> vf.VerificationTarget:
    """Return the engine's target of a compiled program (ValueError if its read-out is not the output vector at the last position)."""
    ro = compiled.tl.readout
    if ro.position != "last" or ro.coordinate != compiled.tl.coords[compiled.columns[-1]]:
        raise ValueError(f"{compiled.language} program: the model's read-out {ro} is not the output vector at the last position")
    return vf.VerificationTarget(
        name=name or f"{compiled.language}: output {compiled.vectors[-1]}",
        model=compiled.model,
        tau=compiled.tau,
        reference=compiled.reference,
        decode=compiled.decode,
        accept=vf.accept_last,
        coordinates=tuple(compiled.vectors),
        layers=True,
    )


def verify_program(compiled: Any, N: int, modes: Sequence[str] = vf.MODES, workers: int | None = 1, name: str | None = None) -> vf.VerificationReport:
    """Return the engine's report of a compiled program on every string of lengths 1..N (in this process by default)."""
    return vf.verify(target_from_program(compiled, name), N, modes=tuple(modes), workers=workers)

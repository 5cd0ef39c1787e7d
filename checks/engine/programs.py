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

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

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


def target_from_program(compiled: Any, name: str | None = None, columns: bool = False) -> vf.VerificationTarget:
    """Return the engine's target of a compiled program (ValueError if its read-out is not the output vector at the last position).

    columns: the reference is the language's numpy-wide interpreter (``Language.interpret_columns``; the TL's vectorized
    evaluator ``checks.engine.columns``), for long words; both are tested equal to the word-by-word interpreter.
    """
    ro = compiled.tl.readout
    if ro.position != "last" or ro.coordinate != compiled.tl.coords[compiled.columns[-1]]:
        raise ValueError(f"{compiled.language} program: the model's read-out {ro} is not the output vector at the last position")
    reference = compiled.reference
    if columns:
        reference = functools.partial(_reference_columns, compiled)
    return vf.VerificationTarget(
        name=name or f"{compiled.language}: output {compiled.vectors[-1]}",
        model=compiled.model,
        tau=compiled.tau,
        reference=reference,
        decode=compiled.decode,
        accept=vf.accept_last,
        coordinates=tuple(compiled.vectors),
        layers=True,
    )


def verify_program(compiled: Any, N: int, modes: Sequence[str] = vf.MODES, workers: int | None = 1, name: str | None = None) -> vf.VerificationReport:
    """Return the engine's report of a compiled program on every string of lengths 1..N (in this process by default)."""
    return vf.verify(target_from_program(compiled, name), N, modes=tuple(modes), workers=workers)


# --------------------------------------------------------------------------- S-RASP programs and model files as engine targets

#: How far a soft-mode value of an S-RASP program may lie from the interpreter's (constructive.srasp.verify.SOFT_TOLERANCE).
SRASP_SOFT_TOLERANCE = 0.25


def target_from_srasp(comp: Any) -> vf.VerificationTarget:
    """Return the engine's target of a compiled S-RASP program: every definition, every square the model holds and the output symbol.

    The same cells as ``constructive.srasp.verify_compiled``: hard mode must reproduce each exactly, soft mode each value within
    1/4 of the interpreter's (the margin every compiled comparison and clean-up decodes with) and the output symbol exactly;
    acceptance is the output symbol at the last position.
    """
    from hardsoft.constructive.srasp.interpreter import interpret, outputs_of

    prog = comp.program
    sample = interpret(prog, [prog.alphabet[0]])
    names = [*sample, *(f"{x}^2" for x in comp.squares), "output"]

    def reference(inputs: np.ndarray) -> np.ndarray:
        rows = []
        for word in np.atleast_2d(np.asarray(inputs)):
            vals = interpret(prog, [prog.alphabet[int(k)] for k in word])
            vals.update({f"{x}^2": [v * v for v in vals[x]] for x in comp.squares})
            vals["output"] = [prog.symbols.index(o) for o in outputs_of(prog, vals)]
            rows.append([vals[name] for name in names])
        return np.transpose(np.array(rows, dtype=float), (0, 2, 1))

    def decode(acts: Any) -> np.ndarray:
        got = comp.values(acts)
        got.update(comp.square_values(acts))
        got["output"] = comp.readout(acts[-1]).astype(float)
        return np.stack([np.asarray(got[name], dtype=float) for name in names], axis=-1)

    def wrong(ref: np.ndarray, got: np.ndarray, mode: str) -> np.ndarray:
        tol = np.full(len(names), SRASP_SOFT_TOLERANCE if mode == "soft" else 0.0)
        tol[-1] = 0.0  # the output symbol exactly, in every mode
        return np.asarray(np.abs(ref - got) > tol)

    return vf.VerificationTarget(
        name=f"srasp: {prog.name}",
        model=comp.model,
        tau=comp.tau,
        reference=reference,
        decode=decode,
        accept=lambda table: table[:, -1, -1],
        coordinates=tuple(names),
        layers=True,
        numeric=True,
        wrong=wrong,
    )


def target_from_model(model: Any, language: str, text: str, regime: str, tau: float | None = None) -> vf.VerificationTarget:
    """Return the target of a model file against a reference program: the model's read-out against the program's output vector.

    A model file says what it computes only through its read-out (format 2: accept when coordinate c at the first or last
    position exceeds a threshold), so that cell is compared: at every word, the read-out's position.  The soft run's
    temperature: ``tau`` if given, else the model's own (format 3 ``own_tau``), else the reference program's compiled rule
    tau(n) in ``regime`` (the rule the model has when it was saved by ``hardsoft compile --save-model`` from that program).
    """
    from hardsoft.constructive.lang import get_language

    if model.readout is None:
        raise ValueError(f"the model {model.name!r} has no read-out (model format 2): it names no output to compare with a program")
    lang = get_language(language)
    if lang.via != "tl":
        raise ValueError("a model is compared with a tl, brasp or crasp program (an S-RASP model file has no read-out)")
    try:
        program = lang.parse(text)
    except ValueError as e:
        raise ValueError(f"cannot parse the {lang.name} reference program: {e}") from None
    alphabet = tuple(model.alphabet)
    out = str(program) if language == "tl" else program.output
    if tau is None and model.own_tau is None:
        rule = lang.to_model(program, alphabet, regime).tau  # the reference program's own temperature rule
    else:
        fixed = float(tau if tau is not None else model.own_tau)
        rule = functools.partial(_constant, fixed)
    pos = -1 if model.readout.position == "last" else 0

    def reference(inputs: np.ndarray) -> np.ndarray:  # numpy-wide (long words): tested equal to the word-by-word interpreter
        w = np.atleast_2d(np.asarray(inputs))
        if lang.interpret_columns is not None:
            return np.asarray(lang.interpret_columns(program, w, alphabet)[out], dtype=bool)[..., None]
        from hardsoft.checks.engine.columns import evaluate_columns  # the TL: the formula is the last subformula's column

        return np.asarray(evaluate_columns(program, w, alphabet), dtype=bool)[:, :, -1:]

    def decode(final: np.ndarray) -> np.ndarray:
        return (np.asarray(final)[..., model.readout.coordinate] > model.readout.threshold)[..., None]

    def wrong(ref: np.ndarray, got: np.ndarray, mode: str) -> np.ndarray:
        bad = np.zeros(ref.shape, dtype=bool)
        bad[:, pos] = ref[:, pos] != got[:, pos]
        return bad

    return vf.VerificationTarget(
        name=f"{model.name} against the {lang.name} program's output {out if len(out) <= 40 else out[:37] + '...'}",
        model=model,
        tau=rule,
        reference=reference,
        decode=decode,
        accept=lambda table: table[:, pos, 0],
        coordinates=("read-out",),
        wrong=wrong,
    )


def _constant(tau: float, n: int) -> float:
    """Return tau at every length (a module-level function: the target pickles)."""
    return tau


def _reference_columns(compiled: Any, inputs: np.ndarray) -> np.ndarray:
    """Return a compiled program's vectors on a batch from the numpy-wide interpreter (``target_from_program(columns=True)``)."""
    from hardsoft.constructive.lang import get_language

    lang = get_language(compiled.language)
    if lang.interpret_columns is not None:
        vals = lang.interpret_columns(compiled.program, np.asarray(inputs), compiled.alphabet)
        return np.stack([np.asarray(vals[v], dtype=bool) for v in compiled.vectors], axis=-1)
    from hardsoft.checks.engine.columns import evaluate_columns  # the TL: its vectorized evaluator, every subformula

    table = evaluate_columns(compiled.program, np.asarray(inputs), compiled.alphabet)
    return np.asarray(table, dtype=bool)[:, :, list(compiled.columns)]

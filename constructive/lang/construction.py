"""A compiled program as an application (``constructive.applications.Construction``): the measurement the built-in constructions get.

``construction_of_program(compiled)`` turns a program compiled by any language of the registry
(a ``CompiledProgram`` through the temporal logic, or an S-RASP ``Compiled``) into a
``Construction``: the compiled model, a read-out of the output at every position, the language's
interpreter as the reference (a whole batch at once where the interpreter takes one), the
compiler's claimed gap and its temperature rule.  The constructions sweep (``hardsoft constructions --lang``), ``constructive.audit.gap_row`` and
``hardsoft temperature --lang`` then treat it exactly as a built-in construction.

Outputs: a B-RASP, C-RASP or TL program's output vector is Boolean at every position ("0" or
"1"; the program accepts a word when it is "1" at the last position); an S-RASP program's is its
output symbol at every position (``Program.symbols``).  The reference receives the word as one
string (``Construction.reference_codes``), so the alphabet's symbols must be single characters.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from hardsoft.constructive import srasp as sr
from hardsoft.constructive.applications import Construction
from hardsoft.constructive.lang.program import CompiledProgram

#: The output symbols of a Boolean output vector (false, true), in read-out order.
BOOLEAN_OUTPUTS = ("0", "1")


def _require_letters(alphabet: tuple[str, ...]) -> None:
    """Raise ValueError unless every symbol is one character (the reference reads the word as a string)."""
    long = [s for s in alphabet if len(s) != 1]
    if long:
        raise ValueError(f"a program run as a construction needs one-character symbols; the alphabet has {', '.join(map(repr, long))}")


def _score_bound(model: Any) -> float:
    """Return max over heads of sum |A| (a bound on |score| when every coordinate lies in [0, 1], as in the bounded regime)."""
    return max((float(np.abs(h.A).sum()) for layer in model.layers for h in layer.heads), default=0.0)


def _from_tl(cp: CompiledProgram, name: str) -> Construction:
    """Return the construction of a program compiled through the temporal logic (its output vector, every position)."""
    _require_letters(cp.alphabet)
    index = {s: k for k, s in enumerate(cp.alphabet)}

    def readout(x: np.ndarray) -> np.ndarray:
        return cp.output(x).astype(np.int64)

    def reference(word: str) -> list[str]:
        codes = np.array([[index[c] for c in word]], dtype=np.int64)
        return [BOOLEAN_OUTPUTS[int(v)] for v in cp.reference(codes)[0, :, -1]]

    doc = cp.describe()
    bound = _score_bound(cp.model)
    return Construction(
        name,
        cp.model,
        readout,
        BOOLEAN_OUTPUTS,
        reference,
        cp.gap,
        cp.tau,
        (lambda n: bound) if cp.regime == "bounded" else (lambda n: math.nan),  # unbounded features: no bound derived
        1,
        str(doc["gap"]),
        str(doc["temperature"]),
        f"{cp.language} program compiled through the temporal logic ({cp.regime} regime), output {cp.vectors[-1]} at every position",
        margin=cp.tl.mass_bound(),
        reference_batch=lambda inputs: cp.reference(inputs)[:, :, -1].astype(np.int64),
    )


def _from_srasp(comp: sr.Compiled, name: str) -> Construction:
    """Return the construction of an S-RASP program compiled by its own compiler (its output symbol, every position)."""
    prog = comp.program
    _require_letters(prog.alphabet)
    return Construction(
        name,
        comp.model,
        comp.readout,
        prog.symbols,
        lambda w: sr.run_program(prog, list(w)),
        lambda n: sr.claimed_gap(prog, n),
        comp.tau,
        lambda n: math.nan,  # no bound derived (features i, i^2 are unbounded); only the precision audit reads it, not the sweep
        1,
        "min(1/(n-1) prefix sums, 1/n aggregations, 1 once)",
        f"tau(n) = 1/(n ln(128 S n^3)), S = {comp.scale:g}",
        f"srasp program {prog.name} compiled by the S-RASP compiler (average-hard), output symbol at every position",
    )


def construction_of_program(compiled: Any, name: str) -> Construction:
    """Return a compiled program (a ``CompiledProgram`` or an S-RASP ``Compiled``) as a construction called name."""
    if isinstance(compiled, CompiledProgram):
        return _from_tl(compiled, name)
    if isinstance(compiled, sr.Compiled):
        return _from_srasp(compiled, name)
    raise ValueError(f"not a compiled program: {type(compiled).__name__}")

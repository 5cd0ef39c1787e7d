"""Reference tables (docs/interchange.md): every input up to a length with the program's per-position output, compared with hard and soft runs.

``load_reference`` reads a table (``{"alphabet", "bos", "max_len", "cases": [{"input", "output"}]}``)
after checking it against the model; ``compare_with_reference`` reports three agreements
separately (hard = reference, soft = reference, soft = hard), each with its count and first
disagreeing input.  The format is hardsoft's own, shared by every outside tool.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.interchange.tokens import as_token, is_scalar
from hardsoft.spec import transformer as tf
from hardsoft.spec.modelio import read_json

#: Numeric outputs agree with a reference when within this absolute tolerance (tracr's numerical MLPs are
#: approximate: a discretising MLP is exact only up to its own hidden-layer resolution, far above float rounding).
NUMERIC_OUTPUT_ATOL: float = 1e-3


@dataclass(frozen=True)
class ReferenceCase:
    """One input (symbols, BOS excluded) and the program's output per position (None where undefined)."""

    word: tuple[str, ...]
    output: tuple[Any, ...]


@dataclass(frozen=True)
class Reference:
    """A reference table: alphabet, BOS, the longest input and the cases."""

    alphabet: tuple[str, ...]
    bos: str | None
    max_len: int
    cases: tuple[ReferenceCase, ...]


def load_reference(path: str | os.PathLike[str], model: tf.Model) -> Reference:
    """Return a reference table after checking it against the model (alphabet, BOS, lengths, per-position output counts)."""
    p = Path(path)
    data = read_json(p, "reference")
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise ValueError(f"reference {p}: expected an object with a list 'cases'")
    alphabet = data.get("alphabet", list(model.alphabet))
    if not isinstance(alphabet, list) or not all(is_scalar(a) for a in alphabet):
        raise ValueError("reference: alphabet must be a list of strings or numbers")
    alphabet = [as_token(a) for a in alphabet]
    extra = [a for a in alphabet if a not in model.alphabet]
    if extra:
        raise ValueError(f"reference: alphabet symbol {extra[0]!r} is not in the model's alphabet {list(model.alphabet)}")
    bos = None if data.get("bos") is None else as_token(data["bos"])
    if bos != model.bos_token:
        raise ValueError(f"reference: bos is {bos!r} but the model's BOS token is {model.bos_token!r}")
    limit = model.max_input_length
    cases = []
    for k, c in enumerate(data["cases"]):
        if not isinstance(c, dict) or not isinstance(c.get("input"), list) or not isinstance(c.get("output"), list):
            raise ValueError(f"reference: cases[{k}] must have lists 'input' and 'output'")
        if not all(is_scalar(x) for x in c["input"]):
            raise ValueError(f"reference: cases[{k}].input must be a list of tokens (strings or numbers)")
        w = [as_token(x) for x in c["input"]]
        if not w:
            raise ValueError(f"reference: cases[{k}].input is empty")
        bad = [s for s in w if s not in alphabet]
        if bad:
            raise ValueError(f"reference: cases[{k}].input symbol {bad[0]!r} is not in the alphabet {alphabet}")
        if limit is not None and len(w) > limit:
            raise ValueError(f"reference: cases[{k}].input has length {len(w)}, longer than the model's position table allows ({limit})")
        if len(c["output"]) != len(w):
            raise ValueError(f"reference: cases[{k}].output has {len(c['output'])} entries for an input of length {len(w)} (one per position)")
        cases.append(ReferenceCase(tuple(w), tuple(c["output"])))
    if not cases:
        raise ValueError("reference: no cases")
    max_len = data.get("max_len", max(len(c.word) for c in cases))
    return Reference(tuple(alphabet), bos, int(max_len), tuple(cases))


@dataclass
class Agreement:
    """How many cases two output sources agree on, and the first disagreeing input."""

    agree: int = 0
    total: int = 0
    first: dict[str, Any] | None = None

    def add(self, ok: bool, detail: dict[str, Any]) -> None:
        """Count one case."""
        self.total += 1
        self.agree += ok
        if not ok and self.first is None:
            self.first = detail


@dataclass
class ReferenceReport:
    """The three agreements of ``compare_with_reference``: hard = reference, soft = reference, soft = hard."""

    tau: float
    hard_ref: Agreement = field(default_factory=Agreement)
    soft_ref: Agreement = field(default_factory=Agreement)
    soft_hard: Agreement = field(default_factory=Agreement)

    @property
    def ok(self) -> bool:
        """Return whether all three agree on every case."""
        return all(a.agree == a.total for a in (self.hard_ref, self.soft_ref, self.soft_hard))


def _decode(model: tf.Model, final: np.ndarray) -> list[list[Any]]:
    """Return per-case output lists (labels or numbers), BOS position dropped."""
    out = model.output
    assert out is not None
    vals = out.decode(final)[:, model.offset :]
    if out.kind == "categorical":
        assert out.labels is not None
        return [[out.labels[int(j)] for j in row] for row in vals]
    return [[float(x) for x in row] for row in vals]


def _same(a: Any, b: Any, numeric: bool, atol: float) -> bool:
    """Return whether two per-position outputs agree (None in the reference: undefined, always agrees)."""
    if a is None or b is None:
        return True
    if numeric:
        try:
            return abs(float(a) - float(b)) <= atol
        except (TypeError, ValueError):
            return False
    return as_token(a) == as_token(b)


def compare_with_reference(model: tf.Model, ref: Reference, tau: float, mode: str = "hard", atol: float = NUMERIC_OUTPUT_ATOL) -> ReferenceReport:
    """Return the three agreements (hard = reference, soft = reference, soft = hard) over every case of the table."""
    if model.output is None:
        raise ValueError("the model has no per-position output (format 3 'output'): nothing to compare with a reference")
    numeric = model.output.kind == "numerical"
    report = ReferenceReport(tau)
    by_len: dict[int, list[ReferenceCase]] = {}
    for c in ref.cases:
        by_len.setdefault(len(c.word), []).append(c)
    for n in sorted(by_len):
        group = by_len[n]
        w = model.encode([list(c.word) for c in group])
        hard = _decode(model, tf.run(model, w, mode).activations[-1])
        soft = _decode(model, tf.run(model, w, "soft", tau=tau).activations[-1])
        for c, h, s in zip(group, hard, soft):
            word = "".join(c.word) if all(len(x) == 1 for x in c.word) else " ".join(c.word)
            agree = lambda x, y: all(_same(p, q, numeric, atol) for p, q in zip(x, y))  # noqa: E731
            report.hard_ref.add(agree(h, c.output), {"input": word, "expected": list(c.output), "got": h})
            report.soft_ref.add(agree(s, c.output), {"input": word, "expected": list(c.output), "got": s})
            report.soft_hard.add(agree(s, h), {"input": word, "expected": h, "got": s})
    return report


# --------------------------------------------------------------------------- reporting


def _show(outputs: Sequence[Any]) -> str:
    """Return per-position outputs as one bracketed line (tokens as their text, numbers to 6 digits, undefined as -)."""
    cell = lambda x: "-" if x is None else f"{x:.6g}" if isinstance(x, float) else as_token(x)  # noqa: E731
    return "[" + " ".join(cell(x) for x in outputs) + "]"


def first_disagreement(a: Agreement) -> str:
    """Return a one-line account of an agreement: counts and the first disagreeing input."""
    line = f"{a.agree}/{a.total} agree"
    if a.first is not None:
        line += f"; first disagreement: input {a.first['input']!r}: expected {_show(a.first['expected'])}, got {_show(a.first['got'])}"
    return line


def tokens_of(words: Sequence[str]) -> list[list[str]]:
    """Return words as token lists (a word with spaces is split on them, else one character per symbol)."""
    return [w.split() if " " in w else list(w) for w in words]

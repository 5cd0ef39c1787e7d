"""A vectorized evaluator of the temporal logic: the truth value of every subformula at every position, for a whole batch of words.

``evaluate_columns`` computes, with numpy, one recurrence per operator:

    Y f:   v_0 = 0, v_i = f_{i-1}           X f: v_{n-1} = 0, v_i = f_{i+1}
    f S g: v_0 = 0, v_i = g_{i-1} | (f_{i-1} & v_{i-1})   (strict since)
    f U g: v_{n-1} = 0, v_i = g_{i+1} | (f_{i+1} & v_{i+1})   (strict until)
    #<[f] at i = sum_{j<i} f_j,  #>[f] at i = sum_{j>i} f_j

(unfold the strict since: the witness j is i-1, or j < i-1 and f holds at i-1
and the witness serves i-1).  It is a second implementation of the semantics of
constructive.logic.semantics, not the reference: tests/checks/test_formulas.py checks it against
``constructive.logic.evaluate_batch`` operator by operator on every pair of child columns
of small lengths, and on random formulas with Hypothesis; the benchmark and the
verify family also compare it with the reference on a slice of every run.  A
``cache`` dict shared across formulas evaluates each distinct subformula once per
batch of words.  Used by the engine's long runs (``checks.engine.verify``, evaluator
"vectorized") and by the formula family's verification (``checks.engine.formulas``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hardsoft.constructive import logic as lg


def _count_column(c: lg.Count, col: Any) -> np.ndarray:
    """Return the (batch, n) integer count #<[f] (positions j < i), #<=[f] (j <= i) or #>[f] (j > i) from f's column."""
    f = col(c.arg).astype(np.int64)
    incl = np.cumsum(f, axis=1)
    if c.direction == "<":
        return incl - f
    if c.direction == "<=":
        return incl
    return incl[:, -1:] - incl


def _linexpr_column(e: lg.LinExpr, col: Any) -> np.ndarray | int:
    """Return the (batch, n) integer value of a linear combination of counts (the constant alone if it has no counts)."""
    out = None
    for coef, t in e.terms:
        v = coef * _count_column(t, col)
        out = v if out is None else out + v
    return e.const if out is None else out + e.const


def _column(g: lg.Formula, col: Any, w: np.ndarray, alphabet: Sequence[str]) -> np.ndarray:
    """Return the (batch, n) bool column of g from its children's columns (col)."""
    B, n = w.shape
    if isinstance(g, lg.Atom):
        return w == alphabet.index(g.symbol)
    if isinstance(g, lg.Const):
        return np.full((B, n), bool(g.value))
    if isinstance(g, (lg.First, lg.Last)):
        out = np.zeros((B, n), dtype=bool)
        out[:, 0 if isinstance(g, lg.First) else n - 1] = True
        return out
    if isinstance(g, lg.Mod):
        return np.broadcast_to(np.arange(n) % g.modulus == g.residue, (B, n)).copy()
    if isinstance(g, lg.Pos):  # int64: |p| i + |q| n + |r| <= 3 * 10^6 * n, exact far beyond any batch length
        return np.broadcast_to(g.coef_i * np.arange(n, dtype=np.int64) + (g.coef_n * n + g.const) > 0, (B, n)).copy()
    if isinstance(g, lg.Not):
        return ~col(g.arg)
    if isinstance(g, lg.And):
        return col(g.left) & col(g.right)
    if isinstance(g, lg.Or):
        return col(g.left) | col(g.right)
    out = np.zeros((B, n), dtype=bool)
    if isinstance(g, lg.Prev):
        out[:, 1:] = col(g.arg)[:, :-1]
    elif isinstance(g, lg.Next):
        out[:, :-1] = col(g.arg)[:, 1:]
    elif isinstance(g, lg.Since):
        f, h = col(g.left), col(g.right)
        for i in range(1, n):
            out[:, i] = h[:, i - 1] | (f[:, i - 1] & out[:, i - 1])
    elif isinstance(g, lg.Until):
        f, h = col(g.left), col(g.right)
        for i in range(n - 2, -1, -1):
            out[:, i] = h[:, i + 1] | (f[:, i + 1] & out[:, i + 1])
    elif isinstance(g, lg.Compare):
        a, b = _linexpr_column(g.lhs, col), _linexpr_column(g.rhs, col)
        out = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}[g.op](a, b)
        out = np.broadcast_to(out, (B, n)).copy()
    else:
        raise TypeError(f"not a formula: {g!r}")
    return out


def evaluate_columns(f: lg.Formula, inputs: np.ndarray, alphabet: Sequence[str] = ("a", "b"), cache: dict | None = None) -> np.ndarray:
    """Return the (batch, n, k) bool table of every subformula of f (subformulas(f) order), vectorized over the batch.

    cache (optional): a dict kept by the caller for ONE batch of words; distinct
    subformulas are evaluated once across every formula evaluated with it.
    """
    w = np.asarray(inputs)
    alphabet = tuple(alphabet)
    lg.semantics.check_alphabet(f, alphabet)
    memo = {} if cache is None else cache

    def col(g: lg.Formula) -> np.ndarray:
        if g not in memo:
            memo[g] = _column(g, col, w, alphabet)
        return memo[g]

    return np.stack([col(g) for g in lg.subformulas(f)], axis=2)

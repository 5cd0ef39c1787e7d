"""The reference evaluator: the semantics of docs/temporal-logic.md written out directly, position by position.

Obviously correct, not fast: every operator is its defining quantifier over
positions 0..n-1.  ``evaluate`` returns the truth value of every subformula
(in ``subformulas(f)`` order) at every position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hardsoft.constructive.logic.syntax import (
    And,
    Atom,
    Compare,
    Const,
    Count,
    First,
    Formula,
    Last,
    LinExpr,
    Mod,
    Next,
    Not,
    Or,
    Pos,
    Prev,
    Since,
    Until,
    children,
    subformulas,
    symbols,
)


def encode_word(word: Sequence[int] | Sequence[str] | str, alphabet: Sequence[str]) -> list[int]:
    """Return the word as a list of symbol indices into alphabet (a str is read one character per symbol)."""
    index = {a: k for k, a in enumerate(alphabet)}
    out: list[int] = []
    for c in word:
        if isinstance(c, str):
            if c not in index:
                raise ValueError(f"symbol {c!r} is not in the alphabet {list(alphabet)}")
            out.append(index[c])
        else:
            k = int(c)
            if not 0 <= k < len(alphabet):
                raise ValueError(f"symbol index {k} out of range 0..{len(alphabet) - 1}")
            out.append(k)
    return out


def check_alphabet(f: Formula, alphabet: Sequence[str]) -> None:
    """Raise ValueError if f mentions a symbol outside alphabet."""
    if len(set(alphabet)) != len(alphabet) or not alphabet:
        raise ValueError(f"the alphabet must be non-empty without repeats, got {list(alphabet)}")
    missing = sorted(symbols(f) - set(alphabet))
    if missing:
        written = f.__dict__.get("_symbols", {})  # where parse() met each symbol first (a formula built in Python has none)
        first = min(missing, key=lambda a: written.get(a, (1 << 30, 0)))
        place = f"line {written[first][0]}, column {written[first][1]}: " if first in written else ""
        raise ValueError(f"{place}atom {first!r} is not in the alphabet {list(alphabet)}")


class _Values:
    """The truth values computed so far: values[g] is the list over positions of subformula g (looked up by node identity)."""

    def __init__(self, f: Formula) -> None:
        self.subs = subformulas(f)
        index = {g: k for k, g in enumerate(self.subs)}
        self.slot: dict[int, int] = {}
        stack = [f]
        while stack:
            g = stack.pop()
            self.slot[id(g)] = index[g]
            stack.extend(children(g))
        self.lists: list[list[bool]] = []

    def __getitem__(self, g: Formula) -> list[bool]:
        return self.lists[self.slot[id(g)]]


def _count(t: Count, val: _Values, i: int, n: int) -> int:
    """Return the number of positions j < i (direction '<'), j <= i ('<=') or j > i ('>') where t.arg holds."""
    js = range(0, i) if t.direction == "<" else range(0, i + 1) if t.direction == "<=" else range(i + 1, n)
    return sum(1 for j in js if val[t.arg][j])


def _linexpr(e: LinExpr, val: _Values, i: int, n: int) -> int:
    """Return the value of an integer linear combination of counts at position i."""
    return e.const + sum(c * _count(t, val, i, n) for c, t in e.terms)


def _holds(g: Formula, val: _Values, w: list[int], alphabet: Sequence[str], i: int) -> bool:
    """Return whether g holds at position i, its subformulas' values being in val."""
    n = len(w)
    if isinstance(g, Atom):
        return alphabet[w[i]] == g.symbol
    if isinstance(g, Const):
        return g.value
    if isinstance(g, First):
        return i == 0
    if isinstance(g, Last):
        return i == n - 1
    if isinstance(g, Mod):
        return i % g.modulus == g.residue
    if isinstance(g, Pos):
        return g.coef_i * i + g.coef_n * n + g.const > 0
    if isinstance(g, Not):
        return not val[g.arg][i]
    if isinstance(g, And):
        return val[g.left][i] and val[g.right][i]
    if isinstance(g, Or):
        return val[g.left][i] or val[g.right][i]
    if isinstance(g, Prev):
        return i >= 1 and val[g.arg][i - 1]
    if isinstance(g, Next):
        return i <= n - 2 and val[g.arg][i + 1]
    if isinstance(g, Since):
        return any(val[g.right][j] and all(val[g.left][k] for k in range(j + 1, i)) for j in range(0, i))
    if isinstance(g, Until):
        return any(val[g.right][j] and all(val[g.left][k] for k in range(i + 1, j)) for j in range(i + 1, n))
    if isinstance(g, Compare):
        a, b = _linexpr(g.lhs, val, i, n), _linexpr(g.rhs, val, i, n)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[g.op]
    raise TypeError(f"not a formula: {g!r}")


def _evaluate(f: Formula, w: list[int], alphabet: tuple[str, ...], val: _Values) -> np.ndarray:
    """Return the (n, k) truth values of every subformula of f on the encoded word w."""
    val.lists = []
    for g in val.subs:
        val.lists.append([_holds(g, val, w, alphabet, i) for i in range(len(w))])
    out = np.zeros((len(w), len(val.subs)), dtype=bool)
    for k in range(len(val.subs)):
        out[:, k] = val.lists[k]
    return out


def evaluate(f: Formula, word: Sequence[int] | Sequence[str] | str, alphabet: Sequence[str] = ("a", "b")) -> np.ndarray:
    """Return the (n, k) bool array of every subformula's truth value (subformulas(f) order) at every position."""
    alphabet = tuple(alphabet)
    check_alphabet(f, alphabet)
    return _evaluate(f, encode_word(word, alphabet), alphabet, _Values(f))


def evaluate_batch(f: Formula, inputs: np.ndarray, alphabet: Sequence[str] = ("a", "b")) -> np.ndarray:
    """Return the (batch, n, k) bool array of ``evaluate`` on each row of a (batch, n) array of symbol indices."""
    alphabet = tuple(alphabet)
    check_alphabet(f, alphabet)
    w = np.asarray(inputs)
    if w.ndim != 2:
        raise ValueError(f"inputs must be a (batch, n) array of symbol indices, got shape {w.shape}")
    if w.size and (w.min() < 0 or w.max() >= len(alphabet)):
        raise ValueError(f"symbol index out of range 0..{len(alphabet) - 1}")
    val = _Values(f)
    out = np.zeros((w.shape[0], w.shape[1], len(val.subs)), dtype=bool)
    for b, row in enumerate(w.tolist()):
        out[b] = _evaluate(f, row, alphabet, val)
    return out


def accepts(f: Formula, word: Sequence[int] | Sequence[str] | str, alphabet: Sequence[str] = ("a", "b")) -> bool:
    """Return whether f holds at the last position of a non-empty word (acceptance)."""
    v = evaluate(f, word, alphabet)
    if v.shape[0] == 0:
        raise ValueError("acceptance is read at the last position: the word must be non-empty")
    return bool(v[-1, -1])

"""The reference evaluator: known cases, boundary values, and identities that follow from the definitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardsoft.constructive.logic import accepts, evaluate, evaluate_batch, parse, subformulas
from tests.logic_strategies import formulas


def _root(text: str, word: str) -> list[bool]:
    return evaluate(parse(text), word)[:, -1].tolist()


@pytest.mark.parametrize("text,word,expected", [
    ("a", "aba", [True, False, True]),
    ("first", "ab", [True, False]),
    ("last", "ab", [False, True]),
    ("Y a", "ab", [False, True]),          # strict previous: false at the first position
    ("Y a", "a", [False]),
    ("X a", "ba", [True, False]),          # strict next: false at the last position
    ("a S b", "bab", [False, True, True]),  # strict since: position i itself is not a witness
    ("a S b", "bba", [False, True, True]),
    ("a S b", "bbb", [False, True, True]),
    ("a S b", "abb", [False, False, True]),
    ("a U b", "aab", [True, True, False]),
    ("a U b", "bab", [True, True, False]),
    ("a U b", "abb", [True, True, False]),
    ("b U a", "abba", [True, True, True, False]),
    ("true S true", "aa", [False, True]),
    ("#<[a] > #<[b]", "aab", [False, True, True]),
    ("#>[a] >= 1", "aba", [True, True, False]),
    ("2*#<[a] <= #>[b] + 1", "abb", [True, True, False]),
    ("#<[a] - #<[b] < 0", "bba", [False, True, True]),
    ("!a & Y a", "abab", [False, True, False, True]),
    ("first | last", "aaa", [True, False, True]),
])
def test_known_cases(text: str, word: str, expected: list[bool]) -> None:
    assert _root(text, word) == expected


def test_shape_order_and_batch() -> None:
    f = parse("a S (Y b)")
    v = evaluate(f, "abba")
    assert v.shape == (4, len(subformulas(f)))
    w = np.array([[0, 1, 1, 0], [1, 1, 1, 1]])
    vb = evaluate_batch(f, w)
    assert vb.shape == (2, 4, 4)
    assert (vb[0] == v).all()
    assert (vb[1] == evaluate(f, [1, 1, 1, 1])).all()
    assert accepts(f, "abba") == bool(v[-1, -1])


def test_bad_words_and_atoms() -> None:
    with pytest.raises(ValueError, match="not in the alphabet"):
        evaluate(parse("c"), "ab")
    with pytest.raises(ValueError, match="not in the alphabet"):
        evaluate(parse("a"), "ac")
    with pytest.raises(ValueError, match="non-empty"):
        accepts(parse("a"), "")


words = st.lists(st.integers(0, 1), min_size=1, max_size=9)


@settings(max_examples=60, deadline=None)
@given(formulas(max_leaves=3), formulas(max_leaves=3), words)
def test_since_until_unfold(phi, psi, w) -> None:
    """phi S psi at i <=> psi(i-1) or (phi(i-1) and (phi S psi)(i-1)); until mirrored (strict, from the definitions)."""
    from hardsoft.constructive.logic import Since, Until

    s = evaluate(Since(phi, psi), w)
    u = evaluate(Until(phi, psi), w)
    ps, ph = evaluate(psi, w)[:, -1], evaluate(phi, w)[:, -1]
    n = len(w)
    for i in range(n):
        assert s[i, -1] == (i >= 1 and (ps[i - 1] or (ph[i - 1] and s[i - 1, -1])))
        assert u[i, -1] == (i <= n - 2 and (ps[i + 1] or (ph[i + 1] and u[i + 1, -1])))


@settings(max_examples=60, deadline=None)
@given(formulas(max_leaves=3), words)
def test_counts_partition_the_word(phi, w) -> None:
    """#<[phi] + #>[phi] + [phi at i] = the number of positions where phi holds."""
    from hardsoft.constructive.logic import Compare, Count, LinExpr

    total = int(evaluate(phi, w)[:, -1].sum())
    here = evaluate(phi, w)[:, -1]
    for i in range(len(w)):
        for k in range(total + 2):
            e = Compare("<=", LinExpr(((1, Count("<", phi)), (1, Count(">", phi))), k), LinExpr((), total))
            expect = (total - int(here[i])) + k <= total
            assert evaluate(e, w)[i, -1] == expect

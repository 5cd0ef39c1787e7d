"""The generated family (checks.engine.formulas) and the vectorized evaluator (checks.engine.columns) against the reference evaluator (constructive.logic)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.checks.engine import columns as cl
from hardsoft.checks.engine import formulas as fm
from hardsoft.constructive import logic as lg


def test_family_size_and_operator_counts() -> None:
    fam = fm.family(2)
    assert len(fam) == len(set(fam)) == 4 + 76 + 2660
    assert [sum(lg.size(f) == k for f in fam) for k in range(3)] == [4, 76, 2660]
    assert all(lg.parse(str(f)) == f for f in fam[::37])


def test_sample_is_fixed_distinct_and_sized() -> None:
    s = fm.sample_formulas(200)
    assert s == fm.sample_formulas(200) and len(set(s)) == 200
    assert {lg.size(f) for f in s} == {3, 4}
    assert not set(s) & set(fm.family(2))


# Every operator against the reference on EVERY pair of child columns of lengths 1..5: the children
# are P = p1 | p3 and Q = p2 | p3 over the alphabet p0..p3, so the 4^n words realise all (P, Q) columns.
_ALPHA = ("p0", "p1", "p2", "p3")
_P = lg.Or(lg.Atom("p1"), lg.Atom("p3"))
_Q = lg.Or(lg.Atom("p2"), lg.Atom("p3"))
_OPERATORS = [lg.Not(_P), lg.Prev(_P), lg.Next(_P), lg.And(_P, _Q), lg.Or(_P, _Q), lg.Since(_P, _Q), lg.Until(_P, _Q),
              lg.Compare("<", lg.LinExpr(((1, lg.Count("<", _P)),)), lg.LinExpr(((1, lg.Count(">", _Q)),))),
              lg.Compare(">=", lg.LinExpr(((2, lg.Count("<", _P)), (-1, lg.Count("<", _Q))), 1), lg.LinExpr((), 0)),
              lg.First(), lg.Last(), lg.Const(True), lg.Const(False), lg.Mod(3, 1), lg.Pos(-2, 1, 0), lg.Pos(3, -2, 1)]


@pytest.mark.parametrize("g", _OPERATORS, ids=str)
def test_each_operator_on_every_child_column(g: lg.Formula) -> None:
    for n in range(1, 6):
        w = np.array(list(itertools.product(range(4), repeat=n)))
        assert (cl.evaluate_columns(g, w, _ALPHA) == lg.evaluate_batch(g, w, _ALPHA)).all(), (str(g), n)


def test_a_wrong_since_is_caught() -> None:
    # the non-strict since (witness j <= i) differs from the strict one: the comparison above must see it
    w = np.array(list(itertools.product(range(4), repeat=3)))
    strict = cl.evaluate_columns(lg.Since(_P, _Q), w, _ALPHA)[..., -1]
    q = cl.evaluate_columns(_Q, w, _ALPHA)[..., -1]
    assert ((strict | q) != lg.evaluate_batch(lg.Since(_P, _Q), w, _ALPHA)[..., -1]).any()


def _formulas(depth: int) -> st.SearchStrategy[lg.Formula]:
    leaves = st.sampled_from([lg.Atom("a"), lg.Atom("b"), lg.First(), lg.Last(), lg.Const(True), lg.Mod(3, 2), lg.Pos(2, -1, 0)])

    def extend(inner: st.SearchStrategy[lg.Formula]) -> st.SearchStrategy[lg.Formula]:
        count = st.builds(lg.Count, st.sampled_from("<>"), inner)
        lin = st.builds(lg.LinExpr, st.lists(st.tuples(st.integers(-2, 2), count), max_size=2).map(tuple),
                        st.integers(-2, 2))
        return st.one_of(st.builds(lg.Not, inner), st.builds(lg.Prev, inner), st.builds(lg.Next, inner),
                         st.builds(lg.And, inner, inner), st.builds(lg.Or, inner, inner),
                         st.builds(lg.Since, inner, inner), st.builds(lg.Until, inner, inner),
                         st.builds(lg.Compare, st.sampled_from(["<", "<=", ">", ">="]), lin, lin))

    return st.recursive(leaves, extend, max_leaves=depth)


@given(_formulas(8), st.integers(1, 14), st.data())
def test_random_formulas_agree_with_the_reference(f: lg.Formula, n: int, data: st.DataObject) -> None:
    w = np.array(data.draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=8)))
    cache: dict = {}
    assert (cl.evaluate_columns(f, w, ("a", "b"), cache) == lg.evaluate_batch(f, w, ("a", "b"))).all()
    assert (cl.evaluate_columns(f, w, ("a", "b"), cache) == lg.evaluate_batch(f, w, ("a", "b"))).all()  # from the cache

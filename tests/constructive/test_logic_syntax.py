"""Formula language: parser errors name the column, the printer round-trips, subformulas are post-order and unique."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardsoft.constructive.logic import (
    And,
    Atom,
    Compare,
    Const,
    Count,
    First,
    Last,
    LinExpr,
    Next,
    Not,
    Or,
    Prev,
    Since,
    Until,
    parse,
    subformulas,
)
from hardsoft.constructive.logic.syntax import MAX_DEPTH
from tests.logic_strategies import formulas


@pytest.mark.parametrize("text,column,expected", [
    ("", 1, "a formula"),
    ("a &", 4, "a formula"),
    ("(a | b", 7, "')'"),
    ("a b", 3, "end of input"),
    ("#<[a > 1", 6, "']' closing the count"),
    ("#<[a] 1", 7, "a comparison"),
    ("#<a] > 1", 3, "'['"),
    ("a $ b", 3, "unexpected character"),
    ("S a", 1, "a formula"),
    ("2* > 1", 4, "a count"),
    ("#<[a] > ", 9, "an integer or a count"),
])
def test_parse_errors_name_the_column_and_what_was_expected(text: str, column: int, expected: str) -> None:
    with pytest.raises(ValueError) as e:
        parse(text)
    assert f"column {column}:" in str(e.value)
    assert expected in str(e.value)


def test_parse_known_trees() -> None:
    a, b = Atom("a"), Atom("b")
    assert parse("a & b | !a") == Or(And(a, b), Not(a))
    assert parse("Y a S b") == Since(Prev(a), b)
    assert parse("a U (b S a)") == Until(a, Since(b, a))
    assert parse("a S b S a") == Since(Since(a, b), a)  # left-associative
    assert parse("X !first & last") == And(Next(Not(First())), Last())
    assert parse("true | false") == Or(Const(True), Const(False))
    ca, cb = Count("<", a), Count(">", b)
    assert parse("2*#<[a] <= #>[b] + 1") == Compare("<=", LinExpr(((2, ca),), 0), LinExpr(((1, cb),), 1))
    assert parse("-#<[a] - 3 > 0") == Compare(">", LinExpr(((-1, ca),), -3), LinExpr((), 0))
    assert parse("#<[a] > #<[b] & a") == And(Compare(">", LinExpr(((1, ca),)), LinExpr(((1, Count("<", b)),))), a)


@pytest.mark.parametrize("text", ["a & b | !a", "Y a S b", "!(#<[a] > 0)", "a S (b S a)", "(a | b) & b",
                                  "2*#<[a] <= #>[b] + 1", "-#<[a] - 3 > 0", "X Y !(a U b)", "0 < 1", "-2 >= #>[Y a]"])
def test_printer_round_trips_examples(text: str) -> None:
    f = parse(text)
    assert parse(str(f)) == f


@settings(max_examples=300, deadline=None)
@given(formulas(max_leaves=8))
def test_printer_round_trips(f) -> None:
    assert parse(str(f)) == f


@settings(max_examples=100, deadline=None)
@given(formulas(max_leaves=8))
def test_subformulas_are_post_order_and_unique(f) -> None:
    subs = subformulas(f)
    assert subs[-1] == f
    assert len(set(subs)) == len(subs)
    from hardsoft.constructive.logic import children

    for k, g in enumerate(subs):
        for c in children(g):
            assert subs.index(c) < k


def test_subformulas_deduplicate() -> None:
    assert [str(g) for g in subformulas(parse("a & Y a | a"))] == ["a", "Y a", "a & Y a", "a & Y a | a"]


@given(st.sampled_from(["Y", "X", "S", "U", "true", "false", "first", "last"]))
def test_keywords_are_not_symbols(kw: str) -> None:
    f = parse(f"({kw} a)" if kw in ("Y", "X") else kw if kw not in ("S", "U") else f"a {kw} b")
    assert not any(isinstance(g, Atom) and g.symbol == kw for g in subformulas(f))


# --------------------------------------------------------------------------- hostile sizes: integers and depth


@pytest.mark.parametrize(
    "text, needle",
    [
        ("#<[a] > 1" + "0" * 400, "digits) is above the bound 1000000"),
        ("10000000000000000*#<[a] >= 10000000000000000", "the integer 10000000000000000 is above the bound 1000000"),
        ("1000001 > #<[a]", "above the bound 1000000"),
        ("600000*#<[a] + 600000*#<[b] >= 1", "sums integers of size 1200000, above the bound 1000000"),
        ("!" * (MAX_DEPTH + 500) + "a", "deep"),
        ("Y " * (MAX_DEPTH + 1) + "a", f"nested too deeply ({MAX_DEPTH + 1} levels of operators, parentheses or brackets; the bound is {MAX_DEPTH})"),
        ("a" + " & a" * (MAX_DEPTH + 100), f"column {4 * MAX_DEPTH + 3}: the formula is nested {MAX_DEPTH + 1} operators deep here; the bound is {MAX_DEPTH}"),
        ("(" * (MAX_DEPTH + 1000) + "a" + ")" * (MAX_DEPTH + 1000), "deep"),
        ("!" * (MAX_DEPTH + 1) + "a", f"the bound is {MAX_DEPTH}"),
    ],
)
def test_hostile_integers_and_depths_are_refused_in_one_line(text: str, needle: str) -> None:
    with pytest.raises(ValueError) as e:
        parse(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_the_bounds_themselves_are_accepted_and_compile() -> None:
    from hardsoft.constructive.logic import compile_formula, depth
    from hardsoft.constructive.logic.syntax import MAX_INTEGER

    assert parse(f"{MAX_INTEGER}*#<[a] >= {MAX_INTEGER}").lhs.terms[0][0] == MAX_INTEGER
    deep = parse("Y " * (MAX_DEPTH - 1) + "a")
    assert depth(deep) == MAX_DEPTH - 1
    chain = parse("a" + " & a" * MAX_DEPTH)
    assert depth(chain) == MAX_DEPTH and str(chain).count("&") == MAX_DEPTH  # the printer copes at the bound
    assert compile_formula(deep, ("a", "b")).model.depth >= 1

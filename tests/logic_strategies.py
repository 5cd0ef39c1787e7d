"""Hypothesis strategies and a family generator for temporal-logic formulas (shared by the tests/test_logic*.py files)."""

from __future__ import annotations

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
    Mod,
    Next,
    Not,
    Or,
    Pos,
    Prev,
    Since,
    Until,
)


def _compare(args, direction: st.SearchStrategy[str], mixed: bool = False) -> st.SearchStrategy:
    """One comparison of up to two counts: all of one direction, or (mixed=True) each count's direction drawn on its own."""
    return st.builds(
        lambda ds, fs, cs, c0, rc, op: Compare(op, LinExpr(tuple((c, Count(d, f)) for c, d, f in zip(cs, ds, fs)), c0),
                                               LinExpr((), rc)),
        st.lists(direction, min_size=2, max_size=2) if mixed else direction.map(lambda d: [d, d]),
        st.lists(args, min_size=1, max_size=2), st.lists(st.integers(-3, 3), min_size=2, max_size=2),
        st.integers(-3, 3), st.integers(-2, 2), st.sampled_from(["<", "<=", ">", ">="]))


def formulas(max_leaves: int = 6, alphabet=("a", "b"), compilable: bool = False, mixed: bool = False) -> st.SearchStrategy:
    """Random formulas, the numerical predicates mod(m, r) and pos(p*i + q*n + r > 0) among the leaves.

    Counts are past (#<), future (#>) or inclusive past (#<=).  compilable=True keeps every comparison's counts in one
    direction, or with mixed=True draws each count's direction from #< and #> on its own (past and future mixed:
    compiled through lookups over positions).
    """
    mods = [Mod(m, r) for m in (1, 2, 3, 5) for r in range(m)]
    poss = st.builds(Pos, st.integers(-3, 3), st.integers(-3, 3), st.integers(-4, 4))  # constant ones included (pos(n > i))
    leaves = st.one_of(st.sampled_from([Atom(a) for a in alphabet]), st.sampled_from([First(), Last(), Const(True), Const(False), *mods]), poss)

    def extend(sub):
        # the inclusive past count #<= (C-RASP's) too, except in mixed comparisons (mixing it with #< or #> is refused)
        direction = st.sampled_from(["<", ">"] if mixed else ["<", ">", "<="])
        return st.one_of(
            st.builds(Not, sub), st.builds(Prev, sub), st.builds(Next, sub),
            st.builds(And, sub, sub), st.builds(Or, sub, sub), st.builds(Since, sub, sub), st.builds(Until, sub, sub),
            _compare(sub, direction, mixed) if compilable else st.builds(
                lambda op, l, r: Compare(op, l, r), st.sampled_from(["<", "<=", ">", ">="]),
                st.builds(LinExpr, st.lists(st.tuples(st.integers(-3, 3), st.builds(Count, direction, sub)), max_size=2).map(tuple),
                          st.integers(-3, 3)),
                st.builds(LinExpr, st.lists(st.tuples(st.integers(-3, 3), st.builds(Count, direction, sub)), max_size=2).map(tuple),
                          st.integers(-3, 3))),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


#: Count-comparison templates of the family: each is one operator applied to one or two formulas.
UNARY_TEMPLATES = ("!{}", "Y {}", "X {}", "#<[{}] >= 1", "#>[{}] >= 1", "2*#<[{}] <= #<[!({})] + 1")
BINARY_TEMPLATES = ("({}) & ({})", "({}) | ({})", "({}) S ({})", "({}) U ({})", "#<[{}] > #<[{}]", "#>[{}] < #>[{}]")


def family(max_ops: int, atoms=("a", "b")) -> list[str]:
    """Return every formula text with up to max_ops operators built from the atoms and the templates above."""
    by_ops: list[list[str]] = [list(atoms)]
    for k in range(1, max_ops + 1):
        out = []
        for t in UNARY_TEMPLATES:
            for f in by_ops[k - 1]:
                out.append(t.format(f, f))
        for t in BINARY_TEMPLATES:
            for i in range(k):
                for f in by_ops[i]:
                    for g in by_ops[k - 1 - i]:
                        out.append(t.format(f, g))
        by_ops.append(out)
    return [f for fs in by_ops for f in fs]

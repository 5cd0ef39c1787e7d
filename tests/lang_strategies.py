"""Hypothesis strategies: random B-RASP and C-RASP programs (small, every name bound before its use, the output last)."""

from __future__ import annotations

from hypothesis import strategies as st

from hardsoft.constructive.lang import brasp as B
from hardsoft.constructive.lang import crasp as C

SYMBOLS = ("a", "b")


def _bexpr(draw: st.DrawFn, leaves: list[B.Expr], depth: int) -> B.Expr:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(leaves))
    kind = draw(st.sampled_from(["not", "and", "or"]))
    if kind == "not":
        return B.BNot(_bexpr(draw, leaves, depth - 1))
    cls = B.BAnd if kind == "and" else B.BOr
    return cls(_bexpr(draw, leaves, depth - 1), _bexpr(draw, leaves, depth - 1))


@st.composite
def brasp_programs(draw: st.DrawFn, max_ops: int = 4, depth: int = 2) -> B.Program:
    """Return a random B-RASP program with 1..max_ops operations."""
    names: list[str] = []
    stmts: list[B.Statement] = []
    for k in range(draw(st.integers(1, max_ops))):
        name = f"v{k}"
        plain: list[B.Expr] = [B.Token(s) for s in SYMBOLS] + [B.BConst(True), B.BConst(False)] + [B.Var(x) for x in names]
        if draw(st.booleans()):
            stmts.append(B.Assign(name, _bexpr(draw, plain, depth)))
        else:
            sel_leaves: list[B.Expr] = [B.Token(s) for s in SYMBOLS] + [B.Var("Q_" + s, "i") for s in SYMBOLS] + [B.BConst(True)]
            sel_leaves += [B.Var(x, side) for x in names for side in ("i", "j")]
            stmts.append(
                B.Attend(
                    name,
                    draw(st.sampled_from(B.DIRECTIONS)),
                    draw(st.sampled_from(B.MASKS)),
                    _bexpr(draw, sel_leaves, depth),
                    _bexpr(draw, plain, depth - 1),
                    _bexpr(draw, plain, depth - 1),
                )
            )
        names.append(name)
    return B.Program(tuple(stmts), names[-1])


def _cbool(draw: st.DrawFn, bools: list[C.Expr], counts: list[C.Expr], depth: int) -> C.Expr:
    k = draw(st.integers(0, 4)) if depth > 0 else 0
    if k == 0 or (k == 4 and not counts):
        return draw(st.sampled_from(bools))
    if k == 1:
        return C.BNot(_cbool(draw, bools, counts, depth - 1))
    if k in (2, 3):
        cls = C.BAnd if k == 2 else C.BOr
        return cls(_cbool(draw, bools, counts, depth - 1), _cbool(draw, bools, counts, depth - 1))
    return C.Compare(draw(st.sampled_from(C.CMP_OPS)), _ccount(draw, bools, counts, depth - 1), _ccount(draw, bools, counts, depth - 1))


def _ccount(draw: st.DrawFn, bools: list[C.Expr], counts: list[C.Expr], depth: int) -> C.Expr:
    k = draw(st.integers(0, 6)) if depth > 0 else draw(st.integers(0, 1))
    if k == 0 or not counts and k == 1:
        return C.Num(draw(st.integers(0, 3)))
    if k == 1:
        return draw(st.sampled_from(counts))
    if k == 2:
        return C.Count(_cbool(draw, bools, [], 0))
    if k == 3:
        cls = C.Add if draw(st.booleans()) else C.Sub
        return cls(_ccount(draw, bools, counts, depth - 1), _ccount(draw, bools, counts, depth - 1))
    if k == 4:
        return C.Neg(_ccount(draw, bools, counts, depth - 1))
    if k == 5:
        return C.Scale(draw(st.integers(0, 3)), _ccount(draw, bools, counts, depth - 1))
    return C.Cond(_cbool(draw, bools, [], 0), _ccount(draw, bools, counts, depth - 1), _ccount(draw, bools, counts, depth - 1))


@st.composite
def crasp_programs(draw: st.DrawFn, max_ops: int = 4, depth: int = 2) -> C.Program:
    """Return a random C-RASP program with 1..max_ops operations, the last a Boolean output."""
    bools: list[C.Expr] = [C.Token(s) for s in SYMBOLS] + [C.BConst(True), C.BConst(False)]
    counts: list[C.Expr] = []
    stmts: list[C.Assign] = []
    ops = draw(st.integers(1, max_ops))
    for k in range(ops):
        name = f"v{k}"
        if k == ops - 1 or draw(st.booleans()):
            e = _cbool(draw, bools, counts, depth) if k < ops - 1 else C.Compare(
                draw(st.sampled_from(C.CMP_OPS)), _ccount(draw, bools, counts, depth), _ccount(draw, bools, counts, depth)
            )
            stmts.append(C.Assign(name, e))
            bools.append(C.Var(name))
        else:
            stmts.append(C.Assign(name, _ccount(draw, bools, counts, depth)))
            counts.append(C.Var(name))
    return C.Program(tuple(stmts), stmts[-1].name)

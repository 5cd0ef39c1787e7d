"""Compiled size and depth: Boolean plans (truth table or one circuit gate), linear size, the deepest accepted formulas, mod(m, r)."""

from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardsoft.checks.engine.columns import evaluate_columns
from hardsoft.constructive.logic import (
    And,
    Atom,
    Mod,
    Next,
    Not,
    Or,
    Prev,
    check_compiled,
    compile_formula,
    depth,
    evaluate_batch,
    parse,
    size,
    subformulas,
)
from hardsoft.constructive.logic import compiler as cp
from hardsoft.constructive.logic.syntax import MAX_DEPTH
from hardsoft.spec import transformer as tf
from tests.logic_strategies import formulas

D = MAX_DEPTH


#: Depth at which the chains are also verified on every word (a chain of Y, X, S, U or counts has a layer per level).
VERIFY_DEPTH = 300
#: Depth at which the chains are compiled and evaluated under the low recursion limit (2,000 levels: per-level recursion would
#: pass the limit 13 times over); parsed, printed, compared and hashed at MAX_DEPTH.  A chain at MAX_DEPTH is a 32,768-layer
#: model, 5 to 30 s to compile each: one of them is compiled at the bound (test_the_bound_itself_compiles).
COMPILE_DEPTH = 2000


def _chains(D: int = D) -> dict[str, str]:
    """Return a formula of depth exactly D (default MAX_DEPTH) per operator (left- or right-nested as the grammar allows)."""
    inner = "a"
    for _ in range(D):
        inner = f"#<[{inner}] > 0"
    return {
        "!": "!" * D + "a",
        "Y": "Y " * D + "a",
        "X": "X " * D + "a",
        "& left": " & ".join(["Y a"] + ["X b"] * (D - 1)),
        "| left": " | ".join(["Y a"] + ["b"] * (D - 1)),
        "S left": " S ".join(["a"] * (D + 1)),
        "U left": " U ".join(["a"] * (D + 1)),
        "S right": "a S (" * (D - 1) + "a S b" + ")" * (D - 1),
        "& right": "Y a & (" * (D - 1) + "b & a" + ")" * (D - 1),
        "#< nested": inner,
        "#> nested": inner.replace("#<", "#>"),
        "mixed": "!Y (X a S !(b U (first | Y last))) & (mod(2, 1) S (#>[b] >= 1))",
    }


CHAINS = _chains()
COMPILED = _chains(COMPILE_DEPTH)
VERIFIED = _chains(VERIFY_DEPTH)


def _low_recursion_limit() -> int:
    """Return a recursion limit only 150 frames above the caller's: deep enough for the library's own calls, not for per-level recursion."""
    return len(inspect.stack(0)) + 150


@pytest.mark.parametrize("name", list(CHAINS))
def test_deepest_accepted_formulas_parse_print_compile_and_verify_without_recursion(name: str) -> None:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_low_recursion_limit())
    try:
        f = parse(CHAINS[name])
        assert depth(f) <= D
        again = parse(str(f))
        assert again == f and hash(again) == hash(f) and again is not f
        g = parse(COMPILED[name])
        c = compile_formula(g, ("a", "b"), "bounded")
        words = np.concatenate(list(tf.enumerate_inputs(2, 3)))
        cols = evaluate_columns(g, words)
    finally:
        sys.setrecursionlimit(old)
    assert (cols == evaluate_batch(g, words)).all()
    assert name not in ("Y", "S right", "#< nested") or c.model.depth >= COMPILE_DEPTH  # a layer per level
    r = check_compiled(compile_formula(parse(VERIFIED[name]), ("a", "b"), "bounded"), 3)
    assert r["ok"], (name, r["first_counterexample"])


def test_the_bound_itself_compiles() -> None:
    """A chain of MAX_DEPTH Y: a model of MAX_DEPTH layers whose width does not grow with it (coordinates shared over time)."""
    c = compile_formula(parse(CHAINS["Y"]), ("a", "b"), "bounded")
    assert c.model.depth == D and c.model.d <= 12


def test_a_formula_one_level_deeper_is_refused_in_one_line() -> None:
    for text in ("!" * (D + 1) + "a", "(" * (D + 2) + "a" + ")" * (D + 2), "a S (" * (D + 1) + "a" + ")" * (D + 1)):
        with pytest.raises(ValueError) as e:
            parse(text)
        assert f"the bound is {D}" in str(e.value) and "\n" not in str(e.value)


def test_a_deep_tree_built_in_python_is_refused_by_the_compiler_not_by_recursion() -> None:
    f = Atom("a")
    k = D // 2 + 50
    for _ in range(k):
        f = Not(Prev(f))
    assert depth(f) == 2 * k > D and size(f) == 2 * k and len(str(f)) > 2 * k  # printer, depth and size do not recurse
    c = compile_formula(f, ("a", "b"))  # deeper than the parser accepts: compiles too (nothing in it recurses)
    assert c.model.depth == k


def test_plans_table_where_no_larger_circuit_elsewhere_and_describe_says_which() -> None:
    c = compile_formula("(Y a & Y b) | (X a & X b)")
    forms = {b.node: b.form for b in c.booleans}
    assert forms["Y a & Y b"] == "table" and forms["X a & X b"] == "table"  # one assignment: 2 units, as a gate would be
    assert forms["Y a & Y b | X a & X b"] == "circuit"  # its table over 4 leaves needs 14 units
    d = c.describe()
    assert d["boolean_forms"] == {"table": 2, "circuit": 1, "shared": 0}
    assert any("circuit over 2 inputs (2 units) for Y a & Y b | X a & X b" in line for line in d["boolean_nodes"])
    assert d["layers"] == 2  # the gate reads the two conjunctions one layer later (an FFN-only layer)


def test_circuit_flattens_same_kind_gates_through_negation() -> None:
    c = compile_formula("!(Y a | !X b) & (Y b & X a)")  # = !Y a & X b & Y b & X a: one conjunction of four literals
    top = c.booleans[-1]
    assert top.node == str(c.formula) and top.units == 2 and c.model.depth == 1


def test_contradictory_literals_make_a_constant_node() -> None:
    c = compile_formula("(Y a & X b) & !(Y a)")
    assert check_compiled(c, 5)["ok"]
    top = next(b for b in c.booleans if b.node == str(c.formula))
    assert top.units == 0


@settings(max_examples=30, deadline=None)
@given(formulas(max_leaves=12, compilable=True), st.sampled_from(["bounded", "unbounded"]))
def test_ffn_width_is_linear_in_the_formula(f, regime: str) -> None:
    try:
        c = compile_formula(f, ("a", "b"), regime)
    except ValueError:
        return
    units = sum(int((layer.W2 != 0).any(axis=1).sum()) for layer in c.model.layers)  # units that write (not padding)
    attended = sum(1 for g in c.times if g in {h.node for h in c.heads})
    signs = {h.node for h in c.heads if h.construction == "sign"}
    inclusive_nodes = {str(g) for g in subformulas(c.formula) if str(g) in signs and any(t.direction == "<=" for _, t in (*g.lhs.terms, *g.rhs.terms))}
    inclusive = len(inclusive_nodes)
    # a comparison of strict counts whose count heads are in layer 2 or later gets its constant from the FFN before them (2 units)
    late = sum(1 for h in c.heads if h.construction == "sign" and h.layer >= 3 and h.node not in inclusive_nodes)
    # the FFN is exactly the Boolean plans' units plus 2 (clean-up) + 1 (eraser) per attended node, plus 2 per inclusive (#<=)
    # comparison (its n = 1 correction W = [N < 0]), plus 2 per coordinate erased for a later node (Residual.compact) ...
    assert units == sum(b.units for b in c.booleans) + 3 * attended + 2 * inclusive + 2 * c.reused + 2 * late
    # ... and every plan has at most max(2, TABLE_MAX_UNITS) units: linear in the number of subformulas
    assert all(b.units <= max(2, cp.TABLE_MAX_UNITS) for b in c.booleans)
    assert all(b.units == 2 for b in c.booleans if b.form == "circuit")
    assert len(c.booleans) + attended <= len(subformulas(f)) + 2 * attended  # beta nodes: at most 2 per S / U


def test_linear_growth_of_and_chains() -> None:
    leaves = ["Y a", "X b", "a S b", "b U a", "Y first", "X last", "Y b", "X a"]
    widths = []
    for k in (25, 50, 100):
        text = " & ".join(f"({leaves[j % len(leaves)]} | Y Y {'ab'[j % 2]})" for j in range(k))
        c = compile_formula(text)
        widths.append(sum(layer.W1.shape[1] for layer in c.model.layers))
    assert widths[2] <= 4.2 * widths[0] and widths[1] <= 2.2 * widths[0], widths


def test_planted_wrong_gate_is_caught_by_the_exhaustive_check(monkeypatch) -> None:
    f = "(Y a & Y b) | (X a & X b)"  # the top node is a circuit gate
    assert check_compiled(compile_formula(f), 5)["ok"]
    real = cp.BoolPlan.assignments

    def wrong(self):  # a disjunction gate that clamps the wrong assignment (one polarity flipped)
        use, sign = real(self)
        if self.form == "circuit" and self.op == "or":
            return [(1 - use[0][0],) + tuple(use[0][1:])], sign
        return use, sign

    monkeypatch.setattr(cp.BoolPlan, "assignments", wrong)
    r = check_compiled(compile_formula(f), 5)
    assert not r["ok"] and r["first_counterexample"] is not None


def test_planted_merge_of_heads_with_different_scores_is_caught(monkeypatch) -> None:
    f = "(a S b) & (b S a) | Y a"
    assert check_compiled(compile_formula(f), 6)["ok"]
    real = cp._place_heads

    def merge_all(sched, lay, K, orientation):  # every head of a layer merged into the first, scores of the first kept
        infos = real(sched, lay, K, orientation)
        for layer in range(sched.depth):
            plan = lay.res.layer(layer)
            if len(plan.heads) > 1:
                first = plan.heads[0]
                merged = cp.HeadSpec(first.scores, [v for h in plan.heads for v in h.values], first.mask, first.hard_mode)
                plan.heads[:] = [merged]
        return infos

    monkeypatch.setattr(cp, "_place_heads", merge_all)
    assert not check_compiled(compile_formula(f), 6)["ok"]


def test_equal_score_heads_share_one_head() -> None:
    c = compile_formula("Y a & Y b & Y first", ("a", "b"), "bounded")
    assert [len(layer.heads) for layer in c.model.layers] == [1] and len(c.heads) == 3
    assert check_compiled(c, 6)["ok"]


# --------------------------------------------------------------------------- anchored since / until


@pytest.mark.parametrize(
    ("text", "heads"),
    [
        ("!a S (b & Y a) | !a S (c & Y a)", [1, 1]),  # the induction idiom: both S nodes select a | Y a
        ("!a U (b & X a) | !a U (c & X a)", [1, 1]),
        ("!a S (!a & Y a) & !a S (b & Y a)", [1, 1]),  # the conjunct implying f is f itself
        ("!Y b S (!Y b & Y Y b)", [1, 1, 1]),  # h = Y b is a temporal node, not a symbol
        ("b & (!b S (a & Y b)) | c & (!c S (a & Y c)) | a & Y a", [1, 2, 0]),
    ],
)
def test_anchored_since_and_until_share_one_head_and_verify(text: str, heads: list[int]) -> None:
    c = compile_formula(text, ("a", "b", "c"))
    sched = cp._schedule(c.formula, ("a", "b", "c"), "bounded")
    assert all(isinstance(b, Or) and isinstance(b.right, (Prev, Next)) and b.right.arg == b.left for b in sched.beta.values())
    assert [len(layer.heads) for layer in c.model.layers] == heads
    assert check_compiled(c, 7)["ok"]


@pytest.mark.parametrize(
    "text",
    [
        "!a S (a & Y a)",  # g does not imply f (a & Y a & a is possible)
        "!a S (b & Y b)",  # no conjunct Y h with h = !f
        "!a S (b | Y a)",  # Y a is no conjunct
        "!a S (b & Y (a & X b))",  # h is a gate
        "X a S (b & Y !X a)",  # h = !X a = !f is a gate (and g does not imply f)
    ],
)
def test_the_anchored_select_is_used_only_when_its_conditions_hold(text: str) -> None:
    c = compile_formula(text, ("a", "b", "c"))
    sched = cp._schedule(c.formula, ("a", "b", "c"), "bounded")
    assert [str(b) for b in sched.beta.values()] == [str(Or(g.right, Not(g.left))) for g in sched.beta]
    assert check_compiled(c, 7)["ok"]


@settings(max_examples=25, deadline=None)
@given(
    formulas(max_leaves=3, alphabet=("a", "b", "c"), compilable=True),
    st.sampled_from(["a", "b", "c"]),
    st.sampled_from(["S", "U"]),
    st.booleans(),
    st.sampled_from(["bounded", "unbounded"]),
)
def test_random_anchored_formulas_agree_with_the_evaluator(phi, x: str, op: str, same: bool, regime: str) -> None:
    step = "Y" if op == "S" else "X"
    other = "!" + x if same else next(y for y in "abc" if y != x)  # a conjunct implying f = !x
    text = f"!{x} {op} ({other} & ({phi}) & {step} {x}) | {x}"
    try:
        c = compile_formula(text, ("a", "b", "c"), regime)
    except ValueError:  # a random phi the compiler refuses (past a bound)
        return
    sched = cp._schedule(c.formula, ("a", "b", "c"), regime)
    top = next(g for g in sched.beta if str(g.left) == f"!{x}" and str(g.right).endswith(f"{step} {x}"))
    assert str(sched.beta[top]) == f"{x} | {step} {x}"
    assert check_compiled(c, 6)["ok"]


@pytest.mark.parametrize(
    ("plant", "text"),
    [
        ("_implies", "!a S (a & Y a)"),  # the anchored select without g -> f
        ("_implies", "!a U (a & X a)"),
        ("_is_negation", "!a S (b & Y b)"),  # ... with an anchor Y h, h not !f
    ],
)
def test_planted_anchored_select_without_its_condition_is_caught(monkeypatch, plant: str, text: str) -> None:
    assert check_compiled(compile_formula(text, ("a", "b", "c")), 7)["ok"]
    monkeypatch.setattr(cp, plant, lambda sched, x, f: True)
    r = check_compiled(compile_formula(text, ("a", "b", "c")), 7)
    assert not r["ok"] and r["first_counterexample"] is not None


# --------------------------------------------------------------------------- no scratch coordinates

#: A formula with attended nodes of every kind the bounded and unbounded regimes compile (Y, X, S, U, a count comparison).
ATTENDED = "((Y a) S (b & !X a)) | (#<[a] > #<[b] & (a U last))"


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
def test_attended_nodes_write_into_their_own_coordinate_and_leave_it_exact(regime: str) -> None:
    c = compile_formula(ATTENDED, ("a", "b"), regime)
    sched = cp._schedule(c.formula, ("a", "b"), regime)
    lay = cp._allocate(sched)
    assert lay.scratch and all(lay.scratch[g] == lay.clean[g] for g in lay.scratch)  # no coordinate of its own
    for n in (1, 3, 6):
        w = np.concatenate(list(tf.enumerate_inputs(2, n)))
        for mode, tau in (("hard", None), ("soft", c.tau(n))):
            for layer, x in enumerate(tf.run(c.model, w, mode, tau=tau).activations[1:], start=1):
                # every node computed by this layer whose coordinate still holds it (a coordinate serves several in turn)
                done = [k for k, t, (_, end) in zip(c.coords, c.layers, c.spans) if t <= layer <= end]
                assert np.all(np.abs(x[:, :, done] - np.round(x[:, :, done])) <= 1e-12), (mode, n, layer)
                assert set(np.unique(np.round(x[:, :, done]))) <= {0.0, 1.0}, (mode, n, layer)


def test_planted_missing_eraser_is_caught(monkeypatch) -> None:
    """Without the eraser the raw head value stays beside the clean one: an attended node's coordinate holds 2, not 1."""
    real = cp._place_ffns

    def no_eraser(sched, lay, orientation):
        real(sched, lay, orientation)
        scratch = set(lay.scratch.values())
        for plan in lay.res.layers:
            plan.units[:] = [
                u for u in plan.units if not (u.bias == 0 and len(u.w_in) == 1 and u.w_in == {k: 1.0 for k in u.w_out} and set(u.w_out) <= scratch)
            ]

    monkeypatch.setattr(cp, "_place_ffns", no_eraser)
    with pytest.raises(AssertionError):
        test_attended_nodes_write_into_their_own_coordinate_and_leave_it_exact("bounded")


# --------------------------------------------------------------------------- mod(m, r)


@pytest.mark.parametrize(
    "text", ["mod(2, 0)", "mod(2, 1) & Y a", "mod(1, 0) S b", "(mod(2, 1) | a) U (#<[mod(2, 0)] > #<[b])", "X mod(2, 0) | !mod(2, 1)"]
)
@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
def test_mod_2_compiles_and_verifies(text: str, regime: str) -> None:
    r = check_compiled(compile_formula(text, ("a", "b"), regime), 7)
    assert r["ok"], r["first_counterexample"]


def test_mod_semantics_from_the_definition() -> None:
    for m in (1, 2, 3, 5):
        for r in range(m):
            got = evaluate_batch(Mod(m, r), np.zeros((1, 11), dtype=np.int64))[0, :, 0]
            assert [bool(x) for x in got] == [i % m == r for i in range(11)]


@pytest.mark.parametrize(
    "text, needle",
    [
        ("mod(2, 2)", "needs 0 <= r < m"),
        ("mod(0, 0)", "needs 1 <= m <= 1000000"),
        ("mod(2000000, 1)", "above the bound 1000000"),
        ("mod(2 1)", "expected ',' in mod(m, r)"),
        ("mod(a, 1)", "expected an integer in mod(m, r)"),
    ],
)
def test_mod_refusals_are_one_line(text: str, needle: str) -> None:
    with pytest.raises(ValueError) as e:
        compile_formula(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_mod_is_a_keyword_only_before_a_parenthesis() -> None:
    f = parse("mod & X mod(2, 0)")
    assert f == And(Atom("mod"), parse("X mod(2, 0)")) and str(f) == "mod & X mod(2, 0)"
    assert check_compiled(compile_formula(f, ("mod", "b")), 5)["ok"]
    assert parse("mod(2, 1) | b") == Or(Mod(2, 1), Atom("b"))


# --------------------------------------------------------------------------- integers past MAX_INTEGER on every path


@pytest.mark.parametrize("terms, const", [(((10**16, "a"),), 0), (((1, "a"),), -(10**16)), (((600_000, "a"), (600_000, "b")), 0), (((10**400, "a"),), 0)])
def test_the_api_refuses_integers_past_the_bound_when_the_formula_is_built(terms, const) -> None:
    from hardsoft.constructive.logic import Compare, Count, LinExpr
    from hardsoft.constructive.logic.syntax import MAX_INTEGER

    with pytest.raises(ValueError) as e:
        Compare(">=", LinExpr(tuple((c, Count("<", Atom(x))) for c, x in terms), const), LinExpr((), 0))
    assert f"above the bound {MAX_INTEGER}" in str(e.value) and "\n" not in str(e.value) and len(str(e.value)) < 300


def test_the_api_refuses_non_integer_coefficients() -> None:
    from hardsoft.constructive.logic import Count, LinExpr

    for bad in (0.5, True, "3"):
        with pytest.raises(ValueError, match="must be Python ints"):
            LinExpr(((bad, Count("<", Atom("a"))),), 0)


def test_the_bound_itself_is_exact_in_every_mode() -> None:
    from hardsoft.constructive.logic.syntax import MAX_INTEGER

    half = MAX_INTEGER // 2
    for text in (f"{half}*#<[a] >= {half}", f"{MAX_INTEGER}*#<[a] > {MAX_INTEGER - 1}", f"{half}*#>[a] - {half - 1} > #>[b]"):
        r = check_compiled(compile_formula(text), 6)
        assert r["ok"], (text, r["first_counterexample"])


def test_plan_units_count_the_clamped_assignments() -> None:
    for m in range(4):
        for table in range(1 << (1 << m)):
            p = cp.BoolPlan("table", tuple(Atom(f"x{k}") for k in range(m)), table)
            use, sign = p.assignments()
            assert p.units() == 2 * len(use)
            truth = [(table >> a) & 1 for a in range(1 << m)]
            ones = {a for a in range(1 << m) if truth[a]}
            listed = {sum(bit << k for k, bit in enumerate(s)) for s in use}
            assert listed == (ones if sign > 0 else set(range(1 << m)) - ones)


def test_equal_functions_of_the_same_leaves_share_one_coordinate() -> None:
    c = compile_formula("!(b & Y a) S a & !(Y a & b) S b | (Y a & !b | Y a & b) & X a")
    forms = {b.node: b.form for b in c.booleans}
    assert forms["!(b & Y a)"] == "table" and forms["!(Y a & b)"] == "shared"
    subs = subformulas(c.formula)
    k1, k2 = subs.index(parse("!(b & Y a)")), subs.index(parse("!(Y a & b)"))
    assert c.coords[k1] == c.coords[k2]
    assert next(b for b in c.booleans if b.node == "!(Y a & b)").units == 0  # computed once, by the first node
    assert check_compiled(c, 7)["ok"]


def test_planted_sharing_of_different_functions_is_caught(monkeypatch) -> None:
    f = "!(b & Y a) S a & (Y a | b) S b"
    assert check_compiled(compile_formula(f), 6)["ok"]

    def careless(leaves, table, order_of):  # forgets the table: every function of the same leaves looks equal
        lv, _ = real(leaves, table, order_of)
        return lv, 1 if len(lv) else table

    real = cp._canonical_table
    monkeypatch.setattr(cp, "_canonical_table", careless)
    assert not check_compiled(compile_formula(f), 6)["ok"]


# --------------------------------------------------------------------------- coordinates shared over time (Residual.compact)


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
def test_the_width_of_a_chain_does_not_grow_with_its_length(regime: str) -> None:
    """A chain of temporal operators: one layer per operator, but each node's coordinate is free again once the next one has read
    it, so d is the same at 20 and 80 operators (without sharing it grew by 2 per operator), and the model is still verified."""
    widths = []
    for k in (20, 80):
        text = "a"
        for j in range(k):
            text = f"({text}) {'SU'[j % 2]} b" if j % 3 else f"Y ({text})"
        c = compile_formula(text, ("a", "b"), regime)
        assert c.model.depth >= k and c.reused > 0
        widths.append(c.model.d)
        if k == 20:
            assert check_compiled(c, 5)["ok"]
    assert widths[0] == widths[1], widths


def test_planted_sharing_without_erasers_is_caught(monkeypatch) -> None:
    """A coordinate handed to a later node without erasing its earlier one: the later head adds onto a stale value; verification fails."""
    from hardsoft.constructive import residual

    text = "Y (Y (Y (a S b) U a) S b)"
    c = compile_formula(text)
    assert c.reused > 0 and check_compiled(c, 5)["ok"]
    monkeypatch.setattr(residual, "eraser_units", lambda k: [])
    assert not check_compiled(compile_formula(text), 5)["ok"]

"""Numerical predicates of position: mod(m, r) for every m and pos(p*i + q*n + r > 0), parsed, evaluated and compiled exactly."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardsoft.checks.cli import main
from hardsoft.constructive.logic import (
    And,
    Atom,
    Mod,
    Or,
    Pos,
    Since,
    Until,
    check_compiled,
    compile_formula,
    evaluate,
    parse,
    subformulas,
)
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import MAX_INTEGER
from hardsoft.spec.modelio import FORMAT_V2, FORMAT_V4, load_model, model_to_dict
from tests.logic_strategies import formulas

REGIMES = ("bounded", "unbounded")

# --------------------------------------------------------------------------- syntax


@pytest.mark.parametrize(
    "text, node, printed",
    [
        ("pos(2*i < n)", Pos(-2, 1, 0), "pos(n > 2*i)"),
        ("pos(i >= 3)", Pos(1, 0, -2), "pos(i > 2)"),  # i >= 3 iff i - 3 + 1 > 0
        ("pos(3*i + 1 >= 2*n - 4)", Pos(3, -2, 6), "pos(3*i + 6 > 2*n)"),
        ("pos(-i + 3 <= n - 2*n)", Pos(1, -1, -2), "pos(i > n + 2)"),  # -n - (-i + 3) + 1 > 0
        ("pos(i > i)", Pos(0, 0, 0), "pos(0 > 0)"),
        ("pos(n - 1 > i)", Pos(-1, 1, -1), "pos(n > i + 1)"),
    ],
)
def test_pos_parses_to_one_side_and_prints_back(text: str, node: Pos, printed: str) -> None:
    f = parse(text)
    assert f == node and str(f) == printed and parse(printed) == f


@given(st.integers(-MAX_INTEGER, MAX_INTEGER), st.integers(-MAX_INTEGER, MAX_INTEGER), st.integers(-MAX_INTEGER, MAX_INTEGER))
def test_every_pos_within_the_bound_round_trips(p: int, q: int, r: int) -> None:
    f = Pos(p, q, r)
    assert parse(str(f)) == f


@settings(max_examples=150, deadline=None)
@given(formulas(max_leaves=8))
def test_random_formulas_with_numerical_predicates_round_trip(f) -> None:
    assert parse(str(f)) == f


def test_pos_and_mod_are_keywords_only_before_a_parenthesis() -> None:
    assert parse("pos & i | n") == Or(And(Atom("pos"), Atom("i")), Atom("n"))
    assert parse("pos(i > 0) & pos") == And(Pos(1, 0, 0), Atom("pos"))


@pytest.mark.parametrize(
    "text, needle",
    [
        (f"pos({MAX_INTEGER + 1}*i > n)", f"above the bound {MAX_INTEGER}"),
        (f"pos({MAX_INTEGER}*i > -{MAX_INTEGER}*i)", f"above the bound {MAX_INTEGER}"),  # 2*10^6 once moved to one side
        (f"pos(i + {MAX_INTEGER}*i > 0)", f"above the bound {MAX_INTEGER}"),
        ("pos(2*x > n)", "expected i or n after '*' in pos(...)"),
        ("pos(i n)", "expected a comparison (<, <=, >, >=) in pos(...)"),
        ("pos(2*i < n", "expected ')' closing pos(...)"),
        ("pos(a > 0)", "expected an integer, i or n in pos(...)"),
        ("pos(i = n)", "unexpected character '='"),
        ("mod(0, 0)", f"needs 1 <= m <= {MAX_INTEGER}"),
        ("mod(3, 3)", "needs 0 <= r < m"),
        (f"mod({MAX_INTEGER + 1}, 0)", f"above the bound {MAX_INTEGER}"),
    ],
)
def test_bad_numerical_predicates_are_refused_in_one_line(text: str, needle: str) -> None:
    with pytest.raises(ValueError) as e:
        parse(text)
    assert needle in str(e.value) and "\n" not in str(e.value), str(e.value)


@pytest.mark.parametrize("args", [(MAX_INTEGER + 1, 0, 0), (0, -MAX_INTEGER - 1, 0), (0, 0, 10**400), (1.0, 0, 0), (True, 0, 0)])
def test_the_api_refuses_bad_pos_coefficients(args) -> None:
    with pytest.raises(ValueError) as e:
        Pos(*args)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


@pytest.mark.parametrize("text", ["pos(2000000*i > n)", "mod(0, 1)", "mod(4, 7)", "pos(i >> n)"])
@pytest.mark.parametrize("command", [("compile",), ("verify", "--up-to", "2", "--workers", "1")])
def test_the_cli_refuses_bad_predicates_with_exit_2(capsys, text: str, command: tuple[str, ...]) -> None:
    code = main([command[0], text, *command[1:]])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


# --------------------------------------------------------------------------- semantics


def test_the_evaluator_reads_the_definitions() -> None:
    # hand-written truth values: 2i < 5 at i = 0, 1, 2; i mod 3 = 1 at i = 1, 4; 3i + 1 >= 2n - 4 = 10 at i >= 3
    assert evaluate(parse("pos(2*i < n)"), "aaaaa")[:, -1].tolist() == [True, True, True, False, False]
    assert evaluate(parse("mod(3, 1)"), "aaaaaaa")[:, -1].tolist() == [False, True, False, False, True, False, False]
    assert evaluate(parse("pos(3*i + 1 >= 2*n - 4)"), "aaaaaaa")[:, -1].tolist() == [False] * 3 + [True] * 4
    assert evaluate(parse("pos(i >= n)"), "ab")[:, -1].tolist() == [False, False]


def _constant_by_enumeration(p: int, q: int, r: int, n_max: int) -> set[bool]:
    return {p * i + q * n + r > 0 for n in range(1, n_max + 1) for i in range(n)}


def test_constant_agrees_with_enumeration_of_every_small_predicate() -> None:
    for p, q, r in itertools.product(range(-3, 4), range(-3, 4), range(-4, 5)):
        seen = _constant_by_enumeration(p, q, r, 12)
        v = Pos(p, q, r).constant()
        if v is None:
            assert seen == {True, False}, (p, q, r)  # not constant: both values occur (already by n = 12)
        else:
            assert seen == {v}, (p, q, r)


def test_a_wrong_constant_test_is_caught_by_enumeration() -> None:
    def wrong(p: int, q: int, r: int) -> bool | None:  # forgets the slope along b = i (p + q)
        return True if q + r > 0 and q >= 0 else False if q + r <= 0 and q <= 0 else None

    bad = [(p, q, r) for p, q, r in itertools.product(range(-3, 4), range(-3, 4), range(-4, 5))
           if (v := wrong(p, q, r)) is not None and _constant_by_enumeration(p, q, r, 12) != {v}]
    assert (-2, 1, 0) in bad  # pos(2*i < n): true at i = 0, false at i = 1, n = 2


# --------------------------------------------------------------------------- compiled exactly

CASES = [
    "mod(3, 1)",
    "mod(5, 4) & a",
    "(mod(3, 2) | b) S pos(2*i < n)",
    "X pos(2*i < n) | Y mod(4, 0)",
    "#<[mod(3, 0)] > #<[pos(2*i >= n)]",
    "a U (pos(3*i + 1 >= 2*n - 4) & !mod(7, 3))",
    "pos(i >= 3) & pos(n - 1 > i + 1)",
    f"mod({MAX_INTEGER}, {MAX_INTEGER - 1}) | pos({MAX_INTEGER}*i > {MAX_INTEGER - 1}*n + {MAX_INTEGER})",
]


@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("regime", REGIMES)
def test_compiled_predicates_verify_exhaustively(text: str, regime: str) -> None:
    c = compile_formula(text, ("a", "b"), regime)
    assert model_to_dict(c.model)["format"] == FORMAT_V4
    r = check_compiled(c, 8)
    assert r["ok"], r["first_counterexample"]


@pytest.mark.parametrize("regime", REGIMES)
def test_the_predicate_coordinates_are_the_position_embedding_exactly(regime: str) -> None:
    c = compile_formula("(mod(3, 2) | b) S pos(2*i < n) & mod(5, 1) | pos(i >= 3)", ("a", "b"), regime)
    subs = subformulas(c.formula)
    preds = [k for k, g in enumerate(subs) if isinstance(g, (Mod, Pos))]
    assert len(preds) == 4
    for n in range(1, 13):
        w = next(tf.enumerate_inputs(2, n, chunk=256))  # every word to n = 8, the first 256 beyond
        ref = np.stack([evaluate(c.formula, row, c.alphabet) for row in w])
        hard = tf.run(c.model, w, "hard").activations
        soft = tf.run(c.model, w, "soft", tau=c.tau(n)).activations
        for k in preds:
            want = ref[:, :, k].astype(np.float64)
            for x in hard + soft:  # every layer, both modes: written by PE at layer 0, never touched again
                assert np.array_equal(x[:, :, c.coords[k]], want), (n, subs[k])


def test_constant_predicates_compile_to_constants_without_a_feature(capsys) -> None:
    c = compile_formula("pos(i < n) & a | pos(n < i)", ("a", "b"))
    assert model_to_dict(c.model)["format"] == FORMAT_V2 and not any(tf.is_predicate_feature(f) for f in c.model.PE.features)
    assert c.model.depth == 0 and check_compiled(c, 6)["ok"]
    assert len(c.describe()["constant_predicates"]) == 2
    assert main(["compile", "pos(i < n) & a"]) == 0
    assert "constant  pos(n > i) is true at every position of every length" in capsys.readouterr().out


def test_mod_2_is_still_the_parity_feature() -> None:
    c = compile_formula("mod(2, 1) S a", ("a", "b"))
    assert model_to_dict(c.model)["format"] == FORMAT_V2 and not any(tf.is_predicate_feature(f) for f in c.model.PE.features)


@pytest.mark.parametrize("regime", REGIMES)
def test_the_cli_compiles_and_verifies_predicates(capsys, regime: str, tmp_path) -> None:
    out = tmp_path / "m.json"
    code = main(["compile", "(mod(3, 1) | b) S pos(2*i < n)", "--regime", regime, "--verify-up-to", "7", "--save-model", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "verified  OK: 254 words" in text and "i mod 3 = 1, -2*i + 1*n + 0 > 0" in text
    m = load_model(out)  # a format 4 file that loads back to the same model
    assert json.loads(out.read_text())["format"] == FORMAT_V4
    w = next(tf.enumerate_inputs(2, 6))
    np.testing.assert_array_equal(tf.run(m, w, "hard").activations[-1], tf.run(compile_formula("(mod(3, 1) | b) S pos(2*i < n)", ("a", "b"), regime).model, w, "hard").activations[-1])


def _with_predicate(draw_formula, pred):
    return st.builds(lambda f, g, op: op(f, g), draw_formula, pred, st.sampled_from([And, Or, Since, Until]))


_PREDICATES = st.one_of(
    st.builds(lambda m, r: Mod(m, r % m), st.integers(3, 9), st.integers(0, 8)),
    st.builds(Pos, st.integers(-4, 4), st.integers(-4, 4), st.integers(-6, 6)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_with_predicate(formulas(max_leaves=5, compilable=True), _PREDICATES), st.sampled_from(REGIMES))
def test_random_formulas_with_predicates_verify_exhaustively(f, regime: str) -> None:
    r = check_compiled(compile_formula(f, ("a", "b"), regime), 6)
    assert r["ok"], (str(f), r["first_counterexample"])


# --------------------------------------------------------------------------- wrong variants the verification catches


def _wrong_mod(m: int, r: int):
    return lambda i, n: np.array([1.0 if (k + 1) % m == r else 0.0 for k in np.asarray(i).tolist()])  # (i + 1) mod m


def _wrong_linear(p: int, q: int, r: int):
    return lambda i, n: np.array([1.0 if p * k + q * n + r >= 0 else 0.0 for k in np.asarray(i).tolist()])  # > read as >=


@pytest.mark.parametrize(
    "target, wrong, text",
    [("_mod_phi", _wrong_mod, "mod(3, 1) S a"), ("_linear_phi", _wrong_linear, "pos(2*i < n) & a"), ("_linear_phi", _wrong_linear, "X pos(i >= 2)")],
)
@pytest.mark.parametrize("regime", REGIMES)
def test_a_planted_wrong_feature_is_caught(monkeypatch, target: str, wrong, text: str, regime: str) -> None:
    c = compile_formula(text, ("a", "b"), regime)
    assert check_compiled(c, 6)["ok"]
    monkeypatch.setattr(tf, target, wrong)
    r = check_compiled(c, 6)
    assert not r["ok"] and r["first_counterexample"] is not None


def test_a_wrong_constant_in_the_compiler_is_caught(monkeypatch) -> None:
    monkeypatch.setattr(Pos, "constant", lambda self: True if self.coef_n + self.const > 0 and self.coef_n >= 0 else None)
    c = compile_formula("pos(2*i < n) | b", ("a", "b"))  # compiled as the constant true
    assert not check_compiled(c, 4)["ok"]

"""constructive.srasp: compiled programs against the interpreter on every word, every cell, hard and soft; refusals; planted defects."""

from __future__ import annotations

import dataclasses
import itertools

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.constructive import srasp as sr
from hardsoft.constructive.srasp import language as L
from hardsoft.spec import transformer as tf
from hardsoft.spec.transformer import Layer, Model
from tests.constructive.srasp_strategies import programs

#: Length each library program is verified to (every word over its alphabet, both modes).
LIBRARY_LENGTH = {"dyck2": 6, "dyck3": 5, "dyck4": 4}
HEAD = 'program "p"\nalphabet "a" "b"\nA = token("a")\nB = token("b")\npos = index\nf = false\n'


@pytest.mark.parametrize("name", sr.library_names())
def test_every_library_program_agrees_in_every_cell(name: str) -> None:
    r = sr.verify_program(sr.load_library(name), None, LIBRARY_LENGTH.get(name, 8))
    assert r.ok, r.summary()
    assert r.words == sum(len(sr.load_library(name).alphabet) ** n for n in range(1, r.max_len + 1))


@pytest.mark.parametrize("name", sr.library_names())
def test_library_gap_is_at_least_the_claimed_one(name: str) -> None:
    prog = sr.load_library(name)
    comp = sr.compile_program(prog)
    for n in (3, 4):
        assert tf.measure(comp.model, n).gap >= sr.claimed_gap(prog, n) * (1 - 1e-9)


def test_library_references_by_hand() -> None:
    out = lambda name, w: "".join(sr.run_program(sr.load_library(name), w))  # noqa: E731
    assert sr.run_program(sr.load_library("rotate_right"), "aab") == ["b", "a", "a"]
    assert out("shift_right", "abb") == "#ab"
    assert out("copy_first", "bca") == "bbb"
    assert out("majority", "abaab") == "1=111"
    assert sr.run_program(sr.load_library("anbn"), "aabbb") == ["no", "no", "no", "yes", "no"]
    # 2 #a > i + 2: i = 0: 2 > 2 no; i = 1: 4 > 3; i = 2: 6 > 4; i = 3: 6 > 5
    assert sr.run_program(sr.load_library("count_position"), "aaab") == ["lo", "hi", "hi", "hi"]
    # the nearest earlier symbol of smaller value (a = 0 < b = 1 < c = 2): "cabca": c and a have none, b has the a at 1, c the b
    # at 2, the last a none; "bcacb": b none, c the b at 0, a none, c the a at 2, b the a at 2
    assert out("nearest_smaller", "cabca") == "##ab#"
    assert out("nearest_smaller", "bcacb") == "#b#aa"


@given(programs(compiled_only=True), st.integers(1, 4))
def test_random_compiled_programs_agree_in_every_cell(prog: L.Program, max_len: int) -> None:
    r = sr.verify_program(prog, None, max_len)
    assert r.ok, (r.summary(), sr.format_program(prog))


@given(programs(compiled_only=True, int_select=True), st.integers(1, 4))
def test_random_programs_with_an_integer_select_agree_in_every_cell(prog: L.Program, max_len: int) -> None:
    r = sr.verify_program(prog, None, max_len)
    assert r.ok, (r.summary(), sr.format_program(prog))


@given(programs())
def test_any_program_compiles_correctly_or_is_refused_in_one_line(prog: L.Program) -> None:
    try:
        comp = sr.compile_program(prog)
    except ValueError as e:
        assert str(e).startswith("S-RASP compiler: cannot compile definition ") and "\n" not in str(e)
    else:
        r = sr.verify_compiled(comp, 3)
        assert r.ok, (r.summary(), sr.format_program(prog))


@given(programs(), st.integers(1, 5), st.integers(0, 2**31 - 1))
def test_every_program_runs_in_the_interpreter(prog: L.Program, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    word = "".join(rng.choice(list(prog.alphabet), size=n))
    val = sr.interpret(prog, word)
    kinds = prog.kinds()
    for name, v in val.items():
        assert len(v) == n
        if kinds[name] == "Boolean":
            assert set(v) <= {0, 1}


# --------------------------------------------------------------------------- the interpreter by hand


def test_interpreter_semantics_by_hand() -> None:
    prog = sr.parse_program(
        HEAD
        + "s = psum(A)\n"
        + "t = strict_psum(A, B)\n"
        + "u = 3*s - pos + 1\n"
        + "c = u >= 2\n"
        + "n1 = s != 1\n"
        + "prev = rightmost j < i value A default f\n"
        + "nxt = leftmost j > i with B[j] value B default A\n"
        + "eq = leftmost j with s[j] == s[i] - 1 value A default f\n"
        + "k = if A then s else pos\n"
        + 'output "x" if c, else "y"\n'
    )
    val = sr.interpret(prog, "abab")
    assert val["s"] == [1, 1, 2, 2]
    assert val["t"] == [0, 1, 0, 1]
    assert val["u"] == [4, 3, 5, 4]
    assert val["c"] == [1, 1, 1, 1]
    assert val["n1"] == [0, 0, 1, 1]
    assert val["prev"] == [0, 1, 0, 1]
    assert val["nxt"] == [1, 1, 1, 0]  # the next b after i (B there is 1); none after i = 3: the default A_3 = 0
    assert val["eq"] == [0, 0, 1, 1]  # s_i - 1 = 0 matches nothing at i = 0, 1; = 1 at i = 2, 3, leftmost j = 0 where A = 1
    assert val["k"] == [1, 1, 2, 3]


# --------------------------------------------------------------------------- refusals: one line, naming the operation; the interpreter still runs


@pytest.mark.parametrize(
    "defs,message",
    [
        ("s = psum(pos)\nu = 65*s\nk = if A then u else pos\n", r"the conditional's 'u' grows like 65 \(i\+1\)\^2, above the bound 64 \(i\+1\)\^2"),
        ("s = psum(pos)\nv = rightmost j value s default pos\n", r"the select's value or default 's' grows like 1 \(i\+1\)\^2, above"),
        ("s = psum(pos)\nv = rightmost j <= i value s default pos\n", r"the select's value or default 's' grows like 1 \(i\+1\)\^2, above"),
        (
            "s = strict_psum(A)\nv = rightmost j with s[j] != pos[i] value A default f\n",
            r"a selector comparing by != compiles only when its key or its query is bounded by a constant C <= 16 \(one-hot\), or its key is "
            r"the index with no where filter; the key 's' grows like 1 \(i\+1\)\^1, the query 'pos' like 1 \(i\+1\)\^1$",
        ),
        ("v = leftmost j with pos[j] != pos[i] and A[j] value A default f\n", r"by != compiles only when its key or its query is bounded"),
        ("v = rightmost j with pos[j] < pos[i] and A[j] value A default f\n", r"by < compiles only when .* or its key is the index with no where filter"),
        ("s = strict_psum(A)\nv = rightmost j with s[j] <= pos[i] - 1 value A default f\n", r"the query 'pos' - 1 like 2 \(i\+1\)\^1$"),
        ("big = 17\nv = rightmost j with big[j] < pos[i] value A default f\n", r"by < .* the key 'big' grows like 17 \(i\+1\)\^0, the query 'pos' like"),
        ("c = 15\nv = leftmost j with pos[j] >= c[i] + 2 and A[j] value A default f\n", r"by >= .* the query 'c' \+ 2 like 17 \(i\+1\)\^0$"),
        (
            "s = psum(pos)\nv = leftmost j with pos[j] == s[i] value A default f\n",
            r"the selector's 's' grows like 1 \(i\+1\)\^2, above the bound 64 \(i\+1\)",
        ),
        ("s = psum(A)\nss = psum(s)\n", r"psum of 's', which grows like 1 \(i\+1\)\^1: a psum is compiled for .* integers bounded by a constant C <= 16"),
        ("big = 17\nk = if A then big else f\nss = psum(k)\n", r"psum of 'k', which grows like 17 \(i\+1\)\^0"),
        (
            "s = psum(A)\nv = rightmost j with s[j] == pos[i] value A default f\n",
            r"by == compiles only when its key or its query is bounded by a constant C <= 16 \(one-hot\), or its key has a square in the "
            r"model \(the index, strict_psum, .*\); the key 's' grows like 1 \(i\+1\)\^1, the query 'pos' like 1 \(i\+1\)\^1$",
        ),
        ("w = 65*pos\nv = rightmost j with w[j] == pos[i] value A default f\n", r"the selector's 'w' grows like 65 \(i\+1\)\^1, above the bound 64"),
        ("s = psum(A)\nv = rightmost j < i with s[j] == pos[i] and A[j] value A default nearest\n", r"'s' has no square"),
    ],
)
def test_the_compiler_refuses_what_it_cannot_compile(defs: str, message: str) -> None:
    prog = sr.parse_program(HEAD + defs + 'output "x" if A, else "y"\n')
    with pytest.raises(ValueError, match=r"^S-RASP compiler: cannot compile definition '\w+' of program p: .*" + message) as e:
        sr.compile_program(prog)
    assert "\n" not in str(e.value)
    assert len(sr.interpret(prog, "abba")["A"]) == 4


@pytest.mark.parametrize("name", ["dyck2", "count_position", "shift_right", "anbn"])
def test_library_programs_agree_on_random_longer_words(name: str) -> None:
    r = sr.verify_sampled(sr.compile_program(sr.load_library(name)), 24, 16, seed=5)
    assert r.ok and r.words == 16, r.summary()


def test_verify_refuses_bad_arguments() -> None:
    comp = sr.compile_program(sr.load_library("majority"))
    with pytest.raises(ValueError, match="verify_sampled needs 1 <= n <= 4096 and count >= 1"):
        sr.verify_sampled(comp, 0, 3)
    with pytest.raises(ValueError, match="modes are hard and soft"):
        sr.verify_sampled(comp, 3, 3, modes=("average",))
    prog = sr.load_library("majority")
    with pytest.raises(ValueError, match="max_len must be an integer in 1..12"):
        sr.verify_program(prog, None, 0)
    with pytest.raises(ValueError, match="distinct symbols of the program's"):
        sr.verify_program(prog, ["a", "z"], 3)
    with pytest.raises(ValueError, match="needs a Program"):
        sr.verify_program("majority", None, 3)  # type: ignore[arg-type]
    assert sr.verify_program(prog, ["a"], 4).words == 4


# --------------------------------------------------------------------------- planted defects must be caught, cell by cell


def _with_layer(model: Model, l: int, **kw: np.ndarray) -> Model:
    layers = list(model.layers)
    L_ = layers[l]
    layers[l] = Layer(L_.heads, kw.get("W1", L_.W1), kw.get("b1", L_.b1), kw.get("W2", L_.W2), kw.get("b2", L_.b2))
    return Model(model.alphabet, model.WE, model.PE, tuple(layers), model.name)


def _with_head(model: Model, l: int, h: int, W_Q: np.ndarray) -> Model:
    layers = list(model.layers)
    L_ = layers[l]
    hs = list(L_.heads)
    hs[h] = tf.Head(W_Q, hs[h].W_K, hs[h].W_V, hs[h].W_O, hs[h].mask, hs[h].hard_mode)
    layers[l] = Layer(tuple(hs), L_.W1, L_.b1, L_.W2, L_.b2)
    return Model(model.alphabet, model.WE, model.PE, tuple(layers), model.name)


def _replace(comp: sr.Compiled, model: Model) -> sr.Compiled:
    return dataclasses.replace(comp, model=model)


def test_a_model_wrong_only_in_an_inner_cell_fails_the_verdict() -> None:
    # 'inner' reaches no output: a wrong unit there leaves every output right, but the cell is wrong
    prog = sr.parse_program(HEAD + "inner = A and B\nna = psum(A)\nnb = psum(B)\nmore = na > nb\n" + 'output "m" if more, else "n"\n')
    comp = sr.compile_program(prog)
    assert sr.verify_compiled(comp, 4).ok
    c = comp.coords["inner"][0]
    l = next(k for k, L_ in enumerate(comp.model.layers) if np.any(L_.W2[:, c]))
    b2 = comp.model.layers[l].b2.copy()
    b2[c] += 1.0  # 'inner' now reads A and B plus one
    r = sr.verify_compiled(_replace(comp, _with_layer(comp.model, l, b2=b2)), 4)
    assert not r.ok and {m.name for m in r.mismatches} == {"inner"}
    assert all(m.name != "output" for m in r.mismatches)


def test_a_selector_with_the_wrong_offset_is_caught() -> None:
    prog = sr.load_library("shift_right")
    comp = sr.compile_program(prog)
    l, h = comp.heads["prev_a"]
    WQ = comp.model.layers[l].heads[h].W_Q.copy()
    one = sr.FEATURES.index("one")
    WQ[one, :] = 0.0  # the query's offset -1 (and -2 t o) dropped: the head looks at j = i
    r = sr.verify_compiled(_replace(comp, _with_head(comp.model, l, h, WQ)), 5)
    assert not r.ok and "prev_a" in {m.name for m in r.mismatches}


def test_a_wrong_comparison_compilation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: '>' compiled as '>=' (the shift of the clamp off by one)
    prog = sr.load_library("majority")
    assert sr.verify_program(prog, None, 5).ok
    real = sr.compiler._ProgramCompiler.compare

    def wrong(self, name, op):  # type: ignore[no-untyped-def]
        return real(self, name, L.Compare(">=", op.left, op.right) if op.op == ">" else op)

    monkeypatch.setitem(sr.compiler._DEFINITION, L.Compare, wrong)
    r = sr.verify_program(prog, None, 5)
    assert not r.ok and "more" in {m.name for m in r.mismatches}


def test_soft_mode_at_a_much_hotter_temperature_is_caught() -> None:
    comp = sr.compile_program(sr.load_library("dyck1"))
    assert sr.verify_compiled(comp, 6, modes=("soft",)).ok
    assert sr.verify_compiled(comp, 6, modes=("soft",), tau=lambda n: 20 * comp.tau(n)).mismatch_count > 0


def test_temperature_and_gap_formulas() -> None:
    for n in (2, 5, 50):
        assert math.isclose(sr.tau_for(n), 1.0 / (n * math.log(128.0 * n**3)))
        assert math.isclose(sr.tau_for(n, 9.0), 1.0 / (n * math.log(128.0 * 9.0 * n**3)))
    assert sr.compile_program(sr.load_library("count_position")).scale == 9.0  # 2*na vs pos + 2: C = 3
    assert sr.compile_program(sr.dyck_program(2)).scale == 1.0


def test_huge_python_literals_are_refused_in_one_short_line() -> None:
    for v in (10**7, 10**400, -(10**6000)):
        with pytest.raises(ValueError, match=r"has the coefficient .*, above the bound 1000000$") as e:
            L.Program("p", ("a",), (("A", L.Token(("a",))), ("x", L.Lin(((v, "A"),)))), (("o", "A"),), "d")
        assert len(str(e.value)) < 150


@pytest.mark.parametrize("cmp", ["<", "<=", ">", ">="])
def test_order_selectors_on_the_index_in_every_direction_and_mask(cmp: str) -> None:
    for direction in L.DIRECTIONS:
        for text in sr.parser._MASK_TEXT.values():
            for query in ("na[i]", "q[i] + 1", "pos[i] - 2"):
                sel = f"x = {direction} {text} with pos[j] {cmp} {query} value A default B\n"
                prog = sr.parse_program(HEAD + "na = psum(A)\nq = 2*pos - 3\n" + sel + 'output "x" if x, else "y"\n')
                r = sr.verify_program(prog, None, 5)
                assert r.ok, (sel, r.summary())


def test_an_order_selector_looking_at_the_wrong_key_is_caught() -> None:
    prog = sr.load_library("shift_right2")
    assert sr.run_program(prog, "abba") == ["#", "#", "a", "b"]
    comp = sr.compile_program(prog)
    l, h = comp.heads["back2_a"]
    WQ = comp.model.layers[l].heads[h].W_Q.copy()
    WQ[sr.FEATURES.index("one"), :] = 0.0  # the lookup's centre i - 2 becomes i: it reads w_i instead of w_(i-2)
    r = sr.verify_compiled(_replace(comp, _with_head(comp.model, l, h, WQ)), 5)
    assert not r.ok and "back2_a" in {m.name for m in r.mismatches}


# --------------------------------------------------------------------------- selects with an integer value


def _agrees_and_a_hot_temperature_is_caught(prog: sr.Program, name: str) -> None:
    """Every cell of every word to length 7 agrees, hard and soft, with ``name`` an integer; 20 times the temperature fails."""
    assert prog.kinds()[name] == "integer"
    r = sr.verify_program(prog, None, 7)
    assert r.ok and r.words == 2**8 - 2, r.summary()
    comp = sr.compile_program(prog)
    assert sr.verify_compiled(comp, 6, modes=("soft",), tau=lambda n: 20 * comp.tau(n)).mismatch_count > 0


#: Selectors comparing the index by != (two order selects, the nearer side the farther's default): Boolean and integer values,
#: every direction, masks with keys on both sides of the query or on one, offsets.
NE_SELECTS = [
    "s = psum(A)\nv = rightmost j <= i with pos[j] != s[i] value B default f\n",
    "s = psum(A)\nv = leftmost j <= i with pos[j] != s[i] value B default A\n",
    "v = rightmost j < i with pos[j] != pos[i] - 1 value A default B\n",
    "v = leftmost j with pos[j] != pos[i] value A default B\n",
    "s = psum(A)\nv = rightmost j with pos[j] != s[i] + 1 value B default f\n",
    "v = leftmost j > i with pos[j] != pos[i] + 1 value B default A\n",
]


@pytest.mark.parametrize("defs", NE_SELECTS)
def test_index_not_equal_selects_agree_in_every_cell(defs: str) -> None:
    prog = sr.parse_program(HEAD + defs + 'output "x" if v, else "y"\n')
    r = sr.verify_program(prog, None, 7)
    assert r.ok and r.words == 2**8 - 2, r.summary()


def test_integer_not_equal_select_agrees_and_a_hot_temperature_is_caught() -> None:
    defs = "s = psum(B)\nv = rightmost j <= i with pos[j] != s[i] value s default pos\nc = v == 1\n"
    _agrees_and_a_hot_temperature_is_caught(sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n'), "v")


def _plant_is_caught(monkeypatch: pytest.MonkeyPatch, prog: sr.Program, method: str, plant, name: str, max_len: int) -> None:  # noqa: ANN001
    """The program verifies to max_len; with the compiler's ``method`` replaced by ``plant`` the definition ``name`` mismatches."""
    assert sr.verify_program(prog, None, max_len).ok
    monkeypatch.setattr(sr.compiler._ProgramCompiler, method, plant)
    r = sr.verify_program(prog, None, max_len)
    assert not r.ok and name in {m.name for m in r.mismatches}


def test_a_not_equal_select_with_its_sides_swapped_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: rightmost takes the keys below t first and those above only as its default, so where keys on both sides
    # are visible it picks one below t instead of the rightmost key
    prog = sr.parse_program(HEAD + NE_SELECTS[3].replace("leftmost", "rightmost") + 'output "x" if v, else "y"\n')

    def swapped(self, name, op):  # type: ignore[no-untyped-def]
        inner = f"{name}.below"
        self.kinds[inner], self.growth[inner] = self.kinds[name], self.growth[name]
        self.select_order(inner, dataclasses.replace(op, cmp=">"))
        self.select_order(name, dataclasses.replace(op, cmp="<", default=inner))

    _plant_is_caught(monkeypatch, prog, "select_not_equal", swapped, "v", 5)


#: Selectors comparing by < <= > >= != (or by == with a key the model holds no square of) with a bounded key or query (one-hot;
#: compiler.select_one_hot): bounded keys (a token, a
#: conditional of constants) and bounded queries (a token plus an offset, a conditional of constants; the index as key with a
#: where filter), every comparison, with and without a where filter, rightmost and leftmost, masks causal, none, strict,
#: anticausal and strict_anticausal, Boolean and integer values (degree 1 under a strict mask, degree 0 under none).
ONE_HOT_SELECTS = [
    "s = psum(B)\nv = rightmost j <= i with A[j] < s[i] - 1 value B default A\n",
    "two = 2\nm1 = 0 - 1\nx = if A then two else m1\nv = leftmost j with x[j] <= pos[i] - 2 and B[j] value x default m1\n",
    "s = psum(A)\nthree = 3\nzero = 0\ny = if B then three else zero\nv = rightmost j < i with s[j] > y[i] and A[j] value s default pos\n",
    "s = psum(A)\nv = leftmost j >= i with s[j] >= B[i] + 2 value A default B\n",
    "s = psum(A)\nob = once(B)\ntwo = 2\nx = if A then two else B\nv = rightmost j with x[j] != s[i] and ob[j] value A default B\n",
    "s = psum(B)\nv = leftmost j < i with s[j] != A[i] - 1 value s default pos\n",
    "two = 2\nx = if A then two else B\nv = leftmost j > i with x[j] > B[i] value B default f\n",
    "m1 = 0 - 1\nv = rightmost j < i with pos[j] < B[i] + 2 and A[j] value pos default m1\n",
    # == with a key the model holds no square of (a conditional of constants; psum(B)): the one-hot instead of the parabola
    "two = 2\nx = if A then two else B\ns = psum(B)\nv = rightmost j < i with x[j] == s[i] value A default B\n",
    "three = 3\nzero = 0\ny = if B then three else zero\ns = psum(A)\nv = leftmost j with s[j] == y[i] - 1 and A[j] value B default A\n",
]


def _one_hot(k: int) -> sr.Program:
    return sr.parse_program(HEAD + ONE_HOT_SELECTS[k] + 'output "x" if A, else "y"\n')


@pytest.mark.parametrize("k", range(len(ONE_HOT_SELECTS)))
def test_one_hot_selects_agree_in_every_cell_and_a_hot_temperature_is_caught(k: int) -> None:
    prog = _one_hot(k)
    r = sr.verify_program(prog, None, 7)
    assert r.ok and r.words == 2**8 - 2, r.summary()
    comp = sr.compile_program(prog)
    assert any("==" in c for c in comp.coords)  # the one-hot path, not the index path
    assert sr.verify_compiled(comp, 6, modes=("soft",), tau=lambda n: 20 * comp.tau(n)).mismatch_count > 0


def test_one_hot_selects_by_hand_and_the_side_they_one_hot() -> None:
    # #4: x = 2 at a, 1 at b; s = #a in 0..i; where ob = once(B).  "aba": s = 1 1 2, x = 2 1 2, ob = 0 1 1: the keys with ob are
    # 1, 2; at i = 0, 1 (s = 1) x_2 = 2 != 1, the rightmost, value A_2 = 1; at i = 2 (s = 2) only key 1 (x = 1), value A_1 = 0
    assert sr.interpret(_one_hot(4), "aba")["v"] == [1, 1, 0]
    # #5: s = #b in 0..i, query A - 1; "bab": s = 1 1 2, t = -1 0 -1: i = 0 no key; i = 1 key 0 (s = 1 != 0): s_0 = 1;
    # i = 2 key 0 (1 != -1): 1
    assert sr.interpret(_one_hot(5), "bab")["v"] == [0, 1, 1]
    side = {k: sr.compile_program(_one_hot(k)).coords for k in (0, 2, 6, 7)}
    assert "A==1" in side[0] and "0<s-1" in side[0]  # bounded key A (C = 1), unbounded query s - 1
    assert "y==3" in side[2] and "s>3&A" in side[2]  # bounded query y (C = 3), unbounded key s, the where filter on the key side
    assert "B==1" in side[6] and "x>1" in side[6] and "x==2" not in side[6]  # both bounded: the query B (C = 1) before x (C = 2)
    assert "B+2==3" in side[7] and "pos<3&A" in side[7]  # the index as key with a where filter: the query one-hot
    internal = [lb for lb in side[7] if lb not in dict(_one_hot(7).defs)]
    assert "B+2==3" in internal and not any(lb.isidentifier() for lb in internal)  # internal names never collide with a program's


@pytest.mark.parametrize(
    "defs",
    [
        "u = 100*pos - 150\nv = rightmost j with A[j] < u[i] value B default A\n",  # the query beyond 64 (i+1)
        "s = psum(pos)\nv = leftmost j <= i with s[j] >= B[i] + 3 and A[j] value B default A\n",  # the key of degree 2
    ],
)
def test_the_unbounded_side_of_a_one_hot_select_may_grow_as_any_comparison_operand(defs: str) -> None:
    # the unbounded side enters only comparison units (no score), so the selector bound 64 (i+1) does not apply to it
    prog = sr.parse_program(HEAD + defs + 'output "x" if v, else "y"\n')
    r = sr.verify_program(prog, None, 7)
    assert r.ok and r.words == 2**8 - 2, r.summary()
    assert sr.verify_sampled(sr.compile_program(prog), 48, 16).ok


def test_a_one_hot_missing_its_top_value_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: V stops below C (v = C dropped): keys (bounded key) or queries (bounded query) holding C never select
    real = sr.compiler._ProgramCompiler.one_hot_values

    def short(self, name, op):  # type: ignore[no-untyped-def]
        side, values = real(self, name, op)
        return side, values[:-1]

    _plant_is_caught(monkeypatch, _one_hot(4), "one_hot_values", short, "v", 5)  # bounded key x: x = 2 at every a
    monkeypatch.undo()
    _plant_is_caught(monkeypatch, _one_hot(3), "one_hot_values", short, "v", 5)  # bounded query B + 2: 3 at every b


def test_a_one_hot_less_than_compiled_as_at_most_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: '<' compiled as '<=' (the thresholds [v <= t] instead of [v < t])
    real = sr.compiler._ProgramCompiler.select_one_hot

    def wrong(self, name, op):  # type: ignore[no-untyped-def]
        return real(self, name, dataclasses.replace(op, cmp="<=") if op.cmp == "<" else op)

    _plant_is_caught(monkeypatch, _one_hot(0), "select_one_hot", wrong, "v", 5)
    monkeypatch.undo()
    _plant_is_caught(monkeypatch, _one_hot(7), "select_one_hot", wrong, "v", 5)


@pytest.mark.parametrize("k", [4, 7])
def test_a_found_test_without_the_where_filter_is_caught(k: int) -> None:
    # planted in the model: the head's copies for the found test read [k_j == v] ([k_j CMP v]) instead of that and where_j,
    # so where no key is selected the tie-break's key passes the comparison and the value replaces the default; a bounded key
    # (#4) and a bounded query (#7) (#2 could not show it: there the last key before i passes s_j > y_i only if the last a does)
    prog = _one_hot(k)
    comp = sr.compile_program(prog)
    where = dict(prog.defs)["v"].where
    l, h = comp.heads["v"]
    head = comp.model.layers[l].heads[h]
    W_V = head.W_V.copy()
    moved = 0
    for label, (c,) in ((lb, cs) for lb, cs in comp.coords.items() if lb.endswith(f"&{where}")):
        plain = comp.coords[label[: -len(where) - 1]][0]
        cols = np.flatnonzero(W_V[c])
        W_V[plain, cols], W_V[c, cols] = W_V[c, cols], 0.0
        moved += len(cols)
    assert moved > 0 and np.array_equal(comp.model.layers[l].heads[h].W_K, head.W_K)  # the scores keep the filter
    layers = list(comp.model.layers)
    hs = list(layers[l].heads)
    hs[h] = tf.Head(head.W_Q, head.W_K, W_V, head.W_O, head.mask, head.hard_mode)
    layers[l] = Layer(tuple(hs), layers[l].W1, layers[l].b1, layers[l].W2, layers[l].b2)
    bad = Model(comp.model.alphabet, comp.model.WE, comp.model.PE, tuple(layers), comp.model.name)
    assert sr.verify_compiled(comp, 5).ok
    r = sr.verify_compiled(_replace(comp, bad), 5)
    assert not r.ok and "v" in {m.name for m in r.mismatches}


#: Prefix sums of bounded integers (|x| <= C, compiled as 2C level Booleans): conditionals and selects of constants, mixed
#: with Booleans and the index, negative values, a level shared by two psums.
BOUNDED_PSUMS = [
    "two = 2\nm1 = 0 - 1\nstep = if A then two else m1\nh = psum(step)\nc = h < 0\n",
    "two = 2\nzero = 0\nx = rightmost j < i with B[j] value two default zero\nh = psum(x - A)\nc = h >= 1\n",
    "three = 3\nm2 = 0 - 2\nst = if B then three else m2\nh = psum(2*st + A)\ng = h - pos\nc = g == 0\n",
    "one = 1\nm1 = 0 - 1\nst = if A then one else m1\nh = psum(st)\nh2 = psum(st - B)\ng = h - h2\nc = g > 1\n",
]


@pytest.mark.parametrize("defs", BOUNDED_PSUMS)
def test_psums_of_bounded_integers_agree_in_every_cell_and_a_hot_temperature_is_caught(defs: str) -> None:
    _agrees_and_a_hot_temperature_is_caught(sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n'), "h")


def test_a_psum_missing_its_top_level_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: the levels stop below C (x = 2 is read as 1), so the sum is short wherever an A is seen
    prog = sr.parse_program(HEAD + BOUNDED_PSUMS[0] + 'output "x" if c, else "y"\n')
    real = sr.compiler._ProgramCompiler.levels

    def short(self, name, x):  # type: ignore[no-untyped-def]
        return {a: v for a, v in real(self, name, x).items() if not a[1].endswith(".ge2")}

    _plant_is_caught(monkeypatch, prog, "levels", short, "h", 5)


def test_levels_are_shared_and_not_interpreter_names() -> None:
    prog = sr.parse_program(HEAD + BOUNDED_PSUMS[3] + 'output "x" if c, else "y"\n')
    comp = sr.compile_program(prog)
    assert sum(1 for k in comp.heads if "st.ge1" in k) == 2  # one strict sum (average + lookup) for the level, read by both psums
    assert not any("st.ge" in name for name, _ in prog.defs)


#: Conditionals on integers (the big-M product), alone, nested, and on a select's integer output.
INT_CONDS = [
    "s = psum(A)\nk = if A then s else pos\nc = k == 2\n",
    "s = strict_psum(B)\nu = 64*pos\nk = if B then u else s\nw = 0 - 64*pos\nk2 = if A then k else w\nc = k2 >= 3\n",
    "seven = 7\nk = if A then pos else seven\nc = k < 3\n",
    "s = psum(A)\nv = rightmost j < i with B[j] value s default pos\nk = if B then v else s\nc = k == 1\n",
]


@pytest.mark.parametrize("defs", INT_CONDS)
def test_integer_conditionals_agree_in_every_cell_and_a_hot_temperature_is_caught(defs: str) -> None:
    _agrees_and_a_hot_temperature_is_caught(sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n'), "k")


def test_a_wrong_gate_of_the_integer_conditional_is_caught() -> None:
    # planted: the gate head's query sign flipped (b (i+1) becomes (1 - b) (i+1)): the big M no longer switches
    prog = sr.parse_program(HEAD + INT_CONDS[2] + 'output "x" if c, else "y"\n')
    comp = sr.compile_program(prog)
    assert sr.interpret(prog, "aba")["k"] == [0, 7, 2]
    l, h = comp.heads["k.gate"]
    WQ = -comp.model.layers[l].heads[h].W_Q
    r = sr.verify_compiled(_replace(comp, _with_head(comp.model, l, h, WQ)), 5)
    assert not r.ok and "k" in {m.name for m in r.mismatches}


def _gated_seeing(growth_of):  # noqa: ANN001, ANN202 - a replacement for _ProgramCompiler.gated
    """Return ``gated`` computing its big M from ``growth_of(C, d)`` instead of each operand's growth (C, d)."""
    real = sr.compiler._ProgramCompiler.gated

    def planted(self, name, b, z, operands, span="i"):  # type: ignore[no-untyped-def]
        growth = self.growth
        self.growth = {**growth, **{x: growth_of(*growth[x]) for x in operands}}
        try:
            return real(self, name, b, z, operands, span)
        finally:
            self.growth = growth

    return planted


def _small_m(degree: int):  # noqa: ANN202 - a replacement for _ProgramCompiler.gated
    """Return ``gated`` computing its big M as if every operand had growth constant 0 (M = 1), at the given degree."""
    return _gated_seeing(lambda c, d: (0, degree))


def test_a_too_small_big_m_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: M = 1 for arms of growth 64: with b = 0 the units no longer vanish
    prog = sr.parse_program(HEAD + INT_CONDS[1] + 'output "x" if c, else "y"\n')
    _plant_is_caught(monkeypatch, prog, "gated", _small_m(1), "k", 4)


#: Conditionals on integers of degree 2 (psum of the index): the big M grows like (i+1)^2, from the gate head's copies of
#: b i and b i^2.
DEGREE2_CONDS = [
    "s = psum(pos)\nk = if A then s else pos\nc = k == 3\n",
    "s = psum(pos)\nt = psum(A)\nk = if B then s else t\nc = k >= 4\n",
    "s = psum(pos)\nu = 64*s\nzero = 0\nk = if A then u else zero\nw = 0 - 64*s\nk2 = if B then w else k\nc = k2 > 100\n",
]


@pytest.mark.parametrize("defs", DEGREE2_CONDS)
def test_degree_2_conditionals_agree_in_every_cell_and_a_hot_temperature_is_caught(defs: str) -> None:
    _agrees_and_a_hot_temperature_is_caught(sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n'), "k")


def test_a_degree_2_conditional_with_a_linear_big_m_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: the big M of degree 1, M (i+1), for arms that grow like 64 (i+1)^2: with b = 0 the units stop vanishing,
    # first in k2 (|w - k| = 64 i (i+1) > 129 (i+1) from i = 3; a word's first wrong cell is the one reported)
    prog = sr.parse_program(HEAD + DEGREE2_CONDS[2] + 'output "x" if c, else "y"\n')
    _plant_is_caught(monkeypatch, prog, "gated", _gated_seeing(lambda c, d: (c, min(d, 1))), "k2", 6)


#: Integer-valued selects whose value and default are bounded by constants (degree 0): every mask, keys after the query
#: included; the product by a constant big M, no gate head.
BOUNDED_INT_SELECTS = [
    "two = 2\nzero = 0\nx = if A then two else zero\nv = rightmost j with A[j] value x default zero\nc = v == 2\n",
    "one = 1\nm1 = 0 - 1\nx = if B then one else m1\nv = leftmost j >= i with pos[j] == pos[i] + 1 value x default m1\nh = psum(v)\nc = h < 0\n",
    "five = 5\nm5 = 0 - 5\nx = if A then five else m5\nv = rightmost j with pos[j] > pos[i] value x default m5\nc = v >= 0\n",
]


@pytest.mark.parametrize("defs", BOUNDED_INT_SELECTS)
def test_bounded_integer_selects_under_every_mask_agree_and_a_hot_temperature_is_caught(defs: str) -> None:
    prog = sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n')
    _agrees_and_a_hot_temperature_is_caught(prog, "v")
    assert not any(k.endswith(".gate") for k in sr.compile_program(prog).heads)  # the constant big M needs no gate head


def test_a_constant_big_m_too_small_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: M = 1 for values bounded by 5: with found = 0 the units no longer vanish (|z| reaches 10)
    prog = sr.parse_program(HEAD + BOUNDED_INT_SELECTS[2] + 'output "x" if c, else "y"\n')
    _plant_is_caught(monkeypatch, prog, "gated", _small_m(0), "v", 5)


#: Integer-valued selects: ==, order and no comparison; the value copied at scale up to 64 (i+1) (temperature scale S = 64^2).
INT_SELECTS = [
    "s = psum(A)\nv = rightmost j < i with B[j] value s default pos\nc = v == 1\n",
    "s = strict_psum(A)\nu = 3*pos - 2\nv = leftmost j <= i with pos[j] == s[i] value u default s\nc = v >= 2\n",
    "s = psum(B)\nv = rightmost j < i with pos[j] < s[i] value s default pos\nc = v > 1\n",
    "u = 64*pos\nw = 0 - 64*pos\nv = rightmost j <= i with pos[j] <= pos[i] - 2 value u default w\n",
]


@pytest.mark.parametrize("defs", INT_SELECTS)
def test_integer_valued_selects_agree_in_every_cell_and_a_hot_temperature_is_caught(defs: str) -> None:
    _agrees_and_a_hot_temperature_is_caught(sr.parse_program(HEAD + defs + 'output "x" if A, else "y"\n'), "v")


#: Integer-valued selects of growing values under masks that show keys after i (none, anticausal, strict_anticausal): the big M
#: grows like n (``gated``'s span "n": the gate head over every key, the gate negated), not like i + 1.
LATE_INT_SELECTS = [
    "s = psum(A)\nv = rightmost j value s default s\nc = v == 2\n",
    "s = psum(B)\nv = leftmost j > i with A[j] value s default pos\nc = v > 1\n",
    "u = 3*pos - 2\nv = rightmost j >= i with pos[j] == pos[i] + 1 value u default pos\nc = v >= 2\n",
    "s = psum(A)\nt = 0 - 2*pos\nv = leftmost j with B[j] value t default s\nc = v < 0\n",
    # no later a: found = 0 and the rightmost later key's s (up to n) is far above M (i+1) at the first positions
    "s = psum(B)\nv = rightmost j > i with A[j] value s default pos\nc = v > 1\n",
]


@pytest.mark.parametrize("defs", LATE_INT_SELECTS)
def test_integer_selects_seeing_later_keys_agree_in_every_cell_and_a_hot_temperature_is_caught(defs: str) -> None:
    prog = sr.parse_program(HEAD + defs + 'output "x" if c, else "y"\n')
    _agrees_and_a_hot_temperature_is_caught(prog, "v")
    assert sr.compile_program(prog).gates["v"].span == "n"


def test_a_late_integer_select_with_the_big_m_of_i_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: the slack M (i+1) (1 - found) of a causal select, where a key after i can hold a value up to C n
    prog = sr.parse_program(HEAD + LATE_INT_SELECTS[4] + 'output "x" if c, else "y"\n')
    real = sr.compiler._ProgramCompiler.gated

    def gated_of_i(self, name, b, z, operands, span="i"):  # type: ignore[no-untyped-def]
        return real(self, name, b, z, operands, "i")

    monkeypatch.setattr(sr.compiler._ProgramCompiler, "gated", gated_of_i)
    r = sr.verify_program(prog, None, 6)
    assert not r.ok and any(m.name == "v" and m.mode == "hard" for m in r.mismatches), r.summary()


def test_integer_select_by_hand() -> None:
    prog = sr.parse_program(HEAD + INT_SELECTS[0] + 'output "x" if A, else "y"\n')
    # s = #a in 0..i = 1 1 2 2; v = s at the last b at j < i, else i: i = 0, 1 no such b (0, 1); i = 2, 3 the b at 1 (s_1 = 1)
    assert sr.interpret(prog, "abab")["v"] == [0, 1, 1, 1]
    assert sr.compile_program(prog).scale == 1.0
    assert sr.compile_program(sr.parse_program(HEAD + INT_SELECTS[3] + 'output "x" if A, else "y"\n')).scale == 64.0**2


def test_a_wrong_integer_copy_is_caught() -> None:
    # planted: the copied value's weight halved (the head copies s_j / 2)
    prog = sr.parse_program(HEAD + INT_SELECTS[2] + 'output "x" if A, else "y"\n')
    comp = sr.compile_program(prog)
    l, h = comp.heads["v"]
    head = comp.model.layers[l].heads[h]
    raw_v = int(np.flatnonzero(np.any(head.W_V @ head.W_O != 0, axis=0))[0])  # the head's first target: the raw copy
    W_O = head.W_O.copy()
    W_O[:, raw_v] *= 0.5
    layers = list(comp.model.layers)
    hs = list(layers[l].heads)
    hs[h] = tf.Head(head.W_Q, head.W_K, head.W_V, W_O, head.mask, head.hard_mode)
    layers[l] = Layer(tuple(hs), layers[l].W1, layers[l].b1, layers[l].W2, layers[l].b2)
    bad = Model(comp.model.alphabet, comp.model.WE, comp.model.PE, tuple(layers), comp.model.name)
    r = sr.verify_compiled(_replace(comp, bad), 5)
    assert not r.ok and "v" in {m.name for m in r.mismatches}


def test_a_wrong_gate_of_the_integer_select_is_caught() -> None:
    # planted: the gate head's query sign flipped, so found * (i+1) becomes (1 - found) * (i+1)
    prog = sr.parse_program(HEAD + INT_SELECTS[0] + 'output "x" if A, else "y"\n')
    comp = sr.compile_program(prog)
    l, h = comp.heads["v.gate"]
    WQ = -comp.model.layers[l].heads[h].W_Q
    r = sr.verify_compiled(_replace(comp, _with_head(comp.model, l, h, WQ)), 5)
    assert not r.ok and "v" in {m.name for m in r.mismatches}


# --------------------------------------------------------------------------- the big-M products meet the Lean hypotheses


def _ffn_input(model: Model, x: np.ndarray, layer: int, mode: str, tau: float | None) -> np.ndarray:
    """Return y, layer ``layer``'s FFN input (its input plus its heads' outputs), in the given mode."""
    cut = model.layers[layer]
    d, h = cut.W1.shape
    bare = dataclasses.replace(cut, W1=np.zeros((d, h)), b1=np.zeros(h), W2=np.zeros((h, d)), b2=np.zeros(d))
    return tf.run(dataclasses.replace(model, layers=(*model.layers[:layer], bare)), x, mode, tau).activations[-1]


def check_big_m_products(comp: sr.Compiled, max_len: int = 6) -> int:
    """APP-DYCK (S-RASP's integer conditionals and selects): every big-M product meets HardSoft.big_m_product's hypotheses.

    For every word to max_len and every position, the gate's two FFN units (the only ones writing its coordinate, with
    output weights +1 and -1) have pre-activations z + s and -z + s where, in the average-hard run, z is an integer z0
    with |z0| + 1 <= M K and s = -M K (1 - b) exactly (K = (i+1)^degree, or n for a gate of span "n", b the gate Boolean, exactly 0/1 in both runs);
    in the soft run at the compiled temperature z is within e = 1/4 of z0 and s within d of the hard slack, d = 0 for
    a constant big M, d = M x/(1-x)^2 with x = exp(-1/tau) for degree 1 (HardSoft.gated_slack_at_rule), d measured
    (< 10^-3) for degree 2 (the copy of b i^2 is not in Lean), and e + d <= 1; the product is then 0 or within e + d
    of z0 as the theorem says.  Returns the number of (word, position, gate) cells checked.
    """
    model, cells = comp.model, 0
    for name, g in comp.gates.items():
        layer = g.layer  # the coordinate serves other values in other layers (Residual.compact)
        ly = model.layers[layer]
        units = np.flatnonzero(ly.W2[:, g.coord])
        assert sorted(ly.W2[units, g.coord].tolist()) == [-1.0, 1.0], (name, ly.W2[units, g.coord])
        up, un = (int(units[ly.W2[units, g.coord] == w][0]) for w in (1.0, -1.0))
        for n in range(1, max_len + 1):
            words = np.array(list(itertools.product(range(len(comp.program.alphabet)), repeat=n)))
            K = np.full(n, float(n)) if g.span == "n" else (np.arange(n) + 1.0) ** g.degree
            pre = {}
            for mode, tau in (("average", None), ("soft", comp.tau(n))):
                y = _ffn_input(model, words, layer, mode, tau)
                u = y @ ly.W1 + ly.b1
                pre[mode] = ((u[..., up] - u[..., un]) / 2, (u[..., up] + u[..., un]) / 2, y[..., g.gate])
            z0, s_hard, b = pre["average"]
            z, s, b_soft = pre["soft"]
            assert np.all((b == 0) | (b == 1)) and np.array_equal(b, b_soft), (name, n, "gate not exactly 0/1")
            assert np.allclose(z0, np.round(z0), atol=1e-9), (name, n, "z not an integer in the hard run")
            z0 = np.round(z0)
            assert np.all(np.abs(z0) + 1 <= g.big_m * K), (name, n, "margin |z0| + 1 <= M K fails")
            assert np.allclose(s_hard, -g.big_m * K * (1 - b), atol=1e-9), (name, n, "hard slack is not -M K (1 - b)")
            x = math.exp(-1.0 / comp.tau(n))
            d = {0: 1e-9, 1: g.big_m * x / (1 - x) ** 2 + 1e-9}.get(g.degree, 1e-3)
            e = float(np.max(np.abs(z - z0)))
            assert e <= 0.25 and e + d <= 1, (name, n, e, d)
            assert np.all(np.abs(s + g.big_m * K * (1 - b)) <= d), (name, n, "soft slack off by more than d")
            out = np.maximum(z + s, 0) - np.maximum(-z + s, 0)
            assert np.all(np.abs(out - b * z0) <= np.where(b == 1, e + d, 1e-9)), (name, n, "product off")
            cells += z0.size
    return cells


#: One program per kind of big-M product: degree 0 (bounded arms; a bounded select), degree 1 (a conditional; a select),
#: degree 2, nested conditionals, the integer one-hot order selects (degree 0 under mask none; degree 1, strict), and
#: selects seeing keys after i (span n: K = n).
BIG_M_PROGRAMS = [
    INT_CONDS[2],
    BOUNDED_INT_SELECTS[0],
    INT_CONDS[0],
    INT_SELECTS[0],
    DEGREE2_CONDS[0],
    INT_CONDS[1],
    ONE_HOT_SELECTS[1],
    ONE_HOT_SELECTS[2],
    *LATE_INT_SELECTS[:2],
]


@pytest.mark.parametrize("defs", BIG_M_PROGRAMS)
def test_big_m_products_meet_the_lean_hypotheses(defs: str) -> None:
    comp = sr.compile_program(sr.parse_program(HEAD + defs + 'output "x" if A, else "y"\n'))
    assert comp.gates and check_big_m_products(comp) > 0


def test_wrong_big_m_products_fail_the_lean_hypotheses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A big M of C (|z0| = M K at i = 0: the margin's + 1 lost, as in the Lean wrong variant big_m_closed_no_margin) and
    the slack's read of b lost (s = -M (i+1) + M P: -M instead of 0 at b = 1) fail."""
    prog = sr.parse_program(HEAD + INT_CONDS[2] + 'output "x" if A, else "y"\n')  # k = if A then pos else 7: C = 7, M = 15
    monkeypatch.setattr(sr.compiler._ProgramCompiler, "gated", _gated_seeing(lambda c, d: ((c - 1) / 2, d)))  # M = C = 7
    with pytest.raises(AssertionError, match="margin"):
        check_big_m_products(sr.compile_program(prog))
    monkeypatch.undo()
    comp = sr.compile_program(prog)
    g = comp.gates["k"]
    layer = next(k for k, ly in enumerate(comp.model.layers) if np.any(ly.W2[:, g.coord]))
    ly = comp.model.layers[layer]
    units = np.flatnonzero(ly.W2[:, g.coord])
    W1 = ly.W1.copy()
    W1[g.gate, units] = 0.0  # s = -M (i+1) + M P: -M at b = 1 instead of 0
    layers = list(comp.model.layers)
    layers[layer] = dataclasses.replace(ly, W1=W1)
    with pytest.raises(AssertionError, match="slack"):
        check_big_m_products(dataclasses.replace(comp, model=dataclasses.replace(comp.model, layers=tuple(layers))))


# --------------------------------------------------------------------------- coordinates shared over time (Residual.compact)


def _srasp_chain(k: int) -> sr.Program:
    """Return a chain of k definitions, each reading the previous one (a select, a once, an and in turn)."""
    lines = ['program "chain"', 'alphabet "a" "b"', 'A = token("a")', 'B = token("b")', "f = false"]
    prev = "A"
    for t in range(k):
        op = (f"rightmost j < i with {prev}[j] value B default f", f"once({prev})", f"{prev} and A")[t % 3]
        lines.append(f"v{t} = {op}")
        prev = f"v{t}"
    return sr.parse_program("\n".join(lines) + f'\noutput "y" if {prev}, else "n"\n')


def test_srasp_chain_width_does_not_grow_and_planted_missing_erasers_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each definition's coordinates are free again once its readers have read them: d is the same for 12 and 48 definitions, the
    model is verified in every cell; handing coordinates on without erasing them (planted) is caught."""
    from hardsoft.constructive import residual

    small, large = sr.compile_program(_srasp_chain(12)), sr.compile_program(_srasp_chain(48))
    assert small.model.d == large.model.d and large.model.depth > small.model.depth
    assert sr.verify_compiled(small, 5).ok
    monkeypatch.setattr(residual, "eraser_units", lambda k: [])
    assert not sr.verify_compiled(sr.compile_program(_srasp_chain(12)), 5).ok


@pytest.mark.parametrize(
    "body",
    [
        "P = rightmost j < i with A[j] == B[i] and A[j] value B default nearest",  # Booleans as the aggregate's key and query
        "P = rightmost j <= i with A[j] == B[i] - 1 and B[j] value A default nearest",
        "k = A + 1\nP = rightmost j <= i with k[j] == B[i] and B[j] value A default nearest",
    ],
)
def test_a_boolean_stands_where_an_aggregate_expects_an_integer(body: str) -> None:
    """docs/srasp.md: a Boolean may stand where an integer is expected (0/1), the 'default nearest' aggregate's key and query too."""
    prog = sr.parse_program(HEAD + body + '\noutput "y" if P, else "n"\n')
    assert sr.verify_compiled(sr.compile_program(prog), 6).ok

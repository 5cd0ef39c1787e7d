"""spec.constructions and spec.audit: the applications against their references, their gaps, temperatures and precision."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardsoft.checks import cli
from hardsoft.constructive import audit as au
from hardsoft.constructive import applications as cs
from hardsoft.spec import transformer as tf

NAMES = list(cs.CONSTRUCTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_exhaustive_hard_and_soft(name: str) -> None:
    con = cs.get_construction(name)
    for n in range(con.min_n, 7):
        v = au.check_construction(con, n)
        assert v.exhaustive and v.ok, v


@pytest.mark.parametrize("name", NAMES)
def test_gap_matches_claim(name: str) -> None:
    con = cs.get_construction(name)
    for n in range(con.min_n, 7):
        m = tf.measure(con.model, n)
        assert math.isclose(m.gap, con.gap(n), rel_tol=1e-9), (n, m.gap)
        # Dyck's compiled S-RASP carries the position features i and i^2 (its lookup heads read them)
        assert m.x_max == (max(1.0, (n - 1) ** 2) if name.startswith("dyck") else 1.0)


@pytest.mark.parametrize("name", NAMES)
def test_sampled_long(name: str) -> None:
    con = cs.get_construction(name)
    assert au.check_construction(con, 100, samples=6).ok


def test_references_by_hand() -> None:
    assert cs.reference_flip_flop("r1r0ir") == ["0", "1", "1", "0", "0", "0"]
    assert cs.reference_k_hop("abcab", 1) == ["-", "-", "-", "b", "c"]
    assert cs.reference_k_hop("abab", 2) == ["-", "-", "-", "b"]  # i=3 'b': prev b at 1 -> 2 ('a'); prev a before 2 at 0 -> 1 ('b')
    assert cs.reference_k_hop("abab", 1) == ["-", "-", "b", "a"]
    assert cs.reference_prefix_argmax("babba") == ["b", "a", "a", "a", "a"]  # ratios 0, 1/2, 1/3, 1/4, 2/5
    assert cs.reference_prefix_argmax("bbab") == ["b", "b", "a", "a"]


def test_too_short_is_an_error() -> None:
    with pytest.raises(ValueError, match="needs n >= 3"):
        au.check_construction(cs.get_construction("2-hop"), 2)
    with pytest.raises(ValueError, match="unknown construction"):
        cs.get_construction("dyck-9")


def test_statement_T_is_colder_than_the_construction() -> None:
    for name in ("flip-flop", "3-hop", "prefix-argmax"):
        con = cs.get_construction(name)
        for n in (8, 64):
            assert au.statement_T_tau(con.model, n, con.gap(n), 1.0) < con.tau(n)


def test_largest_deciding_tau_is_above_the_construction() -> None:
    con = cs.build_flip_flop()
    w, _ = au.test_inputs(con, 6)
    t = au.largest_deciding_tau(con, w, con.tau(6))
    assert t >= con.tau(6)
    assert au.decide(con, w, "soft", t)[0] == 0


def test_predicted_breakdown_values() -> None:
    ff = cs.build_flip_flop()
    assert au.predicted_breakdown(ff, "float16")[0] == 1025  # 1/n < 2^-10, the spacing in [1, 2)
    assert au.predicted_breakdown(ff, "mixed-float16")[0] == 1025  # the keys W_j + j/n are stored in float16 too
    assert au.predicted_breakdown(ff, "bfloat16")[0] == 129
    assert au.predicted_breakdown(ff, "float32")[0] is None
    pa = cs.build_prefix_argmax()
    assert au.predicted_breakdown(pa, "float32")[0] == math.ceil(2 ** (23 / 3))  # 1/n^3 < 2^-23
    assert "overflows float16" in au.predicted_breakdown(pa, "float16", n_max=64)[1] or \
        au.predicted_breakdown(pa, "float16")[0] <= 33


def test_flip_flop_float16_breaks_where_predicted() -> None:
    con = cs.build_flip_flop()
    w = con.sample(np.random.default_rng(0), 2048, 2)
    assert au.decide(con, w, "soft", con.tau(2048), "float64")[0] == 0
    assert au.decide(con, w, "soft", con.tau(2048), "float16")[0] > 0
    w = con.sample(np.random.default_rng(0), 512, 2)
    assert au.decide(con, w, "soft", con.tau(512), "float16")[0] == 0


def test_rescaled_position_feature_is_the_same_model() -> None:
    con = cs.build_flip_flop()
    m3 = au.rescale_position_feature(con.model, "i/n", 3.0)
    w = con.sample(np.random.default_rng(3), 40, 4)
    a = tf.run(con.model, w, "soft", con.tau(40)).activations[-1]
    b = tf.run(m3, w, "soft", con.tau(40)).activations[-1]
    keep = np.ones(a.shape[-1], dtype=bool)
    keep[np.nonzero(con.model.PE.matrix[con.model.PE.features.index("i/n")])[0]] = False  # the feature's own coordinate is scaled
    assert np.allclose(a[..., keep], b[..., keep], atol=1e-12)
    assert np.array_equal(con.readout(a), con.readout(b))
    with pytest.raises(ValueError, match="no position feature"):
        au.rescale_position_feature(con.model, "i", 2.0)


@pytest.mark.parametrize("argv, msg", [
    (["constructions", "--only", "bogus"], "unknown construction"),
    (["constructions", "--only", "3-hop", "--max-n", "3"], "needs n >= 4"),
    (["audit", "precision", "--formats", "float8"], "unknown format"),
    (["audit", "precision", "--construction", "prefix-argmax", "--formats", "float16", "--n", "64"], "overflow"),
])
def test_cli_bad_input(argv: list[str], msg: str, capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert cli.main(argv + ["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hardsoft: error:") and msg in err and err.count("\n") == 1


def test_cli_constructions_small(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["constructions", "--only", "flip-flop", "--max-n", "8", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "constructions.md").is_file() and (tmp_path / "attention-flip-flop.png").is_file()


def test_predicted_safe_is_below_the_breakdown() -> None:
    # (1/n - 2^-10) * 2n >= ln 4  <=>  n <= (1 - ln(4)/2) * 1024 = 314.1
    ff = cs.build_flip_flop()
    assert au.predicted_safe(ff, "float16") == 314
    for name in NAMES:
        con = cs.get_construction(name)
        for f in ("float16", "bfloat16", "float32"):
            safe, brk = au.predicted_safe(con, f), au.predicted_breakdown(con, f)[0]
            assert brk is None or safe is None or safe < brk


def test_table_lengths_leave_out_infinite_gaps() -> None:
    from hardsoft.checks.commands.constructions import lengths

    assert lengths(cs.get_construction("induction-tl"), 16) == [3, 4, 5, 6, 7, 8, 16]  # n = 2: every strict head sees one key
    assert lengths(cs.get_construction("dyck-2"), 16) == [2, 3, 4, 5, 6, 7, 8, 16]  # n = 1: one key
    assert lengths(cs.get_construction("flip-flop"), 32) == [2, 3, 4, 5, 6, 7, 8, 16, 32]


# --------------------------------------------------------------------------- PREC: predicted_safe is the Lean rule


def _format_spacing(dtype: np.dtype, S: float) -> float:
    """Return the spacing of the format's floats in the binade of S, from ml_dtypes' own eps (not from constructive.audit)."""
    import ml_dtypes

    return float(ml_dtypes.finfo(dtype).eps) * 2.0 ** math.floor(math.log2(S))


def _rounding_samples(S: float, u: float) -> np.ndarray:
    """Return float64 values in [-S, S] that probe the rounding: a grid, the ends, and the midpoints of the top binade (error u/2)."""
    lo = 2.0 ** math.floor(math.log2(S))
    mids = lo + u * (np.arange(64) + 0.5)
    mids = mids[mids <= S]
    x = np.concatenate([np.linspace(-S, S, 4001), [S, -S, lo, -lo], mids, -mids, np.random.default_rng(0).uniform(-S, S, 4000)])
    return x[np.abs(x) <= S]


#: Relative distance from the rule's boundary within which float64 cannot tell the two sides apart (flip-flop's
#: induction-tl twin at n = 128 in float16 sits exactly on it: (1/128 - 2^-9) 128 ln 16 = ln 8).
RULE_TIE_RTOL = 1e-9


def _lean_rule_holds(con, fmt: str, n: int) -> bool | None:
    """Return whether the hypotheses of HardSoft.rounded_mass_off_top_le_margin hold at length n, computed independently of
    constructive.audit: the rounding model (every |score| <= S = score_bound(n) moved by at most u/2, u the storage format's spacing
    at S, S within the format's range), u <= gamma(n), exp(-(gamma(n) - u)/tau(n)) <= margin (in mpmath, the float inputs taken
    exactly), and 1/tau(n) finite in the softmax's format; None when exp(-(gamma - u)/tau) is within RULE_TIE_RTOL of the margin
    (a tie, where float64 decides either way).  A gap of inf (every query sees one key) satisfies the ziggurat hypothesis vacuously
    (N = 1: no mass off)."""
    import mpmath

    from hardsoft.constructive.lowprec import FORMATS, finfo_max

    f = FORMATS[fmt]
    tau, gamma, S = con.tau(n), con.gap(n), con.score_bound(n)
    if 1.0 / tau > finfo_max(f.softmax) or S > finfo_max(f.storage):
        return False
    if math.isinf(gamma):
        return True
    u = _format_spacing(f.storage, S)
    if u > gamma:
        return False
    with mpmath.workdps(50):
        x = mpmath.exp(-(mpmath.mpf(gamma) - mpmath.mpf(u)) / mpmath.mpf(tau))
        if abs(x - mpmath.mpf(con.margin)) <= RULE_TIE_RTOL * con.margin:
            return None
        return bool(x <= mpmath.mpf(con.margin))


def _predicted_safe_mismatches(names: list[str], formats: tuple[str, ...]) -> list[tuple]:
    """Return (construction, format, n, what) for every place where predicted_safe disagrees with the Lean rule (empty: none; a tie
    of the rule, None, is no disagreement)."""
    bad = []
    for name in names:
        con = cs.get_construction(name)
        assert 0 < con.margin < 1, name  # so exp(-(gamma - u)/tau) <= margin forces gamma > u: Lean's u <= gamma
        for fmt in formats:
            safe = au.predicted_safe(con, fmt, n_max=2**16)
            if safe is None:
                if _lean_rule_holds(con, fmt, con.min_n) is True:
                    bad.append((name, fmt, con.min_n, "Lean rule holds at min_n, predicted_safe says None"))
                continue
            probe = sorted({*range(con.min_n, min(safe, 64) + 1), safe, *(n for n in (2**k for k in range(17)) if con.min_n <= n <= safe)})
            bad += [(name, fmt, n, "predicted safe, Lean rule fails") for n in probe if _lean_rule_holds(con, fmt, n) is False]
            if safe < 2**16 and _lean_rule_holds(con, fmt, safe + 1) is True:
                bad.append((name, fmt, safe + 1, "Lean rule holds one past predicted_safe"))
    return bad


PREC_FORMATS = ("float16", "bfloat16", "float32", "mixed-float16", "mixed-bfloat16")


def test_predicted_safe_is_the_lean_rule() -> None:
    """PREC: predicted_safe declares n safe exactly where HardSoft.rounded_mass_off_top_le_margin's hypotheses hold: its spacing is
    the theorem's u (ulp of the storage format at the score bound, which bounds every rounding error of |x| <= S by u/2, and tightly:
    the top binade's midpoints are rounded by exactly u/2), (gamma - u)/tau >= ln(1/margin) iff exp(-(gamma - u)/tau) <= margin,
    and margin < 1 gives u < gamma."""
    import ml_dtypes

    from hardsoft.constructive.lowprec import FORMATS

    assert _predicted_safe_mismatches(NAMES, PREC_FORMATS) == []
    for name in NAMES:
        con = cs.get_construction(name)
        for fmt in PREC_FORMATS:
            f = FORMATS[fmt]
            for n in (con.min_n, 8, 64, 1000):
                S = con.score_bound(n)
                u = au.spacing(S, f.precision)
                assert u == _format_spacing(f.storage, S), (name, fmt, n)
                if S > float(ml_dtypes.finfo(f.storage).max):
                    continue
                x = _rounding_samples(S, u)
                err = np.abs(x.astype(f.storage).astype(np.float64) - x)
                assert np.all(err * 2 <= u), (name, fmt, n, float(err.max()), u)  # hr of the theorem, |r_k - s_k| * 2 <= u
                if 2.0 ** math.floor(math.log2(S)) + u / 2 <= S:  # a midpoint of the top binade lies within S: u/2 would not do
                    assert np.any(err * 2 > u / 2), (name, fmt, n)


def test_planted_halved_spacing_in_predicted_safe_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """predicted_safe with the spacing halved (a rounding model twice too fine) declares lengths safe where the Lean rule fails."""
    real = au.spacing
    monkeypatch.setattr(au, "spacing", lambda x, p: real(x, p) / 2)
    bad = _predicted_safe_mismatches(["flip-flop", "prefix-argmax"], ("float16", "bfloat16"))
    assert ("flip-flop", "float16", 628, "predicted safe, Lean rule fails") in bad  # 314 -> 628 with half the spacing
    assert {b[0] for b in bad} == {"flip-flop", "prefix-argmax"}


@pytest.mark.parametrize("name", NAMES)
def test_score_bound_bounds_every_score(name: str) -> None:
    """PREC's S: score_bound(n) bounds |score| of every head at every visible key on every tested input (hard-mode activations)."""
    from hardsoft.spec import attention

    con = cs.get_construction(name)
    for n in (*range(con.min_n, 7), 24):
        w, _ = au.test_inputs(con, n, samples=16)
        acts = tf.run(con.model, w, "hard").activations
        top = 0.0
        for layer, x in zip(con.model.layers, acts):
            for h in layer.heads:
                s = np.einsum("bid,bjd->bij", x @ h.W_Q, x @ h.W_K)
                mask = attention.make_mask(h.mask, n)
                top = max(top, float(np.abs(np.where(mask, s, 0.0)).max()))
        assert top <= con.score_bound(n) * (1 + 1e-12), (name, n, top, con.score_bound(n))

"""Section 2 transformer: modes with the same parameters, the loop reference, enumeration, measurement, model files."""

from __future__ import annotations


import numpy as np
import pytest

from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT64_EPS
from hardsoft.spec.examples import EXAMPLES, build_has_a, build_last_a, build_prefix_fraction, random_model
from hardsoft.spec.modelio import load_model, model_from_dict, model_to_dict, save_model
from hardsoft.spec.reference import run_loop, run_pair_loop


@pytest.mark.parametrize("mode,tau", [("average", None), ("leftmost", None), ("rightmost", None), ("soft", 0.05)])
def test_vectorised_run_equals_the_loop_reference(mode: str, tau: float | None) -> None:
    rng = np.random.default_rng(1)
    model = random_model(rng, d=5, depth=2, heads=2, masks=("none", "causal", "strict", "anticausal", "strict_anticausal"))
    w = rng.integers(0, 2, size=(3, 7))
    fast = tf.run(model, w, mode, tau).activations
    for slow in (run_loop(model, w, mode, tau), run_pair_loop(model, w, mode, tau)):
        for a, b in zip(fast, slow):
            np.testing.assert_allclose(a, b, rtol=0, atol=64 * model.d * 7 * FLOAT64_EPS * max(1.0, np.abs(b).max()))


def test_examples_compute_what_they_say() -> None:
    m = build_has_a()
    out = tf.run(m, m.encode(["abbb", "bbbb", "baba"]), "average").activations[-1][:, :, 2]
    assert out.tolist() == [[1.0] * 4, [0.0] * 4, [1.0] * 4]
    m = build_last_a()
    out = tf.run(m, m.encode(["abab", "aabb"]), "average").activations[-1][:, :, 3]
    assert out[:, 0].tolist() == [0.5, 0.25]  # position of the last 'a', as i/n
    m = build_prefix_fraction()
    out = tf.run(m, m.encode(["abab"]), "average").activations[-1][0, :, 1]
    assert out.tolist() == [1.0, 0.5, 2 / 3, 0.5]
    soft = tf.run(m, m.encode(["abab"]), "soft", tau=1e-3).activations[-1][0, :, 1]
    np.testing.assert_allclose(soft, out, atol=4 * FLOAT64_EPS)  # all scores tie: softmax = ahardmax exactly


def test_measure_exhaustive_counts() -> None:
    m = build_last_a()
    meas = tf.measure(m, 6)
    assert meas.inputs == 2**6
    assert meas.gap == pytest.approx(1 / 6, rel=16 * FLOAT64_EPS)  # consecutive candidates differ by 1/n
    assert meas.x_max == 1.0
    assert tf.measure(build_prefix_fraction(), 4).gap == float("inf")
    rows = np.concatenate(list(tf.enumerate_inputs(3, 3, chunk=5)))
    assert rows.shape == (27, 3) and len({tuple(r) for r in rows}) == 27


def test_strict_mask_first_position_gets_zero_head_output() -> None:
    d = 2
    head = tf.Head(np.eye(d), np.eye(d), np.eye(d), np.eye(d), "strict")
    layer = tf.Layer((head,), np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d))
    m = tf.Model(("a", "b"), np.eye(2), tf.PositionEmbedding((), np.zeros((0, d))), (layer,))
    out = tf.run(m, m.encode(["ab"]), "soft", tau=1.0).activations[-1][0]
    assert out[0].tolist() == [1.0, 0.0]  # x_0 + nothing


def test_model_file_round_trip(tmp_path) -> None:
    for name, build in EXAMPLES.items():
        m = build()
        p = tmp_path / f"{name}.json"
        save_model(m, p)
        m2 = load_model(p)
        w = np.array([[0, 1, 1, 0]])
        np.testing.assert_array_equal(tf.run(m, w, "average").activations[-1], tf.run(m2, w, "average").activations[-1])


def _spoil(path: str, value):
    d = model_to_dict(build_last_a())
    keys = path.split(".")
    obj = d
    for k in keys[:-1]:
        obj = obj[int(k)] if k.isdigit() else obj[k]
    if value is KeyError:
        del obj[keys[-1]]
    else:
        obj[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return d


@pytest.mark.parametrize("path,value,msg", [
    ("format", "v0", "format"),
    ("alphabet", [], "alphabet is empty"),
    ("word_embedding", [[1.0, 0.0]], "word_embedding has shape"),
    ("layers.0.heads.0.W_K", [[1.0]], r"W_K has shape"),
    ("layers.0.heads.0.mask", "diagonal", "mask"),
    ("layers.0.ffn.b2", [0.0, float("nan"), 0.0, 0.0], "NaN"),
    ("layers.0.ffn", KeyError, "missing field layers\\[0\\].ffn"),
    ("position_embedding.features", ["i", "log i"], "unknown position feature"),
])
def test_malformed_model_file(path: str, value, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        model_from_dict(_spoil(path, value))


def test_unreadable_model_files(tmp_path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        load_model(tmp_path / "nope.json")
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_model(p)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "caf\xe9"}')
    with pytest.raises(ValueError, match=r"^model file .*latin\.json is not UTF-8 text$"):
        load_model(latin)


@pytest.mark.parametrize("bad,msg", [
    (lambda m: tf.run(m, np.zeros((1, 0), dtype=int), "average"), "empty"),
    (lambda m: tf.run(m, np.array([[0, 5]]), "average"), "out of range"),
    (lambda m: tf.run(m, np.array([[0.5, 1.0]]), "average"), "integer"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "soft"), "tau"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "soft", tau=-1.0), "tau must be > 0"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "sharp"), "unknown attention mode"),
    (lambda m: m.encode(["ab", "aba"]), "one length"),
    (lambda m: tf.measure(m, 2, mode="soft"), "hard"),
])
def test_transformer_bad_input(bad, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        bad(build_last_a())


ALL_MASKS = ("none", "causal", "strict", "anticausal", "strict_anticausal")


@pytest.mark.parametrize("elements", [12, 20, 49])
@pytest.mark.parametrize("mode,tau", [("average", None), ("leftmost", None), ("rightmost", None), ("soft", 0.05)])
def test_blocked_run_equals_the_loop_reference(monkeypatch: pytest.MonkeyPatch, elements: int, mode: str, tau: float | None) -> None:
    """Row blocks of 1, 2 and 7 queries, each over the keys its queries see: the same activations and gaps as the loop and the unblocked run."""
    rng = np.random.default_rng(2)
    model = random_model(rng, d=5, depth=2, heads=3, masks=ALL_MASKS)
    w = rng.integers(0, 2, size=(3, 7))
    whole = tf.run(model, w, "hard" if mode != "soft" else mode, tau, record=mode != "soft")
    monkeypatch.setattr(tf, "SCORE_SLICE_ELEMENTS", elements)
    fast = tf.run(model, w, mode, tau, record=mode != "soft")
    for a, b in zip(fast.activations, run_loop(model, w, mode, tau)):
        np.testing.assert_allclose(a, b, rtol=0, atol=64 * model.d * 7 * FLOAT64_EPS * max(1.0, np.abs(b).max()))
    if mode == "average":
        for g_blocked, g_whole in zip(fast.gaps, whole.gaps):
            for a, b in zip(g_blocked, g_whole):  # the blocks' products may round their last bits differently
                np.testing.assert_allclose(a, b, rtol=64 * FLOAT64_EPS, atol=64 * FLOAT64_EPS)


def _one_head_model(mask: str, value_scale: float) -> tf.Model:
    """One causal/anticausal head over d = 2 (features one, i): scores -(i - j)^2-ish spread, values value_scale * i (a masked key's value is huge)."""
    d = 2
    W_Q = np.array([[0.0], [1.0]])  # q_i = i
    W_K = np.array([[0.0], [-1.0]])  # k_j = -j: scores -i j, far apart at small tau
    W_V = np.array([[0.0], [value_scale]])
    W_O = np.array([[0.0, 1.0]])
    head = tf.Head(W_Q, W_K, W_V, W_O, mask)
    layer = tf.Layer((head,), np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d))
    return tf.Model(("a",), np.zeros((1, d)), tf.PositionEmbedding(("one", "i"), np.eye(d)), (layer,))


def test_soft_masked_keys_weigh_exactly_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a tau where every unmasked score below the maximum is raised to the exp floor, a masked key with a value of 1e250 still adds nothing."""
    m = _one_head_model("causal", 1e250)
    w = np.zeros((1, 6), dtype=int)
    out = tf.run(m, w, "soft", tau=1e-3).activations[-1][0, :, 1]
    expect = np.arange(6) * 1.0  # x_i's coordinate 1 is i; causal: query i's weight goes to key 0 (score -i*0 = 0 is the largest), value 0
    np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("spread", [1.0, 1e4])  # scores within the floor of the top (every key exponentiated), or far below it (few)
def test_a_block_gives_masked_keys_weight_exactly_zero(spread: float) -> None:
    """Queries 0..3 over keys 0..3 under a causal mask, one query at a time: the keys a query may not see hold 1e300, so a
    weight of exp(-700) on one would show as 1e-4; in both of the softmax's paths the output is exactly the visible keys'
    value 2.  The planted defect (the masked keys not zeroed after the floor) is caught where the keys are exponentiated."""
    n = 4
    plan = tf.plan_mask("causal", n, n)
    blk, bias, keep = plan.blocks[0], plan.bias[0], plan.keep[0]
    scores = -spread * np.arange(n, dtype=float)[None, None, :] * np.ones((1, n, 1))  # key 0 on top for every query

    def one_query(i: int, keep_rows: np.ndarray | None) -> float:
        V1 = np.ones((1, n, 2))
        V1[0, :, 0] = [2.0 if j <= i else 1e300 for j in range(n)]  # the visible keys hold 2, the masked ones 1e300
        out = np.empty((1, 1, 1))
        tf._attend_block(scores[:, i : i + 1].copy(), V1, tf.Block(slice(i, i + 1), blk.keys, blk.mixed), bias[i : i + 1], keep_rows, "soft", tf.TIE_RTOL, out)
        return float(out[0, 0, 0])

    assert [one_query(i, keep[i : i + 1]) for i in range(n)] == [2.0] * n
    if spread == 1.0:  # query 2 sees 3 of 4 keys: every key is exponentiated, so the masked one needs its zeroing
        assert one_query(2, None) > 2.0


def _floor_excess(m: tf.Model, taus: tuple[float, ...]) -> float:
    """Return the largest (|run - loop| - allowance) over the temperatures (<= 0: every run within its rounding allowance)."""
    w = np.zeros((2, 40), dtype=int)
    worst = -np.inf
    for tau in taus:
        fast = tf.run(m, w, "soft", tau=tau).activations[-1]
        slow = run_loop(m, w, "soft", tau)[-1]
        allowance = tf.compute_rounding_allowance(m, 40, tau, float(np.abs(slow).max()))
        worst = max(worst, float(np.abs(fast - slow).max()) - allowance)
    return worst


def test_soft_floor_is_within_the_rounding_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scaled scores across the subnormal band of exp (-745 .. -708) and below: the floor changes the run by far less than its allowance."""
    m = _one_head_model("none", 1.0)
    taus = (0.05, 1.0, 2.0, 3.0, 40.0)  # at query i, key j scores -i j: (s - max)/tau spans 0 .. -39^2/tau
    assert _floor_excess(m, taus) <= 0
    monkeypatch.setattr(tf, "SOFTMAX_EXP_FLOOR", -5.0)  # planted: a floor where the weights are not negligible
    assert _floor_excess(m, taus) > 0


def test_soft_exponentials_once_per_head_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """A soft run exponentiates each (head, query, key) score exactly once: L * H * batch * n^2 values for unmasked heads, in blocks or not."""
    counted = [0]
    real_exp = np.exp

    def counting_exp(x, *args, **kwargs):  # type: ignore[no-untyped-def]
        counted[0] += np.size(x)
        return real_exp(x, *args, **kwargs)

    rng = np.random.default_rng(4)
    model = random_model(rng, d=4, depth=2, heads=3, masks=("none",))
    w = rng.integers(0, 2, size=(5, 9))
    monkeypatch.setattr(np, "exp", counting_exp)
    for elements in (20, 81, 2**16):
        monkeypatch.setattr(tf, "SCORE_SLICE_ELEMENTS", elements)
        counted[0] = 0
        tf.run(model, w, "soft", tau=0.1)
        assert counted[0] == 2 * 3 * 5 * 9 * 9


@pytest.mark.parametrize("kind", ALL_MASKS)
def test_the_mask_blocks_are_the_masks_rows(kind: str) -> None:
    """run's blocks compute the mask's rows themselves (no n x n array): the same rows as spec.attention.make_mask, empty rows as every key."""
    from hardsoft.spec.attention import make_mask

    for n in (1, 2, 7):
        mask = make_mask(kind, n)
        empty = ~mask.any(axis=-1)
        for rows in (slice(0, n), slice(1, 3), slice(n - 1, n)):
            np.testing.assert_array_equal(tf._mask_rows(kind, rows, n), (mask | empty[:, None])[rows])
        plan = tf.plan_mask(kind, n, 2)
        np.testing.assert_array_equal(plan.empty, empty)

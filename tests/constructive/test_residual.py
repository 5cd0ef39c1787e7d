"""constructive.residual: the one residual-stream builder (coordinates, FFN units, heads, the zero FFN).

Expected matrices are written out entry by entry here, not computed by the builder.
"""

from __future__ import annotations

import numpy as np
import pytest

from hardsoft.constructive.residual import (
    HeadSpec,
    LayerPlan,
    Residual,
    ScoreTerm,
    Unit,
    ValueTerm,
    build_head,
    clamp01,
    ffn_matrices,
    zero_ffn,
)
from hardsoft.spec import transformer as tf
from hardsoft.spec.transformer import Model


def test_coordinates_are_allocated_in_order_and_looked_up_by_name() -> None:
    res = Residual()
    assert res.add("one") == 0
    assert res.add_block("tok", 3) == [1, 2, 3]
    assert res.add_block("has", 1) == [4]  # a block of one keeps the plain name
    assert res.names == ["one", "tok[0]", "tok[1]", "tok[2]", "has"]
    assert res["tok[1]"] == 2 and res["has"] == 4 and res.d == 5
    assert "tok[2]" in res and "tok" not in res
    assert res.index() == {"one": 0, "tok[0]": 1, "tok[1]": 2, "tok[2]": 3, "has": 4}


def test_a_duplicate_or_unknown_name_is_an_error() -> None:
    res = Residual()
    res.add("x")
    with pytest.raises(ValueError, match="'x' is allocated twice"):
        res.add("x")
    res.add("b[1]")
    with pytest.raises(ValueError, match=r"'b\[1\]' is allocated twice"):
        res.add_block("b", 2)
    with pytest.raises(KeyError, match="no residual coordinate named 'y'"):
        res["y"]
    assert res.names == ["x", "b[1]"]  # the refused allocations took no coordinate (not even b[0])


def test_units_are_assembled_into_the_right_matrices() -> None:
    units = [Unit({0: 2.0, 2: -1.0}, -0.5, {1: 1.0}), Unit({2: 3.0}, 0.25, {0: -1.0, 1: 4.0})]
    W1, b1, W2, b2 = ffn_matrices(3, units, {2: 1.0})
    assert W1.tolist() == [[2.0, 0.0], [0.0, 0.0], [-1.0, 3.0]]
    assert b1.tolist() == [-0.5, 0.25]
    assert W2.tolist() == [[0.0, 1.0, 0.0], [-1.0, 4.0, 0.0]]
    assert b2.tolist() == [0.0, 0.0, 1.0]
    # y = (1, 0, 1): unit 0 = ReLU(2 - 1 - 0.5) = 0.5, unit 1 = ReLU(3 + 0.25) = 3.25
    y = np.array([1.0, 0.0, 1.0])
    assert (np.maximum(y @ W1 + b1, 0.0) @ W2 + b2).tolist() == [-3.25, 0.5 + 13.0, 1.0]


def test_every_unit_and_score_term_gets_its_own_column() -> None:
    W1, _, W2, b2 = ffn_matrices(2, [Unit({0: 1.0}, 0.0, {1: 1.0}), Unit({0: 1.0}, 0.0, {1: 1.0})], {1: 0.5})
    assert W1.tolist() == [[1.0, 1.0], [0.0, 0.0]] and W2.tolist() == [[0.0, 1.0], [0.0, 1.0]] and b2.tolist() == [0.0, 0.5]
    h = build_head(2, [ScoreTerm({0: 1.0}, {1: 2.0}), ScoreTerm({0: 1.0}, {1: 3.0})], [ValueTerm(1, {0: 1.0, 1: -1.0})])
    assert h.A.tolist() == [[0.0, 5.0], [0.0, 0.0]]  # A = W_Q W_K^T sums the rank-one terms


def test_clamp01_is_two_units_clamping_to_0_1() -> None:
    units = clamp01({0: 2.0}, -0.5, 1)
    assert units == [Unit({0: 2.0}, -0.5, {1: 1.0}), Unit({0: 2.0}, -1.5, {1: -1.0})]
    W1, b1, W2, b2 = ffn_matrices(2, units)
    out = [float((np.maximum(np.array([v, 0.0]) @ W1 + b1, 0.0) @ W2 + b2)[1]) for v in (0.0, 0.2, 0.5, 0.8, 1.0)]
    assert out == [0.0, 0.0, 0.5, 1.0, 1.0]


def test_the_zero_ffn_has_one_zero_unit_and_computes_zero() -> None:
    W1, b1, W2, b2 = zero_ffn(4)
    assert W1.shape == (4, 1) and b1.shape == (1,) and W2.shape == (1, 4) and b2.shape == (4,)
    assert not W1.any() and not b1.any() and not W2.any() and not b2.any()
    assert [m.shape for m in ffn_matrices(4, [])] == [(4, 1), (1,), (1, 4), (4,)]


def test_head_matrices_from_score_and_value_terms() -> None:
    h = build_head(3, [ScoreTerm({0: 1.0}, {1: 2.0, 2: -1.0}), ScoreTerm({2: 0.5}, {})], [ValueTerm(2, {1: 1.0}), ValueTerm(0, {2: 1.0}, 3.0)], "causal", "rightmost")
    assert h.W_Q.tolist() == [[1.0, 0.0], [0.0, 0.0], [0.0, 0.5]]
    assert h.W_K.tolist() == [[0.0, 0.0], [2.0, 0.0], [-1.0, 0.0]]
    assert h.W_V.tolist() == [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
    assert h.W_O.tolist() == [[0.0, 0.0, 1.0], [3.0, 0.0, 0.0]]
    assert (h.mask, h.hard_mode) == ("causal", "rightmost")
    z = build_head(3, [], [ValueTerm(1, {0: 1.0})])  # no score terms: one zero column, every key ties
    assert z.W_Q.shape == z.W_K.shape == (3, 1) and not z.W_Q.any() and not z.W_K.any() and z.mask == "none"


def test_layers_built_at_the_final_width_run_as_written() -> None:
    # a previous-token copy: x_i[out] = x_{i-1}[sym] (strict mask, rightmost key), then ReLU(2 out - 1/2) clamped into clean
    res = Residual()
    sym, one, p = res.add("sym"), res.add("one"), res.add("i/n")
    spec = HeadSpec([ScoreTerm({one: 1.0}, {p: 1.0})], [], "strict", "rightmost")
    res.layer(0).heads.append(spec)
    out = res.add("out")
    spec.values.append(ValueTerm(out, {sym: 1.0}))  # a spec stays open until the layers are built
    clean = res.add("clean")
    res.layer(0).units += clamp01({out: 2.0}, -0.5, clean)
    assert isinstance(res.layer(0), LayerPlan) and len(res.layers) == 1
    m = Model(("a", "b"), res.word_embedding(("a", "b"), {"a": {sym: 1.0}}), res.position_embedding(("one", "i/n")), res.build_layers())
    assert m.d == 5 and m.layers[0].heads[0].W_O.shape == (1, 5)
    x = tf.run(m, m.encode(["abaab"]), "hard").activations[-1][0]
    assert x[:, out].tolist() == [0.0, 1.0, 0.0, 1.0, 1.0] and x[:, clean].tolist() == [0.0, 1.0, 0.0, 1.0, 1.0]
    assert res.word_embedding(("a", "b"), {"a": {sym: 1.0}}).tolist() == [[1.0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]


# --------------------------------------------------------------------------- coordinates shared over time (Residual.compact)


def _chain(k: int) -> tuple[Residual, list[int]]:
    """Return a residual of k + 1 coordinates x0 (embedded), x1 = x0 + 1 (FFN 1), ..., xk = x(k-1) + 1 (FFN k), each read once."""
    res = Residual()
    one = res.add("one")
    xs = [res.add(f"x{t}") for t in range(k + 1)]
    for t in range(1, k + 1):
        res.layer(t - 1).units.append(Unit({xs[t - 1]: 1.0, one: 1.0}, 0.0, {xs[t]: 1.0}))  # x_t = ReLU(x_{t-1} + 1)
    return res, [one, *xs]


def test_compact_spares_the_eraser_of_a_coordinate_the_model_zeroed() -> None:
    """zeroed: x1, zeroed by layer 2's own FFN at its last write (state 4), gives its coordinate to a later x without the two erasing
    units (they would erase a 0; a certificate's checker refuses a unit on a coordinate that keeps holding nothing); the
    layout is the one without zeroed (a later x takes x1's coordinate at the same state), only the two units are gone. A zeroed
    layer that is not the last write (x0: read by layer 1, written nowhere after) changes nothing."""
    res, (one, *xs) = _chain(5)
    res.layer(1).units.append(Unit({xs[1]: 1.0}, 0.0, {xs[1]: -1.0}))  # layer 2 zeroes x1 (x - ReLU(x), x >= 0) after reading it
    plain, _ = _chain(5)
    plain.layer(1).units.append(Unit({xs[1]: 1.0}, 0.0, {xs[1]: -1.0}))
    p = plain.compact({xs[5]: [5]}, embedded=[one, xs[0]])
    c = res.compact({xs[5]: [5]}, embedded=[one, xs[0]], zeroed={xs[1]: 2, xs[0]: 5})
    assert c.new == p.new and c.d == p.d and c.spans == p.spans
    assert c.spared == frozenset({xs[1]}) and c.erased == p.erased - 1 and p.spared == frozenset()
    assert sum(map(len, (L.units for L in res.layers))) == sum(map(len, (L.units for L in plain.layers))) - 2  # x1's eraser, gone
    assert len(res.layers[0].units) == len(plain.layers[0].units)  # x0 is erased as before


def test_compact_lets_a_chain_share_two_coordinates() -> None:
    """x0 is busy in states 0..1 (read by FFN 1), x1 in 2..3, x2 in 4..5, x3 in 6 (observed at the end): x2 takes x0's coordinate
    (erased by FFN 1), x3 takes x1's (erased by FFN 2); 'one' is read to the end; x2, never erased, keeps its value to the
    end (state 6).  Written out by hand: d = 3, not 5."""
    res, (one, *xs) = _chain(3)
    c = res.compact({xs[3]: [3]}, embedded=[one, xs[0]])
    assert c.d == 3 and res.d == 3
    assert [c.new[k] for k in (one, *xs)] == [0, 1, 2, 1, 2]
    assert c.spans[xs[0]] == (0, 1) and c.spans[xs[1]] == (2, 3) and c.spans[xs[2]] == (4, 6) and c.spans[xs[3]] == (6, 6)
    assert c.erased == 2 and res["x2"] == 1 and res.names[1] == "x0 / x2"
    # layer 1's FFN erases x0 (new coordinate 1) after reading it, layer 2's erases x1 (new coordinate 2)
    assert res.layers[0].units[1:] == [Unit({1: 1.0}, 0.0, {1: -1.0}), Unit({1: -1.0}, 0.0, {1: 1.0})]
    assert res.layers[1].units[1:] == [Unit({2: 1.0}, 0.0, {2: -1.0}), Unit({2: -1.0}, 0.0, {2: 1.0})]
    WE = np.array([[0.0, 5.0, 0.0]])  # x0 = 5 on the one symbol
    model = Model(("a",), WE, tf.PositionEmbedding(("one",), np.array([[1.0, 0.0, 0.0]])), res.build_layers())
    acts = tf.run(model, np.zeros((1, 2), dtype=int), "average").activations
    assert [a[0, 0].tolist() for a in acts] == [[1.0, 5.0, 0.0], [1.0, 0.0, 6.0], [1.0, 7.0, 0.0], [1.0, 7.0, 8.0]]


def test_compact_keeps_observed_values_and_refuses_built_heads() -> None:
    res, (one, *xs) = _chain(3)
    c = res.compact({k: [t] for t, k in enumerate(xs)} | {xs[3]: [3]}, embedded=[one, xs[0]])  # every x_t observed at its layer
    assert c.d == 3  # an observation at the layer that writes it adds nothing: x_t is read by the next FFN anyway
    res2, (one2, x0, x1) = _chain(1)
    res2.layers[0].heads.append(tf.Head(np.zeros((3, 1)), np.zeros((3, 1)), np.zeros((3, 1)), np.zeros((1, 3))))
    with pytest.raises(TypeError, match="built head"):
        res2.compact({x1: [1]}, embedded=[one2, x0])

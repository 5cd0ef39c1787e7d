"""Built-in example models (hard-attention constructions) and a random model generator for tests and benchmarks.

Each builder returns a ``spec.transformer.Model``; ``EXAMPLES`` maps names to
builders for ``hardsoft simulate --example NAME``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding


def _zero_ffn(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return FFN weights that compute 0 (W1 d x 1, b1, W2 1 x d, b2)."""
    return np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d)


def build_has_a() -> Model:
    """AHAT example (gap 1): one head averages over the positions holding 'a'; coordinate 2 ends as 1 iff the word has an 'a'.

    Dimensions: 0 = [w_j = a], 1 = [w_j = b], 2 = output.  Score s_ij = x_j[0]
    (A has rows (1,0,0) for both symbol coordinates, so x_i A x_j^T = x_j[0]).
    """
    d = 3
    WE = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    W_Q = np.array([[1.0], [1.0], [0.0]])
    W_K = np.array([[1.0], [0.0], [0.0]])
    W_V = np.array([[1.0], [0.0], [0.0]])
    W_O = np.array([[0.0, 0.0, 1.0]])
    head = Head(W_Q, W_K, W_V, W_O, "none")
    return Model(("a", "b"), WE, PositionEmbedding((), np.zeros((0, d))), (Layer((head,), *_zero_ffn(d)),), "has-a")


def build_last_a() -> Model:
    """AHAT example (gap 1/n): one head attends to the LAST 'a' (score 2[w_j = a] + j/n) and copies its position j/n.

    Dimensions: 0 = [w_j = a], 1 = one (from the position embedding), 2 = j/n,
    3 = output.  Scores s_ij = x_i[1] (2 x_j[0] + x_j[2]) = 2[w_j = a] + j/n,
    so the gap is 1/n: the temperature this construction needs grows like n.
    """
    d = 4
    WE = np.array([[1.0, 0, 0, 0], [0, 0, 0, 0]])
    PE = PositionEmbedding(("one", "i/n"), np.array([[0, 1.0, 0, 0], [0, 0, 1.0, 0]]))
    W_Q = np.array([[0.0], [1.0], [0.0], [0.0]])
    W_K = np.array([[2.0], [0.0], [1.0], [0.0]])
    W_V = np.array([[0.0], [0.0], [1.0], [0.0]])
    W_O = np.array([[0.0, 0.0, 0.0, 1.0]])
    head = Head(W_Q, W_K, W_V, W_O, "none")
    return Model(("a", "b"), WE, PE, (Layer((head,), *_zero_ffn(d)),), "last-a")


def build_prefix_fraction() -> Model:
    """AHAT example (all scores tied, gap +inf): a causal head averages the prefix, so coordinate 1 ends as the fraction of 'a's in w_0..w_i.

    Softmax equals average-hard attention exactly here, at every temperature.
    """
    d = 2
    WE = np.array([[1.0, 0.0], [0.0, 0.0]])
    head = Head(np.zeros((d, 1)), np.zeros((d, 1)), np.array([[1.0], [0.0]]), np.array([[0.0, 1.0]]), "causal")
    return Model(("a", "b"), WE, PositionEmbedding((), np.zeros((0, d))), (Layer((head,), *_zero_ffn(d)),), "prefix-fraction")


def random_model(
    rng: np.random.Generator,
    d: int = 4,
    depth: int = 2,
    heads: int = 1,
    alphabet_size: int = 2,
    weight_scale: float = 0.5,
    masks: tuple[str, ...] = ("none", "causal", "anticausal"),
    head_dim: int | None = None,
    name: str = "random",
) -> Model:
    """A random model whose weights lie on a coarse dyadic grid, so that exact score ties occur often.

    Entries of W_Q, W_K, WE, PE are drawn from {-1, -1/2, 0, 1/2, 1} (many zeros),
    W_V W_O and the FFN are scaled by ``weight_scale`` to keep activations moderate.
    """
    k = head_dim or d
    grid = np.array([-1.0, -0.5, 0.0, 0.0, 0.0, 0.5, 1.0])
    g = lambda *shape: rng.choice(grid, size=shape)  # noqa: E731
    layers = []
    for _ in range(depth):
        hs = tuple(Head(g(d, k), g(d, k), g(d, k) * weight_scale, g(k, d) * weight_scale / max(1, k), str(rng.choice(masks))) for _ in range(heads))
        layers.append(Layer(hs, g(d, d) * weight_scale, g(d) * weight_scale, g(d, d) * weight_scale / d, g(d) * weight_scale))
    alphabet = tuple(chr(ord("a") + i) for i in range(alphabet_size))
    PE = PositionEmbedding(("one", "i/n"), g(2, d))
    return Model(alphabet, g(alphabet_size, d), PE, tuple(layers), name)


#: Built-in examples by name, for the CLI.
EXAMPLES: dict[str, Callable[[], Model]] = {
    "has-a": build_has_a,
    "last-a": build_last_a,
    "prefix-fraction": build_prefix_fraction,
    "random-2layer": lambda: random_model(np.random.default_rng(2024), d=6, depth=2, heads=2, name="random-2layer"),
}

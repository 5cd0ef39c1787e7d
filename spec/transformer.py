"""The transformer of Section 2, run with the SAME parameters in hard (AHAT/UHAT) or soft (tau-SMAT) mode.

x_i^(0) = WE[w_i] + PE(i, n); each layer: heads with A^h = W_Q^h (W_K^h)^T,
B^h = W_V^h W_O^h, scores s_ij = x_i A^h x_j^T over the head's mask, weights
from the attention mode, y_i = x_i + sum_h sum_j alpha_ij x_j B^h, then
z_i = y_i + W_2 ReLU(W_1 y_i + b_1) + b_2 (row-vector convention: y W_1).
No layer norm.  A query that sees no key under a strict mask gets head output 0
in every mode.

Everything is vectorised over a batch of inputs of one length; ``run`` returns
every layer's activations.

Model format 2 additions: a head may carry its own hard mode (``Head.hard_mode``:
average, leftmost or rightmost), which it uses in EVERY hard run; the ``mode``
argument of ``run`` is the default for heads without one, and ``mode="hard"`` means
"each head its own mode, else the model's ``hard_mode``".  A model may carry an
output read-out (``Readout``: coordinate, position first/last, threshold).  The hard modes read ties with the relative tolerance
``spec.constants.TIE_RTOL`` so that ties of exact arithmetic survive float rounding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from hardsoft.spec.attention import make_mask
from hardsoft.spec.bounds import LayerNorms, float_up
from hardsoft.spec.constants import ATTENTION_MODES, HARD_MODES, MASK_KINDS, TIE_RTOL
from hardsoft.spec.validate import require_tau

# --------------------------------------------------------------------------- position embeddings

#: Features of position i in a sequence of length n; PE(i, n) = sum_f phi_f(i, n) P_f.
PE_FEATURES: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "one": lambda i, n: np.ones_like(i, dtype=np.float64),
    "i": lambda i, n: i.astype(np.float64),
    "n": lambda i, n: np.full(i.shape, float(n)),
    "i/n": lambda i, n: i / n,
    "(i+1)/n": lambda i, n: (i + 1) / n,
    "1/(i+1)": lambda i, n: 1.0 / (i + 1),
    "(i/n)^2": lambda i, n: (i / n) ** 2,
    "is_first": lambda i, n: (i == 0).astype(np.float64),
    "is_last": lambda i, n: (i == n - 1).astype(np.float64),
    "parity": lambda i, n: (-1.0) ** i,
    # format 2
    "i^2": lambda i, n: i.astype(np.float64) ** 2,
    "1/(i+1)^2": lambda i, n: 1.0 / (i + 1.0) ** 2,
    "1/max(i,1)": lambda i, n: 1.0 / np.maximum(i, 1),
    "1/max(n-1-i,1)": lambda i, n: 1.0 / np.maximum(n - 1 - i, 1),
    "n*parity": lambda i, n: n * (-1.0) ** i,
    "1/n": lambda i, n: np.full(i.shape, 1.0 / n),
    "i/n^3": lambda i, n: i / float(n) ** 3,  # the 1/n^3 tie-break of the prefix-argmax construction
}

#: The features of model format 1 (a file using any other needs format 2).
PE_FEATURES_V1: tuple[str, ...] = ("one", "i", "n", "i/n", "(i+1)/n", "1/(i+1)", "(i/n)^2", "is_first", "is_last", "parity")

#: Where a read-out reads: the first or the last position.
READOUT_POSITIONS: tuple[str, ...] = ("first", "last")


def _matrix(name: str, value: object, shape: tuple[int | None, ...]) -> np.ndarray:
    """Return value as a finite float64 array of the given shape (None = any size)."""
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers") from None
    if a.ndim != len(shape) or any(s is not None and s != t for s, t in zip(shape, a.shape)):
        want = "x".join("?" if s is None else str(s) for s in shape)
        raise ValueError(f"{name} has shape {'x'.join(map(str, a.shape)) or 'scalar'}, expected {want}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or infinite entries")
    return a


@dataclass(frozen=True)
class PositionEmbedding:
    """Section 2 (position embedding PE(i, n)): a linear combination of named features of (i, n)."""

    features: tuple[str, ...]
    matrix: np.ndarray  # (len(features), d)

    def __post_init__(self) -> None:
        for f in self.features:
            if f not in PE_FEATURES:
                raise ValueError(f"unknown position feature {f!r}; known: {', '.join(PE_FEATURES)}")
        m = self.matrix
        if not self.features and np.asarray(m).size == 0 and np.asarray(m).ndim != 2:
            m = np.zeros((0, 0))  # no position embedding; the model fixes the width
        object.__setattr__(self, "matrix", _matrix("position_embedding.matrix", m, (len(self.features), None)))

    def apply(self, n: int) -> np.ndarray:
        """Return the (n, d) matrix of PE(i, n) for i = 0..n-1."""
        i = np.arange(n)
        phi = np.stack([PE_FEATURES[f](i, n) for f in self.features], axis=1) if self.features else np.zeros((n, 0))
        return phi @ self.matrix


@dataclass(frozen=True)
class Head:
    """Section 2 (one attention head): W_Q, W_K (d x k), W_V (d x v), W_O (v x d) and a mask kind."""

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray
    mask: str = "none"
    hard_mode: str | None = None  # format 2: this head's own hard mode (None: the run's / model's)

    @property
    def A(self) -> np.ndarray:
        """Return A = W_Q W_K^T (d x d)."""
        return self.W_Q @ self.W_K.T

    @property
    def B(self) -> np.ndarray:
        """Return B = W_V W_O (d x d)."""
        return self.W_V @ self.W_O


@dataclass(frozen=True)
class Layer:
    """Section 2 (one layer): heads, then the ReLU FFN W_2 ReLU(W_1 y + b_1) + b_2, both with residuals."""

    heads: tuple[Head, ...]
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: np.ndarray


@dataclass(frozen=True)
class Readout:
    """Format 2 output read-out: the word is accepted iff x^(L)[position][coordinate] > threshold."""

    coordinate: int
    position: str = "last"
    threshold: float = 0.5

    def __post_init__(self) -> None:
        if self.position not in READOUT_POSITIONS:
            raise ValueError(f"readout.position must be first or last, got {self.position!r}")
        if isinstance(self.coordinate, bool) or not isinstance(self.coordinate, (int, np.integer)) or self.coordinate < 0:
            raise ValueError(f"readout.coordinate must be a non-negative integer, got {self.coordinate!r}")
        t = float(self.threshold)
        if not np.isfinite(t):
            raise ValueError("readout.threshold must be finite")
        object.__setattr__(self, "coordinate", int(self.coordinate))
        object.__setattr__(self, "threshold", t)

    def accept(self, final: np.ndarray) -> np.ndarray:
        """Return the (batch,) bool acceptance from final activations (batch, n, d)."""
        pos = -1 if self.position == "last" else 0
        return final[:, pos, self.coordinate] > self.threshold


@dataclass(frozen=True)
class Model:
    """Section 2 (the transformer): alphabet, word embedding WE (|Sigma| x d), position embedding, layers."""

    alphabet: tuple[str, ...]
    WE: np.ndarray
    PE: PositionEmbedding
    layers: tuple[Layer, ...]
    name: str = "model"
    hard_mode: str = "average"
    readout: Readout | None = None

    def __post_init__(self) -> None:
        if len(self.alphabet) == 0:
            raise ValueError("the alphabet is empty")
        if len(set(self.alphabet)) != len(self.alphabet):
            raise ValueError("the alphabet repeats a symbol")
        WE = _matrix("word_embedding", self.WE, (len(self.alphabet), None))
        object.__setattr__(self, "WE", WE)
        d = WE.shape[1]
        if d == 0:
            raise ValueError("model dimension d must be positive")
        if not self.PE.features:
            object.__setattr__(self, "PE", PositionEmbedding((), np.zeros((0, d))))
        elif self.PE.matrix.shape[1] != d:
            raise ValueError(f"position_embedding.matrix has {self.PE.matrix.shape[1]} columns, expected d = {d}")
        if self.hard_mode not in ATTENTION_MODES[:3]:
            raise ValueError(f"hard_mode must be average, leftmost or rightmost, got {self.hard_mode!r}")
        layers = []
        for l, layer in enumerate(self.layers):
            heads = []
            for h, hd in enumerate(layer.heads):
                p = f"layers[{l}].heads[{h}]"
                WQ = _matrix(f"{p}.W_Q", hd.W_Q, (d, None))
                WK = _matrix(f"{p}.W_K", hd.W_K, (d, WQ.shape[1]))
                WV = _matrix(f"{p}.W_V", hd.W_V, (d, None))
                WO = _matrix(f"{p}.W_O", hd.W_O, (WV.shape[1], d))
                if hd.mask not in MASK_KINDS:
                    raise ValueError(f"{p}.mask is {hd.mask!r}; expected one of {', '.join(MASK_KINDS)}")
                if hd.hard_mode is not None and hd.hard_mode not in HARD_MODES:
                    raise ValueError(f"{p}.hard_mode is {hd.hard_mode!r}; expected average, leftmost or rightmost")
                heads.append(Head(WQ, WK, WV, WO, hd.mask, hd.hard_mode))
            p = f"layers[{l}].ffn"
            W1 = _matrix(f"{p}.W1", layer.W1, (d, None))
            b1 = _matrix(f"{p}.b1", layer.b1, (W1.shape[1],))
            W2 = _matrix(f"{p}.W2", layer.W2, (W1.shape[1], d))
            b2 = _matrix(f"{p}.b2", layer.b2, (d,))
            layers.append(Layer(tuple(heads), W1, b1, W2, b2))
        object.__setattr__(self, "layers", tuple(layers))
        if self.readout is not None and self.readout.coordinate >= d:
            raise ValueError(f"readout.coordinate {self.readout.coordinate} is out of range 0..{d - 1}")

    @property
    def d(self) -> int:
        """Return the model dimension d."""
        return int(self.WE.shape[1])

    @property
    def depth(self) -> int:
        """Return the number of layers L."""
        return len(self.layers)

    def embed(self, inputs: np.ndarray) -> np.ndarray:
        """Section 2: return x^(0) = WE[w_i] + PE(i, n) for a (batch, n) array of symbol indices."""
        w = require_inputs(inputs, len(self.alphabet))
        return self.WE[w] + self.PE.apply(w.shape[1])[None, :, :]

    def encode(self, words: Sequence[str] | Sequence[Sequence[str]]) -> np.ndarray:
        """Return the (batch, n) index array of words over the alphabet (strings of single-character symbols, or lists)."""
        index = {a: k for k, a in enumerate(self.alphabet)}
        rows = []
        for w in words:
            try:
                rows.append([index[c] for c in w])
            except KeyError as e:
                raise ValueError(f"symbol {e.args[0]!r} is not in the alphabet {list(self.alphabet)}") from None
        if not rows or len({len(r) for r in rows}) != 1:
            raise ValueError("inputs must be a non-empty batch of words of one length")
        return np.array(rows, dtype=np.int64)


def require_inputs(inputs: np.ndarray, alphabet_size: int) -> np.ndarray:
    """Return inputs as a (batch, n) int array after checking shape and symbol range."""
    w = np.asarray(inputs)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2:
        raise ValueError(f"inputs must be a (batch, n) array of symbol indices, got shape {w.shape}")
    if w.shape[0] == 0 or w.shape[1] == 0:
        raise ValueError("inputs are empty: need at least one word of length >= 1")
    if not np.issubdtype(w.dtype, np.integer):
        raise ValueError("inputs must be integer symbol indices")
    if w.min() < 0 or w.max() >= alphabet_size:
        raise ValueError(f"symbol index out of range 0..{alphabet_size - 1}")
    return w.astype(np.int64)


# --------------------------------------------------------------------------- running

#: Score entries computed at once per head (batch slice x n x n); 2^22 float64 = 32 MiB.
SCORE_SLICE_ELEMENTS = 2**22


@dataclass
class Trace:
    """The result of ``run``: activations x^(0..L) (each (batch, n, d)); with record=True also scores and gaps."""

    mode: str
    tau: float | None
    activations: list[np.ndarray]
    gaps: list[list[np.ndarray]] = field(default_factory=list)  # [layer][head] -> (batch, n) per-query gaps


def _weights(s: np.ndarray, mask: np.ndarray, mode: str, tau: float | None) -> np.ndarray:
    """Return attention weights of scores s (batch, n, n) under a 2-D mask with non-empty rows, in place where possible."""
    s = np.where(mask, s, -np.inf) if not mask.all() else s
    rowmax = s.max(axis=-1, keepdims=True)
    if mode == "soft":
        s -= rowmax
        s /= tau
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return s
    top = s >= rowmax - TIE_RTOL * np.maximum(1.0, np.abs(rowmax))
    if mode == "average":
        return top / top.sum(axis=-1, keepdims=True)
    n = s.shape[-1]
    idx = np.argmax(top, axis=-1) if mode == "leftmost" else n - 1 - np.argmax(top[..., ::-1], axis=-1)
    out = np.zeros(s.shape)
    np.put_along_axis(out, idx[..., None], 1.0, axis=-1)
    return out


def _gaps(s: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Return per-query gaps (batch, n) of scores under a 2-D mask, +inf where all visible keys tie or none is visible."""
    sm = np.where(mask, s, -np.inf)
    rowmax = sm.max(axis=-1, keepdims=True)
    off = mask & (s < rowmax - TIE_RTOL * np.maximum(1.0, np.abs(rowmax)))
    second = np.where(off, s, -np.inf).max(axis=-1, keepdims=True)
    g = (rowmax - second)[..., 0]
    g[~np.isfinite(rowmax[..., 0])] = np.inf
    return g


def head_mode(model: Model, head: Head, mode: str) -> str:
    """Return the attention mode a head uses in a run of ``mode`` (its own hard mode wins in every hard run)."""
    if mode == "soft":
        return "soft"
    if head.hard_mode is not None:
        return head.hard_mode
    return model.hard_mode if mode == "hard" else mode


def run(model: Model, inputs: np.ndarray, mode: str, tau: float | None = None, record: bool = False) -> Trace:
    """Section 2: return every layer's activations of the model on a batch, in one attention mode with the SAME parameters.

    mode: average (AHAT), leftmost / rightmost (UHAT), soft (tau-SMAT, needs tau), or
    hard (each head's own hard mode, else the model's).  A head with its own
    hard mode (format 2) uses it in every hard run.
    record=True also keeps the per-query gap of every head (use it in a hard mode).
    """
    if mode not in ATTENTION_MODES and mode != "hard":
        raise ValueError(f"unknown attention mode {mode!r}; expected one of {', '.join(ATTENTION_MODES)} or hard")
    t = require_tau(tau) if mode == "soft" else None
    x = model.embed(inputs)
    n = x.shape[1]
    masks = {k: make_mask(k, n) for k in MASK_KINDS}
    step = max(1, SCORE_SLICE_ELEMENTS // (n * n))
    trace = Trace(mode, t, [x])
    for layer in model.layers:
        y = x.copy()
        layer_gaps = []
        for hd in layer.heads:
            mask = masks[hd.mask]
            nonempty = np.asarray(mask.any(axis=-1))  # an array, not numpy.bool (mypy: indexable)
            safe = mask | ~nonempty[:, None]  # empty rows see all keys; their output is zeroed below
            Q, K, V = x @ hd.W_Q, x @ hd.W_K, x @ hd.W_V
            gaps = []
            # Work on slices of the batch so the (slice, n, n) score arrays stay cache- and allocator-friendly.
            for lo in range(0, x.shape[0], step):
                s = Q[lo : lo + step] @ K[lo : lo + step].transpose(0, 2, 1)
                if record:
                    g = _gaps(s, safe)
                    g[:, ~nonempty] = np.inf
                    gaps.append(g)
                alpha = _weights(s, safe, head_mode(model, hd, mode), t)
                if not nonempty.all():
                    alpha[:, ~nonempty, :] = 0.0
                y[lo : lo + step] += (alpha @ V[lo : lo + step]) @ hd.W_O
            if record:
                layer_gaps.append(np.concatenate(gaps))
        x = y + np.maximum(y @ layer.W1 + layer.b1, 0.0) @ layer.W2 + layer.b2
        trace.activations.append(x)
        if record:
            trace.gaps.append(layer_gaps)
    return trace


# --------------------------------------------------------------------------- measuring


def enumerate_inputs(alphabet_size: int, n: int, chunk: int = 8192) -> Iterator[np.ndarray]:
    """Proposition 24 (finitely many inputs): yield all alphabet_size^n inputs of length n, in chunks of (<= chunk, n)."""
    if alphabet_size <= 0 or n <= 0:
        raise ValueError("enumeration needs a non-empty alphabet and n >= 1")
    total = alphabet_size**n
    if total > 2**26:
        raise ValueError(f"{alphabet_size}^{n} = {total} inputs are too many to enumerate (limit 2^26)")
    powers = alphabet_size ** np.arange(n - 1, -1, -1, dtype=np.int64)
    for start in range(0, total, chunk):
        idx = np.arange(start, min(start + chunk, total), dtype=np.int64)
        yield (idx[:, None] // powers[None, :]) % alphabet_size


@dataclass(frozen=True)
class Measurement:
    """Proposition 24 / Lemma 29 measured: gamma_T(n) per layer and head, its minimum, and x_max(n)."""

    n: int
    inputs: int
    gap_per_head: tuple[tuple[float, ...], ...]
    gap: float
    x_max: float
    x_max_per_layer: tuple[float, ...]


def measure(model: Model, n: int, inputs: np.ndarray | None = None, mode: str | None = None) -> Measurement:
    """Proposition 24 and Lemma 29: return the measured gap gamma_T(n) per layer and head and x_max(n) in a hard mode.

    With inputs=None, every input of length n is enumerated (exhaustive); otherwise
    the given (batch, n) inputs are used (a lower estimate of x_max, upper of gamma).
    """
    mode = mode or "hard"
    if mode == "soft":
        raise ValueError("gaps are measured in a hard attention mode")
    batches = enumerate_inputs(len(model.alphabet), n) if inputs is None else [require_inputs(inputs, len(model.alphabet))]
    L = model.depth
    gmin = [[np.inf] * len(layer.heads) for layer in model.layers]
    xmax = [0.0] * (L + 1)
    count = 0
    for w in batches:
        if w.shape[1] != n:
            raise ValueError(f"inputs have length {w.shape[1]}, expected n = {n}")
        tr = run(model, w, mode, record=True)
        count += w.shape[0]
        for l in range(L):
            for h, g in enumerate(tr.gaps[l]):
                gmin[l][h] = min(gmin[l][h], float(g.min()))
        for l, x in enumerate(tr.activations):
            xmax[l] = max(xmax[l], float(np.abs(x).max()))
    gap = min((g for row in gmin for g in row), default=np.inf)
    return Measurement(n, count, tuple(tuple(r) for r in gmin), gap, max(xmax), tuple(xmax))


def _exact(M: np.ndarray) -> np.ndarray:
    """Return a float array as an object array of exact rationals (every float is a dyadic rational)."""
    return np.vectorize(Fraction, otypes=[object])(np.asarray(M, dtype=np.float64))


def _col_exact(M: np.ndarray) -> Fraction:
    """Return |M|_col = max_l sum_k |M_kl| exactly (0 for an empty matrix)."""
    if M.size == 0:
        return Fraction(0)
    return max(sum((abs(v) for v in col), Fraction(0)) for col in M.T)


def compute_layer_norms(layer: Layer) -> LayerNorms:
    """Lemma 25's norms of one layer: |A^h|_sum, |B^h|_col per head, Lip F <= |W_1|_col |W_2|_col, bias norms.

    Computed exactly from the float weights (rational products A = W_Q W_K^T, B = W_V W_O,
    exact sums) and rounded UP to floats: every norm is >= its exact value, so the
    constants of Lemma 25 built from them are certified, not rounded to nearest.
    """
    heads = [(_exact(h.W_Q) @ _exact(h.W_K).T, _exact(h.W_V) @ _exact(h.W_O)) for h in layer.heads]
    W1_col, W2_col = _col_exact(_exact(layer.W1)), _col_exact(_exact(layer.W2))
    return LayerNorms(
        A_sums=tuple(float_up(sum((abs(v) for v in A.ravel()), Fraction(0))) for A, _ in heads),
        B_cols=tuple(float_up(_col_exact(B)) for _, B in heads),
        lip_F=float_up(W1_col * W2_col),
        W2_col=float_up(W2_col),
        b1_inf=float(np.abs(layer.b1).max(initial=0.0)),
        b2_inf=float(np.abs(layer.b2).max(initial=0.0)),
    )


def compute_model_norms(model: Model) -> list[LayerNorms]:
    """Lemma 25: return the norms of every layer of the model."""
    return [compute_layer_norms(layer) for layer in model.layers]


def compute_layer_errors(hard: Trace, soft: Trace) -> list[float]:
    """Theorem 26 measured: return max_i ||x'^(l)_i - x^(l)_i||_inf for l = 0..L (soft minus hard)."""
    if len(hard.activations) != len(soft.activations):
        raise ValueError("the two traces come from models of different depth")
    return [float(np.abs(a - b).max()) for a, b in zip(hard.activations, soft.activations)]

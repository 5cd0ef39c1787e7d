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

Model format 3 additions (models imported from other tools): an optional beginning-of-sequence
token (``Model.bos_token`` with its embedding row ``Model.bos_embedding``) always at position 0,
so a run on inputs of length n has n + 1 positions (``Model.positions``) and every bound counts
them; a fixed position table (``PositionEmbedding.table``, one row per position, BOS included)
valid up to its length, longer inputs refused; a per-position output (``Output``: the argmax of
the logits x W + b over labelled columns, or one numeric column); a per-model tie tolerance
(``Model.tie_rtol``), and the model's own temperature (``Model.own_tau``, e.g. TransformerLens's
attn_scale).  Biases of the attention projections are folded through a constant coordinate by
the importer (docs/interchange.md), so a head is still W_Q, W_K, W_V, W_O and every bound of
spec.bounds applies to the folded weights unchanged.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from hardsoft.spec import bounds as bd
from hardsoft.spec import norms as nm
from hardsoft.spec.bounds import LayerNorms, float_up
from hardsoft.spec.constants import ATTENTION_MODES, E2E_ROUNDING_FACTOR, FLOAT64_EPS, HARD_MODES, MASK_KINDS, MAX_INTEGER, TIE_RTOL, TIE_RTOL_MAX
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

# Format 4: numerical predicates of position, parameter-uniform (one function of (i, n) for every n,
# not a table up to a length), 0/1 valued, computed from Python ints (exact for every i and n).
# One spelling per feature (``mod_feature``, ``linear_feature``): a file's name is read back and
# must print the same, so equal features have equal names.

#: The two kinds of numerical-predicate features (format 4), as they are spelt.
PREDICATE_KINDS: tuple[str, ...] = ("i mod M = R", "P*i + Q*n + R > 0")
_MOD_NAME = re.compile(r"i mod (\d{1,20}) = (\d{1,20})")
_LINEAR_NAME = re.compile(r"(-?\d{1,20})\*i ([+-]) (\d{1,20})\*n ([+-]) (\d{1,20}) > 0")


def mod_feature(m: int, r: int) -> str:
    """Return the name of the feature [i mod m = r] (format 4): 1 where position i has residue r modulo m, else 0."""
    return f"i mod {m} = {r}"


def linear_feature(p: int, q: int, r: int) -> str:
    """Return the name of the feature [p*i + q*n + r > 0] (format 4): 1 where the integer p*i + q*n + r is positive, else 0."""
    return f"{p}*i {'-' if q < 0 else '+'} {abs(q)}*n {'-' if r < 0 else '+'} {abs(r)} > 0"


def predicate_feature(name: str) -> tuple[str, tuple[int, ...]] | None:
    """Return ("mod", (m, r)) or ("linear", (p, q, r)) for a numerical-predicate feature name, None for any other name.

    ValueError (one line, naming the feature) for a name of one of these shapes whose
    parameters are out of range: 1 <= m <= MAX_INTEGER and 0 <= r < m; |p|, |q|, |r| <= MAX_INTEGER;
    or that is not spelt the one way ``mod_feature`` / ``linear_feature`` spell it.
    """
    params: tuple[int, ...]
    m = _MOD_NAME.fullmatch(name)
    if m is not None:
        mod, res = int(m.group(1)), int(m.group(2))
        if not 1 <= mod <= MAX_INTEGER:
            raise ValueError(f"position feature {name!r}: the modulus must be in 1..{MAX_INTEGER}")
        if not res < mod:
            raise ValueError(f"position feature {name!r}: the residue must be in 0..{mod - 1}")
        kind, params = "mod", (mod, res)
        spelt = mod_feature(mod, res)
    else:
        m = _LINEAR_NAME.fullmatch(name)
        if m is None:
            return None
        p = int(m.group(1))
        q = int(m.group(3)) * (-1 if m.group(2) == "-" else 1)
        r = int(m.group(5)) * (-1 if m.group(4) == "-" else 1)
        if max(abs(p), abs(q), abs(r)) > MAX_INTEGER:
            raise ValueError(f"position feature {name!r}: coefficients must be at most {MAX_INTEGER} in absolute value")
        kind, params = "linear", (p, q, r)
        spelt = linear_feature(p, q, r)
    if spelt != name:
        raise ValueError(f"position feature {name!r}: write it as {spelt!r}")
    return kind, params


def is_predicate_feature(name: str) -> bool:
    """Return whether name is a well-formed numerical-predicate feature (format 4)."""
    try:
        return predicate_feature(name) is not None
    except ValueError:
        return False


def _mod_phi(m: int, r: int) -> Callable[[np.ndarray, int], np.ndarray]:
    def phi(i: np.ndarray, n: int) -> np.ndarray:
        return np.array([1.0 if k % m == r else 0.0 for k in np.asarray(i).tolist()], dtype=np.float64).reshape(np.shape(i))

    return phi


def _linear_phi(p: int, q: int, r: int) -> Callable[[np.ndarray, int], np.ndarray]:
    def phi(i: np.ndarray, n: int) -> np.ndarray:
        qn_r = q * int(n) + r  # Python ints: exact for every n, never rounded through float64
        return np.array([1.0 if p * k + qn_r > 0 else 0.0 for k in np.asarray(i).tolist()], dtype=np.float64).reshape(np.shape(i))

    return phi


def feature_function(name: str) -> Callable[[np.ndarray, int], np.ndarray]:
    """Return phi_f(i, n) of a position feature: a named one of PE_FEATURES or a numerical predicate (ValueError otherwise)."""
    if name in PE_FEATURES:
        return PE_FEATURES[name]
    parsed = predicate_feature(name)
    if parsed is None:
        kinds = " and ".join(map(repr, PREDICATE_KINDS))
        raise ValueError(f"unknown position feature {name!r}; known: {', '.join(PE_FEATURES)}, and the predicates {kinds}")
    kind, params = parsed
    return _mod_phi(*params) if kind == "mod" else _linear_phi(*params)


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
    table: np.ndarray | None = None  # format 3: (rows, d), row i added at position i; valid for n <= rows
    exact_length: bool = False  # format 5: the table is valid for n = rows only (it froze features of the length n)

    def __post_init__(self) -> None:
        for f in self.features:
            feature_function(f)  # ValueError naming an unknown or malformed feature
        m = self.matrix
        if not self.features and np.asarray(m).size == 0 and np.asarray(m).ndim != 2:
            m = np.zeros((0, 0))  # no position embedding; the model fixes the width
        object.__setattr__(self, "matrix", _matrix("position_embedding.matrix", m, (len(self.features), None)))
        if self.table is not None:
            t = _matrix("position_embedding.table", self.table, (None, None))
            if t.shape[0] == 0:
                raise ValueError("position_embedding.table has no rows")
            object.__setattr__(self, "table", t)
        elif self.exact_length:
            raise ValueError("position_embedding.exact_length needs a position table")

    @property
    def max_positions(self) -> int | None:
        """Return the number of positions the table covers (None: no table, any length)."""
        return None if self.table is None else int(self.table.shape[0])

    def apply(self, n: int) -> np.ndarray:
        """Return the (n, d) matrix of PE(i, n) for i = 0..n-1 (features, plus the table's first n rows)."""
        i = np.arange(n)
        phi = np.stack([feature_function(f)(i, n) for f in self.features], axis=1) if self.features else np.zeros((n, 0))
        out = phi @ self.matrix
        if self.table is None:
            return out
        if n > self.table.shape[0]:
            raise ValueError(f"{n} positions exceed the position table ({self.table.shape[0]} rows): inputs this long are outside the model")
        if self.exact_length and n != self.table.shape[0]:
            raise ValueError(f"{n} positions: the position table serves exactly {self.table.shape[0]} positions (exact_length)")
        return out + self.table[:n] if self.features else self.table[:n].copy()


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


#: Kinds of a format 3 per-position output: the argmax over labelled logits, or one numeric logit.
OUTPUT_KINDS: tuple[str, ...] = ("categorical", "numerical")


@dataclass(frozen=True)
class Output:
    """Format 3 per-position output: logits x W + b of the final activations; categorical = argmax label, numerical = the value."""

    kind: str
    W: np.ndarray  # (d, m); a 0/1 selection of coordinates makes it an argmax over named coordinates
    b: np.ndarray  # (m,)
    labels: tuple[str, ...] | None = None  # categorical: one per column

    def __post_init__(self) -> None:
        if self.kind not in OUTPUT_KINDS:
            raise ValueError(f"output.kind must be categorical or numerical, got {self.kind!r}")
        W = _matrix("output.W", self.W, (None, None))
        b = _matrix("output.b", self.b, (W.shape[1],))
        if W.shape[1] == 0:
            raise ValueError("output.W has no columns")
        if self.kind == "numerical" and W.shape[1] != 1:
            raise ValueError(f"output.W of a numerical output has {W.shape[1]} columns, expected 1")
        if self.kind == "categorical":
            if self.labels is None or len(self.labels) != W.shape[1]:
                got = "none" if self.labels is None else str(len(self.labels))
                raise ValueError(f"output.labels: a categorical output needs one label per column of output.W ({W.shape[1]}), got {got}")
            if not all(isinstance(x, str) for x in self.labels):
                raise ValueError("output.labels must be strings")
        object.__setattr__(self, "W", W)
        object.__setattr__(self, "b", b)
        if self.labels is not None:
            object.__setattr__(self, "labels", tuple(self.labels))

    def logits(self, final: np.ndarray) -> np.ndarray:
        """Return the (batch, n, m) logits of final activations (batch, n, d)."""
        return final @ self.W + self.b

    def decode(self, final: np.ndarray) -> np.ndarray:
        """Return per-position outputs: label indices (argmax, first on ties) or numeric values, shape (batch, n)."""
        z = self.logits(final)
        return np.argmax(z, axis=-1) if self.kind == "categorical" else z[..., 0]


@dataclass(frozen=True)
class Model:
    """Section 2 (the transformer): alphabet, word embedding WE (|Sigma| x d), position embedding, layers.

    Format 3: an optional BOS token (``bos_token``, embedding row ``bos_embedding``) at position 0
    before every input, a per-position ``output``, the tie tolerance ``tie_rtol`` of the hard modes
    and the model's own temperature ``own_tau``.
    """

    alphabet: tuple[str, ...]
    WE: np.ndarray
    PE: PositionEmbedding
    layers: tuple[Layer, ...]
    name: str = "model"
    hard_mode: str = "average"
    readout: Readout | None = None
    bos_token: str | None = None
    bos_embedding: np.ndarray | None = None
    output: Output | None = None
    tie_rtol: float = TIE_RTOL
    own_tau: float | None = None

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
        if (self.bos_token is None) != (self.bos_embedding is None):
            raise ValueError("bos: a BOS token needs its embedding row and an embedding row needs its token")
        if self.bos_token is not None:
            if not isinstance(self.bos_token, str) or not self.bos_token or self.bos_token in self.alphabet:
                raise ValueError(f"bos.token must be a non-empty string outside the alphabet, got {self.bos_token!r}")
            object.__setattr__(self, "bos_embedding", _matrix("bos.embedding", self.bos_embedding, (d,)))
        t = self.tie_rtol
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not (0.0 <= float(t) <= TIE_RTOL_MAX):
            raise ValueError(f"tie_rtol must be a number in [0, {TIE_RTOL_MAX}], got {t!r}")
        object.__setattr__(self, "tie_rtol", float(t))
        if self.own_tau is not None:
            object.__setattr__(self, "own_tau", require_tau(self.own_tau))
        if self.PE.table is not None and self.PE.table.shape[1] != d:
            raise ValueError(f"position_embedding.table has {self.PE.table.shape[1]} columns, expected d = {d}")
        if self.PE.table is not None and self.bos_token is not None and self.PE.table.shape[0] < 2:
            raise ValueError("position_embedding.table must cover BOS and at least one input position")
        if not self.PE.features:
            object.__setattr__(self, "PE", PositionEmbedding((), np.zeros((0, d)), self.PE.table, self.PE.exact_length))
        elif self.PE.matrix.shape[1] != d:
            raise ValueError(f"position_embedding.matrix has {self.PE.matrix.shape[1]} columns, expected d = {d}")
        if self.output is not None and self.output.W.shape[0] != d:
            raise ValueError(f"output.W has {self.output.W.shape[0]} rows, expected d = {d}")
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

    @property
    def offset(self) -> int:
        """Return the number of positions before the input: 1 with a BOS token, else 0."""
        return 0 if self.bos_token is None else 1

    def positions(self, n: int) -> int:
        """Return the number of positions of a run on inputs of length n (n + 1 with BOS): the N of every bound."""
        return n + self.offset

    @property
    def max_input_length(self) -> int | None:
        """Return the longest input the position table covers (None: any length)."""
        rows = self.PE.max_positions
        return None if rows is None else rows - self.offset

    def require_length(self, n: int) -> int:
        """Return n after checking the position table covers inputs of length n (one-line ValueError otherwise)."""
        m = self.max_input_length
        bos = " after BOS" if self.bos_token is not None else ""
        if m is not None and n > m:
            raise ValueError(f"input length {n} exceeds the model's position table: at most {m} symbols{bos}")
        if m is not None and self.PE.exact_length and n != m:
            raise ValueError(f"input length {n}: the model serves inputs of exactly {m} symbols{bos} (its table froze features of the length)")
        return n

    def embed(self, inputs: np.ndarray) -> np.ndarray:
        """Section 2: return x^(0) = WE[w_i] + PE(i, n) for a (batch, n) array of symbol indices (BOS prepended in format 3)."""
        w = require_inputs(inputs, len(self.alphabet))
        self.require_length(w.shape[1])
        x = self.WE[w]
        if self.bos_embedding is not None:
            bos = np.broadcast_to(self.bos_embedding, (w.shape[0], 1, self.d))
            x = np.concatenate([bos, x], axis=1)
        return x + self.PE.apply(x.shape[1])[None, :, :]

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


# --------------------------------------------------------------------------- memory

#: Environment variable that sets the memory a run may use, in bytes (default: the machine's physical memory).
MEMORY_LIMIT_VARIABLE = "HARDSOFT_MEMORY_LIMIT"


def memory_limit_bytes() -> int | None:
    """Return the memory a run may use: $HARDSOFT_MEMORY_LIMIT bytes if set, else the machine's physical memory (None if unknown)."""
    given = os.environ.get(MEMORY_LIMIT_VARIABLE)
    if given:
        try:
            value = int(given)
        except ValueError:
            raise ValueError(f"${MEMORY_LIMIT_VARIABLE} must be a number of bytes, got {given!r}") from None
        if value < 1:
            raise ValueError(f"${MEMORY_LIMIT_VARIABLE} must be a positive number of bytes, got {given!r}")
        return value
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return None


def format_bytes(b: float) -> str:
    """Return a number of bytes in a readable unit (GiB, TiB, ...)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if b < 1024 or unit == "PiB":
            return f"{b:.3g} {unit}"
        b /= 1024
    return f"{b:.3g} PiB"  # pragma: no cover - the loop returns


def estimate_run_bytes(model: Model, batch: int, n: int) -> int:
    """Return an estimate of the memory ``run`` needs for ``batch`` inputs of length n (float64 throughout).

    The trace keeps every layer's activations, (L + 1) * batch * N * d; one layer adds the heads'
    queries, keys and values, their output, the FFN's hidden units and y, each batch * N wide; the
    attention works in blocks of SCORE_SLICE_ELEMENTS scores (N = the positions, BOS included).
    """
    N = model.positions(int(n))
    rows = int(batch) * N
    widest = 0
    for layer in model.layers:
        heads = sum(h.W_Q.shape[1] + h.W_K.shape[1] + 2 * h.W_V.shape[1] + 1 for h in layer.heads)
        widest = max(widest, heads + layer.W1.shape[1] + 2 * model.d)
    return 8 * (rows * model.d * (model.depth + 1) + rows * widest + 4 * SCORE_SLICE_ELEMENTS)


def require_run_memory(model: Model, batch: int, n: int) -> int:
    """Return the estimated bytes of a run, or raise ValueError naming the estimate and the limit when it exceeds the machine's memory."""
    need = estimate_run_bytes(model, batch, n)
    limit = memory_limit_bytes()
    if limit is not None and need > limit:
        raise ValueError(
            f"a run of {batch} input(s) of length {n} needs about {format_bytes(need)} of memory, more than the {format_bytes(limit)} "
            f"this machine has (${MEMORY_LIMIT_VARIABLE} sets another limit); use fewer or shorter inputs"
        )
    return need


# --------------------------------------------------------------------------- running

#: Score entries computed at once per head (a block of queries x n keys, over a slice of the batch when n is small):
#: 2^16 float64 = 512 KiB, so that the softmax's passes over a block stay in the core's cache.
SCORE_SLICE_ELEMENTS = 2**16
#: Scaled scores (s - max)/tau below this are raised to it before exp: exp of an argument below about -708.4 is
#: subnormal or 0 and takes numpy's slow path (about 100x slower).  The weight of such a key changes by at most
#: exp(SOFTMAX_EXP_FLOOR) ~ 1e-304 against a row sum >= 1, far below the run's rounding allowance; masked keys
#: are zeroed after the exponential, so they keep weight exactly 0.
SOFTMAX_EXP_FLOOR = -700.0


@dataclass
class Trace:
    """The result of ``run``: activations x^(0..L) (each (batch, n, d)); with record=True also scores and gaps."""

    mode: str
    tau: float | None
    activations: list[np.ndarray]
    gaps: list[list[np.ndarray]] = field(default_factory=list)  # [layer][head] -> (batch, n) per-query gaps
    spreads: list[list[float]] = field(default_factory=list)  # [layer][head] -> largest tie spread (max - lowest tied score)


def _weights(s: np.ndarray, mask: np.ndarray, mode: str, tau: float | None, tie_rtol: float = TIE_RTOL) -> np.ndarray:
    """Return attention weights of scores s (batch, n, n) under a 2-D mask with non-empty rows, in place where possible."""
    s = np.where(mask, s, -np.inf) if not mask.all() else s
    rowmax = s.max(axis=-1, keepdims=True)
    if mode == "soft":
        s -= rowmax
        s /= tau
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return s
    top = s >= rowmax - tie_rtol * np.maximum(1.0, np.abs(rowmax))
    if mode == "average":
        return top / top.sum(axis=-1, keepdims=True)
    n = s.shape[-1]
    idx = np.argmax(top, axis=-1) if mode == "leftmost" else n - 1 - np.argmax(top[..., ::-1], axis=-1)
    out = np.zeros(s.shape)
    np.put_along_axis(out, idx[..., None], 1.0, axis=-1)
    return out


def _gaps(s: np.ndarray, mask: np.ndarray, tie_rtol: float = TIE_RTOL) -> tuple[np.ndarray, np.ndarray]:
    """Return per-query gaps and tie spreads (batch, n) of scores under a 2-D mask.

    Scores within the tie tolerance of the row maximum count as tied: the gap is the row
    maximum minus the largest score NOT tied (+inf where all visible keys tie or none is
    visible), the spread the row maximum minus the lowest tied score (0 for exact ties).
    """
    sm = np.where(mask, s, -np.inf)
    rowmax = sm.max(axis=-1, keepdims=True)
    tied = s >= rowmax - tie_rtol * np.maximum(1.0, np.abs(rowmax))
    off = mask & ~tied
    second = np.where(off, s, -np.inf).max(axis=-1, keepdims=True)
    g = (rowmax - second)[..., 0]
    finite = np.isfinite(rowmax[..., 0])
    g[~finite] = np.inf
    lowest = np.where(mask & tied, s, np.inf).min(axis=-1)
    spread = np.where(finite, rowmax[..., 0] - lowest, 0.0)
    return g, spread


def head_mode(model: Model, head: Head, mode: str) -> str:
    """Return the attention mode a head uses in a run of ``mode`` (its own hard mode wins in every hard run)."""
    if mode == "soft":
        return "soft"
    if head.hard_mode is not None:
        return head.hard_mode
    return model.hard_mode if mode == "hard" else mode


@dataclass(frozen=True)
class Block:
    """One block of ``run``'s attention: query rows, the key columns any of them sees, and where some rows see a key and others not.

    ``keys`` [c0, c1) holds every key a query of ``rows`` sees (keys outside it have weight 0 and
    are not computed); ``mixed``, relative to ``keys``, the columns not seen by every row (the mask
    is applied there only; an empty slice when every row sees every key of ``keys``).
    """

    rows: slice
    keys: slice
    mixed: slice


@dataclass(frozen=True)
class MaskPlan:
    """One mask kind at length n as ``run`` applies it: the row blocks, and per block the mask's 0/-inf bias and 0/1 keep on its mixed columns.

    No (n, n) array is kept: a block's rows of the mask are computed when needed (``visible``), so
    a long input costs its blocks, not n^2 Booleans per mask kind.
    """

    kind: str
    n: int
    empty: np.ndarray  # (n,) bool: the queries that see no key (strict masks); they are given every key and their output zeroed
    blocks: tuple[Block, ...]
    bias: tuple[np.ndarray | None, ...]  # per block: (rows, mixed) 0 where visible, -inf elsewhere; None without mixed columns
    keep: tuple[np.ndarray | None, ...]  # per block: (rows, mixed) 0/1

    def visible(self, rows: slice, keys: slice) -> np.ndarray:
        """Return the (rows, keys) block of the mask, a query that sees no key seeing every key."""
        return _mask_rows(self.kind, rows, self.n)[:, keys]


def _mask_rows(kind: str, rows: slice, n: int) -> np.ndarray:
    """Return rows of ``spec.attention.make_mask(kind, n)`` (tested equal to it), a row without a visible key made all visible."""
    i = np.arange(n)[rows][:, None]
    j = np.arange(n)[None, :]
    if kind == "none":
        vis = np.ones((i.shape[0], n), dtype=bool)
    elif kind == "causal":
        vis = j <= i
    elif kind == "strict":
        vis = j < i
    elif kind == "anticausal":
        vis = j >= i
    elif kind == "strict_anticausal":
        vis = j > i
    else:
        raise ValueError(f"unknown mask kind {kind!r}; expected one of {', '.join(MASK_KINDS)}")
    vis |= ~vis.any(axis=-1, keepdims=True)
    return vis


def plan_mask(kind: str, n: int, rows_per_block: int) -> MaskPlan:
    """Return the blocks of queries (``rows_per_block`` rows each) of a mask kind at length n, with their key ranges and mixed columns."""
    blocks, biases, keeps, empty = [], [], [], np.zeros(n, dtype=bool)
    for r0 in range(0, n, rows_per_block):
        rows = slice(r0, min(n, r0 + rows_per_block))
        vis = _mask_rows(kind, rows, n)
        empty[rows] = _no_key(kind, rows, n)
        seen = np.flatnonzero(vis.any(axis=0))
        c0, c1 = int(seen[0]), int(seen[-1]) + 1
        partial = np.flatnonzero(~vis[:, c0:c1].all(axis=0))
        mixed = slice(int(partial[0]), int(partial[-1]) + 1) if partial.size else slice(0, 0)
        blocks.append(Block(rows, slice(c0, c1), mixed))
        part = vis[:, c0:c1][:, mixed]
        biases.append(np.where(part, 0.0, -np.inf) if partial.size else None)
        keeps.append(part.astype(np.float64) if partial.size else None)
    return MaskPlan(kind, n, empty, tuple(blocks), tuple(biases), tuple(keeps))


def _no_key(kind: str, rows: slice, n: int) -> np.ndarray:
    """Return which queries of the rows see no key under the mask (strict: query 0; strict_anticausal: query n - 1)."""
    i = np.arange(n)[rows]
    if kind == "strict":
        return np.asarray(i == 0)
    if kind == "strict_anticausal":
        return np.asarray(i == n - 1)
    return np.zeros(i.shape, dtype=bool)


def _attend_block(
    s: np.ndarray, V1: np.ndarray, blk: Block, bias: np.ndarray | None, keep: np.ndarray | None, mode: str, tie_rtol: float, out: np.ndarray
) -> None:
    """Write one block's head output alpha V (before W_O) into out (b, r, v) from its scores s (b, r, keys); s is overwritten.

    V1 (b, keys, v + 1) is V with a column of ones, so that one product gives both sum_j e_j V_j
    and sum_j e_j.  Soft (s holds scores / tau): each score's exponential once, exp(s - max)
    (arguments below SOFTMAX_EXP_FLOOR raised to it), masked keys zeroed, and (e V) / sum(e): the
    normalisation applied to the (r, v) output, not to the (r, n) weights.  When most arguments are
    below the floor (a tie-breaking head at a long input: only the keys near the top count), only
    the others are exponentiated and the rest weigh exactly 0 (at most exp(-700) ~ 1e-304 each in
    exact arithmetic), masked keys among them.  Average: (the tied keys'
    values summed) / their count.  Leftmost / rightmost: the chosen key's value row, gathered (a
    one-hot weight row times V, without the product).
    """
    if bias is not None:
        s[..., blk.mixed] += bias
    rowmax = s.max(axis=-1, keepdims=True)
    if mode == "soft":
        s -= rowmax
        above = s > SOFTMAX_EXP_FLOOR  # masked keys (-inf) are below: left at weight 0
        if np.count_nonzero(above) * 2 < above.size:  # most keys are far below the top: exponentiate only the others
            w = np.zeros_like(s)
            np.exp(s, out=w, where=above)
        else:
            np.maximum(s, SOFTMAX_EXP_FLOOR, out=s)
            np.exp(s, out=s)
            if keep is not None:
                s[..., blk.mixed] *= keep
            w = s
    else:
        top = s >= rowmax - tie_rtol * np.maximum(1.0, np.abs(rowmax))
        if mode != "average":
            k = s.shape[-1]
            idx = np.argmax(top, axis=-1) if mode == "leftmost" else k - 1 - np.argmax(top[..., ::-1], axis=-1)
            out[...] = np.take_along_axis(V1[..., :-1], idx[..., None], axis=1)
            return
        w = top.astype(np.float64)
    sums = w @ V1
    np.divide(sums[..., :-1], sums[..., -1:], out=out)


def attention_schedule(batch: int, n: int) -> tuple[int, int]:
    """Return (inputs per block, query rows per block) of ``run``'s attention: about SCORE_SLICE_ELEMENTS scores per block."""
    if n * n <= SCORE_SLICE_ELEMENTS:
        return max(1, SCORE_SLICE_ELEMENTS // (n * n)), n
    return 1, max(1, SCORE_SLICE_ELEMENTS // n)


def _attend(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, plan: MaskPlan, mode: str, tie_rtol: float, record: bool
) -> tuple[np.ndarray, np.ndarray | None, float]:
    """Return one head's alpha V (batch, n, v) and, with record, its per-query gaps (batch, n) and largest tie spread.

    Blocks of about SCORE_SLICE_ELEMENTS scores (``attention_schedule``): a slice of the batch with
    every query when n^2 is small, else one input's queries in slices of rows, each over the keys its
    queries see (``plan_mask``); a block's scores s = Q K^T, weights and output are computed while
    the block is in cache (``_attend_block``).  Soft mode: Q is already divided by tau.
    """
    batch, n, _ = Q.shape
    step, _ = attention_schedule(batch, n)
    out = np.empty((batch, n, V.shape[2]))
    gaps = np.empty((batch, n)) if record else None
    spread = 0.0
    Kt = np.ascontiguousarray(K.transpose(0, 2, 1))  # keys along the last axis, contiguous: a block's product reads rows (up to 4x faster)
    V1 = np.concatenate([V, np.ones((batch, n, 1))], axis=2)
    for lo in range(0, batch, step):
        bs = slice(lo, lo + step)
        for blk, bias, keep in zip(plan.blocks, plan.bias, plan.keep):
            rs, ks = blk.rows, blk.keys
            # one score dimension: the outer product itself (the same single products; numpy's matmul is slower at k = 1)
            s = Q[bs, rs] * Kt[bs, :, ks] if Q.shape[2] == 1 else Q[bs, rs] @ Kt[bs, :, ks]
            if record:
                vis = plan.visible(rs, ks)
                g, sp = _gaps(s, vis, tie_rtol)
                g[:, plan.empty[rs]] = np.inf
                gaps[bs, rs] = g  # type: ignore[index]
                spread = max(spread, float(sp[:, ~plan.empty[rs]].max(initial=0.0)))
            _attend_block(s, V1[bs, ks], blk, bias, keep, mode, tie_rtol, out[bs, rs])
    if plan.empty.any():
        out[:, plan.empty] = 0.0
    return out, gaps, spread


def run(model: Model, inputs: np.ndarray, mode: str, tau: float | None = None, record: bool = False) -> Trace:
    """Section 2: return every layer's activations of the model on a batch, in one attention mode with the SAME parameters.

    mode: average (AHAT), leftmost / rightmost (UHAT), soft (tau-SMAT, needs tau), or
    hard (each head's own hard mode, else the model's).  A head with its own
    hard mode (format 2) uses it in every hard run.
    record=True also keeps the per-query gap of every head (use it in a hard mode).

    Layout (speed, not meaning): the position-wise products (projections, W_O, the FFN) act on
    the activations as one (batch * n, d) matrix, one matrix product each; scores and weights
    are computed block by block (``_attend``).  A query that sees no key under a strict mask
    gets head output 0 in every mode.
    """
    if mode not in ATTENTION_MODES and mode != "hard":
        raise ValueError(f"unknown attention mode {mode!r}; expected one of {', '.join(ATTENTION_MODES)} or hard")
    t = require_tau(tau) if mode == "soft" else None
    w = require_inputs(inputs, len(model.alphabet))
    require_run_memory(model, w.shape[0], w.shape[1])  # refused up front, naming the estimate, not a MemoryError half-way
    x = model.embed(w)
    batch, n, d = x.shape
    masks: dict[str, MaskPlan] = {}
    rows_per_block = attention_schedule(batch, n)[1]
    trace = Trace(mode, t, [x])
    for layer in model.layers:
        x2 = x.reshape(batch * n, d)
        y2 = x2.copy() if layer.heads else x2  # the heads add into y; x stays in the trace
        layer_gaps = []
        layer_spreads: list[float] = []
        for hd in layer.heads:
            plan = masks.get(hd.mask) or masks.setdefault(hd.mask, plan_mask(hd.mask, n, rows_per_block))
            Q = (x2 @ hd.W_Q).reshape(batch, n, -1)
            hm = head_mode(model, hd, mode)
            if hm == "soft":
                Q /= t  # scores / tau straight from the product (the softmax needs no division pass)
            K = (x2 @ hd.W_K).reshape(batch, n, -1)
            V = (x2 @ hd.W_V).reshape(batch, n, -1)
            o, gaps, spread = _attend(Q, K, V, plan, hm, model.tie_rtol, record)
            y2 += o.reshape(batch * n, -1) @ hd.W_O
            if gaps is not None:
                layer_gaps.append(gaps)
                layer_spreads.append(spread)
        h = y2 @ layer.W1
        h += layer.b1
        np.maximum(h, 0.0, out=h)
        x2 = h @ layer.W2
        x2 += y2  # y + FFN(y) + b2, in place (the same floating-point sums as written out)
        x2 += layer.b2
        x = x2.reshape(batch, n, d)
        trace.activations.append(x)
        if record:
            trace.gaps.append(layer_gaps)
            trace.spreads.append(layer_spreads)
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
    tie_spread_per_head: tuple[tuple[float, ...], ...] = ()  # largest (row max - lowest tied score); 0 for exact ties

    @property
    def tie_spread(self) -> float:
        """Return the largest tie spread of any head (0 when every tie is exact)."""
        return max((s for row in self.tie_spread_per_head for s in row), default=0.0)


#: Activation entries (inputs x positions x d) measured per enumeration chunk: 2^20 float64 = 8 MiB; larger chunks run slower
#: per input (tracr's sort_freq at 16, d 348: 5.5 s per 8192 inputs in chunks of 256, 10.5 s in chunks of 4096).
MEASURE_CHUNK_ELEMENTS = 2**20


def measure(model: Model, n: int, inputs: np.ndarray | None = None, mode: str | None = None) -> Measurement:
    """Proposition 24 and Lemma 29: return the measured gap gamma_T(n) per layer and head and x_max(n) in a hard mode.

    With inputs=None, every input of length n is enumerated (exhaustive); otherwise
    the given (batch, n) inputs are used (a lower estimate of x_max, upper of gamma).
    """
    mode = mode or "hard"
    if mode == "soft":
        raise ValueError("gaps are measured in a hard attention mode")
    model.require_length(n)
    chunk = max(64, MEASURE_CHUNK_ELEMENTS // (model.positions(n) * model.d))  # activations that stay in cache: faster per input
    batches = enumerate_inputs(len(model.alphabet), n, chunk) if inputs is None else [require_inputs(inputs, len(model.alphabet))]
    L = model.depth
    gmin = [[np.inf] * len(layer.heads) for layer in model.layers]
    spread = [[0.0] * len(layer.heads) for layer in model.layers]
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
                spread[l][h] = max(spread[l][h], tr.spreads[l][h])
        for l, x in enumerate(tr.activations):
            xmax[l] = max(xmax[l], float(np.abs(x).max()))
    gap = min((g for row in gmin for g in row), default=np.inf)
    return Measurement(n, count, tuple(tuple(r) for r in gmin), gap, max(xmax), tuple(xmax), tuple(tuple(r) for r in spread))


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

    Computed from the float weights as rationals never below the exact values (spec.norms: exact
    rational products A = W_Q W_K^T, B = W_V W_O and sums for small matrices, a rigorous float64
    bound for wide ones) and rounded UP to floats: every norm is >= its exact value, so the
    constants of Lemma 25 built from them are certified, not rounded to nearest.
    """
    heads = [(nm.compute_product_sum_norm(h.W_Q, h.W_K.T), nm.compute_product_col_norm(h.W_V, h.W_O)) for h in layer.heads]
    W1_col, W2_col = nm.compute_col_norm(layer.W1), nm.compute_col_norm(layer.W2)
    return LayerNorms(
        A_sums=tuple(float_up(A) for A, _ in heads),
        B_cols=tuple(float_up(B) for _, B in heads),
        lip_F=float_up(W1_col * W2_col),
        W2_col=float_up(W2_col),
        b1_inf=float(np.abs(layer.b1).max(initial=0.0)),
        b2_inf=float(np.abs(layer.b2).max(initial=0.0)),
    )


def compute_model_norms(model: Model) -> list[LayerNorms]:
    """Lemma 25: return the norms of every layer of the model."""
    return [compute_layer_norms(layer) for layer in model.layers]


def compute_rounding_allowance(model: Model, n: int, tau: float, x_max: float, layers: int = 1, norms: Sequence[LayerNorms] | None = None) -> float:
    """Return R, the float64 rounding two runs (hard, soft) of this size can show on top of an exact bound, after ``layers`` layers.

    R = E2E_ROUNDING_FACTOR * FLOAT64_EPS * d * X * (N + max(1, S) sum_h |B^h|_col / tau) * layers,
    with N = model.positions(n), X = max(1, x_max), S = max_l sum_h |A^h|_sum X^2 and the largest
    sum_h |B^h|_col of any layer (spec.constants, E2E_ROUNDING_FACTOR: a layer's d-term products
    and N-term sums, and the score rounding that statement S turns into a weight error over tau);
    each layer's rounding is carried on by the residual stream, hence the factor ``layers``.  A
    measured error above a certified bound B but at most B + R is rounding of the run itself,
    not a violation of the bound.  ``norms``: the model's ``compute_model_norms``, if already computed.
    """
    X = max(1.0, float(x_max))
    norms = compute_model_norms(model) if norms is None else norms
    S = max((sum(nm.A_sums) for nm in norms), default=0.0) * X * X
    B = max((sum(nm.B_cols) for nm in norms), default=0.0)
    return E2E_ROUNDING_FACTOR * FLOAT64_EPS * model.d * X * (model.positions(n) + max(1.0, S) * B / require_tau(tau)) * max(1, int(layers))


def describe_error_vs_bound(error: float, bound: float, allowance: float) -> str:
    """Return how a measured error compares with a bound: within it, within the run's rounding allowance R of it, or above both."""
    if error <= bound:
        return "within the bound"
    if error <= bound + allowance:
        return f"within the run's float64 rounding allowance R = {allowance:.2g} of the bound"
    return f"ABOVE the bound by {error - bound:.3g}, more than the run's float64 rounding allowance R = {allowance:.2g}"


def compute_layer_errors(hard: Trace, soft: Trace) -> list[float]:
    """Theorem 26 measured: return max_i ||x'^(l)_i - x^(l)_i||_inf for l = 0..L (soft minus hard)."""
    if len(hard.activations) != len(soft.activations):
        raise ValueError("the two traces come from models of different depth")
    return [float(np.abs(a - b).max()) for a, b in zip(hard.activations, soft.activations)]


def compute_recursion_constants(model: Model, meas: Measurement, norms: list[bd.LayerNorms] | None = None) -> bd.RecursionConstants | None:
    """Theorem 26 for a measured model: return Lemma 25's constants at N = model.positions(n) with the tie spreads; None if nothing to bound.

    An infinite gap (every head ties on every input) makes the exp(-gamma/tau) term 0 (a1 = 0,
    any gamma); with exact ties too the soft run equals the hard one and None is returned.
    ``norms``: the model's ``compute_model_norms`` when the caller has them already.
    """
    N = model.positions(meas.n)
    X = max(meas.x_max, 1e-300)
    spreads = meas.tie_spread_per_head or None
    norms = compute_model_norms(model) if norms is None else norms
    if math.isfinite(meas.gap) and meas.gap > 0:
        return bd.RecursionConstants.from_norms(norms, X, N, meas.gap, spreads)
    if meas.tie_spread > 0:
        c = bd.RecursionConstants.from_norms(norms, X, N, 1.0, spreads)
        return bd.RecursionConstants(c.r0, c.r1, (0.0,) * c.depth, c.gamma, c.t_min, c.a2)
    return None

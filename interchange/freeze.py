"""A model made expressible as a HookedTransformer: length-dependent features frozen, every mask realised in the attention.

A HookedTransformer has one position table W_pos (rows indexed by position alone), one
attention_dir for every head (causal or bidirectional) and no way for a query to see no key.
``freeze(model, n_ctx)`` returns an equivalent model that has only that:

- **Position features.**  Features of i alone (``one``, ``i``, ``is_first``, ``i mod M = R``, ...)
  are tabulated for positions 0..n_ctx-1 and serve every input length up to the table.  A feature
  that depends on the length n (``i/n``, ``is_last``, ``n``, ``1/max(n-1-i,1)``, a predicate with
  a term in n, ...) is frozen at the one length n_ctx (BOS included): the frozen model serves
  inputs of exactly that length, and its table says so (format 5 ``exact_length``).
- **Masks.**  attention_dir is ``causal`` when every head's mask is causal or strict, else
  ``bidirectional``.  A head whose mask is not the direction's own gets a score term that
  depends on (query position, key position) only: n_ctx more residual coordinates hold the one-hot
  position (from W_pos; nothing writes to them), and the head's W_Q and W_K get n_ctx more columns,
  W_Q the row P[p] of a penalty matrix at position p's coordinate, W_K the identity, so the score
  of query p on key q gains P[p, q]: 0 where the original mask lets p see q, -M where not.
- **Heads per layer.**  A layer with fewer heads than the widest gets heads of width 0 (their
  output is 0 in every mode), as TransformerLens has n_heads in every layer.
- **A query that sees no key** (strict masks: the first query of ``strict``, the last of
  ``strict_anticausal``) gets head output 0 in Section 2's transformer.  A BOS token is put at
  position 0 when some realised head has such a mask: its residual has 0 on the model's
  coordinates, it attends to itself only (score term -M on every other key), and its key and
  value are cancelled on the model's coordinates (W_K and W_V get, on BOS's one-hot coordinate,
  the row minus BOS's residual times W_K, resp. W_V: BOS's residual does not depend on the input,
  so it is computed once, layer by layer); every other query gets the score term -M/2 on BOS, in
  every head (a head whose mask is the direction's own too: it would see BOS as well).
  A query with visible keys then scores them >= -S, BOS -M/2 <= -S - Delta, its masked keys
  <= S - M <= -S - 2 Delta; a query with none scores BOS -M/2 and its masked keys
  <= -M/2 - Delta: so with |content score| <= S, M = 2(S + Delta) and Delta = max(2S, 1), the hard
  run of the frozen model is the original's at every original position, and every key it adds to
  a row is at least Delta >= 2S >= (the original gap) below that row's maximum: the gap is the
  original's (a row whose keys all tie gets gap Delta).  The certificate of the frozen model
  (``interchange.certificate``) is then measured on it, penalty and BOS included.

S bounds |x_i A^h x_j^T| over the served inputs: (X + 1)^2 max_h |A^h|_sum with X the measured
x_max over every served input in hard mode (the + 1 covers a soft run within a certified eps <= 1),
or statement G's bound (Lemma 29) when the inputs are too many to enumerate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf

#: Position features that depend on i alone (tabulated, they serve every length up to the table).
POSITION_ONLY_FEATURES: tuple[str, ...] = ("one", "i", "1/(i+1)", "is_first", "parity", "i^2", "1/(i+1)^2", "1/max(i,1)")
#: Masks that leave some query with no key (its head output is 0).
EMPTY_ROW_MASKS: tuple[str, ...] = ("strict", "strict_anticausal")
#: Masks each attention_dir realises by itself.
NATIVE_MASK: dict[str, str] = {"causal": "causal", "bidirectional": "none"}
#: At most this many inputs are enumerated to measure x_max for the penalty (beyond: statement G's bound).
PENALTY_ENUMERATION_LIMIT = 2**16
#: The BOS token a frozen model gets when it needs one (a name no alphabet of the project uses).
FROZEN_BOS = "<bos>"


def depends_on_length(feature: str) -> bool:
    """Return whether a position feature's value depends on the length n (not on the position i alone)."""
    if feature in POSITION_ONLY_FEATURES:
        return False
    parsed = tf.predicate_feature(feature)
    if parsed is None:
        return True
    kind, params = parsed
    return kind == "linear" and params[1] != 0


def visible(mask: str, i: int, j: int) -> bool:
    """Return whether query i sees key j under a mask of Section 2 (spec.attention.make_mask's rule)."""
    return {"none": True, "causal": j <= i, "strict": j < i, "anticausal": j >= i, "strict_anticausal": j > i}[mask]


@dataclass(frozen=True)
class Frozen:
    """A frozen model and what it serves: input lengths, direction, BOS and penalty."""

    model: tf.Model
    direction: str  # "causal" | "bidirectional"
    lengths: tuple[int, ...]  # input lengths served (BOS excluded)
    length_features: tuple[str, ...]  # features frozen at one length (empty: every length up to the table)
    bos_added: bool
    penalty: float  # M (0: no head needed one)
    penalized_heads: tuple[tuple[int, int], ...]  # (layer, head) realised with the score term
    x_bound: float  # X used for S
    x_bound_how: str  # "measured over N inputs" or "statement G"

    @property
    def exact_length(self) -> bool:
        """Return whether the frozen model serves one input length only."""
        return bool(self.length_features)

    def describe(self) -> str:
        """Return one line saying what the frozen model serves and how its masks are realised."""
        if self.exact_length:
            serves = f"inputs of exactly length {self.lengths[0]} (the position features {', '.join(self.length_features)} depend on n)"
        else:
            serves = f"every input length 1..{self.lengths[-1]}"
        how = f"attention_dir {self.direction}"
        if self.penalized_heads:
            how += f"; {len(self.penalized_heads)} head(s) with a position score term -M, M = {self.penalty:.6g} ({self.x_bound_how})"
        if self.bos_added:
            how += f"; BOS {FROZEN_BOS!r} added for queries without keys"
        return f"serves {serves}; {how}"


def _direction(masks: set[str]) -> str:
    """Return the attention_dir that realises the most heads natively: causal for causal/strict only, else bidirectional."""
    return "causal" if masks and masks <= {"causal", "strict"} else "bidirectional"


def _x_bound(model: tf.Model, lengths: tuple[int, ...]) -> tuple[float, str]:
    """Return X >= ||x^(l)_i||_inf over every served input, every layer and position (hard mode), and how it was found."""
    total = sum(len(model.alphabet) ** n for n in lengths)
    if total <= PENALTY_ENUMERATION_LIMIT:
        X = max(tf.measure(model, n).x_max for n in lengths)
        return X, f"x_max measured over all {total:,} served inputs"
    X0 = float(np.abs(model.WE).max(initial=0.0)) + float(np.abs(model.PE.apply(model.positions(lengths[-1]))).max(initial=0.0))
    if model.bos_embedding is not None:
        X0 = max(X0, float(np.abs(model.bos_embedding).max()) + float(np.abs(model.PE.apply(model.positions(lengths[-1]))).max()))
    return max(bd.bound_G_activations(X0, tf.compute_model_norms(model))), "x_max bounded by statement G"


def needs_bos(model: tf.Model) -> bool:
    """Return whether freezing the model adds a BOS token (some head it must realise has a mask with a query without keys)."""
    heads = [hd for layer in model.layers for hd in layer.heads]
    native = NATIVE_MASK[_direction({hd.mask for hd in heads})]
    return any(hd.mask != native and hd.mask in EMPTY_ROW_MASKS for hd in heads)


def freeze(model: tf.Model, n_ctx: int) -> Frozen:
    """Return the model made expressible as a HookedTransformer with n_ctx positions (BOS included); ValueError if it cannot be."""
    heads = [(l, h, hd) for l, layer in enumerate(model.layers) for h, hd in enumerate(layer.heads)]
    masks = {hd.mask for _, _, hd in heads}
    direction = _direction(masks)
    native = NATIVE_MASK[direction]
    penalized = tuple((l, h) for l, h, hd in heads if hd.mask != native)
    need_bos = any(model.layers[l].heads[h].mask in EMPTY_ROW_MASKS for l, h in penalized)
    if need_bos and model.bos_token is not None:
        l, h = next((l, h) for l, h in penalized if model.layers[l].heads[h].mask in EMPTY_ROW_MASKS)
        raise ValueError(
            f"layers[{l}].heads[{h}].mask is {model.layers[l].heads[h].mask!r} in a model that already has a BOS token: "
            "a query without keys would need a second BOS; not expressible as a HookedTransformer"
        )
    if need_bos and model.readout is not None and model.readout.position == "first":
        raise ValueError("the readout reads the first position, where the export must put a BOS token: not expressible")
    b = 1 if need_bos else 0
    if need_bos:  # every head sees BOS: each needs the score term (-M/2 on BOS, and BOS's own row sees BOS only)
        penalized = tuple((l, h) for l, h, _ in heads)
    n_orig = n_ctx - b  # positions of the original model (its own BOS included)
    n_in = n_orig - model.offset
    if n_in < 1:
        raise ValueError(f"--n-ctx {n_ctx} leaves no input position (BOS positions: {model.offset + b})")
    rows = model.PE.max_positions
    if rows is not None and n_orig > rows:
        raise ValueError(f"--n-ctx {n_ctx} exceeds the model's position table ({rows} rows{' plus the BOS the export adds' if b else ''})")
    length_features = tuple(f for f in model.PE.features if depends_on_length(f))
    if model.PE.exact_length and rows is not None:
        if n_orig != rows:
            raise ValueError(f"the model serves exactly {rows} positions: --n-ctx must be {rows + b}")
        length_features = length_features or ("exact_length",)
    lengths = (n_in,) if length_features else tuple(range(1, n_in + 1))
    content = model.PE.apply(n_orig)  # features at length n_orig; position-only ones are the same at every length
    d = model.d
    P = n_ctx if penalized else 0
    D = d + P
    table = np.zeros((n_ctx, D))
    table[b:, :d] = content
    if P:
        table[:, d:] = np.eye(n_ctx)
    widen_rows = lambda M: np.vstack([M, np.zeros((P, M.shape[1]))])  # noqa: E731
    widen_cols = lambda M: np.hstack([M, np.zeros((M.shape[0], P))])  # noqa: E731
    M_pen, X, how = 0.0, 0.0, ""
    if penalized:
        X, how = _x_bound(model, lengths)
        A_sum = max(tf.compute_layer_norms(model.layers[l]).A_sums[h] for l, h in penalized)
        S = (X + 1.0) ** 2 * A_sum
        delta = max(2.0 * S, 1.0)
        M_pen = 2.0 * (S + delta)
    H = max([len(layer.heads) for layer in model.layers] + [1])
    bos_content = np.zeros(d)  # BOS's residual on the model's coordinates, layer by layer (it sees only itself)
    layers = []
    for l, layer in enumerate(model.layers):
        new_heads = []
        for h, hd in enumerate(layer.heads):
            WQ, WK, WV, WO = widen_rows(hd.W_Q), widen_rows(hd.W_K), widen_rows(hd.W_V), widen_cols(hd.W_O)
            if (l, h) in penalized:
                pen = np.zeros((n_ctx, n_ctx))
                for p in range(b, n_ctx):
                    for q in range(b, n_ctx):
                        if not visible(hd.mask, p - b, q - b):
                            pen[p, q] = -M_pen
                if b:
                    pen[b:, 0] = -M_pen / 2.0
                    pen[0, 1:] = -M_pen
                WQ = np.hstack([WQ, np.vstack([np.zeros((d, n_ctx)), pen])])
                WK = np.hstack([WK, np.vstack([np.zeros((d, n_ctx)), np.eye(n_ctx)])])
            if b:
                WK[d, : hd.W_K.shape[1]] = -(bos_content @ hd.W_K)
                WV[d, :] = -(bos_content @ hd.W_V)
            new_heads.append(tf.Head(WQ, WK, WV, WO, native, hd.hard_mode))
        if b:
            hidden = np.maximum(bos_content @ layer.W1 + layer.b1, 0.0)
            bos_content = bos_content + hidden @ layer.W2 + layer.b2
        while len(new_heads) < H:  # TransformerLens has n_heads in every layer: a head of width 0 adds 0 in every mode
            new_heads.append(tf.Head(np.zeros((D, 0)), np.zeros((D, 0)), np.zeros((D, 0)), np.zeros((0, D)), native))
        layers.append(tf.Layer(tuple(new_heads), widen_rows(layer.W1), layer.b1, widen_cols(layer.W2), np.append(layer.b2, np.zeros(P))))
    out = model.output
    output = None if out is None else tf.Output(out.kind, widen_rows(out.W), out.b, out.labels)
    bos_token: str | None
    bos_embedding: np.ndarray | None
    if b:
        bos_token, bos_embedding = FROZEN_BOS, np.zeros(D)
        if FROZEN_BOS in model.alphabet:
            raise ValueError(f"the alphabet already has the symbol {FROZEN_BOS!r}, which the export needs for its BOS")
    else:
        bos_token = model.bos_token
        bos_embedding = None if model.bos_embedding is None else np.append(model.bos_embedding, np.zeros(P))
    frozen = tf.Model(
        alphabet=model.alphabet,
        WE=widen_cols(model.WE),
        PE=tf.PositionEmbedding((), np.zeros((0, D)), table, exact_length=bool(length_features)),
        layers=tuple(layers),
        name=model.name,
        hard_mode=model.hard_mode,
        readout=model.readout,
        bos_token=bos_token,
        bos_embedding=bos_embedding,
        output=output,
        tie_rtol=model.tie_rtol,
        own_tau=model.own_tau,
    )
    return Frozen(frozen, direction, lengths, length_features, bool(b), M_pen, penalized, X, how)

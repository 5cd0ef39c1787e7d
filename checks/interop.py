"""Models from and to other tools (docs/interchange.md): TransformerLens state dicts, tracr-compiled models, reference tables.

- ``import_transformer_lens(weights, config)``: a HookedTransformer state dict in safetensors
  (read with the ``safetensors`` package's numpy API, no torch) and its
  HookedTransformerConfig as JSON -> a format 3 ``Model``.  ``tracr=True`` is the same reader
  that also requires the config's ``"hardsoft"`` hints (token per W_E row, BOS, output labels
  and kind) written by a tracr exporter.
- ``export_transformer_lens(model, out_dir)``: the inverse, in the same naming, with
  ``attn_scale`` set from a temperature; re-importing gives the same model.
- ``load_reference`` / ``compare_with_reference``: a table of every input up to a length and the
  program's per-position outputs, compared with hard and soft runs.

What a model file cannot express is refused with one line naming the tensor or field: layer
norm, non-ReLU activations, rotary or other non-standard position embeddings, gated or parallel
MLPs, grouped-query or local attention, NaN or infinite weights, missing or misshapen tensors.

TransformerLens computes, per layer, with x the residual stream (row vectors):
q = x W_Q[h] + b_Q[h], k, v likewise; pattern = softmax(q k^T / attn_scale) under the causal
mask (attention_dir "causal") or none ("bidirectional"); x += sum_h pattern v W_O[h] + b_O;
x += act(x W_in + b_in) W_out + b_out; logits = x W_U + b_U.  That is Section 2's transformer at
tau = attn_scale once the attention biases are folded through a constant coordinate (an extra
residual coordinate equal to 1 that nothing writes to): W_Q gets the row b_Q, W_K the row b_K,
W_V the row b_V, and b_O becomes one more value column of the layer's first head (value 1 from
the constant coordinate, W_O row b_O; a query's weights sum to 1, so it adds b_O exactly).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import TIE_RTOL, TIE_RTOL_FLOAT32

#: The importers (``hardsoft import --from``).
SOURCES: tuple[str, ...] = ("transformer-lens", "tracr")
#: The exporters (``hardsoft export --to``).
TARGETS: tuple[str, ...] = ("transformer-lens",)
#: The key of the config's block of hints (tokens, BOS, labels) beyond HookedTransformerConfig.
HINTS_KEY = "hardsoft"
#: tracr's padding token: never part of an input, so it is dropped from the alphabet.
TRACR_PAD = "compiler_pad"
#: Position features that depend on i alone (export tabulates them; the others need the length n).
POSITION_ONLY_FEATURES: tuple[str, ...] = ("one", "i", "1/(i+1)", "is_first", "parity", "i^2", "1/(i+1)^2", "1/max(i,1)")
#: Numeric outputs agree with a reference when within this absolute tolerance (tracr's numerical MLPs are
#: approximate: a discretising MLP is exact only up to its own hidden-layer resolution, far above float rounding).
NUMERIC_OUTPUT_ATOL: float = 1e-3


def _cfg(cfg: dict[str, Any], key: str, kind: type, default: Any = KeyError) -> Any:
    """Return cfg[key] checked to be of the kind, or raise ValueError naming the config field."""
    if key not in cfg or cfg[key] is None:
        if default is KeyError:
            raise ValueError(f"config: missing field {key}")
        return default
    v = cfg[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
        raise ValueError(f"config: {key} must be a positive integer, got {v!r}")
    if kind is float and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0):
        raise ValueError(f"config: {key} must be a positive number, got {v!r}")
    if kind is str and not isinstance(v, str):
        raise ValueError(f"config: {key} must be a string, got {v!r}")
    return float(v) if kind is float else v


def read_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Return a HookedTransformerConfig JSON file as a dict after refusing what the model format cannot express."""
    p = Path(path)
    try:
        cfg = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read config {p}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"config {p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(cfg, dict):
        raise ValueError(f"config {p}: the top level must be a JSON object")
    norm = cfg.get("normalization_type")
    if norm is not None:
        raise ValueError(f"config: normalization_type is {norm!r}: layer norm cannot be expressed (the paper's transformer has none)")
    if cfg.get("final_rms"):
        raise ValueError("config: final_rms is set: RMS norm cannot be expressed")
    attn_only = bool(cfg.get("attn_only", False))
    act = cfg.get("act_fn")
    if not attn_only and act != "relu":
        raise ValueError(f"config: act_fn is {act!r}: only relu can be expressed (the FFN is W_2 ReLU(W_1 y + b_1) + b_2)")
    pos = cfg.get("positional_embedding_type", "standard")
    if pos != "standard":
        raise ValueError(f"config: positional_embedding_type is {pos!r}: only 'standard' (a learned table W_pos) can be expressed")
    for flag, what in (("gated_mlp", "gated MLPs"), ("parallel_attn_mlp", "parallel attention and MLP"), ("use_local_attn", "local attention")):
        if cfg.get(flag):
            raise ValueError(f"config: {flag} is set: {what} cannot be expressed")
    if cfg.get("n_key_value_heads") not in (None, cfg.get("n_heads")):
        raise ValueError("config: n_key_value_heads is set: grouped-query attention cannot be expressed")
    types = cfg.get("attn_types")
    if types is not None and any(t != "global" for t in types):
        raise ValueError(f"config: attn_types {types!r}: only global attention can be expressed")
    direction = cfg.get("attention_dir", "causal")
    if direction not in ("causal", "bidirectional"):
        raise ValueError(f"config: attention_dir must be 'causal' or 'bidirectional', got {direction!r}")
    for key in ("n_layers", "n_heads", "d_model", "d_head", "d_vocab", "n_ctx"):
        _cfg(cfg, key, int)
    if not attn_only:
        _cfg(cfg, "d_mlp", int)
    out = cfg.get("d_vocab_out", -1)
    cfg["d_vocab_out"] = cfg["d_vocab"] if out in (None, -1) else _cfg(cfg, "d_vocab_out", int)
    scale = _cfg(cfg, "attn_scale", float, math.sqrt(cfg["d_head"]))
    cfg["attn_scale"] = scale if cfg.get("use_attn_scale", True) else 1.0
    hints = cfg.get(HINTS_KEY)
    if hints is not None and not isinstance(hints, dict):
        raise ValueError(f"config: {HINTS_KEY} must be a JSON object")
    return cfg


def _expected_shapes(cfg: dict[str, Any]) -> Iterator[tuple[str, tuple[int, ...], str]]:
    """Yield (tensor name, shape, shape in words) of every tensor the importer needs."""
    H, D, K, V, O, C = cfg["n_heads"], cfg["d_model"], cfg["d_head"], cfg["d_vocab"], cfg["d_vocab_out"], cfg["n_ctx"]
    yield "embed.W_E", (V, D), "d_vocab x d_model"
    yield "pos_embed.W_pos", (C, D), "n_ctx x d_model"
    for l in range(cfg["n_layers"]):
        a = f"blocks.{l}.attn."
        for w in ("W_Q", "W_K", "W_V"):
            yield a + w, (H, D, K), "n_heads x d_model x d_head"
        yield a + "W_O", (H, K, D), "n_heads x d_head x d_model"
        for b in ("b_Q", "b_K", "b_V"):
            yield a + b, (H, K), "n_heads x d_head"
        yield a + "b_O", (D,), "d_model"
        if not cfg.get("attn_only"):
            M = cfg["d_mlp"]
            m = f"blocks.{l}.mlp."
            yield m + "W_in", (D, M), "d_model x d_mlp"
            yield m + "b_in", (M,), "d_mlp"
            yield m + "W_out", (M, D), "d_mlp x d_model"
            yield m + "b_out", (D,), "d_model"
    yield "unembed.W_U", (D, O), "d_model x d_vocab_out"
    yield "unembed.b_U", (O,), "d_vocab_out"


def read_state_dict(path: str | os.PathLike[str], cfg: dict[str, Any]) -> tuple[dict[str, np.ndarray], bool]:
    """Return (the needed tensors as float64, whether any was float32) from a safetensors file, refusing missing/misshapen/non-finite ones."""
    from safetensors import SafetensorError, safe_open

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"cannot read weights {p}: no such file")
    out: dict[str, np.ndarray] = {}
    f32 = False
    try:
        with safe_open(str(p), framework="np") as f:
            names = set(f.keys())
            norms = sorted(n for n in names if n.startswith("ln_final.") or ".ln1." in n or ".ln2." in n)
            if norms:
                raise ValueError(f"tensor {norms[0]}: layer norm weights cannot be expressed")
            for name, shape, words in _expected_shapes(cfg):
                if name not in names:
                    raise ValueError(f"tensor {name} is missing from {p.name}")
                a = f.get_tensor(name)
                if a.dtype not in (np.float32, np.float64):
                    raise ValueError(f"tensor {name} has dtype {a.dtype}: only float32 and float64 are read")
                if tuple(a.shape) != shape:
                    got = "x".join(map(str, a.shape)) or "scalar"
                    raise ValueError(f"tensor {name} has shape {got}, expected {'x'.join(map(str, shape))} ({words})")
                if not np.isfinite(a).all():
                    raise ValueError(f"tensor {name} contains NaN or infinite entries")
                f32 = f32 or a.dtype == np.float32
                out[name] = a.astype(np.float64)
    except SafetensorError as e:
        raise ValueError(f"cannot read weights {p}: not a safetensors file ({e})") from None
    except OSError as e:
        raise ValueError(f"cannot read weights {p}: {e.strerror}") from None
    return out, f32


def _token(x: Any) -> str:
    """Return a token or label as a string (tracr's vocabularies and outputs may be numbers or booleans)."""
    return x if isinstance(x, str) else json.dumps(x)


def _is_scalar(x: Any) -> bool:
    """Return whether x is a JSON scalar a token or label may be (a string, number or boolean)."""
    return isinstance(x, (str, int, float, bool))


def _hint_list(hints: dict[str, Any], key: str, length: int, what: str) -> list[str] | None:
    """Return hints[key] as a list of `length` tokens (as strings), None when absent."""
    v = hints.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(_is_scalar(x) for x in v) or len(v) != length:
        raise ValueError(f"config: {HINTS_KEY}.{key} must be a list of {length} strings or numbers ({what})")
    return [_token(x) for x in v]


def import_transformer_lens(weights: str | os.PathLike[str], config: str | os.PathLike[str] | None = None, tracr: bool = False) -> tf.Model:
    """Return the format 3 Model of a HookedTransformer state dict (safetensors) and its config (JSON).

    config defaults to NAME.config.json beside NAME.safetensors.  tracr=True requires the
    "hardsoft" hints (input_vocab, bos, output_labels, output_kind) and drops tracr's pad token.
    """
    wp = Path(weights)
    cp = Path(config) if config is not None else wp.with_name(wp.name.removesuffix(".safetensors") + ".config.json")
    cfg = read_config(cp)
    sd, f32 = read_state_dict(wp, cfg)
    hints: dict[str, Any] = cfg.get(HINTS_KEY) or {}
    if tracr and not hints:
        raise ValueError(f"config: --from tracr needs the {HINTS_KEY!r} hints (input_vocab, bos, output_labels, output_kind)")
    H, D, K, L = cfg["n_heads"], cfg["d_model"], cfg["d_head"], cfg["n_layers"]
    vocab = _hint_list(hints, "input_vocab", cfg["d_vocab"], "one token per row of W_E") or [str(i) for i in range(cfg["d_vocab"])]
    if len(set(vocab)) != len(vocab):
        raise ValueError(f"config: {HINTS_KEY}.input_vocab repeats a token")
    bos = None if hints.get("bos") is None else _token(hints["bos"])
    if bos is not None and bos not in vocab:
        raise ValueError(f"config: {HINTS_KEY}.bos {bos!r} is not in input_vocab")
    pads = hints.get("pad", [])
    pads = [_token(p) for p in ([pads] if _is_scalar(pads) else list(pads))]
    if tracr and TRACR_PAD in vocab:
        pads.append(TRACR_PAD)
    keep = [i for i, t in enumerate(vocab) if t != bos and t not in pads]
    if not keep:
        raise ValueError("config: no input token is left once BOS and padding are removed")
    labels = _hint_list(hints, "output_labels", cfg["d_vocab_out"], "one label per column of W_U")
    kind = hints.get("output_kind", "categorical")
    if kind not in tf.OUTPUT_KINDS:
        raise ValueError(f"config: {HINTS_KEY}.output_kind must be categorical or numerical, got {kind!r}")
    if kind == "numerical" and cfg["d_vocab_out"] != 1:
        raise ValueError(f"config: output_kind numerical needs d_vocab_out = 1, got {cfg['d_vocab_out']}")
    if kind == "categorical" and labels is None:
        labels = [str(j) for j in range(cfg["d_vocab_out"])]
    dims = _head_dims(hints, L, H, K)
    bias_names = [f"blocks.{l}.attn.{b}" for l in range(L) for b in ("b_Q", "b_K", "b_V", "b_O")]
    fold = any(np.any(sd[b] != 0) for b in bias_names)
    d = D + 1 if fold else D

    def widen(M: np.ndarray, rows: bool = True, cols: bool = False) -> np.ndarray:
        """Return M with a zero row (and/or column) for the constant coordinate when folding."""
        if not fold:
            return M
        if rows:
            M = np.vstack([M, np.zeros((1, M.shape[1]))])
        if cols:
            M = np.hstack([M, np.zeros((M.shape[0], 1))])
        return M

    WE = sd["embed.W_E"]
    if fold:
        WE = np.hstack([WE, np.ones((WE.shape[0], 1))])
    layers = []
    for l in range(L):
        a = f"blocks.{l}.attn."
        heads = []
        for h in range(H):
            k, v = dims[l][h]
            WQ, WK, WV = sd[a + "W_Q"][h][:, :k], sd[a + "W_K"][h][:, :k], sd[a + "W_V"][h][:, :v]
            WO = sd[a + "W_O"][h][:v, :]
            _require_zero_padding(sd, a, h, k, v)
            if fold:
                WQ = np.vstack([WQ, sd[a + "b_Q"][h][None, :k]])
                WK = np.vstack([WK, sd[a + "b_K"][h][None, :k]])
                WV = np.vstack([WV, sd[a + "b_V"][h][None, :v]])
                WO = np.hstack([WO, np.zeros((WO.shape[0], 1))])
                if h == 0:  # b_O through one more value column reading the constant coordinate
                    col = np.zeros((d, 1))
                    col[D, 0] = 1.0
                    WV = np.hstack([WV, col])
                    WO = np.vstack([WO, np.append(sd[a + "b_O"], 0.0)[None, :]])
            mask = "causal" if cfg["attention_dir"] == "causal" else "none"
            heads.append(tf.Head(WQ, WK, WV, WO, mask, _head_hard_mode(hints, l, h)))
        if cfg.get("attn_only"):
            W1, b1, W2, b2 = np.zeros((d, 0)), np.zeros(0), np.zeros((0, d)), np.zeros(d)
        else:
            m = f"blocks.{l}.mlp."
            w = _ffn_width(hints, l, cfg["d_mlp"])
            _require_zero_ffn_padding(sd, m, w)
            W1, b1 = widen(sd[m + "W_in"][:, :w]), sd[m + "b_in"][:w]
            W2, b2 = widen(sd[m + "W_out"][:w], rows=False, cols=True), np.append(sd[m + "b_out"], 0.0) if fold else sd[m + "b_out"]
        layers.append(tf.Layer(tuple(heads), W1, b1, W2, b2))
    table = widen(sd["pos_embed.W_pos"], rows=False, cols=True)
    output = None
    if hints.get("output", True) is not None:
        output = tf.Output(kind, widen(sd["unembed.W_U"]), sd["unembed.b_U"], None if labels is None else tuple(labels))
    readout = hints.get("readout")
    tie = hints.get("tie_rtol", TIE_RTOL_FLOAT32 if f32 else TIE_RTOL)
    return tf.Model(
        alphabet=tuple(vocab[i] for i in keep),
        WE=WE[keep],
        PE=tf.PositionEmbedding((), np.zeros((0, d)), table),
        layers=tuple(layers),
        name=str(hints.get("name", wp.name.removesuffix(".safetensors"))),
        hard_mode=str(hints.get("hard_mode", "average")),
        readout=None if readout is None else tf.Readout(int(readout["coordinate"]), str(readout["position"]), float(readout["threshold"])),
        bos_token=bos,
        bos_embedding=None if bos is None else WE[vocab.index(bos)],
        output=output,
        tie_rtol=tie,
        own_tau=cfg["attn_scale"],
    )


def _head_dims(hints: dict[str, Any], L: int, H: int, K: int) -> list[list[tuple[int, int]]]:
    """Return per layer and head (k, v): the hints' head_dims (written by export) or (d_head, d_head)."""
    hd = hints.get("head_dims")
    if hd is None:
        return [[(K, K)] * H for _ in range(L)]
    ok = isinstance(hd, list) and len(hd) == L and all(isinstance(r, list) and len(r) == H for r in hd)
    ok = ok and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) and 0 <= x <= K for x in p) for r in hd for p in r)
    if not ok:
        raise ValueError(f"config: {HINTS_KEY}.head_dims must give [k, v] <= d_head for each of {H} heads in each of {L} layers")
    return [[(p[0], p[1]) for p in r] for r in hd]


def _head_hard_mode(hints: dict[str, Any], l: int, h: int) -> str | None:
    """Return a head's own hard mode from the hints (written by export), or None."""
    modes = hints.get("head_hard_modes")
    return None if modes is None else modes[l][h]


def _ffn_width(hints: dict[str, Any], l: int, d_mlp: int) -> int:
    """Return layer l's FFN width: the hints' ffn_widths (written by export) or d_mlp."""
    w = hints.get("ffn_widths")
    if w is None:
        return d_mlp
    if not isinstance(w, list) or not isinstance(w[l], int) or not 0 <= w[l] <= d_mlp:
        raise ValueError(f"config: {HINTS_KEY}.ffn_widths must give a width <= d_mlp per layer")
    return int(w[l])


def _require_zero_padding(sd: dict[str, np.ndarray], a: str, h: int, k: int, v: int) -> None:
    """Refuse non-zero weights beyond a head's recorded dimensions (the hints would drop them)."""
    for name, part in (
        ("W_Q", sd[a + "W_Q"][h][:, k:]),
        ("W_K", sd[a + "W_K"][h][:, k:]),
        ("W_V", sd[a + "W_V"][h][:, v:]),
        ("W_O", sd[a + "W_O"][h][v:]),
    ):
        if np.any(part != 0):
            raise ValueError(f"tensor {a}{name}: head {h} has non-zero entries beyond its head_dims")


def _require_zero_ffn_padding(sd: dict[str, np.ndarray], m: str, w: int) -> None:
    """Refuse non-zero FFN weights beyond a layer's recorded width."""
    if np.any(sd[m + "W_in"][:, w:] != 0) or np.any(sd[m + "W_out"][w:] != 0) or np.any(sd[m + "b_in"][w:] != 0):
        raise ValueError(f"tensor {m}W_in: non-zero entries beyond the layer's ffn_widths")


# --------------------------------------------------------------------------- export


def export_transformer_lens(
    model: tf.Model, out_dir: str | os.PathLike[str], tau: float | None = None, n_ctx: int | None = None
) -> tuple[Path, Path]:
    """Write NAME.safetensors and NAME.config.json (TransformerLens naming, float64) for a model; return both paths.

    attn_scale = tau (default: the model's own temperature, else 1): TransformerLens's
    softmax(q.k / attn_scale) is then hardsoft's soft run at that tau.  Heads are padded with
    zeros to one d_head and FFNs to one d_mlp; the hints record the true sizes so that
    re-importing gives the same model.  Refused with one line: masks other than all-causal or
    all-none, position features that depend on the length n, a model without a position table
    and no n_ctx.
    """
    masks = {h.mask for layer in model.layers for h in layer.heads}
    if not masks <= {"causal"} and not masks <= {"none"}:
        where = [(l, k, h.mask) for l, ly in enumerate(model.layers) for k, h in enumerate(ly.heads)]
        l, k, mk = next((w for w in where if w[2] not in ("causal", "none")), None) or next(w for w in where if w[2] != where[0][2])
        raise ValueError(
            f"layers[{l}].heads[{k}].mask is {mk!r}: TransformerLens has one attention_dir for every head "
            f"(all causal or all none); this model's masks {sorted(masks)} cannot be exported"
        )
    depends_on_n = [f for f in model.PE.features if f not in POSITION_ONLY_FEATURES]
    if depends_on_n:
        raise ValueError(f"position feature {depends_on_n[0]!r} depends on the length n: a TransformerLens W_pos table cannot express it")
    rows = model.PE.max_positions
    if n_ctx is None:
        if rows is None:
            raise ValueError("the model has no position table: give --n-ctx (positions, BOS included) to tabulate its position features")
        n_ctx = rows
    if rows is not None and n_ctx > rows:
        raise ValueError(f"--n-ctx {n_ctx} exceeds the model's position table ({rows} rows)")
    t = float(tau) if tau is not None else model.own_tau or 1.0
    d = model.d
    K = max([max(h.W_Q.shape[1], h.W_V.shape[1]) for layer in model.layers for h in layer.heads] + [1])
    M = max([layer.W1.shape[1] for layer in model.layers] + [0])
    H = max([len(layer.heads) for layer in model.layers] + [1])
    if any(len(layer.heads) != H for layer in model.layers):
        raise ValueError("TransformerLens needs the same number of heads in every layer")
    tokens = list(model.alphabet) + ([model.bos_token] if model.bos_token is not None else [])
    WE = model.WE if model.bos_embedding is None else np.vstack([model.WE, model.bos_embedding[None, :]])
    sd: dict[str, np.ndarray] = {"embed.W_E": WE, "pos_embed.W_pos": model.PE.apply(n_ctx)}
    for l, layer in enumerate(model.layers):
        a = f"blocks.{l}.attn."
        Q, Kk, V, O = np.zeros((H, d, K)), np.zeros((H, d, K)), np.zeros((H, d, K)), np.zeros((H, K, d))
        for h, hd in enumerate(layer.heads):
            k, v = hd.W_Q.shape[1], hd.W_V.shape[1]
            Q[h][:, :k], Kk[h][:, :k], V[h][:, :v], O[h][:v, :] = hd.W_Q, hd.W_K, hd.W_V, hd.W_O
        sd |= {a + "W_Q": Q, a + "W_K": Kk, a + "W_V": V, a + "W_O": O}
        sd |= {a + "b_Q": np.zeros((H, K)), a + "b_K": np.zeros((H, K)), a + "b_V": np.zeros((H, K)), a + "b_O": np.zeros(d)}
        if M > 0:
            w = layer.W1.shape[1]
            m = f"blocks.{l}.mlp."
            W_in, b_in, W_out = np.zeros((d, M)), np.zeros(M), np.zeros((M, d))
            W_in[:, :w], b_in[:w], W_out[:w] = layer.W1, layer.b1, layer.W2
            sd |= {m + "W_in": W_in, m + "b_in": b_in, m + "W_out": W_out, m + "b_out": layer.b2}
        elif np.any(layer.b2 != 0):
            raise ValueError(f"layers[{l}].ffn.b2 is non-zero in a model without FFN hidden units: TransformerLens's attn_only has no MLP bias")
    out = model.output
    sd["unembed.W_U"] = np.eye(d) if out is None else out.W
    sd["unembed.b_U"] = np.zeros(d) if out is None else out.b
    hints: dict[str, Any] = {
        "input_vocab": tokens,
        "bos": model.bos_token,
        "output_labels": None if out is None or out.labels is None else list(out.labels),
        "output_kind": "categorical" if out is None else out.kind,
        "source": "hardsoft export",
        "name": model.name,
        "hard_mode": model.hard_mode,
        "head_dims": [[[h.W_Q.shape[1], h.W_V.shape[1]] for h in layer.heads] for layer in model.layers],
        "ffn_widths": [layer.W1.shape[1] for layer in model.layers],
        "tie_rtol": model.tie_rtol,
    }
    if out is None:
        hints["output"] = None
    if any(h.hard_mode is not None for layer in model.layers for h in layer.heads):
        hints["head_hard_modes"] = [[h.hard_mode for h in layer.heads] for layer in model.layers]
    if model.readout is not None:
        r = model.readout
        hints["readout"] = {"coordinate": r.coordinate, "position": r.position, "threshold": r.threshold}
    cfg = {
        "n_layers": model.depth,
        "n_heads": H,
        "d_model": d,
        "d_head": K,
        "d_mlp": M if M > 0 else None,
        "d_vocab": len(tokens),
        "d_vocab_out": sd["unembed.W_U"].shape[1],
        "n_ctx": n_ctx,
        "act_fn": "relu",
        "normalization_type": None,
        "attn_only": M == 0,
        "attention_dir": "causal" if masks <= {"causal"} else "bidirectional",
        "attn_scale": t,
        "use_attn_scale": True,
        "positional_embedding_type": "standard",
        "dtype": "float64",
        HINTS_KEY: hints,
    }
    return _write_pair(Path(out_dir), model.name, sd, cfg)


def _write_pair(out_dir: Path, name: str, sd: dict[str, np.ndarray], cfg: dict[str, Any]) -> tuple[Path, Path]:
    """Write NAME.safetensors and NAME.config.json atomically (temporary files renamed into place; nothing on error)."""
    from safetensors.numpy import save_file

    if not out_dir.is_dir():
        raise ValueError(f"output directory {out_dir} does not exist")
    st, cj = out_dir / f"{name}.safetensors", out_dir / f"{name}.config.json"
    tmps: list[str] = []
    try:
        fd, t1 = tempfile.mkstemp(dir=out_dir, prefix=".tmp-", suffix=".safetensors")
        os.close(fd)
        tmps.append(t1)
        save_file({k: np.ascontiguousarray(v, dtype=np.float64) for k, v in sd.items()}, t1)
        fd, t2 = tempfile.mkstemp(dir=out_dir, prefix=".tmp-", suffix=".json")
        tmps.append(t2)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=1)
        os.replace(t1, st)
        os.replace(t2, cj)
    except OSError as e:
        raise ValueError(f"cannot write to {out_dir}: {e.strerror}") from None
    finally:
        for t in tmps:
            Path(t).unlink(missing_ok=True)
    return st, cj


# --------------------------------------------------------------------------- reference tables


@dataclass(frozen=True)
class ReferenceCase:
    """One input (symbols, BOS excluded) and the program's output per position (None where undefined)."""

    word: tuple[str, ...]
    output: tuple[Any, ...]


@dataclass(frozen=True)
class Reference:
    """A reference table: alphabet, BOS, the longest input and the cases."""

    alphabet: tuple[str, ...]
    bos: str | None
    max_len: int
    cases: tuple[ReferenceCase, ...]


def load_reference(path: str | os.PathLike[str], model: tf.Model) -> Reference:
    """Return a reference table after checking it against the model (alphabet, BOS, lengths, per-position output counts)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read reference {p}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"reference {p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise ValueError(f"reference {p}: expected an object with a list 'cases'")
    alphabet = data.get("alphabet", list(model.alphabet))
    if not isinstance(alphabet, list) or not all(_is_scalar(a) for a in alphabet):
        raise ValueError("reference: alphabet must be a list of strings or numbers")
    alphabet = [_token(a) for a in alphabet]
    extra = [a for a in alphabet if a not in model.alphabet]
    if extra:
        raise ValueError(f"reference: alphabet symbol {extra[0]!r} is not in the model's alphabet {list(model.alphabet)}")
    bos = None if data.get("bos") is None else _token(data["bos"])
    if bos != model.bos_token:
        raise ValueError(f"reference: bos is {bos!r} but the model's BOS token is {model.bos_token!r}")
    limit = model.max_input_length
    cases = []
    for k, c in enumerate(data["cases"]):
        if not isinstance(c, dict) or not isinstance(c.get("input"), list) or not isinstance(c.get("output"), list):
            raise ValueError(f"reference: cases[{k}] must have lists 'input' and 'output'")
        if not all(_is_scalar(x) for x in c["input"]):
            raise ValueError(f"reference: cases[{k}].input must be a list of tokens (strings or numbers)")
        w = [_token(x) for x in c["input"]]
        if not w:
            raise ValueError(f"reference: cases[{k}].input is empty")
        bad = [s for s in w if s not in alphabet]
        if bad:
            raise ValueError(f"reference: cases[{k}].input symbol {bad[0]!r} is not in the alphabet {alphabet}")
        if limit is not None and len(w) > limit:
            raise ValueError(f"reference: cases[{k}].input has length {len(w)}, longer than the model's position table allows ({limit})")
        if len(c["output"]) != len(w):
            raise ValueError(f"reference: cases[{k}].output has {len(c['output'])} entries for an input of length {len(w)} (one per position)")
        cases.append(ReferenceCase(tuple(w), tuple(c["output"])))
    if not cases:
        raise ValueError("reference: no cases")
    max_len = data.get("max_len", max(len(c.word) for c in cases))
    return Reference(tuple(alphabet), bos, int(max_len), tuple(cases))


@dataclass
class Agreement:
    """How many cases two output sources agree on, and the first disagreeing input."""

    agree: int = 0
    total: int = 0
    first: dict[str, Any] | None = None

    def add(self, ok: bool, detail: dict[str, Any]) -> None:
        """Count one case."""
        self.total += 1
        self.agree += ok
        if not ok and self.first is None:
            self.first = detail


@dataclass
class ReferenceReport:
    """The three agreements of ``compare_with_reference``: hard = reference, soft = reference, soft = hard."""

    tau: float
    hard_ref: Agreement = field(default_factory=Agreement)
    soft_ref: Agreement = field(default_factory=Agreement)
    soft_hard: Agreement = field(default_factory=Agreement)

    @property
    def ok(self) -> bool:
        """Return whether all three agree on every case."""
        return all(a.agree == a.total for a in (self.hard_ref, self.soft_ref, self.soft_hard))


def _decode(model: tf.Model, final: np.ndarray) -> list[list[Any]]:
    """Return per-case output lists (labels or numbers), BOS position dropped."""
    out = model.output
    assert out is not None
    vals = out.decode(final)[:, model.offset :]
    if out.kind == "categorical":
        assert out.labels is not None
        return [[out.labels[int(j)] for j in row] for row in vals]
    return [[float(x) for x in row] for row in vals]


def _same(a: Any, b: Any, numeric: bool, atol: float) -> bool:
    """Return whether two per-position outputs agree (None in the reference: undefined, always agrees)."""
    if a is None or b is None:
        return True
    if numeric:
        try:
            return abs(float(a) - float(b)) <= atol
        except (TypeError, ValueError):
            return False
    return _token(a) == _token(b)


def compare_with_reference(model: tf.Model, ref: Reference, tau: float, mode: str = "hard", atol: float = NUMERIC_OUTPUT_ATOL) -> ReferenceReport:
    """Return the three agreements (hard = reference, soft = reference, soft = hard) over every case of the table."""
    if model.output is None:
        raise ValueError("the model has no per-position output (format 3 'output'): nothing to compare with a reference")
    numeric = model.output.kind == "numerical"
    report = ReferenceReport(tau)
    by_len: dict[int, list[ReferenceCase]] = {}
    for c in ref.cases:
        by_len.setdefault(len(c.word), []).append(c)
    for n in sorted(by_len):
        group = by_len[n]
        w = model.encode([list(c.word) for c in group])
        hard = _decode(model, tf.run(model, w, mode).activations[-1])
        soft = _decode(model, tf.run(model, w, "soft", tau=tau).activations[-1])
        for c, h, s in zip(group, hard, soft):
            word = "".join(c.word) if all(len(x) == 1 for x in c.word) else " ".join(c.word)
            agree = lambda x, y: all(_same(p, q, numeric, atol) for p, q in zip(x, y))  # noqa: E731
            report.hard_ref.add(agree(h, c.output), {"input": word, "expected": list(c.output), "got": h})
            report.soft_ref.add(agree(s, c.output), {"input": word, "expected": list(c.output), "got": s})
            report.soft_hard.add(agree(s, h), {"input": word, "expected": h, "got": s})
    return report


# --------------------------------------------------------------------------- reporting


def _show(outputs: Sequence[Any]) -> str:
    """Return per-position outputs as one bracketed line (tokens as their text, numbers to 6 digits, undefined as -)."""
    cell = lambda x: "-" if x is None else f"{x:.6g}" if isinstance(x, float) else _token(x)  # noqa: E731
    return "[" + " ".join(cell(x) for x in outputs) + "]"


def first_disagreement(a: Agreement) -> str:
    """Return a one-line account of an agreement: counts and the first disagreeing input."""
    line = f"{a.agree}/{a.total} agree"
    if a.first is not None:
        line += f"; first disagreement: input {a.first['input']!r}: expected {_show(a.first['expected'])}, got {_show(a.first['got'])}"
    return line


def tokens_of(words: Sequence[str]) -> list[list[str]]:
    """Return words as token lists (a word with spaces is split on them, else one character per symbol)."""
    return [w.split() if " " in w else list(w) for w in words]

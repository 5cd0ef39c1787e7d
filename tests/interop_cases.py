"""Synthetic interchange cases: a small format 3 model and TransformerLens-layout files (safetensors + config + reference).

The layout is the one of docs/interchange.md (HookedTransformer state-dict names and shapes,
HookedTransformerConfig fields, the optional "hardsoft" hints, the reference table).  The
weights are random but the reference outputs are NOT computed by hardsoft: ``reference_outputs``
below is an independent plain-numpy forward pass written from TransformerLens's definition
(q = x W_Q + b_Q, scores q.k / attn_scale, causal mask, softmax, z W_O + b_O, ReLU MLP).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
from safetensors.numpy import save_file

from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import TIE_RTOL_FLOAT32


def build_v3_model(rng: np.random.Generator | None = None, d: int = 5, n_ctx: int = 6) -> tf.Model:
    """Return a 2-layer model using every format 3 field: BOS, position table, categorical output, tie tolerance, own tau."""
    rng = rng or np.random.default_rng(3)
    r = lambda *s: rng.normal(size=s)  # noqa: E731
    heads = lambda: (tf.Head(r(d, 2), r(d, 2), r(d, 3), r(3, d), "causal"), tf.Head(r(d, 1), r(d, 1), r(d, 2), r(2, d), "none"))  # noqa: E731
    layers = tuple(tf.Layer(heads(), r(d, 4), r(4), r(4, d), r(d)) for _ in range(2))
    return tf.Model(
        alphabet=("x", "y", "z"),
        WE=r(3, d),
        PE=tf.PositionEmbedding((), np.zeros((0, d)), r(n_ctx, d)),
        layers=layers,
        name="v3-synthetic",
        bos_token="BOS",
        bos_embedding=r(d),
        output=tf.Output("categorical", r(d, 3), r(3), ("p", "q", "r")),
        tie_rtol=TIE_RTOL_FLOAT32,
        own_tau=0.5,
    )


def tl_state_dict(rng: np.random.Generator, cfg: dict[str, Any], dtype: Any = np.float32, biases: bool = True) -> dict[str, np.ndarray]:
    """Return a random TransformerLens state dict (numpy) for a config."""
    H, D, K, M = cfg["n_heads"], cfg["d_model"], cfg["d_head"], cfg["d_mlp"]
    r = lambda *s: rng.normal(size=s).astype(dtype)  # noqa: E731
    V = cfg["d_vocab_out"]
    sd = {"embed.W_E": r(cfg["d_vocab"], D), "pos_embed.W_pos": r(cfg["n_ctx"], D), "unembed.W_U": r(D, V), "unembed.b_U": r(V)}
    for l in range(cfg["n_layers"]):
        p = f"blocks.{l}."
        sd |= {p + "attn.W_Q": r(H, D, K), p + "attn.W_K": r(H, D, K), p + "attn.W_V": r(H, D, K), p + "attn.W_O": r(H, K, D)}
        sd |= {p + "attn.b_Q": r(H, K), p + "attn.b_K": r(H, K), p + "attn.b_V": r(H, K), p + "attn.b_O": r(D)}
        if not cfg.get("attn_only"):
            sd |= {p + "mlp.W_in": r(D, M), p + "mlp.b_in": r(M), p + "mlp.W_out": r(M, D), p + "mlp.b_out": r(D)}
    if not biases:  # no attention biases (the FFN and unembedding ones stay)
        sd = {k: np.zeros_like(v) if ".attn.b_" in k else v for k, v in sd.items()}
    return sd


def tl_config(
    n_layers: int = 2, n_heads: int = 2, d_model: int = 6, d_head: int = 3, d_mlp: int = 5, d_vocab: int = 4, d_vocab_out: int = 3, **kw: Any
) -> dict[str, Any]:
    """Return a HookedTransformerConfig-like dict (the fields the importer reads)."""
    cfg = dict(
        n_layers=n_layers,
        n_heads=n_heads,
        d_model=d_model,
        d_head=d_head,
        d_mlp=d_mlp,
        d_vocab=d_vocab,
        d_vocab_out=d_vocab_out,
        n_ctx=kw.pop("n_ctx", 5),
        act_fn="relu",
        normalization_type=None,
        attn_only=False,
        attention_dir="causal",
        attn_scale=float(np.sqrt(d_head)),
        positional_embedding_type="standard",
    )
    cfg.update(kw)
    return cfg


def reference_logits(sd: dict[str, np.ndarray], cfg: dict[str, Any], tokens: np.ndarray, attn_scales: list[float] | None = None) -> np.ndarray:
    """Return TransformerLens logits (batch, n, d_vocab_out) by a direct numpy forward pass in float64 (independent of hardsoft).

    attn_scales: per layer the divisor of q.k (default cfg["attn_scale"] at every layer).
    """
    f = lambda k: sd[k].astype(np.float64)  # noqa: E731
    n = tokens.shape[1]
    x = f("embed.W_E")[tokens] + f("pos_embed.W_pos")[:n][None]
    causal = np.tril(np.ones((n, n), dtype=bool)) if cfg["attention_dir"] == "causal" else np.ones((n, n), dtype=bool)
    for l in range(cfg["n_layers"]):
        p = f"blocks.{l}."
        out = np.zeros_like(x) + f(p + "attn.b_O")
        for h in range(cfg["n_heads"]):
            q = x @ f(p + "attn.W_Q")[h] + f(p + "attn.b_Q")[h]
            k = x @ f(p + "attn.W_K")[h] + f(p + "attn.b_K")[h]
            v = x @ f(p + "attn.W_V")[h] + f(p + "attn.b_V")[h]
            s = np.einsum("bik,bjk->bij", q, k) / (cfg["attn_scale"] if attn_scales is None else attn_scales[l])
            s = np.where(causal, s, -np.inf)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            out += (s @ v) @ f(p + "attn.W_O")[h]
        x = x + out
        if not cfg.get("attn_only"):
            x = x + np.maximum(x @ f(p + "mlp.W_in") + f(p + "mlp.b_in"), 0) @ f(p + "mlp.W_out") + f(p + "mlp.b_out")
    return x @ f("unembed.W_U") + f("unembed.b_U")


def write_tl_files(directory: Path, name: str, sd: dict[str, np.ndarray], cfg: dict[str, Any]) -> tuple[Path, Path]:
    """Write NAME.safetensors and NAME.config.json; return both paths."""
    st, cj = directory / f"{name}.safetensors", directory / f"{name}.config.json"
    save_file({k: np.ascontiguousarray(v) for k, v in sd.items()}, str(st))
    cj.write_text(json.dumps(cfg, indent=1))
    return st, cj


def write_tracr_like(directory: Path, name: str = "synthetic", max_len: int = 3, seed: int = 0) -> tuple[Path, Path, Path]:
    """Write a tracr-layout triple: tokens BOS, a, b, compiler_pad; a causal model; the hints; and a reference table.

    The reference outputs are the argmax of ``reference_logits`` (the independent forward pass)
    at every non-BOS position; categorical labels "l0", "l1", "l2".
    """
    rng = np.random.default_rng(seed)
    vocab = ["BOS", "a", "b", "compiler_pad"]
    cfg = tl_config(d_vocab=len(vocab), n_ctx=max_len + 1)
    sd = tl_state_dict(rng, cfg)
    labels = [f"l{j}" for j in range(cfg["d_vocab_out"])]
    cfg["hardsoft"] = {"input_vocab": vocab, "bos": "BOS", "output_labels": labels, "output_kind": "categorical", "source": "synthetic test case"}
    st, cj = write_tl_files(directory, name, sd, cfg)
    cases = []
    for n in range(1, max_len + 1):
        for word in itertools.product(["a", "b"], repeat=n):
            toks = np.array([[0] + [vocab.index(c) for c in word]])
            out = np.argmax(reference_logits(sd, cfg, toks)[0, 1:], axis=-1)
            cases.append({"input": list(word), "output": [labels[j] for j in out]})
    ref = directory / f"{name}.reference.json"
    ref.write_text(json.dumps({"alphabet": ["a", "b"], "bos": "BOS", "max_len": max_len, "cases": cases}))
    return st, cj, ref

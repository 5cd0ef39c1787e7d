"""A minimal numpy forward pass of a TransformerLens HookedTransformer, for the tracr fixtures (tests/fixtures/tracr/).

Only what the fixtures use: token and standard positional embeddings, attention with biases (scores divided by
attn_scale, a causal mask when attention_dir is "causal"), a ReLU MLP with biases, no layer norm, the unembedding.
It is a test helper (scripts/tracr_export.py checks the exported weights against tracr with it, and
tests/checks/test_tracr_fixtures.py checks the committed fixtures with it); the package's importer is separate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tracr"

#: The per-block tensors of a HookedTransformer state dict, each with its shape in config fields.
BLOCK_SHAPES: dict[str, tuple[str, ...]] = {
    "attn.W_Q": ("n_heads", "d_model", "d_head"),
    "attn.W_K": ("n_heads", "d_model", "d_head"),
    "attn.W_V": ("n_heads", "d_model", "d_head"),
    "attn.W_O": ("n_heads", "d_head", "d_model"),
    "attn.b_Q": ("n_heads", "d_head"),
    "attn.b_K": ("n_heads", "d_head"),
    "attn.b_V": ("n_heads", "d_head"),
    "attn.b_O": ("d_model",),
    "mlp.W_in": ("d_model", "d_mlp"),
    "mlp.b_in": ("d_mlp",),
    "mlp.W_out": ("d_mlp", "d_model"),
    "mlp.b_out": ("d_model",),
}
#: The tensors outside the blocks.
TOP_SHAPES: dict[str, tuple[str, ...]] = {
    "embed.W_E": ("d_vocab", "d_model"),
    "pos_embed.W_pos": ("n_ctx", "d_model"),
    "unembed.W_U": ("d_model", "d_vocab_out"),
    "unembed.b_U": ("d_vocab_out",),
}


def expected_shapes(cfg: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Return every tensor name of the state dict with the shape the config gives it."""
    shapes = {name: tuple(int(cfg[f]) for f in dims) for name, dims in TOP_SHAPES.items()}
    for l in range(int(cfg["n_layers"])):
        shapes.update({f"blocks.{l}.{name}": tuple(int(cfg[f]) for f in dims) for name, dims in BLOCK_SHAPES.items()})
    return shapes


@dataclass(frozen=True)
class Forward:
    """One run: the residual stream after every attention and every MLP, each head's scores, the logits."""

    residuals: list[np.ndarray]  # 2 * n_layers arrays [T, d_model]: after attn 0, after mlp 0, after attn 1, ...
    scores: list[np.ndarray]  # n_layers arrays [n_heads, T, T]: q.k / attn_scale, before the mask
    logits: np.ndarray  # [T, d_vocab_out]


def run_forward(state: dict[str, np.ndarray], cfg: dict[str, Any], tokens: list[int], dtype: type = np.float64) -> Forward:
    """Return the HookedTransformer forward pass on one sequence of token ids (the BOS id first, if the model has one)."""
    w = {k: np.asarray(v, dtype=dtype) for k, v in state.items()}
    t = len(tokens)
    x = w["embed.W_E"][np.asarray(tokens)] + w["pos_embed.W_pos"][:t]
    causal = cfg["attention_dir"] == "causal"
    blocked = np.triu(np.ones((t, t), dtype=bool), k=1)  # key after query
    residuals, scores = [], []
    for l in range(int(cfg["n_layers"])):
        b = f"blocks.{l}."
        q = np.einsum("td,hde->hte", x, w[b + "attn.W_Q"]) + w[b + "attn.b_Q"][:, None, :]
        k = np.einsum("td,hde->hte", x, w[b + "attn.W_K"]) + w[b + "attn.b_K"][:, None, :]
        v = np.einsum("td,hde->hte", x, w[b + "attn.W_V"]) + w[b + "attn.b_V"][:, None, :]
        s = np.einsum("hqe,hke->hqk", q, k) / dtype(cfg["attn_scale"])
        scores.append(s)
        masked = np.where(blocked[None], -np.inf, s) if causal else s
        p = np.exp(masked - masked.max(axis=-1, keepdims=True))
        p = p / p.sum(axis=-1, keepdims=True)
        z = np.einsum("hqk,hke->hqe", p, v)
        x = x + np.einsum("hqe,hed->qd", z, w[b + "attn.W_O"]) + w[b + "attn.b_O"]
        residuals.append(x)
        if not cfg["attn_only"]:
            hidden = np.maximum(x @ w[b + "mlp.W_in"] + w[b + "mlp.b_in"], 0)
            x = x + hidden @ w[b + "mlp.W_out"] + w[b + "mlp.b_out"]
        residuals.append(x)
    return Forward(residuals=residuals, scores=scores, logits=x @ w["unembed.W_U"] + w["unembed.b_U"])


def decode(logits: np.ndarray, cfg: dict[str, Any]) -> list[Any]:
    """Return the read-out at every position after the BOS: the label of the largest logit, or the numeric logit."""
    hs = cfg["hardsoft"]
    rows = logits[1:]
    if hs["output_kind"] == "numerical":
        return [float(r[0]) for r in rows]
    labels = hs["output_labels"]
    return [labels[int(np.argmax(r))] for r in rows]


def encode(inputs: list[Any], cfg: dict[str, Any]) -> list[int]:
    """Return the token ids of the BOS followed by the input tokens."""
    vocab = cfg["hardsoft"]["input_vocab"]
    return [vocab.index(cfg["hardsoft"]["bos"])] + [vocab.index(tok) for tok in inputs]


def fixture_names(folder: Path = FIXTURES) -> list[str]:
    """Return the names of the fixtures in folder (one per *.config.json)."""
    return sorted(p.name.removesuffix(".config.json") for p in folder.glob("*.config.json"))


def load_fixture(name: str, folder: Path = FIXTURES) -> tuple[dict[str, np.ndarray], dict[str, Any], dict[str, Any]]:
    """Return a fixture's state dict (numpy, no torch), config and reference table."""
    from safetensors.numpy import load_file

    state = load_file(str(folder / f"{name}.safetensors"))
    cfg = json.loads((folder / f"{name}.config.json").read_text())
    reference = json.loads((folder / f"{name}.reference.json").read_text())
    return state, cfg, reference

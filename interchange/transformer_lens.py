"""TransformerLens (docs/interchange.md): a HookedTransformer state dict in safetensors and its config as JSON, read and written.

- ``import_transformer_lens(weights, config)``: the state dict (read with the ``safetensors``
  package's numpy API, no torch) and its HookedTransformerConfig as JSON -> a ``Model``.
  ``tracr=True`` (``interchange.tracr``) also requires the config's ``"hardsoft"`` hints.
- ``export_transformer_lens(model, out_dir)``: the inverse, in the same naming, with ``attn_scale``
  set from a temperature; a model with length-dependent position features or masks other than
  one attention_dir is first made expressible (``interchange.freeze``).
- ``CONFIG_FIELDS``: every field of HookedTransformerConfig (TransformerLens 3.9.0 and 4.3.0),
  each read, inert (it does not change the forward pass on token ids) or neutral only at the
  values listed (any other value is refused naming the field).  A field not in the table is
  refused until reviewed: a later TransformerLens may have added something that changes the
  forward pass.

TransformerLens computes, per layer l, with x the residual stream (row vectors):
q = x W_Q[h] + b_Q[h], k, v likewise; pattern = softmax(q k^T / s_l) with s_l = attn_scale
(1 when use_attn_scale is false) times l + 1 when scale_attn_by_inverse_layer_idx, under the
causal mask (attention_dir "causal") or none ("bidirectional"); x += sum_h pattern v W_O[h] + b_O;
x += act(x W_in + b_in) W_out + b_out; logits = x W_U + b_U.  That is Section 2's transformer at
tau = attn_scale once the attention biases are folded through a constant coordinate (an extra
residual coordinate equal to 1 that nothing writes to): W_Q gets the row b_Q, W_K the row b_K,
W_V the row b_V, and b_O becomes one more value column of the layer's first head (value 1 from
the constant coordinate, W_O row b_O; a query's weights sum to 1, so it adds b_O exactly); the
factor 1/(l + 1) of scale_attn_by_inverse_layer_idx goes into layer l's W_Q (and b_Q).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.interchange import freeze, prune
from hardsoft.interchange.safetensors_file import read_tensors, tensor_names, write_pair
from hardsoft.interchange.tokens import as_token, is_scalar
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import HARD_MODES, TIE_RTOL, TIE_RTOL_FLOAT32, TIE_RTOL_MAX
from hardsoft.spec.modelio import read_json

#: The key of the config's block of hints (tokens, BOS, labels) beyond HookedTransformerConfig.
HINTS_KEY = "hardsoft"
#: The TransformerLens releases whose config fields CONFIG_FIELDS was reviewed against (HookedTransformerConfig in 3.x,
#: TransformerBridgeConfig in 4.x, which removed HookedTransformer and HookedTransformerConfig).
REVIEWED_RELEASES: tuple[str, ...] = ("3.9.0", "4.3.0")
#: Fields only a TransformerLens 4.x config has: their presence says which generation's rules apply.  4.x's native
#: attention divides by attn_scale only when use_attn_scale is true and attn_scale > 0, else by sqrt(d_head) (3.x: by 1
#: when use_attn_scale is false), and does not read scale_attn_by_inverse_layer_idx.
TL4_ONLY_FIELDS: tuple[str, ...] = ("architecture", "attn_implementation", "is_stateful", "split_attention_weights", "default_padding_side")


@dataclass(frozen=True)
class ConfigField:
    """How the importer treats one HookedTransformerConfig field: read, inert, or neutral only at some values."""

    how: str  # "read" | "inert" | "neutral"
    why: str  # read: what it becomes; inert: why it does not change the forward pass; neutral: what another value would be
    neutral: Callable[[Any], bool] = lambda v: True  # "neutral": whether a value leaves Section 2's transformer unchanged


def _off(v: Any) -> bool:
    """Return whether a flag or optional setting is off (None or False)."""
    return v is None or v is False


def _cap_off(v: Any) -> bool:
    """Return whether a TransformerLens soft cap is disabled (None or <= 0, as its softcap_enabled says)."""
    return v is None or (not isinstance(v, bool) and isinstance(v, (int, float)) and v <= 0)


def _read(why: str) -> ConfigField:
    return ConfigField("read", why)


def _inert(why: str) -> ConfigField:
    return ConfigField("inert", why)


def _neutral(why: str, ok: Callable[[Any], bool] = _off) -> ConfigField:
    return ConfigField("neutral", why, ok)


_ROPE = "only used with rotary position embeddings, which are refused"
_TOKENIZER = "about tokenizing text; hardsoft runs token ids"
_INIT = "weight initialisation; the weights are read from the state dict"
_BOOK = "bookkeeping (names, checkpoints, devices): no effect on the computed values"
_HOOKS = "adds hook points or splits a computation into equal parts: the same values"

#: Every HookedTransformerConfig field of the reviewed releases and how the importer treats it.
CONFIG_FIELDS: dict[str, ConfigField] = {
    # read
    "n_layers": _read("the number of layers"),
    "d_model": _read("the residual width d (plus a constant coordinate when attention biases are folded)"),
    "d_head": _read("the query/key/value width of every head (and the default attn_scale sqrt(d_head))"),
    "n_heads": _read("heads per layer"),
    "d_mlp": _read("the FFN width"),
    "d_vocab": _read("rows of W_E (tokens)"),
    "d_vocab_out": _read("columns of W_U (-1: d_vocab)"),
    "n_ctx": _read("rows of W_pos: the longest input (BOS included)"),
    "act_fn": _read("must be relu (unless attn_only): the FFN is W_2 ReLU(W_1 y + b_1) + b_2"),
    "normalization_type": _read("must be null (TransformerLens's default is LN): the paper's transformer has no layer norm"),
    "attn_only": _read("no MLPs: an FFN of width 0"),
    "attention_dir": _read("causal -> every head's mask causal, bidirectional -> none"),
    "attn_scale": _read("the model's own temperature own_tau (TransformerLens divides q.k by it; -1: sqrt(d_head))"),
    "use_attn_scale": _read("false: scores are not divided (own_tau 1; attn_scale is then ignored)"),
    "positional_embedding_type": _read("must be standard (a learned table W_pos)"),
    "scale_attn_by_inverse_layer_idx": _read("true: layer l's scores are also divided by l + 1, folded into its W_Q and b_Q"),
    # neutral only at their defaults: another value changes the forward pass in a way Section 2's transformer cannot express
    "n_key_value_heads": _neutral("grouped-query attention", lambda v: v is None),  # (or n_heads: checked in read_config)
    "gated_mlp": _neutral("a gated MLP"),
    "uses_rms_norm": _neutral("RMS normalisation"),
    "final_rms": _neutral("a final RMS norm"),
    "post_embedding_ln": _neutral("a layer norm after the embedding"),
    "use_normalization_before_and_after": _neutral("layer norms around each sub-layer"),
    "num_experts": _neutral("a mixture of experts"),
    "experts_per_token": _neutral("a mixture of experts"),
    "use_qk_norm": _neutral("a norm on queries and keys"),
    "clip_qkv": _neutral("queries, keys and values clamped to [-clip_qkv, clip_qkv]"),
    "use_logn_attn": _neutral("queries scaled by log(position) (log-n attention)"),
    "use_local_attn": _neutral("local (windowed) attention"),
    "attn_types": _neutral("local attention layers", lambda v: v is None or (isinstance(v, list) and all(t == "global" for t in v))),
    "parallel_attn_mlp": _neutral("attention and MLP in parallel"),
    "attn_scores_soft_cap": _neutral("scores passed through cap * tanh(s / cap)", _cap_off),
    "output_logits_soft_cap": _neutral("logits passed through cap * tanh(z / cap)", _cap_off),
    "use_attention_sinks": _neutral("a learned sink logit joins every softmax (rows sum to less than 1)"),
    "load_in_4bit": _neutral("4-bit quantised weights"),
    "quantization_method": _neutral("quantised weights"),
    # TransformerLens 4.x (TransformerBridgeConfig) only
    "architecture": _neutral(
        "an architecture other than TransformerLens's own (its weights are not in HookedTransformer naming)",
        lambda v: v in (None, "TransformerLensNative"),
    ),
    "per_layer_head_dim": _neutral("a head width per layer"),
    "per_layer_num_key_value_heads": _neutral("grouped-query attention per layer"),
    "scale_embedding": _neutral("embeddings scaled by sqrt(d_model)"),
    "is_stateful": _neutral("a recurrent (stateful) model"),
    "is_multimodal": _neutral("a multimodal model"),
    "is_visual_model": _neutral("a vision model"),
    "is_audio_model": _neutral("an audio model"),
    "attn_implementation": _inert("eager or fused attention: the same values"),
    "split_attention_weights": _inert(_HOOKS),
    "default_padding_side": _inert(_TOKENIZER),
    "tokenizer_appends_eos": _inert(_TOKENIZER),
    "qk_norm_after_rope": _inert("only used with a norm on queries and keys, which is refused"),
    "rmsnorm_uses_offset": _inert("only used with RMS norms, which are refused"),
    "rotary_interleaved_cos_sin": _inert(_ROPE),
    "mm_tokens_per_image": _inert("only used by multimodal models, which are refused"),
    "vision_hidden_size": _inert("only used by multimodal models, which are refused"),
    "vision_num_heads": _inert("only used by multimodal models, which are refused"),
    "vision_num_layers": _inert("only used by multimodal models, which are refused"),
    # inert: no effect on the forward pass of a standard-position, normalisation-free model on token ids
    "device": _inert(_BOOK),
    "n_devices": _inert(_BOOK),
    "model_name": _inert(_BOOK),
    "original_architecture": _inert(_BOOK),
    "from_checkpoint": _inert(_BOOK),
    "checkpoint_index": _inert(_BOOK),
    "checkpoint_label_type": _inert(_BOOK),
    "checkpoint_value": _inert(_BOOK),
    "n_params": _inert("computed by TransformerLens from the sizes"),
    "trust_remote_code": _inert("about loading code from a hub"),
    "dtype": _inert("the precision TransformerLens computes in; hardsoft reads the stored tensors and computes in float64"),
    "use_attn_result": _inert(_HOOKS),
    "use_split_qkv_input": _inert(_HOOKS),
    "use_hook_mlp_in": _inert(_HOOKS),
    "use_attn_in": _inert(_HOOKS),
    "use_hook_tokens": _inert(_HOOKS),
    "default_prepend_bos": _inert(_TOKENIZER),
    "tokenizer_prepends_bos": _inert(_TOKENIZER),
    "tokenizer_name": _inert(_TOKENIZER),
    "decoder_start_token_id": _inert("only used by encoder-decoder models (HookedEncoderDecoder)"),
    "tie_word_embeddings": _inert("W_E and W_U are both read from the state dict as stored"),
    "eps": _inert("only used by layer norms, which are refused"),
    "layer_norm_folding": _inert("only used with layer norms, which are refused"),
    "init_mode": _inert(_INIT),
    "initializer_range": _inert(_INIT),
    "init_weights": _inert(_INIT),
    "seed": _inert(_INIT),
    "train_seq_length": _inert("only used with use_logn_attn, which is refused"),
    "window_size": _inert("only used with local attention, which is refused"),
    "ungroup_grouped_query_attention": _inert("only used with grouped-query attention, which is refused"),
    "norm_topk_prob": _inert("only used with a mixture of experts, which is refused"),
    "relative_attention_max_distance": _inert("only used with relative_positional_bias positions, which are refused"),
    "relative_attention_num_buckets": _inert("only used with relative_positional_bias positions, which are refused"),
    "rotary_dim": _inert(_ROPE),
    "rotary_base": _inert(_ROPE),
    "rotary_base_local": _inert(_ROPE),
    "rotary_scaling_factor": _inert(_ROPE),
    "rotary_adjacent_pairs": _inert(_ROPE),
    "use_dynamic_ntk_rope": _inert(_ROPE),
    "use_NTK_by_parts_rope": _inert(_ROPE),
    "NTK_by_parts_low_freq_factor": _inert(_ROPE),
    "NTK_by_parts_high_freq_factor": _inert(_ROPE),
    "NTK_by_parts_factor": _inert(_ROPE),
    "NTK_original_ctx_len": _inert(_ROPE),
    "use_yarn_rope": _inert(_ROPE),
    "yarn_factor": _inert(_ROPE),
    "yarn_attention_factor": _inert(_ROPE),
    "yarn_beta_fast": _inert(_ROPE),
    "yarn_beta_slow": _inert(_ROPE),
    "yarn_original_max_position_embeddings": _inert(_ROPE),
    "yarn_truncate": _inert(_ROPE),
    "yarn_global_attn_only": _inert(_ROPE),
}


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
    if kind is bool and not isinstance(v, bool):
        raise ValueError(f"config: {key} must be true or false, got {v!r}")
    return float(v) if kind is float else v


def check_config_fields(cfg: dict[str, Any]) -> None:
    """Refuse, naming the field, any config field not reviewed (CONFIG_FIELDS) or set to a value that changes the forward pass."""
    for key, value in cfg.items():
        if key == HINTS_KEY:
            continue
        rule = CONFIG_FIELDS.get(key)
        if rule is None:
            raise ValueError(
                f"config: field {key!r} is not one hardsoft has reviewed (the config fields of TransformerLens "
                f"{' and '.join(REVIEWED_RELEASES)}): it may change the forward pass, so it is refused"
            )
        if rule.how == "neutral" and not rule.neutral(value):
            raise ValueError(f"config: {key} is {value!r}: {rule.why} cannot be expressed (Section 2's transformer has none)")


def read_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Return a HookedTransformerConfig JSON file as a dict after refusing what the model format cannot express.

    A field left out takes TransformerLens's default (normalization_type "LN", attention_dir
    "causal", act_fn "relu", attn_scale sqrt(d_head), ...), as HookedTransformerConfig would.
    """
    p = Path(path)
    cfg = read_json(p, "config")
    if not isinstance(cfg, dict):
        raise ValueError(f"config {p}: the top level must be a JSON object")
    check_config_fields(cfg)
    norm = cfg.get("normalization_type", "LN")
    if norm is not None:
        left_out = " (left out: TransformerLens's default)" if "normalization_type" not in cfg else ""
        raise ValueError(f"config: normalization_type is {norm!r}{left_out}: layer norm cannot be expressed (the paper's transformer has none)")
    attn_only = _cfg(cfg, "attn_only", bool, False)
    act = cfg.get("act_fn", "relu")
    if not attn_only and act != "relu":
        raise ValueError(f"config: act_fn is {act!r}: only relu can be expressed (the FFN is W_2 ReLU(W_1 y + b_1) + b_2)")
    pos = cfg.get("positional_embedding_type", "standard")
    if pos != "standard":
        raise ValueError(f"config: positional_embedding_type is {pos!r}: only 'standard' (a learned table W_pos) can be expressed")
    direction = cfg.get("attention_dir", "causal")
    if direction not in ("causal", "bidirectional"):
        raise ValueError(f"config: attention_dir must be 'causal' or 'bidirectional', got {direction!r}")
    cfg["attention_dir"] = direction
    for key in ("n_layers", "n_heads", "d_model", "d_head", "d_vocab", "n_ctx"):
        _cfg(cfg, key, int)
    if cfg.get("n_key_value_heads") not in (None, cfg["n_heads"]):
        raise ValueError("config: n_key_value_heads differs from n_heads: grouped-query attention cannot be expressed")
    cfg["attn_only"] = attn_only
    if not attn_only:
        _cfg(cfg, "d_mlp", int)
    out = cfg.get("d_vocab_out", -1)
    cfg["d_vocab_out"] = cfg["d_vocab"] if out in (None, -1) else _cfg(cfg, "d_vocab_out", int)
    use_scale = _cfg(cfg, "use_attn_scale", bool, True)
    inverse = _cfg(cfg, "scale_attn_by_inverse_layer_idx", bool, False)
    unset = cfg.get("attn_scale") in (None, -1.0)  # TransformerLens's "not given": sqrt(d_head)
    if any(k in cfg for k in TL4_ONLY_FIELDS):  # 4.x: divide by attn_scale if use_attn_scale and attn_scale > 0, else sqrt(d_head)
        a = cfg.get("attn_scale")
        positive = not isinstance(a, bool) and isinstance(a, (int, float)) and math.isfinite(a) and a > 0
        cfg["attn_scale"] = float(a) if use_scale and positive else math.sqrt(cfg["d_head"])  # type: ignore[arg-type]
        cfg["scale_attn_by_inverse_layer_idx"] = False  # 4.x's native attention does not read it
    else:  # 3.x: use_attn_scale false divides by 1 and leaves attn_scale at its unset value (-1.0), not read then
        cfg["attn_scale"] = (math.sqrt(cfg["d_head"]) if unset else _cfg(cfg, "attn_scale", float)) if use_scale else 1.0
        cfg["scale_attn_by_inverse_layer_idx"] = inverse
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
        if not cfg["attn_only"]:
            M = cfg["d_mlp"]
            m = f"blocks.{l}.mlp."
            yield m + "W_in", (D, M), "d_model x d_mlp"
            yield m + "b_in", (M,), "d_mlp"
            yield m + "W_out", (M, D), "d_mlp x d_model"
            yield m + "b_out", (D,), "d_model"
    yield "unembed.W_U", (D, O), "d_model x d_vocab_out"
    yield "unembed.b_U", (O,), "d_vocab_out"


def read_state_dict(path: str | os.PathLike[str], cfg: dict[str, Any]) -> tuple[dict[str, np.ndarray], bool]:
    """Return (the needed tensors as float64, whether any was float32), refusing layer norms and missing/misshapen/non-finite tensors."""
    names = tensor_names(path)
    norms = sorted(n for n in names if n.startswith("ln_final.") or ".ln1." in n or ".ln2." in n)
    if norms:
        raise ValueError(f"tensor {norms[0]}: layer norm weights cannot be expressed")
    sinks = sorted(n for n in names if n.endswith("attn.sinks"))
    if sinks:
        raise ValueError(f"tensor {sinks[0]}: attention sinks cannot be expressed")
    return read_tensors(path, _expected_shapes(cfg))


# --------------------------------------------------------------------------- hints


@dataclass(frozen=True)
class Hints:
    """The config's "hardsoft" block, checked against the sizes: tokens, BOS, padding, output, and what export recorded."""

    vocab: list[str]
    bos: str | None
    pads: list[str]
    labels: list[str] | None
    kind: str
    has_output: bool
    name: str | None
    hard_mode: str
    head_dims: list[list[tuple[int, int]]]
    head_hard_modes: list[list[str | None]]
    ffn_widths: list[int] | None
    readout: tf.Readout | None
    tie_rtol: float | None
    exact_length: bool
    raw: dict[str, Any]


def _hint_list(hints: dict[str, Any], key: str, length: int, what: str) -> list[str] | None:
    """Return hints[key] as a list of `length` distinct tokens (as strings), None when absent."""
    v = hints.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(is_scalar(x) for x in v) or len(v) != length:
        raise ValueError(f"config: {HINTS_KEY}.{key} must be a list of {length} strings or numbers ({what})")
    out = [as_token(x) for x in v]
    dup = next((t for k, t in enumerate(out) if t in out[:k]), None)
    if dup is not None:
        raise ValueError(f"config: {HINTS_KEY}.{key} repeats {dup!r}")
    return out


def _per_layer(hints: dict[str, Any], key: str, L: int, H: int | None, ok: Callable[[Any], bool], what: str) -> list[Any] | None:
    """Return hints[key] as a list of L entries (each a list of H entries when H is given) that ``ok`` accepts, None when absent."""
    v = hints.get(key)
    if v is None:
        return None
    good = isinstance(v, list) and len(v) == L
    if good and H is not None:
        good = all(isinstance(r, list) and len(r) == H and all(ok(x) for x in r) for r in v)
    elif good:
        good = all(ok(x) for x in v)
    if not good:
        shape = f"{H} heads in each of {L} layers" if H is not None else f"each of {L} layers"
        raise ValueError(f"config: {HINTS_KEY}.{key} must give {what} for {shape}")
    return list(v)


def read_hints(cfg: dict[str, Any], tracr: bool) -> Hints:
    """Return the checked hints of a config (every malformed hint refused naming it)."""
    raw = cfg.get(HINTS_KEY)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ValueError(f"config: {HINTS_KEY} must be a JSON object")
    if tracr and not raw:
        raise ValueError(f"config: --from tracr needs the {HINTS_KEY!r} hints (input_vocab, bos, output_labels, output_kind)")
    L, H, K, O = cfg["n_layers"], cfg["n_heads"], cfg["d_head"], cfg["d_vocab_out"]
    vocab = _hint_list(raw, "input_vocab", cfg["d_vocab"], "one token per row of W_E") or [str(i) for i in range(cfg["d_vocab"])]
    bos = raw.get("bos")
    if bos is not None and not is_scalar(bos):
        raise ValueError(f"config: {HINTS_KEY}.bos must be a token (a string or number) or null")
    bos = None if bos is None else as_token(bos)
    if bos is not None and bos not in vocab:
        raise ValueError(f"config: {HINTS_KEY}.bos {bos!r} is not in input_vocab")
    pads_raw = raw.get("pad", [])
    if is_scalar(pads_raw):
        pads_raw = [pads_raw]
    if not isinstance(pads_raw, list) or not all(is_scalar(x) for x in pads_raw):
        raise ValueError(f"config: {HINTS_KEY}.pad must be a token or a list of tokens")
    pads = [as_token(x) for x in pads_raw]
    bad = [t for t in pads if t not in vocab]
    if bad:
        raise ValueError(f"config: {HINTS_KEY}.pad {bad[0]!r} is not in input_vocab")
    labels = _hint_list(raw, "output_labels", O, "one label per column of W_U")
    kind = raw.get("output_kind", "categorical")
    if kind not in tf.OUTPUT_KINDS:
        raise ValueError(f"config: {HINTS_KEY}.output_kind must be categorical or numerical, got {kind!r}")
    if kind == "numerical" and O != 1:
        raise ValueError(f"config: output_kind numerical needs d_vocab_out = 1, got {O}")
    if kind == "categorical" and labels is None:
        labels = [str(j) for j in range(O)]
    if "output" in raw and raw["output"] is not None:
        raise ValueError(f"config: {HINTS_KEY}.output may only be null (the model has no per-position output)")
    dims = _per_layer(
        raw, "head_dims", L, H, lambda p: isinstance(p, list) and len(p) == 2 and all(type(x) is int and 0 <= x <= K for x in p), "[k, v] <= d_head"
    )
    modes = _per_layer(raw, "head_hard_modes", L, H, lambda m: m is None or m in HARD_MODES, "a hard mode (average, leftmost, rightmost or null)")
    M = cfg.get("d_mlp") if not cfg["attn_only"] else 0
    widths = _per_layer(raw, "ffn_widths", L, None, lambda w: type(w) is int and 0 <= w <= (M or 0), f"a width in 0..{M or 0} (d_mlp)")
    hard_mode = raw.get("hard_mode", "average")
    if hard_mode not in HARD_MODES:
        raise ValueError(f"config: {HINTS_KEY}.hard_mode must be average, leftmost or rightmost, got {hard_mode!r}")
    readout = raw.get("readout")
    if readout is not None:
        if not isinstance(readout, dict) or set(readout) != {"coordinate", "position", "threshold"}:
            raise ValueError(f"config: {HINTS_KEY}.readout must be an object with exactly coordinate, position and threshold")
        c, pos, t = readout["coordinate"], readout["position"], readout["threshold"]
        if type(c) is not int or pos not in tf.READOUT_POSITIONS or isinstance(t, bool) or not isinstance(t, (int, float)):
            raise ValueError(f"config: {HINTS_KEY}.readout needs an integer coordinate, position first or last and a numeric threshold")
        readout = tf.Readout(c, pos, float(t))
    tie = raw.get("tie_rtol")
    if tie is not None and (isinstance(tie, bool) or not isinstance(tie, (int, float)) or not 0 <= tie <= TIE_RTOL_MAX):
        raise ValueError(f"config: {HINTS_KEY}.tie_rtol must be a number in [0, {TIE_RTOL_MAX}]")
    exact = raw.get("exact_length", False)
    if not isinstance(exact, bool):
        raise ValueError(f"config: {HINTS_KEY}.exact_length must be true or false")
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not name):
        raise ValueError(f"config: {HINTS_KEY}.name must be a non-empty string")
    return Hints(
        vocab=vocab,
        bos=bos,
        pads=pads,
        labels=labels,
        kind=kind,
        has_output=not ("output" in raw and raw["output"] is None),
        name=name,
        hard_mode=hard_mode,
        head_dims=[[(p[0], p[1]) for p in r] for r in dims] if dims is not None else [[(K, K)] * H for _ in range(L)],
        head_hard_modes=modes if modes is not None else [[None] * H for _ in range(L)],
        ffn_widths=widths,
        readout=readout,
        tie_rtol=None if tie is None else float(tie),
        exact_length=exact,
        raw=raw,
    )


# --------------------------------------------------------------------------- import


def import_transformer_lens(
    weights: str | os.PathLike[str],
    config: str | os.PathLike[str] | None = None,
    tracr: bool = False,
    drop_tokens: tuple[str, ...] = (),
    keep_dead_weights: bool = False,
) -> tf.Model:
    """Return the Model of a HookedTransformer state dict (safetensors) and its config (JSON).

    config defaults to NAME.config.json beside NAME.safetensors.  tracr=True requires the
    "hardsoft" hints; drop_tokens are tokens never in an input (tracr's pad), besides the hints' pad.
    FFN units, head columns and heads that add exactly 0 are dropped (``interchange.prune``), unless
    the hints record the sizes (a hardsoft export, read back bit for bit) or keep_dead_weights is set
    (every head kept, e.g. to compare its attention pattern with TransformerLens's head by head).
    """
    wp = Path(weights)
    cp = Path(config) if config is not None else wp.with_name(wp.name.removesuffix(".safetensors") + ".config.json")
    cfg = read_config(cp)
    hints = read_hints(cfg, tracr)
    sd, f32 = read_state_dict(wp, cfg)
    H, D, L = cfg["n_heads"], cfg["d_model"], cfg["n_layers"]
    vocab, bos = hints.vocab, hints.bos
    pads = hints.pads + [t for t in drop_tokens if t in vocab]
    keep = [i for i, t in enumerate(vocab) if t != bos and t not in pads]
    if not keep:
        raise ValueError("config: no input token is left once BOS and padding are removed")
    if hints.readout is not None and not 0 <= hints.readout.coordinate < D:
        raise ValueError(f"config: {HINTS_KEY}.readout.coordinate {hints.readout.coordinate} is out of range 0..{D - 1}")
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
        inv = 1.0 / (l + 1) if cfg["scale_attn_by_inverse_layer_idx"] else None
        heads = []
        for h in range(H):
            k, v = hints.head_dims[l][h]
            _require_zero_padding(sd, a, h, k, v)
            WQ, WK, WV = sd[a + "W_Q"][h][:, :k], sd[a + "W_K"][h][:, :k], sd[a + "W_V"][h][:, :v]
            WO = sd[a + "W_O"][h][:v, :]
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
            if inv is not None:
                WQ = WQ * inv
            mask = "causal" if cfg["attention_dir"] == "causal" else "none"
            # contiguous copies: a column slice of a tensor is a strided view, and numpy's batched matmul on one is many times slower
            c = np.ascontiguousarray
            heads.append(tf.Head(c(WQ), c(WK), c(WV), c(WO), mask, hints.head_hard_modes[l][h]))
        if cfg["attn_only"]:
            W1, b1, W2, b2 = np.zeros((d, 0)), np.zeros(0), np.zeros((0, d)), np.zeros(d)
        else:
            m = f"blocks.{l}.mlp."
            w = cfg["d_mlp"] if hints.ffn_widths is None else hints.ffn_widths[l]
            _require_zero_ffn_padding(sd, m, w)
            W1, b1 = widen(sd[m + "W_in"][:, :w]), sd[m + "b_in"][:w]
            W2, b2 = widen(sd[m + "W_out"][:w], rows=False, cols=True), np.append(sd[m + "b_out"], 0.0) if fold else sd[m + "b_out"]
        layers.append(tf.Layer(tuple(heads), np.ascontiguousarray(W1), b1, np.ascontiguousarray(W2), b2))
    table = widen(sd["pos_embed.W_pos"], rows=False, cols=True)
    output = None
    if hints.has_output:
        output = tf.Output(hints.kind, widen(sd["unembed.W_U"]), sd["unembed.b_U"], None if hints.labels is None else tuple(hints.labels))
    tie = hints.tie_rtol if hints.tie_rtol is not None else TIE_RTOL_FLOAT32 if f32 else TIE_RTOL
    model = tf.Model(
        alphabet=tuple(vocab[i] for i in keep),
        WE=WE[keep],
        PE=tf.PositionEmbedding((), np.zeros((0, d)), table, exact_length=hints.exact_length),
        layers=tuple(layers),
        name=hints.name or wp.name.removesuffix(".safetensors"),
        hard_mode=hints.hard_mode,
        readout=hints.readout,
        bos_token=bos,
        bos_embedding=None if bos is None else WE[vocab.index(bos)],
        output=output,
        tie_rtol=tie,
        own_tau=cfg["attn_scale"],
    )
    if keep_dead_weights or "head_dims" in hints.raw or "ffn_widths" in hints.raw:  # an export's sizes are kept (bit for bit)
        return model
    return prune.drop_dead_weights(model)[0]


def _require_zero_padding(sd: dict[str, np.ndarray], a: str, h: int, k: int, v: int) -> None:
    """Refuse non-zero weights beyond a head's recorded dimensions (the hints would drop them)."""
    for name, part in (
        ("W_Q", sd[a + "W_Q"][h][:, k:]),
        ("W_K", sd[a + "W_K"][h][:, k:]),
        ("W_V", sd[a + "W_V"][h][:, v:]),
        ("W_O", sd[a + "W_O"][h][v:]),
        ("b_Q", sd[a + "b_Q"][h][k:]),
        ("b_K", sd[a + "b_K"][h][k:]),
        ("b_V", sd[a + "b_V"][h][v:]),
    ):
        if np.any(part != 0):
            raise ValueError(f"tensor {a}{name}: head {h} has non-zero entries beyond its head_dims")


def _require_zero_ffn_padding(sd: dict[str, np.ndarray], m: str, w: int) -> None:
    """Refuse non-zero FFN weights beyond a layer's recorded width."""
    for name, part in (("W_in", sd[m + "W_in"][:, w:]), ("b_in", sd[m + "b_in"][w:]), ("W_out", sd[m + "W_out"][w:])):
        if np.any(part != 0):
            raise ValueError(f"tensor {m}{name}: non-zero entries beyond the layer's ffn_widths")


# --------------------------------------------------------------------------- export


def default_n_ctx(model: tf.Model) -> int:
    """Return the positions an export covers by default: the model's position table (plus the BOS a freeze adds); ValueError without one."""
    rows = model.PE.max_positions
    if rows is None:
        raise ValueError("the model has no position table: give --n-ctx (positions, BOS included) to tabulate its position features")
    return rows + (1 if freeze.needs_bos(model) else 0)


def export_transformer_lens(
    model: tf.Model,
    out_dir: str | os.PathLike[str],
    tau: float | None = None,
    n_ctx: int | None = None,
    extra_hints: dict[str, Any] | None = None,
) -> tuple[Path, Path, freeze.Frozen]:
    """Write NAME.safetensors and NAME.config.json (TransformerLens naming, float64); return both paths and the frozen model.

    The model is first made expressible (``interchange.freeze``: features frozen into W_pos,
    masks realised in the attention); attn_scale = tau (default: the model's own temperature,
    else 1), so that TransformerLens's softmax(q.k / attn_scale) is hardsoft's soft run at that
    tau.  Heads are padded with zeros to one d_head and FFNs to one d_mlp; the hints record the
    true sizes, so re-importing gives the frozen model bit for bit.
    """
    n_ctx = default_n_ctx(model) if n_ctx is None else n_ctx
    t = float(tau) if tau is not None else model.own_tau or 1.0
    fz = freeze.freeze(model, n_ctx)
    fz = dataclasses.replace(fz, model=dataclasses.replace(fz.model, own_tau=t))  # what the files hold: own_tau is the attn_scale
    m = fz.model
    d = m.d
    K = max([max(h.W_Q.shape[1], h.W_V.shape[1]) for layer in m.layers for h in layer.heads] + [1])
    M = max([layer.W1.shape[1] for layer in m.layers] + [0])
    H = max([len(layer.heads) for layer in m.layers] + [1])  # every layer has H heads once frozen
    tokens = list(m.alphabet) + ([m.bos_token] if m.bos_token is not None else [])
    WE = m.WE if m.bos_embedding is None else np.vstack([m.WE, m.bos_embedding[None, :]])
    sd: dict[str, np.ndarray] = {"embed.W_E": WE, "pos_embed.W_pos": m.PE.apply(n_ctx)}
    for l, layer in enumerate(m.layers):
        a = f"blocks.{l}.attn."
        Q, Kk, V, O = np.zeros((H, d, K)), np.zeros((H, d, K)), np.zeros((H, d, K)), np.zeros((H, K, d))
        for h, hd in enumerate(layer.heads):
            k, v = hd.W_Q.shape[1], hd.W_V.shape[1]
            Q[h][:, :k], Kk[h][:, :k], V[h][:, :v], O[h][:v, :] = hd.W_Q, hd.W_K, hd.W_V, hd.W_O
        sd |= {a + "W_Q": Q, a + "W_K": Kk, a + "W_V": V, a + "W_O": O}
        sd |= {a + "b_Q": np.zeros((H, K)), a + "b_K": np.zeros((H, K)), a + "b_V": np.zeros((H, K)), a + "b_O": np.zeros(d)}
        if M > 0:
            w = layer.W1.shape[1]
            mp = f"blocks.{l}.mlp."
            W_in, b_in, W_out = np.zeros((d, M)), np.zeros(M), np.zeros((M, d))
            W_in[:, :w], b_in[:w], W_out[:w] = layer.W1, layer.b1, layer.W2
            sd |= {mp + "W_in": W_in, mp + "b_in": b_in, mp + "W_out": W_out, mp + "b_out": layer.b2}
        elif np.any(layer.b2 != 0):
            raise ValueError(f"layers[{l}].ffn.b2 is non-zero in a model without FFN hidden units: TransformerLens's attn_only has no MLP bias")
    out = m.output
    sd["unembed.W_U"] = np.eye(d) if out is None else out.W
    sd["unembed.b_U"] = np.zeros(d) if out is None else out.b
    hints: dict[str, Any] = {
        "input_vocab": tokens,
        "bos": m.bos_token,
        "output_labels": None if out is None or out.labels is None else list(out.labels),
        "output_kind": "categorical" if out is None else out.kind,
        "source": "hardsoft export",
        "name": m.name,
        "hard_mode": m.hard_mode,
        "head_dims": [[[h.W_Q.shape[1], h.W_V.shape[1]] for h in layer.heads] for layer in m.layers],
        "ffn_widths": [layer.W1.shape[1] for layer in m.layers],
        "tie_rtol": m.tie_rtol,
        "exact_length": fz.exact_length,
        "serves": fz.describe(),
    }
    if out is None:
        hints["output"] = None
    if any(h.hard_mode is not None for layer in m.layers for h in layer.heads):
        hints["head_hard_modes"] = [[h.hard_mode for h in layer.heads] for layer in m.layers]
    if m.readout is not None:
        r = m.readout
        hints["readout"] = {"coordinate": r.coordinate, "position": r.position, "threshold": r.threshold}
    hints |= extra_hints or {}
    cfg: dict[str, Any] = {
        "n_layers": m.depth,
        "n_heads": H,
        "d_model": d,
        "d_head": K,
        "d_vocab": len(tokens),
        "d_vocab_out": sd["unembed.W_U"].shape[1],
        "n_ctx": n_ctx,
        "act_fn": "relu",
        "normalization_type": None,
        "attn_only": M == 0,
        "attention_dir": fz.direction,
        "attn_scale": t,
        "use_attn_scale": True,
        "positional_embedding_type": "standard",
        HINTS_KEY: hints,
    }
    if M > 0:
        cfg["d_mlp"] = M
    st, cj = write_pair(Path(out_dir), file_stem(m.name), sd, cfg)
    return st, cj, fz


def file_stem(name: str) -> str:
    """Return a model name as a file name: runs of characters other than letters, digits, '.', '_' and '-' become one '_'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_.")[:100] or "model"

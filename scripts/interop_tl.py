"""The TransformerLens side of ``make interop-check`` (docs/interchange.md): runs in an environment with torch and TransformerLens.

It imports neither hardsoft nor anything of this repository, only numpy, torch, safetensors and
transformer_lens, so it also shows a user the path from hardsoft's files to TransformerLens:

- ``load(weights, config)``: an exported NAME.safetensors + NAME.config.json as a model that
  TransformerLens runs: a ``HookedTransformer`` in TransformerLens 3.x; in 4.x (which removed
  HookedTransformer and HookedTransformerConfig) a ``TransformerBridge`` booted natively from
  the config (``TransformerBridge.boot_native``) with the weights converted by
  ``convert_tl_checkpoint``.  Every config value is kept as written (a null stays null: dropping
  it would give TransformerLens's default, e.g. a layer norm); ``dtype`` is set here.
- ``save(model, out_dir, name)``: a model's weights under HookedTransformer names and its config
  as JSON (torch dtypes and devices as their names), for ``hardsoft import``.

Usage: python scripts/interop_tl.py PLAN.json  (the plan, written by scripts/interop_check.py, lists jobs:
``load`` an export and run it, or ``make`` a random model with the options given, save it and run it;
each run's logits and attention patterns go to an .npz file).
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch
import transformer_lens

GENERATION = int(transformer_lens.__version__.split(".")[0]) if hasattr(transformer_lens, "__version__") else 0
if GENERATION == 0:
    from importlib.metadata import version

    GENERATION = int(version("transformer_lens").split(".")[0])
#: The key of hardsoft's hints in a config (not a TransformerLens field).
HINTS_KEY = "hardsoft"


def _bridge_fields() -> set[str]:
    from transformer_lens import TransformerBridgeConfig

    return {f.name for f in dataclasses.fields(TransformerBridgeConfig)} | set(
        TransformerBridgeConfig(d_model=4, d_head=2, n_layers=1, n_ctx=2, d_vocab=2).to_dict()
    )


def config_fields() -> list[str]:
    """Return the field names of the installed TransformerLens's model config (HookedTransformerConfig in 3.x, TransformerBridgeConfig in 4.x)."""
    if GENERATION >= 4:
        return sorted(_bridge_fields())
    from transformer_lens import HookedTransformerConfig

    return sorted(f.name for f in dataclasses.fields(HookedTransformerConfig))


def load(weights: str, config: str, dtype: torch.dtype = torch.float64) -> Any:
    """Return an exported model (safetensors + config JSON) as a TransformerLens model (HookedTransformer in 3.x, TransformerBridge in 4.x)."""
    from safetensors.torch import load_file

    cfg = json.loads(Path(config).read_text())
    cfg.pop(HINTS_KEY, None)
    cfg.pop("dtype", None)
    sd = {k: v.to(dtype) for k, v in load_file(weights).items()}
    if GENERATION >= 4:
        from transformer_lens import TransformerBridge
        from transformer_lens.utilities.tl_checkpoint_conversion import convert_tl_checkpoint

        fields = _bridge_fields()
        unknown = sorted(set(cfg) - fields)
        if unknown:
            raise ValueError(f"config fields {unknown} are not TransformerBridgeConfig fields")
        if cfg.get("use_attn_scale", True) and math.isclose(cfg.get("attn_scale", -1.0), 1.0, abs_tol=1e-9) and cfg["d_head"] > 1:
            # 4.x refuses attn_scale 1 with d_head > 1 ("unscaled attention"): the same scores as W_Q * 2 / 2
            cfg["attn_scale"] = 2.0
            for k in list(sd):
                if k.endswith("attn.W_Q") or k.endswith("attn.b_Q"):
                    sd[k] = sd[k] * 2.0
        if not cfg.get("use_attn_scale", True):  # 4.x's native attention divides by sqrt(d_head) then; 3.x by 1
            cfg["use_attn_scale"], cfg["attn_scale"] = True, 2.0
            for k in list(sd):
                if k.endswith("attn.W_Q") or k.endswith("attn.b_Q"):
                    sd[k] = sd[k] * 2.0
        model = TransformerBridge.boot_native(cfg, dtype=dtype)
        model.load_state_dict(convert_tl_checkpoint(sd, model.cfg), strict=True)
    else:
        from transformer_lens import HookedTransformer, HookedTransformerConfig

        model = HookedTransformer(HookedTransformerConfig(**cfg, dtype=dtype))
        missing, unexpected = model.load_state_dict(sd, strict=False)
        missing = [k for k in missing if not (k.endswith(".mask") or k.endswith(".IGNORE"))]
        if missing or unexpected:
            raise ValueError(f"state dict does not fit the model: missing {missing[:3]}, unexpected {unexpected[:3]}")
    model.eval()
    return model


def property_state_dict(model: Any) -> dict[str, torch.Tensor]:
    """Return a TransformerLens model's weights under HookedTransformer state-dict names (from 4.x's properties, or 3.x's state dict)."""
    if GENERATION < 4:
        return {k: v for k, v in model.state_dict().items() if not (k.endswith(".mask") or k.endswith(".IGNORE"))}
    sd = {"embed.W_E": model.W_E, "pos_embed.W_pos": model.W_pos, "unembed.W_U": model.W_U, "unembed.b_U": model.b_U}
    for l, blk in enumerate(model.blocks):
        a = blk.attn
        for n in ("W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"):
            sd[f"blocks.{l}.attn.{n}"] = getattr(a, n)
        if not model.cfg.attn_only:
            for n in ("W_in", "b_in", "W_out", "b_out"):
                sd[f"blocks.{l}.mlp.{n}"] = getattr(blk.mlp, n)
    return sd


def _json_value(v: Any) -> Any:
    """Return a config value as JSON (torch dtypes and devices as their names)."""
    if isinstance(v, torch.dtype):
        return str(v).removeprefix("torch.")
    if isinstance(v, torch.device):
        return str(v)
    return v


def save(model: Any, out_dir: str, name: str) -> tuple[Path, Path]:
    """Write a TransformerLens model as NAME.safetensors (HookedTransformer names, float64) and NAME.config.json; return both paths."""
    from safetensors.torch import save_file

    out = Path(out_dir)
    st, cj = out / f"{name}.safetensors", out / f"{name}.config.json"
    save_file({k: v.detach().to(torch.float64).contiguous() for k, v in property_state_dict(model).items()}, str(st))
    cj.write_text(json.dumps({k: _json_value(v) for k, v in model.cfg.to_dict().items()}, indent=1))
    return st, cj


def make(options: dict[str, Any], seed: int) -> Any:
    """Return a random TransformerLens model (every parameter drawn from N(0, 1/fan-in)) with the config options given."""
    torch.manual_seed(seed)
    base = dict(d_model=6, d_head=3, n_heads=2, n_layers=2, n_ctx=6, d_vocab=5, d_vocab_out=4, d_mlp=7, act_fn="relu", normalization_type=None)
    base |= options
    if GENERATION >= 4:
        from transformer_lens import TransformerBridge

        model = TransformerBridge.boot_native(base, dtype=torch.float64)
    else:
        from transformer_lens import HookedTransformer, HookedTransformerConfig

        model = HookedTransformer(HookedTransformerConfig(**base, dtype=torch.float64))
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 1.0 / math.sqrt(p.shape[-1] if p.ndim else 1))
    model.eval()
    return model


def run(model: Any, tokens: list[list[int]]) -> dict[str, np.ndarray]:
    """Return logits and every layer's attention pattern (batch, head, query, key) on a batch of token ids of one length."""
    toks = torch.tensor(tokens, dtype=torch.long)
    with torch.no_grad():
        logits, cache = model.run_with_cache(toks)
    out = {"logits": logits.to(torch.float64).numpy()}
    for l in range(model.cfg.n_layers):
        out[f"pattern{l}"] = cache[f"blocks.{l}.attn.hook_pattern"].to(torch.float64).numpy()
    return out


def main(plan_path: str) -> int:
    """Run every job of a plan; write each job's results; print one line per job."""
    plan = json.loads(Path(plan_path).read_text())
    done = []
    for job in plan["jobs"]:
        try:
            if job["kind"] == "load":
                model = load(job["weights"], job["config"])
            else:
                model = make(job["options"], job["seed"])
                save(model, job["dir"], job["name"])
            res: dict[str, np.ndarray] = {}
            for k, group in enumerate(job["tokens"]):
                res |= {f"g{k}.{n}": v for n, v in run(model, group).items()}
            np.savez(job["out"], **res)
            done.append({"name": job["name"], "ok": True})
        except Exception as e:  # reported per job: the hardsoft side decides what a failure means
            done.append({"name": job["name"], "ok": False, "error": f"{type(e).__name__}: {e}"})
        print(f"{transformer_lens_version()} {job['kind']} {job['name']}: {'ok' if done[-1]['ok'] else done[-1]['error']}", flush=True)
    Path(plan["report"]).write_text(
        json.dumps({"version": transformer_lens_version(), "torch": torch.__version__, "fields": config_fields(), "jobs": done})
    )
    return 0


def transformer_lens_version() -> str:
    """Return the installed TransformerLens version."""
    from importlib.metadata import version

    return version("transformer_lens")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

"""``hardsoft import``: a TransformerLens state dict or a tracr-compiled model (safetensors + config JSON) -> a format 3 model file.

The readers are ``interchange.transformer_lens`` and ``interchange.tracr`` (docs/interchange.md); what the model
format cannot express (layer norm, non-ReLU activations, rotary embeddings, ...) and missing,
misshapen or non-finite tensors exit 2 with one line naming the tensor or field, nothing written.
Exit 0 once the model file is written.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from hardsoft.interchange import SOURCES
from hardsoft.interchange.tracr import import_tracr
from hardsoft.interchange.transformer_lens import import_transformer_lens
from hardsoft.spec.modelio import model_from_dict, model_to_dict, save_model

#: The command's name (``import`` is a Python keyword, so the module is import_model).
NAME = "import"


def register(sub: Any) -> None:
    """Add the import subcommand."""
    p = sub.add_parser(NAME, help="import a TransformerLens or tracr model (safetensors + config) as a format 3 model file")
    p.add_argument("file", help="NAME.safetensors (HookedTransformer state-dict names)")
    p.add_argument("--from", dest="source", choices=SOURCES, required=True, help="the tool the model comes from")
    p.add_argument("--config", help="HookedTransformerConfig as JSON (default: NAME.config.json beside the weights)")
    p.add_argument("--out", required=True, metavar="MODEL.json", help="the model file to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import and write the model file; print one summary line."""
    t0 = time.perf_counter()
    model = import_tracr(args.file, args.config) if args.source == "tracr" else import_transformer_lens(args.file, args.config)
    try:  # what import writes always loads back (an FFN of width 0 included): a model that would not is an internal error
        model_from_dict(model_to_dict(model))
    except ValueError as e:
        raise RuntimeError(f"internal: the imported model would not load back: {e}") from None
    save_model(model, args.out, description=f"imported from {args.file} (--from {args.source})")
    heads = sum(len(layer.heads) for layer in model.layers)
    bos = f", BOS {model.bos_token!r}" if model.bos_token is not None else ""
    out = "" if model.output is None else f", {model.output.kind} output ({model.output.W.shape[1]} columns)"
    print(
        f"imported {model.name}: {model.depth} layer(s), {heads} head(s), d = {model.d}, alphabet {list(model.alphabet)}{bos}, "
        f"inputs {'of exactly' if model.PE.exact_length else 'up to'} {model.max_input_length}{out}, "
        f"own tau {model.own_tau:.6g}, tie_rtol {model.tie_rtol:.3g} "
        f"in {time.perf_counter() - t0:.2f} s -> {args.out}"
    )
    return 0

"""``hardsoft export``: a model file -> TransformerLens naming (NAME.safetensors + NAME.config.json), attn_scale set from a temperature.

The writer is ``checks.interop.export_transformer_lens`` (docs/interchange.md).  A model
TransformerLens cannot express (masks other than all-causal or all-none, length-dependent
position features) exits 2 with one line, nothing written.  Exit 0 once both files are written.
"""

from __future__ import annotations

import argparse
from typing import Any

from hardsoft.checks import interop
from hardsoft.checks.args import positive_float, positive_int
from hardsoft.spec.modelio import load_model


def register(sub: Any) -> None:
    """Add the export subcommand."""
    p = sub.add_parser("export", help="export a model file in TransformerLens naming (safetensors + config JSON)")
    p.add_argument("model", help="model file (docs/model-format.md)")
    p.add_argument("--to", choices=interop.TARGETS, required=True, help="the target naming")
    p.add_argument("--out", required=True, metavar="DIR", help="existing directory for NAME.safetensors and NAME.config.json")
    p.add_argument("--tau", type=positive_float("--tau"), help="temperature written as attn_scale (default: the model's own, else 1)")
    p.add_argument("--n-ctx", type=positive_int("--n-ctx"), help="positions of W_pos, BOS included (default: the model's position table)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Export and print the two paths."""
    model = load_model(args.model)
    st, cj = interop.export_transformer_lens(model, args.out, tau=args.tau, n_ctx=args.n_ctx)
    print(f"wrote {st} and {cj}")
    return 0

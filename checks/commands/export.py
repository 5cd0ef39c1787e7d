"""``hardsoft export``: a model file -> TransformerLens naming (NAME.safetensors + NAME.config.json), verified and certified.

The writer is ``interchange.transformer_lens.export_transformer_lens`` (docs/interchange.md):
length-dependent position features are frozen into W_pos (the export then serves one input
length) and masks TransformerLens lacks are realised inside the attention
(``interchange.freeze``).  Before anything is written, the frozen model is verified against the
original on every input of the served lengths (up to ``--verify-up-to`` and an enumeration
limit) and certified for ``--eps`` (``interchange.certificate``); attn_scale is ``--tau``, else
the model's own temperature, else the tightest certified one.  The certificate goes into the
config's hints and is printed.  Exit 0 once both files are written; a model that cannot be
expressed exits 2 with one line, nothing written.
"""

from __future__ import annotations

import argparse
from typing import Any

from hardsoft.checks.args import positive_float, positive_int
from hardsoft.interchange import TARGETS, certificate, freeze
from hardsoft.interchange.transformer_lens import default_n_ctx, export_transformer_lens
from hardsoft.spec.modelio import load_model
from hardsoft.spec.validate import require_eps

#: The default target error of the export's certificate.
EXPORT_EPS = 0.01


def register(sub: Any) -> None:
    """Add the export subcommand."""
    p = sub.add_parser("export", help="export a model file in TransformerLens naming (safetensors + config JSON), verified and certified")
    p.add_argument("model", help="model file (docs/model-format.md)")
    p.add_argument("--to", choices=TARGETS, required=True, help="the target naming")
    p.add_argument("--out", required=True, metavar="DIR", help="existing directory for NAME.safetensors and NAME.config.json")
    p.add_argument(
        "--tau", type=positive_float("--tau"), help="temperature written as attn_scale (default: the model's own, else the tightest certified)"
    )
    p.add_argument("--n-ctx", type=positive_int("--n-ctx"), help="positions of W_pos, BOS included (default: the model's position table)")
    p.add_argument("--eps", type=float, default=EXPORT_EPS, help=f"target error of the certificate (default {EXPORT_EPS})")
    p.add_argument(
        "--verify-up-to",
        type=positive_int("--verify-up-to"),
        help="verify and certify served lengths up to this (default: all, within the enumeration limit)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Freeze, verify and certify, then write; print what the export serves and is certified for."""
    eps = require_eps(args.eps)
    model = load_model(args.model)
    n_ctx = args.n_ctx if args.n_ctx is not None else default_n_ctx(model)
    fz = freeze.freeze(model, n_ctx)
    cert = certificate.certify_export(model, fz, eps, tau=args.tau, up_to=args.verify_up_to)
    st, cj, _ = export_transformer_lens(model, args.out, tau=cert.attn_scale, n_ctx=n_ctx, extra_hints={"certified": cert.as_hints()})
    lengths = cert.lengths
    print(f"exported {model.name}: {fz.describe()}")
    if not lengths:
        print(
            f"NOT verified nor certified: the served inputs are more than {certificate.EXPORT_ENUMERATION_LIMIT:,} "
            f"(or --verify-up-to is below {fz.lengths[0]}); attn_scale {cert.attn_scale:.6g} as given"
        )
    else:
        span = f"{lengths[0]}" if len(lengths) == 1 else f"{lengths[0]}..{lengths[-1]}"
        print(
            f"verified  every input of length {span} ({cert.inputs:,} inputs): hard(export) = hard(model) on "
            f"{cert.hard_decisions_agree}/{cert.decisions} decisions (largest activation difference {cert.hard_max_diff:.2g}); "
            f"soft(export) at attn_scale = hard(model) on {cert.soft_decisions_agree}/{cert.decisions} (largest soft - hard {cert.soft_max_err:.2g})"
        )
        tight = "no tie gap (soft = hard at every tau)" if cert.tightest_tau == float("inf") else f"tightest certified tau {cert.tightest_tau:.6g}"
        verdict = "certified" if cert.certified else "NOT certified"
        print(
            f"certified at lengths {span}, eps = {eps:g}: {tight}; "
            f"attn_scale {cert.attn_scale:.6g} is {verdict} (B_L <= {cert.bound_at_attn_scale:.3g})"
        )
        if len(lengths) < len(fz.lengths):
            print(
                f"not verified: lengths {lengths[-1] + 1}..{fz.lengths[-1]} "
                f"(more than {certificate.EXPORT_ENUMERATION_LIMIT:,} inputs, or above --verify-up-to)"
            )
    print(f"wrote {st} and {cj}")
    return 0

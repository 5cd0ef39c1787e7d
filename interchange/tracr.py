"""tracr (docs/interchange.md, docs/tracr-fixtures.md): a tracr-compiled model converted to TransformerLens naming.

tracr itself is not needed (nor on PyPI): ``scripts/tracr_export.py``, run where tracr is
installed, writes the model as a HookedTransformer state dict plus a config whose ``"hardsoft"``
hints name the token of each W_E row, the BOS token and the output labels.  This reader is the
TransformerLens one (``interchange.transformer_lens``) that also requires those hints and drops
tracr's padding token from the alphabet.
"""

from __future__ import annotations

import os

from hardsoft.interchange.transformer_lens import import_transformer_lens
from hardsoft.spec import transformer as tf

#: tracr's padding token: never part of an input, so it is dropped from the alphabet.
TRACR_PAD = "compiler_pad"


def import_tracr(weights: str | os.PathLike[str], config: str | os.PathLike[str] | None = None, keep_dead_weights: bool = False) -> tf.Model:
    """Return the Model of a tracr model in TransformerLens naming (the hints required, tracr's pad token dropped)."""
    return import_transformer_lens(weights, config, tracr=True, drop_tokens=(TRACR_PAD,), keep_dead_weights=keep_dead_weights)

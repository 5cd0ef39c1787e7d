"""Models from and to other tools (docs/interchange.md): one module per outside tool, layered on spec/ only.

- ``transformer_lens``: TransformerLens state dicts (safetensors) and HookedTransformerConfig JSON,
  read (``import_transformer_lens``) and written (``export_transformer_lens``); the reviewed table
  of every config field (``CONFIG_FIELDS``).
- ``tracr``: tracr-compiled models converted to TransformerLens naming (``import_tracr``).
- ``safetensors_file``: the safetensors format, read with checks and written atomically.
- ``freeze``: a model made expressible as a HookedTransformer (length-dependent position
  features frozen into a table, masks realised inside the attention) and what it serves.
- ``certificate``: what an export is certified and verified for (lengths, tau, eps).
- ``reference``: hardsoft's reference tables (every input up to a length with its outputs).
- ``tokens``: tokens and labels as other tools write them.

The commands ``hardsoft import``, ``export`` and ``verify --reference`` (checks/commands/) use it.
"""

#: The importers (``hardsoft import --from``).
SOURCES: tuple[str, ...] = ("transformer-lens", "tracr")
#: The exporters (``hardsoft export --to``).
TARGETS: tuple[str, ...] = ("transformer-lens",)

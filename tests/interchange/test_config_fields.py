"""Every TransformerLens config field is read, inert or refused, by one reviewed table; a field not in it is refused.

tests/fixtures/transformer_lens_config_fields.json holds the field lists of the real TransformerLens 3.9.0
(HookedTransformerConfig) and 4.3.0 (TransformerBridgeConfig), read from the installed libraries; ``make
interop-check`` compares the table with the installed library's list again, live.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interop_cases import reference_logits, tl_config, tl_state_dict, write_tl_files

from hardsoft.interchange import transformer_lens as tlio
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT64_EPS

FIELDS = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "transformer_lens_config_fields.json").read_text())


def test_the_reviewed_releases_are_the_snapshot() -> None:
    assert set(tlio.REVIEWED_RELEASES) == {k for k in FIELDS if k[0].isdigit()}


@pytest.mark.parametrize("release", ["3.9.0", "4.3.0"])
def test_every_field_of_the_release_is_reviewed(release: str) -> None:
    fields = FIELDS[release]["fields"]
    assert len(fields) > 80
    assert sorted(set(fields) - set(tlio.CONFIG_FIELDS)) == []
    for name in fields:
        rule = tlio.CONFIG_FIELDS[name]
        assert rule.how in ("read", "inert", "neutral") and rule.why and "\n" not in rule.why


def test_the_table_names_no_field_no_release_has() -> None:
    known = set(FIELDS["3.9.0"]["fields"]) | set(FIELDS["4.3.0"]["fields"])
    assert sorted(set(tlio.CONFIG_FIELDS) - known) == []


def _files(tmp_path: Path, **kw: Any) -> tuple[Path, dict[str, np.ndarray], dict[str, Any]]:
    cfg = tl_config(**kw)
    sd = tl_state_dict(np.random.default_rng(5), cfg, dtype=np.float64)
    st, _ = write_tl_files(tmp_path, "tl", sd, cfg)
    return st, sd, cfg


def test_a_field_no_release_has_is_refused_until_reviewed(tmp_path: Path) -> None:
    st, _, cfg = _files(tmp_path, use_new_thing=True)
    with pytest.raises(ValueError, match="field 'use_new_thing' is not one hardsoft has reviewed"):
        tlio.import_transformer_lens(st)


@pytest.mark.parametrize(
    "field,value",
    [
        ("attn_scores_soft_cap", 30.0),
        ("output_logits_soft_cap", 30.0),
        ("clip_qkv", 0.5),
        ("use_attention_sinks", True),
        ("use_logn_attn", True),
        ("use_qk_norm", True),
        ("post_embedding_ln", True),
        ("num_experts", 4),
        ("scale_embedding", True),
        ("architecture", "GPT2LMHeadModel"),
        ("attn_types", ["global", "local"]),
    ],
)
def test_options_that_change_the_forward_pass_are_refused_naming_the_field(tmp_path: Path, field: str, value: Any) -> None:
    st, _, _ = _files(tmp_path, **{field: value})
    with pytest.raises(ValueError, match=f"config: {field} is "):
        tlio.import_transformer_lens(st)


@pytest.mark.parametrize(
    "field,value", [("attn_scores_soft_cap", -1.0), ("output_logits_soft_cap", 0.0), ("clip_qkv", None), ("use_attention_sinks", False)]
)
def test_the_same_options_at_their_off_values_import(tmp_path: Path, field: str, value: Any) -> None:
    st, _, _ = _files(tmp_path, **{field: value})
    tlio.import_transformer_lens(st)


def _logits(m: tf.Model, tokens: np.ndarray) -> np.ndarray:
    assert m.output is not None and m.own_tau is not None
    return m.output.logits(tf.run(m, tokens, "soft", tau=m.own_tau).activations[-1])


def test_scale_attn_by_inverse_layer_idx_divides_layer_l_by_l_plus_1(tmp_path: Path) -> None:
    st, sd, cfg = _files(tmp_path, n_layers=3, scale_attn_by_inverse_layer_idx=True)
    m = tlio.import_transformer_lens(st)
    tokens = np.random.default_rng(2).integers(0, cfg["d_vocab"], size=(5, cfg["n_ctx"]))
    scales = [cfg["attn_scale"] * (l + 1) for l in range(3)]
    want = reference_logits(sd, cfg, tokens, attn_scales=scales)
    np.testing.assert_allclose(_logits(m, tokens), want, rtol=0, atol=1e4 * FLOAT64_EPS * max(1.0, float(np.abs(want).max())))
    plain = reference_logits(sd, cfg, tokens)  # planted: the option ignored gives other logits
    assert np.abs(plain - want).max() > 1e-3


def test_use_attn_scale_false_reads_no_attn_scale(tmp_path: Path) -> None:
    """TransformerLens writes attn_scale -1.0 when use_attn_scale is false (3.x): it divides by 1, and -1.0 is not read."""
    st, _, _ = _files(tmp_path, use_attn_scale=False, attn_scale=-1.0)
    assert tlio.import_transformer_lens(st).own_tau == 1.0
    st, _, _ = _files(tmp_path, attn_scale=-1.0)
    assert tlio.import_transformer_lens(st).own_tau == pytest.approx(math.sqrt(3))


def test_a_transformer_lens_4_config_follows_4x_rules(tmp_path: Path) -> None:
    """4.x's native attention divides by sqrt(d_head) when use_attn_scale is false or attn_scale <= 0, and ignores the layer index."""
    st, _, _ = _files(tmp_path, use_attn_scale=False, attn_scale=-1.0, architecture=None, scale_attn_by_inverse_layer_idx=True)
    m = tlio.import_transformer_lens(st)
    assert m.own_tau == pytest.approx(math.sqrt(3))
    st2, _, _ = _files(tmp_path, use_attn_scale=False, attn_scale=-1.0, scale_attn_by_inverse_layer_idx=True)
    m3 = tlio.import_transformer_lens(st2)
    assert m3.own_tau == 1.0 and not np.allclose(m3.layers[1].heads[0].W_Q, m.layers[1].heads[0].W_Q)  # 3.x: layer 1's W_Q halved


def test_a_left_out_normalization_type_is_transformer_lens_default_layer_norm(tmp_path: Path) -> None:
    cfg = tl_config()
    del cfg["normalization_type"]
    sd = tl_state_dict(np.random.default_rng(5), cfg)
    st, _ = write_tl_files(tmp_path, "tl", sd, cfg)
    with pytest.raises(ValueError, match="normalization_type is 'LN' \\(left out: TransformerLens's default\\)"):
        tlio.import_transformer_lens(st)


def test_the_interchange_doc_names_every_refused_field() -> None:
    """docs/interchange.md lists the fields refused unless neutral: each one's name appears there, and the counts are the table's."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "interchange.md").read_text()
    missing = [k for k, v in tlio.CONFIG_FIELDS.items() if v.how == "neutral" and f"`{k}`" not in doc]
    assert missing == []
    from collections import Counter

    counts = Counter(v.how for v in tlio.CONFIG_FIELDS.values())
    assert f"**read** ({counts['read']})" in doc and f"**inert** ({counts['inert']})" in doc
    assert f"**refused unless at their neutral value** ({counts['neutral']})" in doc
    assert f"({len(tlio.CONFIG_FIELDS)} fields;" in doc

"""Bad input to ``hardsoft import`` exits 2 with one line naming the tensor, field or hint, writes nothing, and never exits 4;
what import writes always loads back (attn_only and FFNs of width 0 included)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interop_cases import tl_config, tl_state_dict, write_tl_files, write_tracr_like

from hardsoft.interchange import transformer_lens as tlio
from hardsoft.spec.modelio import load_model
from tests.cli_run import run_hardsoft


def _import(tmp_path: Path, st: Path, source: str = "transformer-lens") -> tuple[Any, Path]:
    out = tmp_path / "m.json"
    return run_hardsoft("import", str(st), "--from", source, "--out", str(out)), out


def _refused(p: Any, out: Path, needle: str) -> None:
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stderr.count("\n") == 1 and needle in p.stderr, p.stderr
    assert not out.exists()


def _write_raw(path: Path, tensors: dict[str, tuple[str, tuple[int, ...], bytes]]) -> None:
    """Write a safetensors file by hand (its header and bytes), for dtypes numpy cannot hold (bfloat16)."""
    header, blob = {}, b""
    for name, (dtype, shape, data) in tensors.items():
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    path.write_bytes(struct.pack("<Q", len(h)) + h + blob)


def test_a_bfloat16_tensor_is_refused_naming_it(tmp_path: Path) -> None:
    cfg = tl_config()
    sd = tl_state_dict(np.random.default_rng(0), cfg)
    raw = {k: ("F32", v.shape, v.astype(np.float32).tobytes()) for k, v in sd.items()}
    raw["embed.W_E"] = ("BF16", sd["embed.W_E"].shape, b"\0\0" * sd["embed.W_E"].size)
    st = tmp_path / "tl.safetensors"
    _write_raw(st, raw)
    (tmp_path / "tl.config.json").write_text(json.dumps(cfg))
    p, out = _import(tmp_path, st)
    _refused(p, out, "tensor embed.W_E has dtype BF16: only float32 (F32) and float64 (F64) are read")


@pytest.mark.parametrize(
    "hints,needle",
    [
        ({"ffn_widths": [5]}, "hardsoft.ffn_widths must give a width in 0..5 (d_mlp) for each of 2 layers"),
        ({"head_hard_modes": [[None, None]]}, "hardsoft.head_hard_modes must give a hard mode"),
        ({"head_dims": [[[3, 3], [3, 3]]]}, "hardsoft.head_dims must give [k, v] <= d_head for 2 heads in each of 2 layers"),
        ({"head_hard_modes": [["average", "sideways"], [None, None]]}, "hardsoft.head_hard_modes must give a hard mode"),
        ({"readout": {}}, "hardsoft.readout must be an object with exactly coordinate, position and threshold"),
        ({"readout": {"coordinate": 99, "position": "last", "threshold": 0.5}}, "hardsoft.readout.coordinate 99 is out of range 0..5"),
        ({"readout": {"coordinate": 0, "position": "middle", "threshold": 0.5}}, "hardsoft.readout needs an integer coordinate"),
        ({"output_labels": ["p", "p", "q"]}, "hardsoft.output_labels repeats 'p'"),
        ({"input_vocab": ["a", "b", "a", "c"]}, "hardsoft.input_vocab repeats 'a'"),
        ({"pad": {"token": "c"}}, "hardsoft.pad must be a token or a list of tokens"),
        ({"input_vocab": ["a", "b", "c", "d"], "pad": "z"}, "hardsoft.pad 'z' is not in input_vocab"),
        ({"bos": ["a"]}, "hardsoft.bos must be a token"),
        ({"hard_mode": "soft"}, "hardsoft.hard_mode must be average, leftmost or rightmost"),
        ({"tie_rtol": 1.0}, "hardsoft.tie_rtol must be a number in [0, 0.01]"),
        ({"output": {"kind": "numerical"}}, "hardsoft.output may only be null"),
        ({"exact_length": "yes"}, "hardsoft.exact_length must be true or false"),
        ({"name": ""}, "hardsoft.name must be a non-empty string"),
    ],
)
def test_malformed_hints_exit_2_naming_the_hint(tmp_path: Path, hints: dict[str, Any], needle: str) -> None:
    cfg = tl_config()
    cfg["hardsoft"] = hints
    st, _ = write_tl_files(tmp_path, "tl", tl_state_dict(np.random.default_rng(0), cfg), cfg)
    p, out = _import(tmp_path, st)
    _refused(p, out, needle)


#: Values of every type a JSON config can hold, for every field the importer reads.
ODD_VALUES: list[Any] = [None, "x", -1, 0, 2.5, True, [], {}, [1, 2]]


@pytest.mark.parametrize("field", [k for k, v in tlio.CONFIG_FIELDS.items() if v.how == "read"])
def test_odd_values_of_every_read_field_never_end_in_an_internal_error(tmp_path: Path, field: str) -> None:
    codes = set()
    for k, value in enumerate(ODD_VALUES):
        d = tmp_path / str(k)
        d.mkdir()
        cfg = tl_config()
        sd = tl_state_dict(np.random.default_rng(0), cfg)
        cfg[field] = value
        st, _ = write_tl_files(d, "tl", sd, cfg)
        p, out = _import(d, st)
        assert p.returncode in (0, 2), (field, value, p.returncode, p.stderr)
        if p.returncode == 2:
            _refused(p, out, "")
        else:
            load_model(out)
        codes.add(p.returncode)
    assert 2 in codes  # some odd value of every read field is refused


def test_a_config_that_is_not_an_object_or_not_json_exits_2(tmp_path: Path) -> None:
    cfg = tl_config()
    st, cj = write_tl_files(tmp_path, "tl", tl_state_dict(np.random.default_rng(0), cfg), cfg)
    cj.write_text("[1, 2]")
    _refused(*_import(tmp_path, st), "the top level must be a JSON object")
    cj.write_bytes(b"\xff\xfe{")
    _refused(*_import(tmp_path, st), "is not UTF-8 text")
    cj.write_text("{")
    _refused(*_import(tmp_path, st), "is not valid JSON")


def test_attn_only_imports_into_a_file_every_command_reads_back(tmp_path: Path) -> None:
    cfg = tl_config(attn_only=True)
    st, _ = write_tl_files(tmp_path, "tl", tl_state_dict(np.random.default_rng(0), cfg), cfg)
    p, out = _import(tmp_path, st)
    assert p.returncode == 0, p.stderr
    m = load_model(out)
    assert all(layer.W1.shape[1] == 0 for layer in m.layers)
    p = run_hardsoft("temperature", "--model", str(out), "--n", "3", "--eps", "0.5")
    assert p.returncode in (0, 2) and "W2 has shape" not in p.stderr, p.stderr
    p = run_hardsoft("simulate", "--model", str(out), "--enumerate", "2", "--tau", "0.5")
    assert p.returncode == 0, p.stderr


def test_an_export_with_zero_width_ffns_imports_and_loads_back(tmp_path: Path) -> None:
    st, _, ref = write_tracr_like(tmp_path)
    m = tlio.import_transformer_lens(st, tracr=True, drop_tokens=("compiler_pad",))
    import numpy as _np

    from hardsoft.spec import transformer as tf

    layers = tuple(tf.Layer(ly.heads, _np.zeros((m.d, 0)), _np.zeros(0), _np.zeros((0, m.d)), _np.zeros(m.d)) for ly in m.layers)
    zero = tf.Model(
        m.alphabet, m.WE, m.PE, layers, "zero-ffn", bos_token=m.bos_token, bos_embedding=m.bos_embedding, output=m.output, own_tau=m.own_tau
    )
    d = tmp_path / "exp"
    d.mkdir()
    st2, cj2, _ = tlio.export_transformer_lens(zero, d)
    assert json.loads(cj2.read_text())["attn_only"] is True
    p, out = _import(d, st2)
    assert p.returncode == 0, p.stderr
    assert load_model(out).layers[0].W2.shape == (0, m.d)

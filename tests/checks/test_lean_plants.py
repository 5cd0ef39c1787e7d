"""Planted edits the Lean verdict must reject: one test (or group) per defect class of the lean18 review.

Each class is a way an edit of ``lean/`` could make the run report a registered theorem
"proved" although Lean never proved its registered statement:

1. blinding the audit's tokenizer (a comment form it reads differently from Lean);
2. redirecting a pinned name (a project declaration that shadows what a pinned text means);
3. changing what a pinned statement is about (a definition or structure it uses, a field
   that makes it vacuous, a deleted non-vacuity theorem);
4. gluing a command onto the previous declaration (a command that begins mid-line);
5. cutting Lean short (``#exit``): files Lean never compiled must not count as built.

Where the rejection is decided before Lean runs (audit, splitter, namespace check, registry
consistency) the test runs without Lean; the Lean-running ones carry ``@pytest.mark.lean``.
"""

from __future__ import annotations

import random
import re
import shutil
import threading
from pathlib import Path

import pytest

from hardsoft.checks.families.lean import bundle, pins, sources
from hardsoft.checks.families.lean import family as lf
from hardsoft.checks.families.lean.audit import audit_sources
from hardsoft.checks.families.lean.build import UnitResult
from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.sources import LEAN_DIR, LeanSyntaxError, lean_sources, tokenize
from hardsoft.checks.result import Outcome
from hardsoft.spec import lean_statements as ls


@pytest.fixture()
def lean_copy(tmp_path: Path) -> Path:
    """A temporary copy of the Lean sources."""
    dest = tmp_path / "lean"
    shutil.copytree(LEAN_DIR, dest, ignore=shutil.ignore_patterns(".lake", "build", "wasm", "__pycache__"))
    return dest


def _plant(copy: Path, rel: str, text: str, before: str = "end HardSoft") -> int:
    """Insert ``text`` into ``copy/rel`` before the last occurrence of ``before``; return the line of its first line."""
    f = copy / rel
    src = f.read_text(encoding="utf-8")
    at = src.rindex(before)
    f.write_text(src[:at] + text + src[at:], encoding="utf-8")
    return src[:at].count("\n") + 1


def _findings(copy: Path) -> list:
    return audit_sources(lean_sources(copy), copy)


# --------------------------------------------------------------------------- class 1: blinding the tokenizer

#: The blinding sequence: Lean skips the character after ``/-`` unexamined, so ``/-/- -/`` is one
#: comment to Lean, but two nested openers to a reader that nests from the opener on.  The ``-/``
#: in the line comment closes the reader's outer comment: it skips the axiom, Lean compiles it.
BLINDING = "/-/- -/\naxiom planted_bad : False\n-- -/\n"


def _lean_reading(src: str) -> set[int] | None:
    """Return the positions Lean's lexer reads as code (outside comments and string literals), or None if Lean rejects the text.

    A transcription of ``Lean.Parser.Basic``'s ``whitespace`` and ``finishCommentBlock``
    (and the string literal's escapes): ``--`` to the end of the line; ``/-`` opens a block
    comment (``/--`` and ``/-!`` a doc comment) whose body starts one character AFTER the
    opener's second character for a plain comment (Lean skips it unexamined), nests on ``/-``
    and closes on ``-/``.
    """
    code: set[int] = set()
    i, n = 0, len(src)

    def finish(j: int) -> int | None:
        depth = 1
        while j < n:
            if src[j] == "-" and j + 1 < n and src[j + 1] == "/":
                depth -= 1
                j += 2
                if depth == 0:
                    return j
            elif src[j] == "/" and j + 1 < n and src[j + 1] == "-":
                depth += 1
                j += 2
            else:
                j += 1
        return None

    while i < n:
        if src[i] in " \n":
            i += 1
        elif src.startswith("--", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/-", i):
            if i + 2 >= n:
                return None
            end = finish(i + 3)  # `/--`, `/-!`: the body follows; `/-`: the character after it is skipped
            if end is None:
                return None
            i = end
        elif src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                if src[j] == "\\":
                    if j + 1 >= n or src[j + 1] not in '\\"nt':
                        return None
                    j += 2
                else:
                    j += 1
            if j >= n:
                return None
            i = j + 1
        else:
            code.add(i)
            i += 1
    return code


def _naive_reading(src: str) -> set[int] | None:
    """Return the code positions as the pre-lean18 tokenizer read comments: nesting counted from the opener itself (no skipped character)."""
    code: set[int] = set()
    i, n = 0, len(src)
    while i < n:
        if src[i] in " \n":
            i += 1
        elif src.startswith("--", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/-", i):
            depth, j = 0, i
            while j < n:
                if src.startswith("/-", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("-/", j):
                    depth, j = depth - 1, j + 2
                    if depth == 0:
                        break
                else:
                    j += 1
            if depth:
                return None
            i = j
        elif src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            if j >= n:
                return None
            i = j + 1
        else:
            code.add(i)
            i += 1
    return code


def _tokenizer_reading(src: str) -> set[int] | None:
    """Return the positions the audit's tokenizer reads as code, or None when it refuses the text."""
    try:
        toks = tokenize(src)
    except LeanSyntaxError:
        return None
    starts = [0]
    for line in src.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    code: set[int] = set()
    for t in toks:
        if t.kind in ("ident", "sym", "num", "hash"):
            at = starts[t.line - 1] + t.col
            code.update(range(at, at + len(t.text)))
    return code


def _fuzz_inputs(count: int, seed: int = 18) -> list[str]:
    rng = random.Random(seed)
    alphabet = ["/", "-", "/-", "-/", "--", " ", "\n", "a", "r", "#", "!", '"', "\\"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))) for _ in range(count)]


def test_blinding_sequence_hides_an_axiom_from_the_old_reading_not_from_lean() -> None:
    # the defect: the pre-lean18 reading skips the axiom, Lean's reading compiles it
    src = "module\n" + BLINDING
    lean = _lean_reading(src)
    assert lean is not None and src.index("axiom") in lean
    naive = _naive_reading(src)
    assert naive is not None and src.index("axiom") not in naive
    # the new tokenizer refuses the file at the opener's line, naming the construct
    with pytest.raises(LeanSyntaxError, match=r"line 2: audit cannot read this construct"):
        tokenize(src)


def test_fuzz_finds_the_old_defect_class() -> None:
    # the fuzz below is strong enough to find what the pre-lean18 reading got wrong ...
    bad = [s for s in _fuzz_inputs(20000) if (lean := _lean_reading(s)) is not None and (old := _naive_reading(s)) is not None and lean != old]
    assert bad, "the fuzz found no input where the naive reading differs from Lean's"
    assert any(lean_code - old_code for s in bad if (lean_code := _lean_reading(s)) is not None and (old_code := _naive_reading(s)) is not None)


def test_fuzz_new_tokenizer_agrees_with_lean_or_refuses() -> None:
    # ... and on every input the new tokenizer either refuses it or reads exactly Lean's code positions
    checked = 0
    for s in _fuzz_inputs(20000):
        ours = _tokenizer_reading(s)
        if ours is None:
            continue
        lean = _lean_reading(s)
        assert lean is not None, f"tokenizer accepted text Lean rejects: {s!r}"
        assert ours == lean, f"tokenizer and Lean read different code in {s!r}"
        checked += 1
    assert checked > 500  # plenty of accepted inputs were compared


#: (id, planted text, 0-based line of the refusal within it): Lean's comment, string and name forms the
#: tokenizer does not model exactly; each must be refused, never skipped.
UNREADABLE: list[tuple[str, str, int]] = [
    ("blinding", BLINDING, 0),
    ("nested_comment", "/- outer /- inner -/ axiom -/\n", 0),
    ("nested_doc", "/-- doc /- inner -/ -/\n/-- d -/\ntheorem t : True := trivial\n", 0),
    ("unterminated_comment", "/- never closed\naxiom bad : False\n", 0),
    ("doc_slash", "/--/ axiom -/\n", 0),
    ("moddoc_glued", "/-!x -/\n", 0),
    ("dashdash_in_block", "/- a -- b -/\n", 0),
    ("comment_glued", "/-- d -/\ntheorem t : True := trivial/- x -/\n", 1),
    ("line_comment_glued", "/-- d -/\ntheorem t : True := (trivial)-- x\n", 1),
    ("closer_outside", "-/\n", 0),
    ("raw_string", '/-- d -/\ndef s : String := r#"-/ axiom "#\n', 1),
    ("raw_string_plain", '/-- d -/\ndef s : String := r"x"\n', 1),
    ("string_with_opener", '/-- d -/\ndef s : String := "/-"\n', 1),
    ("string_multiline", '/-- d -/\ndef s : String := "a\nb"\n', 1),
    ("string_escape", '/-- d -/\ndef s : String := "\\x41"\n', 1),
    ("interpolated", '/-- d -/\ndef s : String := s!"{1}"\n', 1),
    ("char_quote", "/-- d -/\ndef c : Char := '\"'\n", 1),
    ("char_plain", "/-- d -/\ndef c : Char := 'a'\n", 1),
    ("guillemets", "/-- d -/\ntheorem «sorry» : True := trivial\n", 1),
    ("backtick", "/-- d -/\ndef n : Nat := (`x).hash.toNat\n", 1),
    ("tab", "/-- d -/\ntheorem t : True :=\n\ttrivial\n", 2),
    ("zero_width", "/-- d -/\ntheorem t : True := so\u200brry\n", 1),
    ("bidi", "/-- d -/\ntheorem t : True := trivial -- \u202e\n", 1),
    ("nbsp", "/-- d -/\ntheorem t :\u00a0True := trivial\n", 1),
    ("number_glued", "/-- d -/\ntheorem t : 0xsorry = 0 := rfl\n", 1),
]


@pytest.mark.parametrize("text, offset", [u[1:] for u in UNREADABLE], ids=[u[0] for u in UNREADABLE])
def test_class1_audit_refuses_what_it_cannot_read(lean_copy: Path, text: str, offset: int) -> None:
    line = _plant(lean_copy, "HardSoft/Defs.lean", text) + offset
    findings = _findings(lean_copy)
    hits = [f for f in findings if f.kind == "unreadable"]
    assert hits and hits[0].file == "HardSoft/Defs.lean" and hits[0].line == line, [f.short() for f in findings]
    assert "audit cannot read this construct" in hits[0].text


def test_class1_identifier_rules_are_leans() -> None:
    # Lean's identifiers are ASCII letters, `_`, letter-like symbols (not λ Π Σ), digits, ' ! ? and subscripts;
    # a superscript or a Cyrillic letter is no part of a name (so `x²sorry` cannot hide `sorry` in one name)
    names = [t.text for t in tokenize("x₁ α' h? ℕ x²sorry") if t.kind == "ident"]
    assert names == ["x₁", "α'", "h?", "ℕ", "x", "sorry"]
    assert [t.kind for t in tokenize("λ")] == ["sym"]


# --------------------------------------------------------------------------- class 2: namespace redirection

REDIRECTIONS: list[tuple[str, str, str]] = [
    ("project_in_project", "/-- d -/\ndef HardSoft.sumTo (n : Nat) : Nat := n\n", "HardSoft.HardSoft.sumTo"),
    ("core_class_shadow", "/-- d -/\nabbrev Std.IsLinearOrder (β : Type) : Prop := False\n", "HardSoft.Std.IsLinearOrder"),
    ("root_extension", "/-- d -/\ntheorem _root_.Nat.planted : True := trivial\n", "Nat.planted"),
    ("unowned_namespace", "/-- d -/\ndef Rat.half : Nat := 0\n", "HardSoft.Rat.half"),
]


@pytest.mark.parametrize("text, name", [r[1:] for r in REDIRECTIONS], ids=[r[0] for r in REDIRECTIONS])
def test_class2_namespace_redirection_is_refused(lean_copy: Path, text: str, name: str) -> None:
    line = _plant(lean_copy, "HardSoft/Defs.lean", text) + 1
    hits = [f for f in _findings(lean_copy) if f.kind == "namespace redirection"]
    assert [(f.file, f.line) for f in hits] == [("HardSoft/Defs.lean", line)] and name in hits[0].text, [f.short() for f in hits]


def test_class2_owned_namespaces_are_accepted(lean_copy: Path) -> None:
    # a namespace the project declares (the structure ExpLike) may hold more declarations
    _plant(lean_copy, "HardSoft/Exp.lean", "/-- d -/\ntheorem ExpLike.planted : True := trivial\n")
    assert _findings(lean_copy) == []


def test_class2_pin_module_opens_no_namespace_and_names_from_the_root() -> None:
    text, _ps, problems = pins.pin_module(*pins.registry_pins(), ["HardSoft"])
    assert not problems
    assert not [ln for ln in text.splitlines() if ln.split()[:1] in (["namespace"], ["open"], ["section"], ["variable"])]
    # no pinned text names a project definition without its root
    shorts = {n.rsplit(".", 1)[-1] for n in ls.LEAN_DEFINITIONS}
    bare = re.compile(r"(?<![\w.'])(" + "|".join(sorted(shorts)) + r")(?![\w'])")
    texts = [st.statement for st in ls.LEAN_STATEMENTS.values()] + [e.statement for e in ls.LEAN_EXAMPLES.values()]
    texts += [t for d in ls.LEAN_DEFINITIONS.values() for t in pins.definition_texts(d)]
    assert not [t for t in texts if bare.search(t)], [bare.search(t) for t in texts if bare.search(t)][:3]


def test_class3_field_context_uses_core_names_only() -> None:
    # the ordered-field context of every generic statement: core classes only, nothing the project declares
    names = set(re.findall(r"[A-Za-z_][\w.]*", ls.FIELD + " " + ls.RING)) - {"α", "Type"}
    assert names == {"Lean.Grind.Field", "LE", "LT", "Std.IsLinearOrder", "Std.LawfulOrderLT", "Lean.Grind.OrderedRing"}


# --------------------------------------------------------------------------- class 3: definitions and non-vacuity (registry)


def test_class3_every_definition_a_statement_uses_is_pinned() -> None:
    reg = pins.registry()
    assert pins.registry_problems(reg) == []
    # take a definition away: the statements that use it are reported
    defs = dict(reg.definitions)
    del defs["HardSoft.absv"]
    problems = pins.registry_problems(pins.Registry(reg.statements, reg.claims, defs, reg.examples, reg.no_example, reg.unpinned))
    assert problems and all("HardSoft.absv" in p and "does not pin" in p for p in problems), problems
    # transitively: ahardmax's pin uses natCast and countMax, softmax's uses sumTo and ExpLike
    assert {"HardSoft.natCast", "HardSoft.countMax"} <= pins.uses("HardSoft.ahardmax", reg.definitions)
    assert {"HardSoft.sumTo", "HardSoft.ExpLike"} <= pins.uses("HardSoft.softmax", reg.definitions)


def test_class3_structure_is_pinned_by_its_constructor() -> None:
    text, ps, _ = pins.pin_module(*pins.registry_pins(), ["HardSoft"])
    ctor = [p for p in ps if p.kind == "definition" and p.name == "HardSoft.ExpLike" and "HardSoft.ExpLike α" in p.statement]
    assert len(ctor) == 1 and text.splitlines()[ctor[0].last_line - 1].strip() == ":= @HardSoft.ExpLike.mk"
    # exactly the five fields, in order: an added field (vac : False) changes the constructor's type
    assert re.findall(r"\((\w+) :", ctor[0].statement) == ["exp", "pos", "add", "zero", "mono"]


def test_class3_deleted_example_is_named() -> None:
    reg = pins.registry()
    examples = dict(reg.examples)
    del examples["HardSoft.nonvacuous_layer_err_le"]
    problems = pins.registry_problems(pins.Registry(reg.statements, reg.claims, reg.definitions, examples, reg.no_example, reg.unpinned))
    assert problems == ["HardSoft.layer_err_le (claim P) has no non-vacuity theorem in LEAN_EXAMPLES (or a reason in NO_EXAMPLE)"]


def test_class3_every_example_is_declared_in_examples_lean() -> None:
    """Every non-vacuity theorem is declared in Examples.lean, Cert/Examples.lean or at the end of Applications.lean or HeadMass.lean."""
    files = [LEAN_DIR / "HardSoft" / f for f in ("Examples.lean", "Applications.lean", "HeadMass.lean", "Cert/Examples.lean")]
    declared = {n for f in files for _, n, _ in sources.declared_names(f)}
    assert set(ls.LEAN_EXAMPLES) <= declared
    for f in files:
        assert not re.search(r"^example\b", f.read_text(encoding="utf-8"), re.M)


# --------------------------------------------------------------------------- class 4: a command glued mid-line

GLUED: list[tuple[str, str]] = [
    ("unif_hint", "/-- d -/\ntheorem ok : True := trivial unif_hint h : Nat.succ 0 =?= 1 ⊢ True\n"),
    ("simproc", "/-- d -/\ntheorem ok : True := trivial simproc p (Nat.succ _) := fun _ => pure .continue\n"),
    ("def_after_def", "/-- d -/\ndef a : Nat := 0 /-- e -/ def b : Nat := 1\n"),
    ("set_option", "/-- d -/\ntheorem ok : True := trivial set_option autoImplicit false\n"),
]


@pytest.mark.parametrize("text", [g[1] for g in GLUED], ids=[g[0] for g in GLUED])
def test_class4_command_glued_mid_line_is_refused(lean_copy: Path, text: str) -> None:
    line = _plant(lean_copy, "HardSoft/Defs.lean", text) + 1
    hits = [f for f in _findings(lean_copy) if f.kind == "two commands on a line"]
    assert hits and hits[0].line == line, [f.short() for f in _findings(lean_copy)]


def test_class4_import_outside_project_is_refused(lean_copy: Path) -> None:
    # another package's syntax would bring command keywords the splitter does not know
    f = lean_copy / "HardSoft" / "Defs.lean"
    f.write_text(f.read_text(encoding="utf-8").replace("module\n", "module\n\nimport Lean\n", 1), encoding="utf-8")
    hits = [x for x in _findings(lean_copy) if x.kind == "import"]
    assert [(x.file, x.line) for x in hits] == [("HardSoft/Defs.lean", 3)]


# --------------------------------------------------------------------------- class 5: #exit and files never compiled


def test_class5_exit_is_refused_anywhere(lean_copy: Path) -> None:
    line = _plant(lean_copy, "HardSoft/Recursion.lean", "#exit\n")
    hits = [f for f in _findings(lean_copy) if f.kind == "#exit"]
    assert [(f.file, f.line) for f in hits] == [("HardSoft/Recursion.lean", line)]


def test_class5_bundle_declares_a_marker_after_each_file() -> None:
    mods = sources.discover_modules(LEAN_DIR)
    b = bundle.make_bundle(mods, sources.import_order(mods), LEAN_DIR, "HardSoft")
    lines = b.text.split("\n")
    for s in b.segments:
        assert lines[s.last] == "end" and lines[s.last + 1] == f"public theorem {bundle.reached_marker(s.module)} : True := True.intro"
    assert [m for m, _ in b.reached] == [s.module for s in b.segments]


def test_class5_a_file_whose_marker_is_missing_is_not_compiled() -> None:
    # Lean stopped early (say at an #exit the audit did not see) with no error: the file rows must not say "built"
    reached = [("HardSoft.A", "HardSoftBundle.reached_HardSoft_A"), ("HardSoft.B", "HardSoftBundle.reached_HardSoft_B")]
    text, ps, _ = pins.pin_module({}, {}, ["HardSoft"], pins.Registry({}, {}, {}, {}, {}), reached)
    marker_b = next(p for p in ps if p.kind == "reached" and p.name == "HardSoft.B")
    pin_unit = UnitResult(
        "HardSoftPins",
        "HardSoftPins.lean",
        "error",
        1.0,
        1,
        [LeanMessage("HardSoftPins.lean", marker_b.first_line, 0, "error", "Unknown constant `HardSoftBundle.reached_HardSoft_B`")],
    )
    units = {m: UnitResult(m, m + ".lean", "ok", 1.0, 0, bundle="HardSoft") for m, _ in reached}
    units["HardSoftPins"] = pin_unit
    build = lf._Build(units=units)
    state = lf._Pins(text, ps, [], [])
    state.judge(pin_unit)
    lf._mark_unreached(build, state)
    assert units["HardSoft.A"].status == "ok" and units["HardSoft.B"].status == "not-compiled"
    row = lf._unit_result(units["HardSoft.B"], "wasm")
    assert row.outcome is Outcome.FAILED and "no error or sorry" not in row.detail and "HardSoftBundle.reached_HardSoft_B" in row.detail


# --------------------------------------------------------------------------- with Lean: classes 3 and 5 confirmed by Lean

#: Class 3 plant: a field that makes every ExpLike statement vacuous, with what it breaks deleted
#: (the Rat model expOne and the non-vacuity theorems that use it), and one more non-vacuity theorem deleted.
VAC_FIELD = "  /-- planted: no model -/\n  vac : False\n"


#: The files whose non-vacuity theorems may use expOne (Examples.lean defines it; Applications.lean's and HeadMass.lean's use it).
EXPONE_FILES = ("Examples.lean", "Applications.lean", "HeadMass.lean")


def _expone_users_in(name: str) -> tuple[str, ...]:
    """Return every theorem of HardSoft/<name> whose text uses expOne (they cannot build once expOne is deleted)."""
    src = (LEAN_DIR / "HardSoft" / name).read_text(encoding="utf-8")
    starts = [m for m in re.finditer(r"(?m)^theorem (\w+)", src)]
    users = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(src)
        if "expOne" in src[m.end() : end]:
            users.append(m.group(1))
    return tuple(users)


def _expone_users() -> tuple[str, ...]:
    """Return expOne and every theorem of the EXPONE_FILES whose text uses it."""
    return ("expOne", *(u for f in EXPONE_FILES for u in _expone_users_in(f)))


EXPONE_USERS = _expone_users()
DELETED_EXAMPLE = "nonvacuous_bound_monotone"

#: The theorem the weakened plant changes, and how (same name, weaker conclusion).
WEAKENED = "HardSoft.composition_err_le_eps_rat"
#: Its non-vacuity theorem (removed from the planted copy with it).
WEAKENED_EXAMPLE = "HardSoft.nonvacuous_composition_err_le_eps_rat"
WEAKEN_FROM = "(hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1) : e L ≤ eps :="
WEAKEN_TO = "(hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1) (hpos : 0 < eps) : e L ≤ eps :="  # one more hypothesis
#: A registry entry naming a theorem that does not exist.
GHOST = "HardSoft.composition_err_le_eps_ghost"
GHOST_STATEMENT = ls.LeanStatement("∀ {r : Nat → Rat}, r 0 = r 0", "a theorem that does not exist")
#: What the weakened plant makes the pins reject, and what the class 3 plant does.
WEAKENED_REJECTS = {WEAKENED, GHOST, WEAKENED_EXAMPLE}
VACUOUS_REJECTS = {"HardSoft.ExpLike", *(f"HardSoft.{x}" for x in (*EXPONE_USERS, DELETED_EXAMPLE))}


def _command_text(src: str, short: str) -> str | None:
    """Return the text of the command declaring ``short`` in a Lean source (None if no command declares it)."""
    lines = src.split("\n")
    cmds = sources.commands(sources.tokenize(src))
    k = next((i for i, c in enumerate(cmds) if len(c.body) > 1 and c.body[1].text == short), None)
    if k is None:
        return None
    nxt = cmds[k + 1].line if k + 1 < len(cmds) else len(lines) + 1
    return "\n".join(lines[cmds[k].line - 1 : nxt - 1])


def _drop(path: Path, short: str) -> None:
    """Delete the command declaring ``short`` (doc comment included) from a Lean file."""
    src = path.read_text(encoding="utf-8")
    lines = src.split("\n")
    cmds = sources.commands(sources.tokenize(src))
    k = next(i for i, c in enumerate(cmds) if len(c.body) > 1 and c.body[1].text == short)
    first, nxt = cmds[k].line, (cmds[k + 1].line if k + 1 < len(cmds) else len(lines) + 1)
    del lines[first - 1 : nxt - 1]
    path.write_text("\n".join(lines), encoding="utf-8")


#: The files the planted copy leaves out: nothing they declare is planted, and no kept file imports them but Examples.lean,
#: whose theorems about them go too (``_cut``).
CUT_FILES = ("Applications", "HeadMass", "Constructions")
#: The folders the planted copy leaves out (the certificate checker: no plant is in it, and it imports cut files).
CUT_DIRS = ("Cert",)


def _cut(copy: Path) -> tuple[dict, dict, dict, dict]:
    """Delete CUT_FILES from the copy (and from its root's imports); return the registry of what the rest declares.

    (statements, claims_of, definitions, examples): the registered theorems, non-vacuity theorems and definitions
    declared in the kept files, the definitions narrowed to those the kept texts use, so the registry is consistent
    (``pins.registry_problems``) and every pin that fails is one a plant caused.
    """
    cut_names = {name.rsplit(".", 1)[-1] for f in CUT_FILES for _kind, name, _line in sources.declared_names(copy / "HardSoft" / f"{f}.lean")}
    for name in CUT_FILES:
        (copy / "HardSoft" / f"{name}.lean").unlink()
    for name in CUT_DIRS:
        shutil.rmtree(copy / "HardSoft" / name)
    imports = {f"public import HardSoft.{n}" for n in CUT_FILES}

    def cut(line: str) -> bool:
        return line.strip() in imports or any(line.strip().startswith(f"public import HardSoft.{d}.") for d in CUT_DIRS)

    for f in [copy / "HardSoft.lean", *sorted((copy / "HardSoft").glob("*.lean"))]:
        f.write_text("".join(line for line in f.read_text(encoding="utf-8").splitlines(keepends=True) if not cut(line)),
                     encoding="utf-8")
    # a kept theorem that names a cut declaration (Examples.lean's non-vacuity theorems of the construction heads) goes too
    for f in sorted((copy / "HardSoft").glob("*.lean")):
        src = f.read_text(encoding="utf-8")
        for _kind, name, _line in sources.declared_names(f):
            short = name.rsplit(".", 1)[-1]
            body = _command_text(src, short)
            if body is not None and any(re.search(rf"(?<![\w.]){re.escape(c)}(?![\w'])", body) for c in cut_names - {short}):
                _drop(f, short)
                src = f.read_text(encoding="utf-8")
    kept = {name for f in sorted((copy / "HardSoft").glob("*.lean")) for _kind, name, _line in sources.declared_names(f)}
    statements, claims_of = pins.registry_pins()
    statements = {n: st for n, st in statements.items() if n in kept}
    claims_of = {n: c for n, c in claims_of.items() if n in kept}
    examples = {n: e for n, e in ls.LEAN_EXAMPLES.items() if n in kept and e.of in statements}
    texts = [str(st.statement) for st in statements.values()] + [e.statement for e in examples.values()]
    used = set().union(*(pins.uses(t, ls.LEAN_DEFINITIONS) for t in texts))
    definitions = {n: d for n, d in ls.LEAN_DEFINITIONS.items() if n in used}
    assert len(statements) < len(ls.LEAN_STATEMENTS) and WEAKENED in statements and "HardSoft.ExpLike" in definitions
    return statements, claims_of, definitions, examples


class _PlantRuns:
    """The Lean runs of the planted copies (in threads: the Lean processes share the two slots)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.results: dict[str, list] = {}
        self.errors: dict[str, BaseException] = {}

    def _copy(self, name: str) -> Path:
        dest = self.out / name / "lean"
        shutil.copytree(LEAN_DIR, dest, ignore=shutil.ignore_patterns(".lake", "build", "wasm", "__pycache__"))
        return dest

    def _vacuous_and_weakened(self) -> None:
        # Two independent plants in one copy (one cold build instead of two): the class 3 field that makes
        # every ExpLike statement vacuous (Exp.lean), and a weakened statement (Main.lean) with a ghost
        # registry entry.  Each test below checks that its own plant is caught and that every other failure
        # is explained by the other plant.  The copy leaves out the files no plant needs (CUT_FILES), with the
        # registry entries they declare (about half the build).
        try:
            copy = self._copy("vacuous")
            statements, claims_of, definitions, examples = _cut(copy)
            exp = copy / "HardSoft" / "Exp.lean"
            src = exp.read_text(encoding="utf-8")
            anchor = "  mono : ∀ s t, s ≤ t → exp s ≤ exp t\n"
            assert anchor in src, "ExpLike's last field moved: update the plant"
            exp.write_text(src.replace(anchor, anchor + VAC_FIELD, 1), encoding="utf-8")
            main = copy / "HardSoft" / "Main.lean"
            text = main.read_text(encoding="utf-8")
            assert WEAKEN_FROM in text, "the theorem to weaken is gone: update WEAKEN_FROM"
            main.write_text(text.replace(WEAKEN_FROM, WEAKEN_TO, 1), encoding="utf-8")
            # the weakened theorem's non-vacuity theorem applies it as registered: it would (rightly) fail to
            # elaborate, so it goes (only that one; its pin then fails, naming it)
            examples_lean = copy / "HardSoft" / "Examples.lean"
            kept = {name.rsplit(".", 1)[-1] for _kind, name, _line in sources.declared_names(examples_lean)}
            users = [u for u in _expone_users_in("Examples.lean") if u in kept]  # _cut may have dropped some already
            dropped = dict.fromkeys(("expOne", *users, DELETED_EXAMPLE, WEAKENED_EXAMPLE.rsplit(".", 1)[-1]))
            for short in dropped:
                _drop(examples_lean, short)
            for name in EXPONE_FILES[1:]:  # the applications' and head mass bounds' non-vacuity theorems use expOne too
                if (copy / "HardSoft" / name).exists():
                    for short in _expone_users_in(name):
                        _drop(copy / "HardSoft" / name, short)
            statements[GHOST] = GHOST_STATEMENT
            claims_of[GHOST] = ("C",)
            self.results["vacuous"] = lf.check_project(copy, self.out / "vacuous-out", lambda _m: None, "tiny",
                                                       statements, claims_of, definitions=definitions, examples=examples)
        except BaseException as e:  # noqa: BLE001 - reported by the tests
            self.errors["vacuous"] = e

    def _exit(self) -> None:
        try:
            copy = self._copy("exit")
            main = copy / "HardSoft" / "Main.lean"
            src = main.read_text(encoding="utf-8")
            at = src.index("/--", src.index("namespace HardSoft"))  # before Main's first declaration
            main.write_text(src[:at] + "#exit\n\n" + src[at:], encoding="utf-8")
            self.results["exit"] = lf.check_project(copy, self.out / "exit-out", lambda _m: None)
        except BaseException as e:  # noqa: BLE001
            self.errors["exit"] = e

    def start(self) -> None:
        threads = [threading.Thread(target=f) for f in (self._vacuous_and_weakened, self._exit)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


@pytest.fixture(scope="session")
def plant_runs(tmp_path_factory: pytest.TempPathFactory) -> _PlantRuns:
    """Run Lean on the planted copies (cache off); skip when no toolchain can be had."""
    runs = _PlantRuns(tmp_path_factory.mktemp("lean-plants"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HARDSOFT_LEAN_CACHE", "off")
        runs.start()
    for results in runs.results.values():
        tool = next((r for r in results if r.name == "lean.toolchain"), None)
        if tool is not None and tool.outcome is Outcome.UNDECIDED:
            pytest.skip(f"no Lean toolchain: {tool.detail}")
    return runs


@pytest.mark.lean
@pytest.mark.xdist_group("lean-copies")  # planted copies, built apart from the project: beside the "lean" group
def test_class3_vacuous_structure_and_deleted_examples_rejected_by_lean(plant_runs: _PlantRuns) -> None:
    assert "vacuous" not in plant_runs.errors, plant_runs.errors.get("vacuous")
    by = {r.name: r for r in plant_runs.results["vacuous"]}
    # the copy builds and every theorem's own statement pin still matches: only the new pins can see the plant
    project = [r for n, r in by.items() if n.startswith("lean.build.") and n != f"lean.build.{pins.PIN_MODULE}"]
    assert project and all(r.outcome is Outcome.OK for r in project), [(r.name, r.detail) for r in project if r.outcome is not Outcome.OK]
    rejected = set(by["lean.pins"].data["rejected"])
    assert {"HardSoft.ExpLike", "HardSoft.expOne", f"HardSoft.{DELETED_EXAMPLE}"} <= rejected, rejected
    # no theorem pin failed but the weakened plant's (the other plant in the same copy)
    assert {n for n in rejected if n in ls.LEAN_STATEMENTS} == {WEAKENED}, rejected
    gap = by["lean.theorem.HardSoft.softmax_offMass_le_of_gap"]
    assert gap.outcome is Outcome.FAILED and gap.verdict == "definition differs" and "HardSoft.ExpLike" in gap.detail, gap.detail
    mono = by["lean.theorem.HardSoft.bound_monotone"]
    assert mono.outcome is Outcome.FAILED and mono.verdict == "vacuous?" and DELETED_EXAMPLE in mono.detail, mono.detail
    from hardsoft.checks.runner import exit_code

    assert exit_code(plant_runs.results["vacuous"]) == 1


@pytest.mark.lean
@pytest.mark.xdist_group("lean-copies")  # planted copies, built apart from the project: beside the "lean" group
def test_class5_files_after_exit_are_not_compiled(plant_runs: _PlantRuns) -> None:
    assert "exit" not in plant_runs.errors, plant_runs.errors.get("exit")
    by = {r.name: r for r in plant_runs.results["exit"]}
    assert by["lean.audit"].outcome is Outcome.FAILED and "#exit" in by["lean.audit"].detail
    # Lean stops at #exit without an error; the markers of Main and of every later file are missing
    # (the byte search of the compiled-environment layer refuses `#exit` before Lean runs; where Lean does run,
    # the files at and after #exit are "not-compiled": either way none of them is ever "built")
    for m in ("HardSoft.Main", "HardSoft.Examples", "HardSoft"):
        row = by[f"lean.build.{m}"]
        assert row.outcome is Outcome.FAILED and (row.verdict.startswith(("not-compiled", "blocked")) or "#exit" in row.detail), (
            m,
            row.verdict,
            row.detail,
        )
        assert not row.verdict.startswith("built"), (m, row.verdict)
    theorems = [r for n, r in by.items() if n.startswith("lean.theorem.")]
    assert theorems and all(r.outcome is Outcome.FAILED for r in theorems)


@pytest.mark.lean
@pytest.mark.xdist_group("lean-copies")  # planted copies, built apart from the project: beside the "lean" group
def test_weakened_statement_and_ghost_theorem_fail_their_pins(plant_runs: _PlantRuns) -> None:
    assert "vacuous" not in plant_runs.errors, plant_runs.errors.get("vacuous")
    results = plant_runs.results["vacuous"]
    by = {r.name: r for r in results}
    # the copy builds (the weakened theorem is still a true theorem) ...
    project = [(n, r) for n, r in by.items() if n.startswith("lean.build.") and n != f"lean.build.{pins.PIN_MODULE}"]
    assert project and all(r.outcome is Outcome.OK for _, r in project), \
        [(n, r.detail) for n, r in project if r.outcome is not Outcome.OK]
    # ... but its pin fails, naming the claim, the pin line and the registry entry
    weak = by[f"lean.theorem.{WEAKENED}"]
    assert weak.outcome is Outcome.FAILED and weak.verdict == "statement differs", weak.detail
    assert weak.claim == "C" and "claim C" in weak.detail and f"{pins.PIN_MODULE}.lean:" in weak.detail
    assert ls.LEAN_STATEMENTS[WEAKENED].origin in weak.detail and "spec/lean_statements.py:" in weak.detail
    ghost = by[f"lean.theorem.{GHOST}"]
    assert ghost.outcome is Outcome.FAILED and ghost.verdict == "missing", ghost.detail
    assert "claim C" in ghost.detail and GHOST_STATEMENT.origin in ghost.detail and "test_lean_plants.py:" in ghost.detail
    assert by["lean.pins"].outcome is Outcome.FAILED
    # the pins reject exactly this plant's three names, beside what the class 3 plant makes them reject
    assert set(by["lean.pins"].data["rejected"]) - VACUOUS_REJECTS == WEAKENED_REJECTS
    from hardsoft.checks.runner import exit_code

    assert exit_code(results) == 1  # `hardsoft check` exits 1, never "ok"
    # every other theorem is confirmed, or fails only through the class 3 plant (ExpLike changed, an example deleted)
    others = [r for n, r in by.items() if n.startswith("lean.theorem.") and n not in (f"lean.theorem.{WEAKENED}",
                                                                                       f"lean.theorem.{GHOST}")]
    deleted = (DELETED_EXAMPLE, *EXPONE_USERS)

    def explained(r) -> bool:  # noqa: ANN001 - a CheckResult
        return (r.verdict == "definition differs" and "HardSoft.ExpLike" in r.detail) or (
            r.verdict == "vacuous?" and any(x in r.detail for x in deleted))

    assert others and all(r.verdict == "proved" or explained(r) for r in others), \
        [(r.name, r.verdict, r.detail) for r in others if r.verdict != "proved" and not explained(r)]
    proved = {r.name for r in others if r.verdict == "proved"}
    assert "lean.theorem.HardSoft.err_le_eps_of_bound_le" in proved, sorted(proved)  # no ExpLike in its statement

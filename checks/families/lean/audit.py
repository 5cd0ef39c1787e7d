"""The trust audit of the Lean sources: an allowlist of top-level commands and a list of words refused anywhere.

Every file of the library is tokenized (``checks.families.lean.sources``: conservative, so no
comment or literal can hide a word or make one up; what it cannot read exactly as Lean does
it refuses) and split into top-level commands.  A command is accepted only if it is one of

* ``module`` (the first command), ``import M`` / ``public import M``;
* ``section [N]``, ``public section`` (optionally ``@[expose]``), ``namespace N``, ``end [N]``;
* ``variable ...``; ``open N ...`` without ``in``;
* ``set_option autoImplicit false`` (the one option allowed; every file must set it);
* a declaration ``theorem``, ``lemma``, ``def``, ``abbrev``, ``structure`` with a
  doc comment (``/-- -/``), or an ``example`` (no doc needed), with the modifiers
  ``private``/``protected``/``public``/``noncomputable``/``nonrec``, the attributes in
  ``ALLOWED_ATTRIBUTES``, and optionally an ``omit ... in`` / ``include ... in`` prefix;
* a module doc ``/-! -/``.

Every command must begin in column 0 of its own line (a command Lean starts mid-line, after
a declaration, is never read as part of it); imports are limited to the project's modules
and ``Init`` (another package would bring command keywords the splitter does not know).
Across the files (``audit_sources``), every declaration must be ``HardSoft.<name>`` or sit
in a namespace the project owns (the namespace of one of its structures, classes or inductive
types; the name of a ``def`` owns none); any other is "namespace redirection"
(``namespace_findings``): ``HardSoft.HardSoft.sumTo`` or ``HardSoft.Std.IsLinearOrder`` would
shadow what a name means inside ``namespace HardSoft``, ``Nat.X`` extends core.  The family
also refuses a registered theorem declared with another keyword than ``theorem``
(``registered_kind_findings``).  A file the
tokenizer cannot read exactly as Lean does is refused as a whole ("unreadable": "audit cannot
read this construct", ``checks.families.lean.sources.tokenize``).

Every ``section``/``namespace`` a file opens must be closed in that file by a matching
``end`` (checked in order; an unclosed one is reported at its own line): the wasm build
compiles the files as one bundle (``checks.families.lean.bundle``), where scope state left open by
one file must not reach the next.

Everything else is refused with its file and line, and so is any of ``FORBIDDEN_WORDS``
anywhere in the file (inside proofs too), any ``#command`` (``#guard_msgs``, ``#exit``,
``#eval``, ``#print``, ...), an identifier in guillemets and an interpolated string.

Why each refused thing is refused: ``sorry``/``admit``/``sorryAx`` prove anything;
``axiom`` (in any spelling: after attributes, modifiers or ``open X in``) assumes anything;
native evaluation (``native_decide``, ``decide +native``, ``(config := { native := true })``,
``Lean.ofReduceBool``/``ofReduceNat``/``trustCompiler``, ``bv_decide``) trusts the compiler
instead of the kernel; ``implemented_by``/``extern``/``@[csimp]`` change what compiled code
does; ``unsafe`` escapes the type system; ``partial`` defines an opaque constant whose
equations the kernel does not see (harmless to soundness, but nothing here needs it and a
reader would be misled about what is defined); ``#guard_msgs`` hides Lean's messages (an
error included), ``#exit`` stops checking the rest of the file; ``#eval``/``run_cmd``/
``run_tac``/``run_elab``, ``elab``, ``macro``, ``macro_rules``, ``syntax``, ``initialize``
run or install code at elaboration time; ``notation`` (and ``infix``, ``prefix``, ...) can
make a statement read differently from what it says, pinned statements included, and so
could a global ``instance`` (a high-priority ``LE Rat`` would change what a statement at
``Rat`` means), so ``instance`` is refused too (the brief allowed it; nothing here needs one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hardsoft.checks.families.lean.sources import LIB_NAME, Command, LeanSyntaxError, Token, commands, ident_parts, tokenize

#: Words refused anywhere in a source (as identifiers or identifier components), with the reason.
FORBIDDEN_WORDS: dict[str, str] = {
    "sorry": "proof gap",
    "admit": "proof gap",
    "sorryAx": "proof gap",
    "axiom": "assumes a statement",
    "axioms": "assumes a statement",
    "native_decide": "native evaluation",
    "native": "native evaluation",
    "ofReduceBool": "native evaluation",
    "ofReduceNat": "native evaluation",
    "reduceBool": "native evaluation",
    "reduceNat": "native evaluation",
    "trustCompiler": "native evaluation",
    "bv_decide": "native evaluation",
    "bv_check": "native evaluation",
    "implemented_by": "replaces compiled code",
    "extern": "replaces compiled code",
    "csimp": "replaces compiled code",
    "unsafe": "escapes the type system",
    "partial": "opaque definition",
    "run_cmd": "runs code",
    "run_tac": "runs code",
    "run_elab": "runs code",
    "run_meta": "runs code",
    "elab": "extends the elaborator",
    "elab_rules": "extends the elaborator",
    "macro": "extends the parser",
    "macro_rules": "extends the parser",
    "syntax": "extends the parser",
    "declare_syntax_cat": "extends the parser",
    "notation": "notation",
    "infix": "notation",
    "infixl": "notation",
    "infixr": "notation",
    "prefix": "notation",
    "postfix": "notation",
    "initialize": "runs code",
    "builtin_initialize": "runs code",
    "skipKernelTC": "skips the kernel",
    "debug": "debug option",
    "opaque": "opaque constant",
    "attribute": "changes attributes after the fact",
    "deriving": "runs a derive handler",
    "meta": "compile-time code",
    "export": "aliases names",
    "mutual": "not allowed",
    "universe": "not allowed",
}
#: Attributes a declaration (or ``public section``) may carry.
ALLOWED_ATTRIBUTES = frozenset({"expose", "simp", "grind", "reducible", "irreducible", "inline"})
#: Declaration keywords (``example`` needs no doc comment).
#: ``instance`` is not among them: a global instance (say a high-priority ``LE Rat``) would change
#: what a statement over a concrete type means, pinned statements included; none is needed.
#: ``inductive`` is among them (the certificate checker's formula nodes, features, masks and roles): the kernel
#: checks an inductive type's positivity and universes and adds no axiom; ``deriving`` stays refused.
DECLARATIONS = frozenset({"theorem", "lemma", "def", "abbrev", "structure", "inductive", "example"})
#: Modifiers a declaration may carry.
ALLOWED_MODIFIERS = frozenset({"private", "protected", "public", "noncomputable", "nonrec"})
#: The one option that may be set (and must be, in every file).
REQUIRED_OPTION = ("set_option", "autoImplicit", "false")


#: Declaration commands whose second token is the declared name (for the namespace check).
_NAMED_DECLARATIONS = frozenset({"theorem", "lemma", "def", "abbrev", "structure", "class", "inductive", "instance", "opaque", "axiom"})
#: Declarations that own the namespace of their name: a type's constructors, projections, recursors and the theorems
#: about it live there.  The name of a ``def``, ``abbrev`` or ``theorem`` owns nothing: ``def Std : Nat := 0`` inside
#: ``namespace HardSoft`` must not make ``HardSoft.Std.IsLinearOrder`` a legal declaration.
NAMESPACE_OWNERS = frozenset({"structure", "class", "inductive"})
#: The keywords a registered theorem (``spec.claims``) may be declared with in the sources.
THEOREM_KEYWORDS = frozenset({"theorem", "lemma"})


def _importable(module: str) -> bool:
    """Return whether a source may import ``module``: the project's own modules and core's ``Init``.

    Anything else (``Lean``, ``Std``, a package) would bring its own syntax and command
    keywords, which the command splitter does not know.
    """
    return module in (LIB_NAME, "Init") or module.startswith((LIB_NAME + ".", "Init."))


@dataclass(frozen=True)
class Finding:
    """A source-audit finding: file, line, kind and the offending source line."""

    file: str
    line: int
    kind: str
    text: str

    def short(self) -> str:
        """Return ``file:line: kind: text``."""
        return f"{self.file}:{self.line}: {self.kind}: {self.text}"


def _word_findings(toks: list[Token]) -> list[tuple[int, str, str]]:
    """Return (line, kind, why) for refused words, ``#`` commands, guillemets and interpolated strings."""
    out: list[tuple[int, str, str]] = []
    prev: Token | None = None
    for t in toks:
        if t.kind == "hash":
            out.append((t.line, t.text, "command not allowed"))
        elif t.kind == "ident":
            if "«" in t.text:
                out.append((t.line, "guillemets", f"identifier {t.text} in guillemets"))
            for part in ident_parts(t):
                if part in FORBIDDEN_WORDS:
                    out.append((t.line, part, FORBIDDEN_WORDS[part]))
        elif (
            t.kind == "str"
            and prev is not None
            and prev.kind == "ident"
            and prev.text.endswith("!")
            and prev.line == t.line
            and prev.col + len(prev.text) == t.col
        ):
            out.append((t.line, "interpolated string", f'{prev.text}"..." runs code'))
        prev = t
    return out


def _scope_findings(cmds: list) -> list[tuple[int, str, str]]:
    """Return (line, kind, why) for sections and namespaces not closed in order by a matching ``end``.

    ``namespace A.B`` opens the scopes ``A`` and ``B`` (closed by ``end A.B``, or ``end B``
    then ``end A``); ``section`` and ``public section`` open an anonymous scope closed by a
    bare ``end``.  Each ``end`` must close the innermost open scopes by name; whatever is still
    open at the end of the file is reported at the line that opened it.
    """
    out: list[tuple[int, str, str]] = []
    stack: list[tuple[str, int, str]] = []  # (name, line, how it was opened)
    for c in cmds:
        body = [t.text for t in c.body]
        if not body:
            continue
        line = c.head_line
        if body[0] == "section" or body[:2] == ["public", "section"]:
            rest = body[1:] if body[0] == "section" else body[2:]
            name = rest[0] if len(rest) == 1 else ""
            for part in name.split(".") if name else [""]:
                stack.append((part, line, " ".join(body)))
        elif body[0] == "namespace" and len(body) == 2:
            for part in body[1].split("."):
                stack.append((part, line, " ".join(body)))
        elif body[0] == "end" and len(body) <= 2:
            parts = body[1].split(".") if len(body) == 2 else [""]
            for part in reversed(parts):
                if not stack:
                    out.append((line, "unbalanced end", f"`{' '.join(body)}` closes nothing that this file opened"))
                    break
                top, top_line, how = stack.pop()
                if top != part:
                    out.append((line, "unbalanced end", f"`{' '.join(body)}` does not close `{how}` (line {top_line})"))
                    break
    for _name, line, how in stack:
        out.append((line, "unclosed scope", f"`{how}` is never closed in this file (each file must close what it opens)"))
    return out


def _command_findings(cmds: list) -> list[tuple[int, str, str]]:
    """Return (line, kind, why) for top-level commands outside the allowlist and unbalanced scopes."""
    out: list[tuple[int, str, str]] = _scope_findings(cmds)
    seen_option = False
    for k, c in enumerate(cmds):
        body = [t.text for t in c.body]
        line = c.head_line
        head = body[0] if body else ""
        first = c.tokens[0]
        if first.col != 0 or (k > 0 and cmds[k - 1].tokens[-1].line == first.line):
            # a command that begins mid-line: Lean starts a new command there (any command keyword,
            # also one the splitter does not know); it must not be read as part of the one before
            out.append((first.line, "two commands on a line", f"`{first.text}` begins a command that does not start in column 0 of its own line"))
        if len(c.tokens) == 1 and c.tokens[0].kind == "moddoc":
            continue
        if not body:
            out.append((c.line, "dangling prefix", "a doc comment, attributes or modifiers with no declaration"))
            continue
        if c.body[0].kind in ("doc", "moddoc"):
            out.append((line, "misplaced doc comment", "doc comment not directly before a declaration"))
            continue
        attrs = [a.text for a in c.attrs]
        bad_attrs = [a for a in attrs if a not in ALLOWED_ATTRIBUTES]
        if bad_attrs:
            out.append((line, "attribute", f"attribute(s) {', '.join(bad_attrs)} not allowed"))
        bad_mods = [m for m in c.modifiers if m not in ALLOWED_MODIFIERS]
        if bad_mods:
            out.append((line, "modifier", f"modifier(s) {', '.join(bad_mods)} not allowed"))
        if c.prefix_in and head not in DECLARATIONS:
            out.append((line, "in", f"`{c.prefix_in[0].text} ... in` allowed only before a declaration"))
        if head in DECLARATIONS:
            if c.doc is None and head != "example":
                out.append((line, "docstring", f"{head} {body[1] if len(body) > 1 else ''} has no doc comment"))
            if "in" in body:
                out.append((line, "in", "`in` inside a declaration"))
            continue
        plain = not (c.doc or c.attrs or c.modifiers or c.prefix_in)
        if head == "module":
            if k != 0 or body != ["module"] or not plain:
                out.append((line, "module", "`module` must be the first command, alone"))
        elif head == "import" or body[:2] == ["public", "import"]:
            rest = body[1:] if head == "import" else body[2:]
            if len(rest) != 1 or not plain:
                out.append((line, "import", "only `import M` / `public import M`"))
            elif not _importable(rest[0]):
                out.append((line, "import", f"`{rest[0]}` is outside the project (only {LIB_NAME}, {LIB_NAME}.* and Init may be imported)"))
        elif head == "section" or body[:2] == ["public", "section"]:
            rest = body[1:] if head == "section" else body[2:]
            if len(rest) > 1 or c.doc or c.modifiers or c.prefix_in or (attrs and (head != "public" or attrs != ["expose"])):
                out.append((line, "section", "only `section [N]` / `[@[expose]] public section`"))
        elif head == "namespace":
            if len(body) != 2 or not plain:
                out.append((line, "namespace", "only `namespace N`"))
        elif head == "end":
            if len(body) > 2 or not plain:
                out.append((line, "end", "only `end [N]`"))
        elif head == "variable":
            if "in" in body or not plain:
                out.append((line, "variable", "`variable` without `in`, doc, attributes or modifiers"))
        elif head == "open":
            if "in" in body or not plain:
                out.append((line, "open ... in", "`open` is allowed only without `in`"))
        elif head == "set_option":
            if tuple(body) != REQUIRED_OPTION or not plain:
                out.append((line, "set_option", f"only `{' '.join(REQUIRED_OPTION)}` may be set"))
            else:
                seen_option = True
        else:
            out.append((line, f"command {head}", "top-level command not allowed"))
    if not seen_option:
        out.append((1, "autoImplicit", "no `set_option autoImplicit false`"))
    return out


def declarations(cmds: list[Command]) -> list[tuple[str, int, str]]:
    """Return (full name, line, keyword) of every named declaration among ``cmds`` (private ones included), by the namespaces open there.

    ``_root_.N`` declares ``N``; ``namespace A.B`` prefixes ``A.B``; sections add nothing.
    """
    out: list[tuple[str, int, str]] = []
    stack: list[list[str]] = []
    for c in cmds:
        body = [t.text for t in c.body]
        if body[:2] == ["public", "section"] or body[:1] == ["section"]:
            stack.append([])
        elif body[:1] == ["namespace"] and len(body) == 2:
            stack.append(body[1].split("."))
        elif body[:1] == ["end"]:
            if stack:
                stack.pop()
        elif body[:1] and body[0] in _NAMED_DECLARATIONS and len(c.body) > 1 and c.body[1].kind == "ident":
            name = body[1]
            if name.startswith("_root_."):
                full = name[len("_root_.") :]
            else:
                full = ".".join([*(p for scope in stack for p in scope), name])
            out.append((full, c.head_line, body[0]))
    return out


def namespace_findings(decls: list[tuple[str, str, int, str]]) -> list[Finding]:
    """Return a "namespace redirection" finding for each project declaration outside the namespaces the project owns.

    ``decls``: (file, full name, line, keyword) of every declaration of the project.  The project
    owns ``HardSoft`` and the namespace of each of its own types (``NAMESPACE_OWNERS``: a
    ``structure``, ``class`` or ``inductive``, such as ``HardSoft.ExpLike``); a declaration must be
    ``HardSoft.<name>`` or sit inside an owned namespace.  Refused: any other root (``Std.X``,
    ``Lean.Grind.X``, ``Nat.X``, ``_root_.X``: extending a namespace the project does not own), a
    namespace inside a project namespace that no project type declares (``HardSoft.HardSoft.sumTo``,
    ``HardSoft.Std.IsLinearOrder``: read inside ``namespace HardSoft``, such a name shadows what
    ``sumTo`` or ``Std.IsLinearOrder`` means), and one that only a ``def``, ``abbrev`` or theorem of that
    name "declares" (``def Std : Nat := 0`` does not make ``HardSoft.Std`` a namespace of the project).
    """
    owned = {name for _, name, _, kind in decls if kind in NAMESPACE_OWNERS}
    out: list[Finding] = []
    for file, name, line, _kind in decls:
        parts = name.split(".")
        if parts[0] != LIB_NAME or len(parts) < 2:
            why = f"declaration {name} extends the namespace {parts[0]}, which the project does not own (only {LIB_NAME}.*)"
        elif LIB_NAME in parts[1:-1]:
            why = f"declaration {name} puts the namespace {LIB_NAME} inside a project namespace"
        else:
            alien = next((".".join(parts[:k]) for k in range(2, len(parts)) if ".".join(parts[:k]) not in owned), None)
            if alien is None:
                continue
            why = (
                f"declaration {name} sits in the namespace {alien}, which the project does not own "
                f"(only {LIB_NAME} and the project's structures, classes and inductive types own namespaces)"
            )
        out.append(Finding(file, line, "namespace redirection", why))
    return out


def registered_kind_findings(files: Iterable[Path], names: Iterable[str], base: Path | None = None) -> list[Finding]:
    """Return a "registered theorem not a theorem" finding for each registered name the sources declare with another keyword.

    ``names``: the Lean theorems the claims cite (``spec.claims``).  A registered name declared as
    ``def`` or ``abbrev`` would be accepted by its pin (``example : statement := @name`` only checks
    the type); the compiled-environment layer refuses it too (``environment.THEOREM_KINDS``), and
    this source check keeps that defect from resting on one layer.
    """
    wanted = set(names)
    out: list[Finding] = []
    for f in files:
        rel = str(Path(f).relative_to(base)) if base else str(f)
        try:
            decls = declarations(commands(tokenize(Path(f).read_text(encoding="utf-8"))))
        except LeanSyntaxError:
            continue  # already a finding of audit_text
        for full, line, keyword in decls:
            if full in wanted and keyword not in THEOREM_KEYWORDS:
                out.append(Finding(rel, line, "registered theorem not a theorem", f"{full} is registered as a theorem but declared with `{keyword}`"))
    return out


def audit_text(src: str, name: str) -> list[Finding]:
    """Return the audit findings of one Lean source text, reported as file ``name``."""
    lines = src.splitlines()

    def text(line: int, why: str) -> str:
        src_line = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return f"{why}: {src_line}" if src_line else why

    try:
        toks = tokenize(src)
    except LeanSyntaxError as e:
        return [Finding(name, e.line, "unreadable", text(e.line, str(e).split(": ", 1)[1]))]
    raw = _word_findings(toks) + _command_findings(commands(toks))
    seen: set[tuple[int, str]] = set()
    out: list[Finding] = []
    for line, kind, why in sorted(raw, key=lambda r: (r[0], r[1])):
        if (line, kind) in seen:
            continue
        seen.add((line, kind))
        out.append(Finding(name, line, kind, text(line, why)))
    return out


def audit_sources(files: Iterable[Path], base: Path | None = None) -> list[Finding]:
    """Return the trust-audit findings of Lean source files (empty when clean); names relative to ``base``.

    Each file is audited on its own (``audit_text``); then the declarations of all of them
    together are checked for namespace redirection (``namespace_findings``).
    """
    findings: list[Finding] = []
    decls: list[tuple[str, str, int, str]] = []
    for f in files:
        name = str(Path(f).relative_to(base)) if base else str(f)
        src = Path(f).read_text(encoding="utf-8")
        findings.extend(audit_text(src, name))
        try:
            decls.extend((name, full, line, keyword) for full, line, keyword in declarations(commands(tokenize(src))))
        except LeanSyntaxError:
            pass  # already a finding of audit_text
    return findings + namespace_findings(decls)

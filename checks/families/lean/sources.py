"""The Lean sources of the project: where they are, a tokenizer, top-level commands, modules and import order.

The tokenizer (``tokenize``) is the audit's eyes, so it is conservative: it reads a small
subset of Lean's lexical syntax on which its reading and Lean's are provably the same (line
comments, un-nested block comments, doc comments ``/-- -/`` kept as tokens, module docs
``/-! -/``, one-line string literals with plain escapes, identifiers by Lean's own character
rules) and refuses a file with anything else (nested or unterminated comments, an opener
glued to the token before it or not followed by a space, raw, interpolated or multi-line
strings, char literals, backticks, guillemets, tabs and invisible characters, ...): a
refusal is an audit finding "audit cannot read this construct" at its line, so no text is
ever skipped on a guess.  ``commands`` groups the tokens into top-level commands the way
Lean's parser does: a new command begins at a command keyword (anywhere on a line) or at a
token in column 0 (so a doc comment starts a command only in column 0: indented ones
document structure fields); a doc comment, attributes, modifiers and an ``omit ... in``
prefix belong to the command that follows them.  (The audit also refuses a command that
does not begin in column 0, so two commands never share a line.)

Nothing here decides what is proved: that is Lean's verdict on the build and on the pin
module (``checks.families.lean.pins``).  This module only feeds the allowlist audit
(``checks.families.lean.audit``) and finds the import graph.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft import locations

#: The Lean project (shipped as the package data ``hardsoft.lean``).
LEAN_DIR = locations.lean_sources()
#: The library's root module (``lean/HardSoft.lean``) and the folder of its modules.
LIB_NAME = "HardSoft"

#: Words that begin a new top-level command wherever they stand (Lean's command keywords).
COMMAND_KEYWORDS = frozenset(
    {
        "module",
        "import",
        "prelude",
        "section",
        "namespace",
        "end",
        "variable",
        "universe",
        "open",
        "export",
        "set_option",
        "omit",
        "include",
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "structure",
        "class",
        "inductive",
        "coinductive",
        "instance",
        "example",
        "axiom",
        "opaque",
        "mutual",
        "attribute",
        "deriving",
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "notation",
        "infix",
        "infixl",
        "infixr",
        "prefix",
        "postfix",
        "initialize",
        "builtin_initialize",
        "run_cmd",
        "run_elab",
        "run_meta",
        "declare_syntax_cat",
        "register_simp_attr",
        "add_decl_doc",
        "seal",
        "unseal",
        "grind_pattern",
        "unif_hint",
        "with_weak_namespace",
        "init_quot",
        "simproc",
        "dsimproc",
        "simproc_decl",
        "dsimproc_decl",
        "builtin_simproc",
        "builtin_dsimproc",
        "builtin_simproc_decl",
        "builtin_dsimproc_decl",
        "declare_simp_like_tactic",
        "declare_config_elab",
        "register_option",
        "register_builtin_option",
        "register_error_explanation",
        "register_label_attr",
        "register_linter_set",
        "register_tactic_tag",
        "tactic_extension",
        "recommended_spelling",
        "binder_predicate",
        "grind_propagator",
        "builtin_grind_propagator",
        "init_grind_norm",
        "set_premise_selector",
        "local",
        "scoped",
        "private",
        "protected",
        "noncomputable",
        "unsafe",
        "partial",
        "nonrec",
        "public",
        "meta",
    }
)
#: Declaration modifiers (part of the command they precede).
MODIFIERS = frozenset({"private", "protected", "public", "noncomputable", "nonrec", "unsafe", "partial", "meta"})


@dataclass(frozen=True)
class Token:
    """A token of Lean source: kind ("ident", "sym", "num", "str", "doc", "moddoc", "hash"), text, 1-based line, 0-based column."""

    kind: str
    text: str
    line: int
    col: int


def _letter_like(c: str) -> bool:
    """Return Lean's ``isLetterLike``: Greek (not λ, Π, Σ), Coptic, Greek extended, the letter-like block, script letters."""
    o = ord(c)
    return (
        (0x3B1 <= o <= 0x3C9 and o != 0x3BB)
        or (0x391 <= o <= 0x3A9 and o not in (0x3A0, 0x3A3))
        or 0x3CA <= o <= 0x3FB
        or 0x1F00 <= o <= 0x1FFE
        or 0x2100 <= o <= 0x214F
        or 0x1D49C <= o <= 0x1D59F
    )


def _id_start(c: str) -> bool:
    """Return Lean's ``isIdFirst``: an ASCII letter, ``_`` or a letter-like symbol (exactly Lean's rule, so no word is split differently)."""
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_" or _letter_like(c)


def _id_rest(c: str) -> bool:
    """Return Lean's ``isIdRest``: ``isIdFirst``, an ASCII digit, ``'``, ``!``, ``?`` or a subscript letter or digit."""
    o = ord(c)
    return _id_start(c) or ("0" <= c <= "9") or c in "'!?" or 0x2080 <= o <= 0x2089 or 0x2090 <= o <= 0x209C or 0x1D62 <= o <= 0x1D6A


class LeanSyntaxError(ValueError):
    """Raised for source the tokenizer refuses to read: ``line N: audit cannot read this construct: ...``."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"line {line}: {UNREADABLE}: {what}")
        self.line, self.what = line, what


#: What a refusal says (the audit's finding names the line and this).
UNREADABLE = "audit cannot read this construct"
#: Escapes a string literal may use (each is the same to Lean and to this tokenizer).
_STRING_ESCAPES = frozenset('\\"nt')
#: Where a block comment's body ends or nests (Lean's ``finishCommentBlock``: the first of either, left to right).
_COMMENT_DELIMITER = re.compile(r"-/|/-")
#: Comment delimiters: a string literal holding one is refused (a reader could take it for a comment).
_DELIMITERS = ("/-", "-/", "--")


def _bad_char(c: str) -> str | None:
    """Return why character ``c`` is refused anywhere in a file (comments included), or None.

    Only the space and the newline count as whitespace: Lean refuses tabs and lone carriage
    returns, and other Unicode spaces, controls, format characters (zero-width joiners,
    bidirectional overrides) and unassigned code points are read differently by different
    readers (or made invisible to a human one).
    """
    if c in " \n":
        return None
    cat = unicodedata.category(c)
    if c == "\t":
        return "a tab"
    if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"):
        return f"the character U+{ord(c):04X} ({unicodedata.name(c, cat)})"
    return None


def tokenize(src: str) -> list[Token]:
    """Return the tokens of Lean source ``src`` (comments dropped; doc comments and module docs kept as tokens).

    ``_tokenize`` below has the rules; its result is a pure function of the text, kept for the
    last texts read (a check reads every file more than once: the audit, the bundle, the
    declarations), and each call gets a list of its own.
    """
    return list(_tokenize_cached(src))


@functools.lru_cache(maxsize=64)
def _tokenize_cached(src: str) -> tuple[Token, ...]:
    return tuple(_tokenize(src))


def _tokenize(src: str) -> list[Token]:
    r"""Return the tokens of Lean source ``src`` (comments dropped; doc comments and module docs kept as tokens).

    Conservative by construction: it reads only a subset of Lean's lexical syntax on which
    its reading and Lean's are the same token for token, and raises LeanSyntaxError (line
    and "audit cannot read this construct") on anything outside it, never skipping text it
    is unsure of.  The subset, against Lean's lexer (``Lean.Parser.Basic``: ``whitespace``,
    ``finishCommentBlock``, ``identFn``, ``strLitFnAux``):

    * whitespace is the space and the newline; any other space, control or format character
      is refused (``_bad_char``), comments included;
    * ``--`` runs to the end of the line; it must stand at the start of a line or after a
      space (never glued to a symbol that Lean could read as a longer token);
    * a block comment ``/- ... -/``, a doc comment ``/-- ... -/`` and a module doc
      ``/-! ... -/`` must be opened at the start of a line or after a space, the opener must be
      followed by a space or a newline (Lean skips the character after ``/-`` unexamined: read
      as ``/-/- -/``, it nests for a naive reader and not for Lean), and the body, scanned left
      to right as Lean does, must reach a ``-/`` before any ``/-`` (no nesting; ``//-/`` nests)
      and hold no ``--``; an unterminated one is refused, and so is a ``-/`` outside any comment;
    * a string literal stays on one line, uses only the escapes ``\\ \" \n \t`` and holds
      no comment delimiter; raw strings (``r"..."``, ``r#"..."#``), interpolated strings
      (``s!"..."``), char literals (any ``'`` that is not part of a name), name literals and
      quotations (a backtick) and guillemets (``«...»``) are refused;
    * identifiers follow Lean's ``isIdFirst``/``isIdRest`` exactly (ASCII letters, digits,
      ``_ ' ! ?``, letter-like symbols, subscripts), components joined by ``.``;
    * a number glued to a name (``2x``, ``0xsorry``) is refused.
    """
    toks: list[Token] = []
    n = len(src)
    line, line_start = 1, 0
    for k, ch in enumerate(src):
        why = _bad_char(ch)
        if why is not None:
            raise LeanSyntaxError(src.count("\n", 0, k) + 1, why)
    i = 0

    def advance(j: int) -> None:
        nonlocal i, line, line_start
        k = src.rfind("\n", i, j)
        if k >= 0:
            line += src.count("\n", i, j)
            line_start = k + 1
        i = j

    def after_space(k: int) -> bool:
        return k == 0 or src[k - 1] in " \n"

    while i < n:
        c = src[i]
        col = i - line_start
        if c in " \n":
            advance(i + 1)
        elif src.startswith("--", i):
            if not after_space(i):
                raise LeanSyntaxError(line, "`--` glued to the token before it")
            j = src.find("\n", i)
            advance(n if j < 0 else j)
        elif src.startswith("/-", i):
            if not after_space(i):
                raise LeanSyntaxError(line, "`/-` glued to the token before it")
            kind = "doc" if src.startswith("/--", i) else ("moddoc" if src.startswith("/-!", i) else None)
            body = i + (3 if kind else 2)
            if body >= n or src[body] not in " \n":
                raise LeanSyntaxError(line, f"`{src[i:body]}` not followed by a space or a newline")
            # Lean scans the body left to right for `-/` (close) or `/-` (nest): the first of either decides
            # (so `//-/` nests on `/-`, although a search for `-/` alone would close on its last two characters)
            m = _COMMENT_DELIMITER.search(src, body)
            if m is None:
                raise LeanSyntaxError(line, "unterminated comment")
            if m.group(0) == "/-":
                raise LeanSyntaxError(line + src.count("\n", body, m.start()), "a nested block comment (`/-` inside a comment)")
            close = m.start()
            dash = src.find("--", body, close)
            if dash >= 0:
                raise LeanSyntaxError(line + src.count("\n", body, dash), "`--` inside a block comment")
            j = close + 2
            if kind:
                toks.append(Token(kind, src[i:j], line, col))
            advance(j)
        elif src.startswith("-/", i):
            raise LeanSyntaxError(line, "`-/` outside a comment")
        elif c == '"':
            if toks and toks[-1].kind == "ident" and toks[-1].line == line and toks[-1].col + len(toks[-1].text) == col:
                raise LeanSyntaxError(line, f'`{toks[-1].text}"`: an interpolated or raw string')
            j = i + 1
            while j < n and src[j] != '"':
                if src[j] == "\n":
                    raise LeanSyntaxError(line, "a string literal spanning lines")
                if src[j] == "\\":
                    if j + 1 >= n or src[j + 1] not in _STRING_ESCAPES:
                        raise LeanSyntaxError(line, 'a string escape other than \\\\ \\" \\n \\t')
                    j += 2
                else:
                    j += 1
            if j >= n:
                raise LeanSyntaxError(line, "unterminated string")
            j += 1
            if any(d in src[i:j] for d in _DELIMITERS):
                raise LeanSyntaxError(line, "a comment delimiter inside a string literal")
            toks.append(Token("str", src[i:j], line, col))
            advance(j)
        elif c == "'":
            raise LeanSyntaxError(line, "a char literal (or a `'` that is not part of a name)")
        elif c in "«»":
            raise LeanSyntaxError(line, "an identifier in guillemets")
        elif c == "`":
            raise LeanSyntaxError(line, "a name literal or syntax quotation (backtick)")
        elif _id_start(c):
            j = i
            while True:
                while j < n and _id_rest(src[j]):
                    j += 1
                if j + 1 < n and src[j] == "." and (_id_start(src[j + 1]) or src[j + 1] == "«"):
                    j += 1
                    continue
                break
            text = src[i:j]
            if text == "r" and j < n and src[j] in '"#':
                raise LeanSyntaxError(line, "a raw string literal")
            toks.append(Token("ident", text, line, col))
            advance(j)
        elif c == "#" and i + 1 < n and _id_start(src[i + 1]):
            j = i + 1
            while j < n and _id_rest(src[j]):
                j += 1
            toks.append(Token("hash", src[i:j], line, col))
            advance(j)
        elif "0" <= c <= "9":
            m = re.match(r"0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", src[i:])
            assert m is not None
            j = i + len(m.group(0))
            if j < n and (_id_rest(src[j]) or src[j] == "«"):
                raise LeanSyntaxError(line, f"a number glued to a name: {src[i : j + 1]}")
            toks.append(Token("num", m.group(0), line, col))
            advance(j)
        elif src.startswith("@[", i):
            toks.append(Token("sym", "@[", line, col))
            advance(i + 2)
        else:
            toks.append(Token("sym", c, line, col))
            advance(i + 1)
    return toks


def ident_parts(tok: Token) -> list[str]:
    """Return the dot-separated components of an identifier token, guillemets removed."""
    parts: list[str] = []
    cur: list[str] = []
    inside = False
    for ch in tok.text:
        if ch == "«":
            inside = True
        elif ch == "»":
            inside = False
        elif ch == "." and not inside:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def strip_comments_and_strings(src: str) -> str:
    """Return ``src`` with comments (``--``, nested ``/- -/``, doc comments) and literals blanked, newlines kept."""
    out = list(src)
    lines = src.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    keep = [False] * len(src)
    for t in tokenize(src):
        if t.kind in ("str", "char", "doc", "moddoc"):
            continue
        start = offsets[t.line - 1] + t.col
        for k in range(start, min(start + len(t.text), len(src))):
            keep[k] = True
    for k, ch in enumerate(src):
        if not keep[k] and ch != "\n":
            out[k] = " "
    return "".join(out)


# --------------------------------------------------------------------------- commands


@dataclass
class Command:
    """A top-level command: its tokens, split into doc comment, attributes, modifiers, ``omit ... in`` prefix and body."""

    tokens: list[Token]
    doc: Token | None = None
    attrs: list[Token] = field(default_factory=list)  # the attribute names
    modifiers: list[str] = field(default_factory=list)
    prefix_in: list[Token] = field(default_factory=list)  # an ``omit ... in`` / ``include ... in`` prefix
    body: list[Token] = field(default_factory=list)

    @property
    def line(self) -> int:
        """Return the line of the command's first token."""
        return self.tokens[0].line

    @property
    def head(self) -> str:
        """Return the command's keyword (the first body token), or the doc kind when there is no body."""
        if self.body:
            return self.body[0].text
        return self.tokens[0].kind if self.tokens else ""

    @property
    def head_line(self) -> int:
        """Return the line of the command's keyword."""
        return self.body[0].line if self.body else self.line


def _is_start(t: Token) -> bool:
    """Return whether token ``t`` begins a new command (before the prefix merge)."""
    return t.kind in ("moddoc", "hash") or t.col == 0 or (t.kind == "sym" and t.text == "@[") or (t.kind == "ident" and t.text in COMMAND_KEYWORDS)


def _analyse(cmd: Command) -> bool:
    """Fill in the doc, attributes, modifiers, prefix and body of ``cmd`` from its tokens.

    Return whether the tokens end inside the prefix: an unclosed ``@[`` or an ``omit``/
    ``include`` still waiting for its ``in``.
    """
    toks, i, n = cmd.tokens, 0, len(cmd.tokens)
    while i < n:
        t = toks[i]
        if t.kind == "doc" and cmd.doc is None and not cmd.attrs and not cmd.modifiers:
            cmd.doc = t
            i += 1
        elif t.kind == "sym" and t.text == "@[":
            depth, j, expect_name = 1, i + 1, True
            while j < n and depth:
                u = toks[j]
                if u.kind == "sym" and u.text in ("[", "(", "@["):
                    depth += 1
                elif u.kind == "sym" and u.text in ("]", ")"):
                    depth -= 1
                elif u.kind == "sym" and u.text == "," and depth == 1:
                    expect_name = True
                    j += 1
                    continue
                if expect_name and depth == 1 and u.kind == "ident" and u.text not in ("local", "scoped"):
                    cmd.attrs.append(u)
                    expect_name = False
                j += 1
            if depth:
                cmd.body = []
                return True
            i = j
        elif t.kind == "ident" and t.text in MODIFIERS and not (t.text == "public" and i + 1 < n and toks[i + 1].text in ("section", "import")):
            cmd.modifiers.append(t.text)
            i += 1
        elif t.kind == "ident" and t.text in ("omit", "include") and not cmd.prefix_in:
            j = i
            while j < n and not (toks[j].kind == "ident" and toks[j].text == "in"):
                j += 1
            if j >= n:
                cmd.body = toks[i:]
                return True  # waiting for `in` (or a standalone omit/include, ended by the next command)
            cmd.prefix_in = toks[i : j + 1]
            i = j + 1
        else:
            break
    cmd.body = toks[i:]
    return False


def commands(tokens: Iterable[Token]) -> list[Command]:
    """Group tokens into top-level commands (see the module docstring)."""
    groups: list[list[Token]] = []
    # Once the current group's prefix is closed and its body has begun, more tokens only lengthen the
    # body (``_analyse`` stops at the first body token and looks ahead one token at most, inside the
    # prefix): the group is "settled" and is not analysed again (analysing at every token was
    # quadratic in a command's length).
    settled = False
    for t in tokens:
        if not groups or t.kind == "moddoc" or groups[-1][-1].kind == "moddoc":
            groups.append([t])
            settled = False
            continue
        cur = groups[-1]
        if settled:
            if _is_start(t):
                groups.append([t])
                settled = False
            else:
                cur.append(t)
            continue
        probe = Command(list(cur))
        open_prefix = _analyse(probe)
        settled = bool(probe.body) and not open_prefix
        if open_prefix and t.kind not in ("doc", "hash") and not (probe.body and t.kind == "ident" and t.text in COMMAND_KEYWORDS and t.text != "in"):
            cur.append(t)  # inside `@[ ... ]`, or the binders of `omit ... in`
        elif _is_start(t):
            prefix_only = not probe.body and not open_prefix
            if prefix_only and t.kind != "hash" and not (t.kind == "doc" and probe.doc is not None):
                cur.append(t)  # doc comment / attributes / modifiers / omit-in belong to what follows
            else:
                groups.append([t])
                settled = False
        else:
            cur.append(t)
    out = []
    for toks in groups:
        c = Command(toks)
        _analyse(c)
        out.append(c)
    return out


# --------------------------------------------------------------------------- files and modules


def lean_sources(lean_dir: Path) -> list[Path]:
    """Return the library's .lean files: the root module and everything under its folder."""
    files = []
    root = lean_dir / f"{LIB_NAME}.lean"
    if root.is_file():
        files.append(root)
    files.extend(sorted((lean_dir / LIB_NAME).rglob("*.lean")))
    return files


@dataclass
class Module:
    """A Lean module of the project: name, file, imports inside the project, and whether it declares anything."""

    name: str
    path: Path
    deps: list[str]
    import_only: bool


#: Commands that declare nothing (a module made only of these is "import-only").
_NON_DECL_HEADS = frozenset({"module", "import", "section", "end", "set_option", "namespace", "open", "variable", "moddoc"})


def module_imports(src: str) -> tuple[list[str], bool]:
    """Return (imported module names, import_only) of Lean source text."""
    imports: list[str] = []
    import_only = True
    try:
        cmds = commands(tokenize(src))
    except LeanSyntaxError:
        return [], False
    for c in cmds:
        body = [t.text for t in c.body]
        if body[:1] == ["public"]:
            body = body[1:]
        if body[:1] == ["meta"]:
            body = body[1:]
        if body[:1] == ["import"]:
            rest = [b for b in body[1:] if b != "all"]
            if rest:
                imports.append(rest[0])
        elif len(c.tokens) == 1 and c.tokens[0].kind == "moddoc":
            continue
        elif not body or body[0] not in _NON_DECL_HEADS or c.doc is not None:
            import_only = False
    return imports, import_only


def discover_modules(src_root: Path, names: Iterable[str] | None = None) -> dict[str, Module]:
    """Return the project's modules under ``src_root`` keyed by name (``names`` restricts them)."""
    if names is None:
        files = lean_sources(src_root)
    else:
        files = [src_root / (n.replace(".", "/") + ".lean") for n in names]
    mods: dict[str, Module] = {}
    for f in files:
        name = ".".join(f.relative_to(src_root).with_suffix("").parts)
        imports, import_only = module_imports(f.read_text(encoding="utf-8"))
        mods[name] = Module(name, f, imports, import_only=import_only)
    for m in mods.values():
        m.deps = [d for d in m.deps if d in mods]
    return mods


def import_order(mods: dict[str, Module]) -> list[str]:
    """Return module names in an order where every module follows its imports (ValueError on a cycle)."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            raise ValueError(f"import cycle through {n}")
        state[n] = 1
        for d in sorted(mods[n].deps):
            visit(d)
        state[n] = 2
        order.append(n)

    for n in sorted(mods):
        visit(n)
    return order


_DECL_HEADS = ("theorem", "lemma", "def", "abbrev", "instance", "structure", "example")


def declared_names(path: Path) -> list[tuple[str, str, int]]:
    """Return (kind, fully qualified name, line) of the declarations of a Lean file, by the command splitter.

    An authoring aid (the inventory of ``#print axioms`` lines, suggestions of registry
    statements); what counts as proved is decided by Lean, never by this list.
    """
    out: list[tuple[str, str, int]] = []
    stack: list[tuple[str, str]] = []
    for c in commands(tokenize(path.read_text(encoding="utf-8"))):
        body = c.body
        if not body:
            continue
        head = body[0].text
        arg = body[1].text if len(body) > 1 and body[1].kind == "ident" else ""
        if head in ("namespace", "section"):
            stack.append((head, arg))
        elif head == "end":
            if stack:
                stack.pop()
        elif head in _DECL_HEADS and head != "example" and arg and "private" not in c.modifiers:
            prefix = ".".join(name for k, name in stack if k == "namespace" and name)
            full = arg[len("_root_.") :] if arg.startswith("_root_.") else (f"{prefix}.{arg}" if prefix else arg)
            out.append((head, full, body[0].line))
    return out


def _span(lines: list[str], first: Token, last: Token) -> str:
    """Return the source text from token ``first`` to the end of token ``last``, whitespace collapsed."""
    if first.line == last.line:
        text = lines[first.line - 1][first.col : last.col + len(last.text)]
    else:
        text = " ".join([lines[first.line - 1][first.col :], *lines[first.line : last.line - 1], lines[last.line - 1][: last.col + len(last.text)]])
    return " ".join(text.split())


def variables_in_scope(path: Path, name: str) -> str | None:
    """Return the binders of the ``variable`` commands in scope at a declaration (joined), or None if not found."""
    short = name.rsplit(".", 1)[-1]
    src = path.read_text(encoding="utf-8")
    lines = src.split("\n")
    scopes: list[list[str]] = [[]]
    for c in commands(tokenize(src)):
        b = c.body
        if not b:
            continue
        head = b[0].text if b[0].text != "public" else (b[1].text if len(b) > 1 else "")
        if head in ("namespace", "section"):
            scopes.append([])
        elif head == "end":
            if len(scopes) > 1:
                scopes.pop()
        elif head == "variable" and len(b) > 1:
            scopes[-1].append(_span(lines, b[1], b[-1]))
        elif head in _DECL_HEADS and len(b) > 1 and b[1].text.rsplit(".", 1)[-1] == short:
            return " ".join(v for sc in scopes for v in sc)
    return None


def signature(path: Path, name: str) -> str | None:
    """Return the source text of a declaration's binders and type (from after its name to its ``:=``), or None."""
    short = name.rsplit(".", 1)[-1]
    src = path.read_text(encoding="utf-8")
    lines = src.split("\n")
    for c in commands(tokenize(src)):
        b = c.body
        if len(b) > 2 and b[0].text in _DECL_HEADS and b[1].text.rsplit(".", 1)[-1] == short:
            depth = 0
            for k, t in enumerate(b[2:], 2):
                if t.text in "([{⟨":
                    depth += 1
                elif t.text in ")]}⟩":
                    depth -= 1
                elif t.text == ":" and depth == 0 and k + 1 < len(b) and b[k + 1].text == "=":
                    start, end = b[2], t
                    text = "\n".join(lines[start.line - 1 : end.line])
                    # cut: from the first binder's column on its line to just before ':='
                    first = lines[start.line - 1][start.col :]
                    if start.line == end.line:
                        return " ".join(first[: end.col - start.col].split())
                    middle = lines[start.line : end.line - 1]
                    last = lines[end.line - 1][: end.col]
                    del text
                    return " ".join(" ".join([first, *middle, last]).split())
    return None

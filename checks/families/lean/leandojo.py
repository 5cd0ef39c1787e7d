"""Optional: trace the Lean project with LeanDojo (``pip install -e '.[leandojo]'``).

LeanDojo's trace records, for every theorem of ``lean/``, its proof's tactic states and the
premises each step uses: data for proof search or for training a prover, which a plain
``lake build`` does not give.  It is NOT part of ``hardsoft check`` nor of CI, because
lean-dojo 4.20.0:

* needs a native ``lake`` and ``lean`` (it runs ``lake build`` and its own extraction
  script; the WebAssembly Lean used here cannot run them);
* asks GitHub's API to resolve the Lean toolchain's commit, so it fails offline;
* pins its extraction script to Lean 4.20, while ``lean/lean-toolchain`` pins 4.28.0-rc1.

``availability()`` says whether a trace can run here and why not; ``trace_project`` copies
``lean/`` into a fresh git repository (LeanDojo traces a repository whose root is the Lake
project) and traces it with ``DISABLE_REMOTE_CACHE=1``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from hardsoft import locations

LEAN_DIR = locations.lean_sources()


def _network_ok(host: str = "api.github.com", port: int = 443, timeout: float = 3.0) -> bool:
    """Return whether a TCP connection to ``host`` can be opened (LeanDojo needs GitHub's API)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def availability() -> tuple[bool, str]:
    """Return (can_run, reason): lean-dojo installed, native lake and lean on PATH, GitHub reachable."""
    if importlib.util.find_spec("lean_dojo") is None:
        return False, "lean-dojo is not installed (pip install -e '.[leandojo]')"
    missing = [t for t in ("lake", "lean", "git") if shutil.which(t) is None]
    if missing:
        return False, f"LeanDojo needs native {', '.join(missing)} on PATH (the wasm Lean cannot run its tracer)"
    if not _network_ok():
        return False, "GitHub's API is unreachable: lean-dojo 4.20 resolves the Lean commit there"
    return True, "lean-dojo, native lake/lean and network available"


def _git(args: list[str], cwd: Path) -> str:
    """Run git in ``cwd`` and return its stdout."""
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def make_traceable_repo(dest: Path, lean_dir: Path = LEAN_DIR) -> tuple[Path, str]:
    """Copy the Lake project into a fresh git repository at ``dest``; return (path, commit)."""
    repo = dest / "hardsoft-lean"
    shutil.copytree(lean_dir, repo, ignore=shutil.ignore_patterns(".lake", "build", "wasm"))
    _git(["init", "-q"], repo)
    _git(["add", "-A"], repo)
    _git(["-c", "user.name=hardsoft", "-c", "user.email=hardsoft@localhost", "commit", "-q", "-m", "snapshot"], repo)
    return repo, _git(["rev-parse", "HEAD"], repo)


def trace_project(out_dir: Path, lean_dir: Path = LEAN_DIR) -> Path:
    """Trace the Lean project with LeanDojo into ``out_dir``; return the traced repository's path.

    Raises RuntimeError when ``availability()`` says no.
    """
    ok, why = availability()
    if not ok:
        raise RuntimeError(f"cannot trace with LeanDojo: {why}")
    os.environ["DISABLE_REMOTE_CACHE"] = "1"
    from lean_dojo import LeanGitRepo, trace  # type: ignore[import-not-found]

    work = Path(tempfile.mkdtemp(prefix="hardsoft-dojo-"))
    repo_path, commit = make_traceable_repo(work, lean_dir)
    repo = LeanGitRepo.from_path(repo_path) if hasattr(LeanGitRepo, "from_path") else LeanGitRepo(str(repo_path), commit)
    out_dir.mkdir(parents=True, exist_ok=True)
    traced = trace(repo, dst_dir=out_dir)
    return Path(getattr(traced, "root_dir", out_dir))


def main() -> int:
    """Trace the project when possible, else say why not (exit 0 either way: the extra is optional)."""
    ok, why = availability()
    if not ok:
        print(f"LeanDojo trace skipped: {why}")
        return 0
    path = trace_project(Path.cwd() / "reports" / "leandojo")
    print(f"LeanDojo trace written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

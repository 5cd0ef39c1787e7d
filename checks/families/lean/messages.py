"""Lean's messages: the wasm build's debug tracing filtered out, ``file:line:col: severity: text`` and JSON messages parsed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")


@dataclass(frozen=True)
class LeanMessage:
    """One message of Lean: file, position, severity ("error", "warning", "information") and text."""

    file: str
    line: int
    col: int
    severity: str
    text: str

    @property
    def is_sorry(self) -> bool:
        """Return whether this is the warning Lean gives for a declaration proved with ``sorry``."""
        return bool(_SORRY_WARNING.search(self.text))

    def short(self) -> str:
        """Return ``file:line:col: severity: first line``."""
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {first}"


_TEXT_MSG = re.compile(
    r"^(?:(?P<pre>error|warning|info): )?(?P<file>[^\s:][^:]*\.lean):(?P<line>\d+):(?P<col>\d+):"
    r"(?: (?P<sev>error|warning|info|information)(?:\([^)]*\))?:)? ?(?P<text>.*)$"
)
#: Lines that end a text message (lake's progress and summary lines).
_TEXT_END = re.compile(r"^(?:[✔✖⚠] \[\d+/\d+\]|Build completed|Some required targets|trace:|info:)")
_NOISE_LINE = re.compile(r"^(\[DEBUG:[^\]]*\]|  - /.*\.olean$|  mainModule\? = )")


def filter_noise(text: str) -> str:
    """Return Lean's output without the wasm build's debug tracing.

    Drops lines starting ``[DEBUG:``, the echo of the input file's start that follows
    ``[DEBUG:F] Input file content`` (up to the next debug line), lines listing .olean
    files (``  - /...olean``) and ``  mainModule? = ...`` lines.
    """
    out: list[str] = []
    in_echo = False
    for line in text.splitlines():
        if line.startswith("[DEBUG:"):
            in_echo = line.startswith("[DEBUG:F] Input file content")
            continue
        if in_echo or _NOISE_LINE.match(line):
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + ("\n" if out else "")


def parse_messages(text: str) -> list[LeanMessage]:
    """Return the messages in Lean's output: JSON lines (``--json``) and ``file:l:c: severity: text`` blocks.

    A text message runs until the next message header; continuation lines belong to it.
    Lines that are neither (noise, progress) are ignored.
    """
    msgs: list[LeanMessage] = []
    cur: dict | None = None

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            msgs.append(LeanMessage(cur["file"], cur["line"], cur["col"], cur["sev"], "\n".join(cur["text"]).rstrip()))
            cur = None

    for line in filter_noise(text).splitlines():
        s = line.strip()
        if s.startswith("{") and s.endswith("}"):
            try:
                m = json.loads(s)
            except json.JSONDecodeError:
                m = None
            if isinstance(m, dict) and "severity" in m and "data" in m:
                flush()
                pos = m.get("pos") or {}
                sev = "info" if m["severity"] == "information" else str(m["severity"])
                msgs.append(LeanMessage(str(m.get("fileName", "")), int(pos.get("line", 0)), int(pos.get("column", 0)), sev, str(m["data"]).rstrip()))
                continue
        hm = _TEXT_MSG.match(line)
        if hm and (hm["sev"] or hm["pre"]):
            flush()
            sev = hm["sev"] or hm["pre"]
            sev = "info" if sev == "information" else sev
            cur = {"file": hm["file"], "line": int(hm["line"]), "col": int(hm["col"]), "sev": sev, "text": [hm["text"]]}
        elif line.startswith("error: ") or line.startswith("uncaught exception"):
            flush()
            msgs.append(LeanMessage("", 0, 0, "error", line.split(": ", 1)[-1]))
        elif _TEXT_END.match(line):
            flush()
        elif cur is not None:
            cur["text"].append(line)
    flush()
    return msgs

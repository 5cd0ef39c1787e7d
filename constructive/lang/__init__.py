"""Program languages compiled to transformers: B-RASP, C-RASP and the temporal logic (docs/languages.md).

``LANGUAGES`` maps a name ("tl", "brasp", "crasp") to its ``Language`` (parse, format,
interpret, to_model); ``library()`` lists the program library shipped as package data.
"""

from __future__ import annotations

from hardsoft.constructive.lang.program import CompiledProgram
from hardsoft.constructive.lang.registry import LANGUAGES, Language, get_language

__all__ = ["LANGUAGES", "Language", "CompiledProgram", "get_language"]

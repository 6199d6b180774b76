"""`{{name}}` placeholders in a role's texts, filled in one pass.

One pass, and only names: a value (an argument, a piped document) is inserted as it is and
never read for placeholders itself, so a document holding `{{lang}}` cannot pull another
argument into the prompt, and no value is ever evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# A name is an identifier; the braces may pad it with spaces (`{{ lang }}`).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def placeholders(*texts: str | None) -> list[str]:
    """The names the texts use, each once, in order of first use."""
    seen: dict[str, None] = {}
    for text in texts:
        for found in PLACEHOLDER.finditer(text or ""):
            seen.setdefault(found.group(1), None)
    return list(seen)


def render(text: str, values: Mapping[str, str]) -> str:
    """`text` with each placeholder replaced by its value; every name must have one."""
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], text)


def missing(names: Iterable[str], values: Mapping[str, str]) -> list[str]:
    return [name for name in names if name not in values]

"""Provider instruction blocks as the model reads them: `<context source="ID">...</context>`.

The delimiters are ctxchat's, not any provider's. Whatever a provider injects may quote text
that came from elsewhere (a fact the user told, a summary the model wrote, a page a tool
read), and such text could hold `</context><context source="agent">` to end its block early
and open one that claims another source. So every block's text passes through
`neutralise`, the one place that does it, on its way to the model, the budget and the
audit alike: a third-party provider is covered without doing anything.

The `<` of anything that reads as a context tag (any case, spaces or a slash inside) is
written `&lt;`, a change a model reads as the same words but never as markup; everything
else is left exactly as the provider wrote it.
"""

from __future__ import annotations

import re

# `<` then optional spaces, an optional `/`, optional spaces, then the tag name as a word.
_CONTEXT_TAG = re.compile(r"<(?=\s*/?\s*context\b)", re.IGNORECASE)


def neutralise(text: str) -> str:
    """`text` with no sequence that could open or close a context block."""
    return _CONTEXT_TAG.sub("&lt;", text)


def context_block(source_id: str, text: str) -> str:
    """One provider's instructions as the block the system message carries."""
    source = (source_id.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")).replace(
        ">", "&gt;"
    )
    return f'<context source="{source}">\n{neutralise(text)}\n</context>'

"""The aspects of a reply a standing instruction may be about (`style_aspect_of`): its
language, length, format, tone, emojis, units, the language of its code, or another
preference about replies. Open-class words, as in `categories`."""

from __future__ import annotations

import functools
import re

from .categories import Category, compiled_table

# Style: the user's standing instructions about the assistant's replies, by aspect. Each
# aspect holds one current instruction ("keep it brief" is superseded by "go into detail").
STYLE_ASPECTS: tuple[Category, ...] = (
    Category(
        "reply_language",
        r"(?:answer|reply|respond|write|talk|speak|replies|answers)(?: to me)? in "
        r"(?:english|german|french|spanish|italian|portuguese|dutch|japanese|chinese|"
        r"polish|swedish|[a-z]+ish)\b|in (?:english|german|french|spanish|italian|portuguese|"
        r"dutch) (?:please|only|from now on)|auf deutsch|en français|en español|"
        r"(?:english|german|french|spanish|italian|portuguese|dutch) for (?:your |the |my )?"
        r"(?:answers|replies|responses)\b|"
        r"spelling|spell\b",
    ),
    Category(
        "reply_length",
        r"brief|short\b|shorter|concise|succinct|terse|to the point|one-liner|long-winded|"
        r"detailed|in depth|in-depth|thorough|elaborate|lengthy|verbose|\d+ words|"
        r"(?:more|less|into|in (?:more|less|full|great|much))\s+(?:detail|depth)\b|"
        r"word limit|sentences? max|tl;?dr|kurz|court\b|breve|corto|"
        r"\d+ (?:wörter\w*|mots|palabras|parole|palavras|woorden)",
    ),
    Category(
        "reply_format",
        r"bullet|numbered|list\b|lists\b|table|paragraph|markdown|heading|headers|steps?\b|"
        r"answer first|conclusion first|bottom line first|lead with|"
        r"walls? of text|prose|plain text|code block|json|format",
    ),
    Category(
        "reply_tone",
        r"tone\b|formal|informal|casual|friendly|blunt|direct|sugarcoat|polite|sarcas|"
        r"cheerful|serious|humou?r|jokes?|professional|register|"
        # The form of address asked for, not the "du" of any German request.
        r"duz|dutz|siez|(?:per|mit) (?:du|sie)\b|tutoie|vouvoie|tut[eé]a|de usted|de tú|"
        r"pleasantries|small talk|fluff|flattery|preamble|waffle|filler|jargon|plain language|"
        r"plain english|technical terms|"
        # "talk to me like a friend": the voice asked for
        r"like (?:a|an|my) (?:friend|mate|buddy|pal|colleague|human|person|teacher|tutor|coach)\b",
    ),
    Category("emoji", r"emoji|emojis|emoticon|smiley"),
    Category(
        "units",
        r"metric|imperial|units|miles|kilomet|kilo|pounds|celsius|fahrenheit|"
        r"24-hour|24 hour|12-hour|12 hour|am/pm|clock|date format|dd/mm|mm/dd|currency",
    ),
    Category(
        "code_language",
        r"code examples?|code snippets?|examples? in|show me (?:\w+ )?examples|type hints|"
        r"comments in",
    ),
    Category(
        "reply_style",
        r"answer|answers|reply|replies|response|responses|explain|explanation|source|"
        r"cite|citation|links?\b|lowercase|uppercase|capital|oxford comma|spelling|pronouns|"
        r"exclamation|punctuation|caps\b|"
        r"antwort|réponse|respuesta|risposta|resposta|antwoord|"
        r"address me|call me",
    ),
)


@functools.cache
def _compiled() -> tuple[tuple[Category, re.Pattern[str]], ...]:
    return compiled_table(STYLE_ASPECTS)


def style_aspect_of(text: str) -> Category | None:
    """The aspect of the reply a standing instruction is about, or None when it is about
    none: then it is no style instruction at all."""
    for category, pattern in _compiled():
        if pattern.search(text):
            return category
    return None

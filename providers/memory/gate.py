"""A cheap first look at a message: can it tell anything to remember at all?

The rules are a few hundred regular expressions, about a tenth of a second to compile, and
most messages (questions, tasks, greetings) hold no fact about the user. Every rule needs
the user speaking of themselves (a first-person word), a standing instruction about replies
(an imperative such as "answer", "keep", "use"), or a request to forget or remember; a
message with none of them in any of the four languages is passed over before the rules
are even compiled. The words below are those the rules are built around: a rule added for
a new kind of sentence adds its word here (`test_memory_gate.py` checks every sentence
the tests teach passes).
"""

from __future__ import annotations

import functools
import re

_WORDS = {
    # English: the first person, standing instructions, memory verbs.
    "en": r"i|i'm|im|i’m|i've|i'd|i'll|me|my|mine|myself|we|our|"
    r"answer|answers|reply|replies|respond|keep|be|use|write|speak|talk|call|address|"
    r"always|never|stop|don't|do\s+not|not|it's|actually|please|prefer|forget|remember|"
    r"from\s+now|as\s+someone|as\s+an?|died|passed\s+away|moved|quit|retired|married",
    # German
    "de": r"ich|mich|mir|mein|meine|meinen|meinem|meiner|meines|bin|habe|wir|unser|"
    r"antworte|antworten|antwortet|schreib|schreibe|sei|seien|halte|nutze|verwende|"
    r"sprich|sprechen|nenn|nenne|bitte|immer|nie|vergiss|vergessen|merk|merke|erinnere",
    # French
    "fr": r"je|moi|mon|ma|mes|suis|nous|notre|"
    r"réponds|répondez|réponse|sois|soyez|utilise|utilisez|écris|écrivez|parle|parlez|"
    r"appelle|appelez|toujours|jamais|oublie|oubliez|souviens|rappelle",
    # Spanish: the subject is often left out, so first-person verb forms count too.
    "es": r"yo|me|mi|mis|soy|estoy|vivo|tengo|trabajo|hablo|llamo|prefiero|odio|amo|como|"
    r"bebo|uso|nací|nosotros|nuestro|responde|respóndeme|contesta|sé|usa|escribe|habla|"
    r"llámame|siempre|nunca|olvida|olvídate|recuerda|acuérdate",
}


@functools.cache
def _gate() -> re.Pattern[str]:
    words = "|".join(_WORDS.values())
    # "j'ai", "m'appelle": an elided pronoun runs straight into its verb.
    elided = r"[jm]['’]"
    return re.compile(rf"(?<![\w'’])(?:{elided}|(?:{words})(?!\w))", re.IGNORECASE)


def might_tell(message: str) -> bool:
    """False when no rule could find anything in `message`: skip it."""
    return _gate().search(message) is not None

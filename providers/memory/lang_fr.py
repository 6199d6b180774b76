from ctxchat.providers.memory.lang_en import GRAMMAR as _EN
from dataclasses import replace
GRAMMAR = replace(_EN, code="fr", markers=frozenset({"zzzfr"}))

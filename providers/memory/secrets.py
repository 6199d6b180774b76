"""Secret detection: what must never reach the memory store.

Two kinds of evidence, either enough: what the user calls it ("my password is", "PIN",
"Kontonummer", "mot de passe", "contraseña", a security answer such as a mother's maiden
name) and what the value looks like (API key prefixes, JWTs, long high-entropy strings,
Luhn-valid card numbers, mod-97-valid IBANs). An op caught here is dropped whole.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from .ops import Extraction, Op

_SECRET_WORDS = re.compile(
    r"\b(?:pass(?:word|wd|phrase|code)s?|pins?|pin[- ]?(?:code|number)|secret|api[- ]?keys?"
    r"|access[- ]?keys?|private[- ]?keys?|tokens?|credentials?|log-?in details"
    r"|security (?:question|answer|code)|maiden names?|cvv|cvc|sort code|routing number"
    r"|(?:bank|account|card|credit card|debit card|iban|social security|ssn|tax|passport)"
    r"[- ]?(?:account )?(?:number|no\.?|details|id)s?|iban|seed phrase|recovery (?:phrase|code)"
    r"|kennwort|passwort|geheimzahl|kontonummer|kreditkarten(?:nummer)?|zugangsdaten"
    r"|mot de passe|code secret|num[ée]ro de (?:carte|compte)|identifiants?"
    r"|contrase[ñn]a|clave|n[úu]mero de (?:tarjeta|cuenta))\b",
    re.IGNORECASE,
)
_KEY_PREFIX = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{8,}|sk_(?:live|test)_[A-Za-z0-9]{8,}|pk_(?:live|test)_[A-Za-z0-9]{8,}"
    r"|rk_(?:live|test)_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_-]{30,}|hf_[A-Za-z0-9]{20,}|npm_[A-Za-z0-9]{30,})"
)
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}")
_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{20,}")
_DIGITS = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _iban_valid(candidate: str) -> bool:
    text = candidate.replace(" ", "").upper()
    if not 15 <= len(text) <= 34:
        return False
    rearranged = text[4:] + text[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def _high_entropy(token: str) -> bool:
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    if not (has_digit and has_alpha):
        return False
    if "-" in token and all(p.isalpha() for p in token.split("-") if p):
        return False  # hyphenated words
    return _entropy(token) >= (3.0 if len(token) >= 32 else 3.5)


def looks_secret(text: str) -> bool:
    """Does this text name or contain a secret?"""
    if _SECRET_WORDS.search(text) or _KEY_PREFIX.search(text) or _JWT.search(text):
        return True
    for match in _DIGITS.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            return True
    if any(_iban_valid(m.group()) for m in _IBAN.finditer(text)):
        return True
    return any(_high_entropy(m.group()) for m in _TOKEN.finditer(text))


def screen(ops: Iterable[Op]) -> Extraction:
    """The ops that are safe to store; `secret_dropped` when any was not.

    A `forget` op is never dropped: forgetting a secret is always allowed."""
    kept: list[Op] = []
    dropped = False
    for op in ops:
        if op.kind != "forget" and (looks_secret(op.value) or looks_secret(op.evidence)):
            dropped = True
        else:
            kept.append(op)
    return Extraction(tuple(kept), dropped)

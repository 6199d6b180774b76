"""What a secret looks like, whatever it is called: the value-shape half of the secret screen.

Each check is a pattern for the candidates plus, where the format has one, its own check
digit or checksum (Luhn for cards, mod 97 for IBANs and French social security numbers,
the letter of a Spanish DNI/NIE), so a phone number or an order number of the same length
passes. A shape with no check digit (a US SSN, a German social insurance number, a UK
National Insurance number) is matched only in its exact punctuated form, which ordinary
numbers (dates, phone numbers, postcodes) do not take.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

KEY_PREFIX = re.compile(
    r"(?<![A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{8,}|sk_(?:live|test)_[A-Za-z0-9]{8,}"
    r"|[pr]k_(?:live|test)_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{12,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|glpat-[A-Za-z0-9_-]{16,}|xox[a-z]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_-]{30,}|hf_[A-Za-z0-9]{20,}|npm_[A-Za-z0-9]{30,}"
    r"|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})"
)
JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}")
PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
URL_CREDENTIALS = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@", re.IGNORECASE)

_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{20,}")
# A card number: 13 to 19 digits, in groups or not, not part of a longer number and not a
# phone number (those start with + or 0; card numbers start with 2 to 6).
_CARD = re.compile(r"(?<![\d+-])[2-6](?:[ -]?\d){12,18}(?![\d-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
# US social security number, in its written form only (a bare nine digits is any number).
_SSN = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
# German Sozialversicherungsnummer: area, birth date, the surname's initial, serial.
_DE_SOCIAL = re.compile(r"\b\d{2} ?\d{6} ?[A-Z] ?\d{3}\b")
# UK National Insurance number: two letters, six digits, a suffix letter A to D.
_UK_NINO = re.compile(r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
# Spanish DNI (8 digits) and NIE (X, Y or Z and 7 digits), each with its check letter.
_ES_ID = re.compile(r"\b([XYZ]?)(\d{7,8})-? ?([A-Z])\b")
_ES_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
# French NIR: sex, year, month, department (2A/2B for Corsica), commune, order, key.
_FR_NIR = re.compile(
    r"\b([12]) ?(\d{2}) ?(\d{2}) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})\b", re.IGNORECASE
)
# A user and a password written together ("alice:Tr0ub4dor&3", "alice / Tr0ub4dor&3").
_PAIR = re.compile(r"(?<![/\w])[\w.@+-]{2,}(?::|\s/\s)(\S{6,})")


def entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(candidate: str) -> bool:
    text = candidate.replace(" ", "").upper()
    if not 15 <= len(text) <= 34:
        return False
    rearranged = text[4:] + text[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def high_entropy(token: str) -> bool:
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    if not (has_digit and has_alpha):
        return False
    if "-" in token and all(p.isalpha() for p in token.split("-") if p):
        return False  # hyphenated words
    return entropy(token) >= (3.0 if len(token) >= 32 else 3.5)


def password_like(token: str) -> bool:
    """Mixed like a chosen password: at least three of lower case, upper case, digits and
    symbols, or letters and digits interleaved (not a word with a number after it)."""
    token = token.strip("'\"()[]{}").rstrip(".,;!?")
    if len(token) < 6:
        return False
    kinds = [
        any(c.islower() for c in token),
        any(c.isupper() for c in token),
        any(c.isdigit() for c in token),
        any(not c.isalnum() for c in token),
    ]
    if sum(kinds) >= 3:
        return True
    return bool(re.search(r"[A-Za-z]\d+[A-Za-z]", token))


Span = tuple[int, int]


def _cards(text: str) -> list[Span]:
    found = []
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and luhn(digits):
            found.append(match.span())
    return found


def _ibans(text: str) -> list[Span]:
    return [m.span() for m in _IBAN.finditer(text) if iban_valid(m.group())]


def _spanish_ids(text: str) -> list[Span]:
    found = []
    for match in _ES_ID.finditer(text):
        prefix, digits, letter = match.groups()
        if len(digits) != (7 if prefix else 8):
            continue
        number = int(str("XYZ".index(prefix)) + digits) if prefix else int(digits)
        if _ES_LETTERS[number % 23] == letter:
            found.append(match.span())
    return found


def _french_nirs(text: str) -> list[Span]:
    found = []
    for match in _FR_NIR.finditer(text):
        sex, year, month, dept, commune, order, key = match.groups()
        if not (1 <= int(month) <= 12 or 20 <= int(month) <= 42):
            continue
        # Corsica's departments count as 19 and 18 for the key.
        dept_number = {"2A": "19", "2B": "18"}.get(dept.upper(), dept)
        number = int(sex + year + month + dept_number + commune + order)
        if 97 - number % 97 == int(key):
            found.append(match.span())
    return found


def _credential_pairs(text: str) -> list[Span]:
    return [
        m.span()
        for m in _PAIR.finditer(text)
        if password_like(m.group(1)) and "://" not in m.group(0)
    ]


def _tokens(text: str) -> list[Span]:
    return [m.span() for m in _TOKEN.finditer(text) if high_entropy(m.group())]


def _found(pattern: re.Pattern[str]) -> Callable[[str], list[Span]]:
    return lambda text: [m.span() for m in pattern.finditer(text)]


# (what it is, how it is found), in the order they are tried: cheapest and surest first.
SHAPES: tuple[tuple[str, Callable[[str], list[Span]]], ...] = (
    ("key with a known prefix", _found(KEY_PREFIX)),
    ("JWT", _found(JWT)),
    ("private key", _found(PRIVATE_KEY)),
    ("credentials in a URL", _found(URL_CREDENTIALS)),
    ("card number (Luhn)", _cards),
    ("IBAN (mod 97)", _ibans),
    ("US social security number", _found(_SSN)),
    ("German social insurance number", _found(_DE_SOCIAL)),
    ("UK National Insurance number", _found(_UK_NINO)),
    ("Spanish DNI/NIE (check letter)", _spanish_ids),
    ("French social security number (key)", _french_nirs),
    ("user and password pair", _credential_pairs),
    ("high-entropy token", _tokens),
)


def shape_of(text: str) -> str | None:
    """What kind of secret `text` holds by its look, or None."""
    return next((name for name, found in SHAPES if found(text)), None)


def shape_spans(text: str) -> list[Span]:
    """Where in `text` a secret shows by its look (spans may overlap)."""
    return [span for _, found in SHAPES for span in found(text)]

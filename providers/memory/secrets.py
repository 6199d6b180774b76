"""The secret screen: what must never reach the memory store.

Two kinds of evidence, either enough. What the user calls it: a name that always means a
secret ("password", "PIN", "Kontonummer", "mot de passe", "contraseña", a government id
such as "SSN" or "Steuer-ID", a security answer such as a mother's maiden name), or one
that does when a value follows it ("my login is ...", "username: ...", "mi usuario es
..."). And what the value looks like (`secret_shapes`: key prefixes, JWTs, card and
account numbers with their check digits, government id formats, a user and password
written together, long high-entropy strings).

`secret_kind` says which caught a text; `screen` drops the ops that hold one; and the
store runs `refuse_secret_facts` on every fact it is about to write (`memory.store`), so
no path into memory, present or future, can bypass the screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ctxchat import UsageError

from .facts import Fact
from .ops import Extraction, Op
from .secret_shapes import shape_of, shape_spans

# Names that mean a secret wherever they stand (English, German, French, Spanish).
_SECRET_NAMES = re.compile(
    r"\b(?:pass(?:word|wd|phrase|code)s?|pin[- ]?(?:code|number)|api[- ]?(?:keys?|tokens?)"
    r"|(?:access|auth|bearer|refresh|session|github|gitlab|slack|discord|npm|pypi|openai|aws"
    r"|stripe|bot|personal access)[- ]?tokens?|(?:access|secret|private)[- ]?keys?"
    r"|credentials?|log-?in (?:details|credentials)|one[- ]time (?:code|password)"
    r"|security (?:question|answer|code)|(?:mother|mum|mom|mam)(?:['’]s|s)? maiden names?|cvv|cvc"
    r"|sort code|routing number"
    r"|(?:bank|account|card|credit card|debit card|iban|social security|social insurance"
    r"|national insurance|ni|ssn|tax|taxpayer|passport|driver'?s licen[cs]e|licen[cs]e"
    r"|id card|identity card)[- ]?(?:account )?(?:number|no\.?|details|id)s?"
    r"|social security|seed phrase|recovery (?:phrase|codes?)|backup codes?"
    r"|(?:door|gate|alarm|garage|safe|lock|locker|padlock|keypad|building|entry|unlock|"
    r"screen ?lock|phone|bike lock) ?codes?|(?:lock|locker|padlock|safe|bike lock) ?combinations?"
    r"|kennw[oö]rt(?:er)?|passw[oö]rt(?:er)?|geheimzahl|kontonummer|kreditkarten(?:nummer)?"
    r"|zugangsdaten|anmeldedaten|sozialversicherungsnummer|steuer-?(?:id|nummer)"
    r"|steueridentifikationsnummer|(?:personal)?ausweisnummer|reisepassnummer|t[üu]rcode"
    r"|mot de passe|code (?:secret|pin|confidentiel)|num[ée]ro de (?:carte|compte|passeport)"
    r"|num[ée]ro (?:fiscal|de s[ée]curit[ée] sociale)|s[ée]curit[ée] sociale|identifiants"
    r"|contrase[ñn]as?|clave de acceso|n[úu]mero de (?:tarjeta|cuenta|pasaporte)"
    r"|n[úu]mero de la seguridad social|seguridad social)\b",
    re.IGNORECASE,
)
# Acronyms, in capitals only: "nie" is German for never, "sin" Spanish for without.
_SECRET_ACRONYMS = re.compile(
    r"\b(?:SSN|IBAN|PIN|TAN|PUK|CVV|CVC|DNI|NIE|NIF|NIR|NINO|TIN|SIN|BSN|OTP|2FA)\b"
)
# Names that hold a secret when a value follows them ("my login is alice", "pin: 1234").
_NAMED_VALUE = re.compile(
    r"\b(?:log-?in|user ?name|user id|pin|ssn|iban|tokens?|secret|benutzer(?:name)?"
    r"|anmeldename|identifiant|nom d'utilisateur|usuario|nombre de usuario|clave)"
    r"(?:\s*[:=]|\s+(?:is|was|ist|lautet|war|est|était|es|era)\b)",
    re.IGNORECASE,
)

# A combination or code given as digits ("the combination is 12-34-56"), whatever it opens.
_NAMED_NUMBER = re.compile(
    r"\b(?:combinations?|combo|code)(?=\s*(?:[:=]|is\b|was\b)\s*[#\w-]*\d)", re.IGNORECASE
)
# Codes that are no secret: an error's, a post code, a product's.
_PUBLIC_CODE = re.compile(
    r"\b(?:post|zip|area|country|dress|source|qr|error|status|exit|return|http|promo|discount|"
    r"tracking|product|colou?r|dialling|postal)\s*code\b",
    re.IGNORECASE,
)

WITHHELD = "[secret withheld]"
# What follows a secret's name up to the end of its clause: the value it names.
_NAMED_REST = re.compile(r"[^.;,\n]*")
_COPULA = re.compile(r"\s*(?:[:=]|(?:is|was|ist|lautet|war|est|était|es|era)\b)?\s*", re.IGNORECASE)


class SecretRefused(UsageError):
    """Something that looks like a secret was about to be written to the memory store."""


def secret_kind(text: str) -> str | None:
    """Why `text` counts as holding a secret (the name or shape that caught it), or None."""
    for pattern in (_SECRET_NAMES, _SECRET_ACRONYMS, _NAMED_VALUE, _NAMED_NUMBER):
        found = pattern.search(text)
        if found is not None and not (pattern is _NAMED_NUMBER and _public(text, found)):
            name = " ".join(found.group().split()).rstrip(":= ")
            return f"named '{name}'"
    return shape_of(text)


def _public(text: str, found: re.Match[str]) -> bool:
    return any(m.end() == found.end() for m in _PUBLIC_CODE.finditer(text, 0, found.end()))


def withhold_secrets(text: str) -> str:
    """`text` with every secret it holds replaced by `[secret withheld]`: each span a shape
    matches, and what follows a secret's name to the end of its clause ("my PIN is 4321"
    becomes "my PIN is [secret withheld]"). For text that is not refused whole but kept,
    such as a summary of a conversation in which the user told a secret."""
    spans = shape_spans(text)
    for pattern in (_SECRET_NAMES, _SECRET_ACRONYMS, _NAMED_VALUE, _NAMED_NUMBER):
        for found in pattern.finditer(text):
            if pattern is _NAMED_NUMBER and _public(text, found):
                continue
            copula = _COPULA.match(text, found.end())
            start = copula.end() if copula is not None else found.end()
            rest = _NAMED_REST.match(text, start)
            end = rest.end() if rest is not None else start
            if re.search(r"\w", text[start:end]):
                spans.append((start, end))
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in reversed(merged):
        text = text[:start] + WITHHELD + text[end:]
    return text


def looks_secret(text: str) -> bool:
    """Does this text name or contain a secret?"""
    return secret_kind(text) is not None


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


def refuse_secret_facts(facts: Iterable[Fact]) -> None:
    """The store's last word before it writes `facts`: `SecretRefused` (and nothing
    written) if any value, current or past, looks like a secret."""
    for fact in facts:
        for value in (fact.value, *(p.value for p in fact.history)):
            kind = secret_kind(value)
            if kind is not None:
                raise SecretRefused(
                    f"not remembered: that looks like a password, key or account number ({kind})"
                )

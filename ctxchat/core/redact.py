"""Keeping secrets out of what ctxchat prints: credentials and query values in URLs, and the
values of options whose names say they are secret.

Plain string work, no URL parsing: a malformed URL (the very one an error is about) must be
masked as reliably as a good one.
"""

from __future__ import annotations

import re

# Userinfo runs to the last "@" before the path: a password may itself hold an "@".
_USERINFO = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)[^/?#]*@")
_PASSWORD = re.compile(r"^(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@]*):[^/?#]*@")
_VALUE = re.compile(r"=[^&;]+")
_CREDENTIALS_IN_TEXT = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://)[^\s/@]+@")
# Names of options whose values are never shown: api_key, token, client_secret, password...
_SECRET_WORDS = ("key", "token", "secret", "password", "passwd")
_URL_WORDS = ("url", "dsn", "uri")


def mask_query(url: str) -> str:
    """Every query (and fragment) value replaced by ***: `?key=s3cret` -> `?key=***`.

    All values, not only known secret names: tokens travel under any name (sig, code...)."""
    head, sep, rest = url.partition("?")
    if not sep:
        head, sep, fragment = url.partition("#")
        return head + sep + _VALUE.sub("=***", fragment) if sep else url
    query, hash_sign, fragment = rest.partition("#")
    return f"{head}?{_VALUE.sub('=***', query)}{hash_sign}{_VALUE.sub('=***', fragment)}"


def mask_url(url: str) -> str:
    """The URL for display: any user and password become ***, and query values too."""
    return mask_query(_USERINFO.sub(r"\g<scheme>***@", url))


def mask_password(url: str) -> str:
    """As `mask_url`, but keeping the user name (which says which account a database URL
    uses): `postgresql://me:pw@h/db` -> `postgresql://me:***@h/db`."""
    return mask_query(_PASSWORD.sub(r"\g<head>:***@", url))


def scrub_password(url: str, text: str) -> str:
    """`text` (a driver's error message, say) with the password of `url` replaced by ***
    wherever it appears, URL or not."""
    match = _PASSWORD.match(url)
    password = url[len(match.group("head")) + 1 : match.end() - 1] if match else ""
    return text.replace(password, "***") if password else text


def mask_urls_in(text: str) -> str:
    """Free text (an error message) with the credentials of every URL in it masked."""
    return _CREDENTIALS_IN_TEXT.sub(r"\1***@", text)


def is_secret_name(name: str) -> bool:
    """An option whose value is a secret by its name (`max_tokens` is a count, not one)."""
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS) and not lowered.endswith("tokens")


def is_url_name(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _URL_WORDS)

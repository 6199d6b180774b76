"""Keeping secrets out of what ctxchat prints and stores: credentials and query values in
URLs, the values of options whose names say they are secret, and any secret ctxchat was
given (an API key, a database password) wherever it turns up in an error's text.

Where a URL's user and password end is decided by the library that will read the URL:
SQLAlchemy (`make_url`) for a database URL, httpx for an http(s) endpoint. A hand-written
pattern disagrees with them exactly on the passwords that matter (one holding `/`, `#`, `?`
or an unencoded `@`), and then shows what the driver takes for the password. A URL neither
can parse is masked up to its last `@`: more than needed, never less.

Known secrets (`remember_secret`, kept by the process's `SECRETS`) are replaced in any text
by `scrub_secrets`, which every error line, traceback and stored error goes through: a
driver or a server may quote them in their own words (an echoed key in a 400's message, the
tail of a password in a host name).
"""

from __future__ import annotations

import importlib
import re
import threading
from typing import Any
from urllib.parse import unquote

_VALUE = re.compile(r"=[^&;]+")
# In free text: a scheme, then everything up to the last "@" of the word (a password may
# hold "/" or "@").
_CREDENTIALS_IN_TEXT = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://)((?:[^\s@]*@)+)")
# Names of options whose values are never shown: api_key, token, client_secret, password...
_SECRET_WORDS = ("key", "token", "secret", "password", "passwd")
_URL_WORDS = ("url", "dsn", "uri")
# Shorter values are not scrubbed from text: replacing every "ab" would garble messages and
# hide nothing worth hiding.
MIN_SECRET_LENGTH = 4
MASK = "***"


class KnownSecrets:
    """The secrets this process was given, to scrub from any text it prints or stores.

    One per process (`SECRETS`), not one per chat: an error is turned into its line where
    the command ends (`cli.common`), after the chat that learnt the secret is closed, and a
    log line or a stored error may come from any thread of the process. A secret, once
    given, stays scrubbed until the process ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # a scrub on one thread while another remembers
        self._secrets: set[str] = set()

    def remember(self, value: str | None) -> None:
        if not value:
            return
        with self._lock:
            for form in {value, unquote(value)}:
                if len(form) >= MIN_SECRET_LENGTH:
                    self._secrets.add(form)

    def scrub(self, text: str) -> str:
        with self._lock:
            longest_first = sorted(self._secrets, key=len, reverse=True)
        for secret in longest_first:
            if secret in text:
                text = text.replace(secret, MASK)
        return mask_urls_in(text)


SECRETS = KnownSecrets()


def remember_secret(value: str | None) -> None:
    """Scrub `value` (and its percent-decoded form) from every error text from now on."""
    SECRETS.remember(value)


def scrub_secrets(text: str) -> str:
    """`text` with every remembered secret replaced by ***, and the credentials of any URL
    in it masked."""
    return SECRETS.scrub(text)


# -- URLs ----------------------------------------------------------------------------------
def _userinfo_span(url: str) -> tuple[int, int] | None:
    """Where `user[:password]` is in `url` as its reader will take it, as (start, end)
    offsets (an "@" at `end`); None when there is none."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return None
    start = len(head) + len(sep)
    try:
        if head.lower() in ("http", "https"):
            length = _http_userinfo_length(rest)
        else:
            length = _database_userinfo_length(url, rest)
    except Exception:  # unparsable: the last "@" may end the userinfo, so it is assumed to
        length = rest.rfind("@")
    return None if length is None else (start, start + length)


def parse_http_url(url: str) -> Any:
    """`url` as the HTTP client reads it: an `httpx.URL` (httpx2's, which openai 3 sends
    with, else httpx's). Raises `InvalidHttpUrl` when it cannot be parsed."""
    httpx = _httpx()
    try:
        return httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise InvalidHttpUrl(str(exc)) from None


class InvalidHttpUrl(ValueError):
    pass


def _httpx() -> Any:
    try:
        return importlib.import_module("httpx2")
    except ImportError:
        return importlib.import_module("httpx")


def _http_userinfo_length(rest: str) -> int | None:
    """httpx's reading: the userinfo is the authority (up to the first /, ? or #) up to its
    last "@"."""
    if not parse_http_url(f"http://{rest}").userinfo:
        return None
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    return authority.rfind("@")


def _database_userinfo_length(url: str, rest: str) -> int | None:
    """SQLAlchemy's reading: the password runs to the first "@" after the user name; an
    unencoded "@" in it leaves the rest of the password in the host, so up to the host's
    last "@"."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.username is None and parsed.password is None:
        return None
    first = rest.find("@")
    host = parsed.host or ""
    if "@" in host and rest.startswith(host, first + 1):
        return first + 1 + host.rfind("@")
    return first


def url_password(url: str) -> str | None:
    """The password in `url` as written there (percent-encoded as it is), or None."""
    span = _userinfo_span(url)
    if span is None:
        return None
    _user, colon, password = url[span[0] : span[1]].partition(":")
    return password if colon and password else None


def has_unencoded_at(url: str) -> bool:
    """Whether the user or password of a database URL holds an "@" the URL does not
    percent-encode: SQLAlchemy would take part of the password for the host."""
    span = _userinfo_span(url)
    return span is not None and "@" in url[span[0] : span[1]]


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
    span = _userinfo_span(url)
    if span is not None:
        url = url[: span[0]] + MASK + url[span[1] :]
    return mask_query(url)


def mask_password(url: str) -> str:
    """As `mask_url`, but keeping the user name (which says which account a database URL
    uses): `postgresql://me:pw@h/db` -> `postgresql://me:***@h/db`."""
    span = _userinfo_span(url)
    if span is not None:
        user, colon, _password = url[span[0] : span[1]].partition(":")
        if colon:
            url = url[: span[0]] + f"{user}:{MASK}" + url[span[1] :]
    return mask_query(url)


def scrub_password(url: str, text: str) -> str:
    """`text` (a driver's error message, say) with the password of `url` replaced by ***
    wherever it appears, as written in the URL or percent-decoded, URL or not."""
    password = url_password(url)
    if not password:
        return text
    for form in sorted({password, unquote(password)}, key=len, reverse=True):
        text = text.replace(form, MASK)
    return text


def mask_urls_in(text: str) -> str:
    """Free text (an error message) with the credentials of every URL in it masked: the
    password of `user:password@`, all of a lone `token@`."""

    def masked(match: re.Match[str]) -> str:
        user, colon, _password = match.group(2)[:-1].partition(":")
        return f"{match.group(1)}{user}:{MASK}@" if colon else f"{match.group(1)}{MASK}@"

    return _CREDENTIALS_IN_TEXT.sub(masked, text)


def is_secret_name(name: str) -> bool:
    """An option whose value is a secret by its name (`max_tokens` is a count, not one)."""
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS) and not lowered.endswith("tokens")


def is_url_name(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _URL_WORDS)

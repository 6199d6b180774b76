"""Of what type a named thing is: a phone, an editor, an airline, a bank.

A person keeps one of many such things at a time (their phone, their main language at work,
their airline), and says a change by naming the new one alone: "These days it's mostly
Kotlin for me" after "I mostly code in Java", "I'm with Sainsbury's now" after "I work at
Tesco". The two statements share no word, so what ties them is what the names are, which no
grammar tells: it is knowledge of the world, kept here as a short gazetteer of the most
common names of each type.

The lists are of products, firms and languages, not of phrasings, so a sentence worded in a
way no one here tried still finds its type. A name that is also a common word ("go",
"edge", "rust") is listed only capitalised, so that "I go swimming" names no language.
"""

from __future__ import annotations

import functools
import re

from .antecedents import ONES_OF_MINE
from .change_patterns import CHANGE
from .time_patterns import MOMENT

# Names of each type, "|" between them (names hold spaces, "+" and "#").
_TYPES: dict[str, str] = {
    "phone": (
        "iphone|android|pixel|samsung|galaxy s|oneplus|nokia|motorola|xiaomi|huawei|"
        "blackberry|fairphone|nothing phone"
    ),
    "computer": (
        "macbook|thinkpad|chromebook|imac|mac mini|mac studio|surface pro|surface laptop|"
        "dell xps|xps|framework laptop|zenbook|razer blade|ideapad"
    ),
    "operating system": (
        "Windows|linux|macos|ubuntu|fedora|debian|arch linux|Arch|linux mint|manjaro|chromeos|"
        "pop!_os|freebsd"
    ),
    "editor": (
        "vs code|vscode|visual studio code|vim|neovim|emacs|intellij|pycharm|webstorm|"
        "sublime|Atom|xcode|android studio|Zed|Nano|notepad++|Helix|Eclipse"
    ),
    "programming language": (
        "python|java|kotlin|javascript|typescript|golang|Rust|c++|c#|php|Swift|scala|elixir|"
        "haskell|clojure|perl|Dart|lua|ocaml|erlang|fortran|cobol|objective-c"
    ),
    "car": (
        "ford|toyota|prius|corolla|honda|Civic|tesla|bmw|audi|volkswagen|vw|fiat|kia|"
        "hyundai|nissan|volvo|skoda|peugeot|renault|subaru|mazda|jeep|citroen|citroën|"
        "porsche|lexus|polestar|rivian|chevy|chevrolet"
    ),
    "airline": (
        "easyjet|ryanair|british airways|virgin atlantic|lufthansa|klm|air france|emirates|"
        "qatar airways|american airlines|Southwest|jetblue|wizz air|iberia|aer lingus|"
        "qantas|air canada|westjet|turkish airlines|singapore airlines|alaska airlines|"
        "vueling|eurowings|finnair|SAS|TAP Air|Delta|Virgin"
    ),
    "supermarket": (
        "tesco|sainsbury|asda|aldi|lidl|waitrose|morrisons|ocado|whole foods|trader joe|"
        "walmart|costco|kroger|safeway|carrefour|rewe|edeka|albert heijn|mercadona|loblaws|"
        "Co-op|M&S"
    ),
    "bank": (
        "monzo|barclays|hsbc|lloyds|natwest|santander|revolut|starling|wells fargo|"
        "nationwide|halifax|n26|bank of america|citibank|ING"
    ),
    "streaming service": (
        "netflix|spotify|apple music|hulu|disney+|prime video|youtube music|Tidal|deezer|"
        "hbo max|paramount+|soundcloud|audible"
    ),
    "browser": "chrome|firefox|Safari|brave|vivaldi|Edge",
    "mobile network": "vodafone|verizon|at&t|t-mobile|giffgaff|o2|EE",
    "chat at work": "slack|microsoft teams|Teams|discord|mattermost|rocket.chat|google chat",
    "notes app": "evernote|obsidian|notion|onenote|apple notes|logseq|roam research|joplin",
    "games console": "playstation|ps4|ps5|xbox|steam deck|nintendo",
    "cloud": (
        "aws|amazon web services|azure|gcp|google cloud|digitalocean|heroku|vercel|netlify|"
        "cloudflare|linode|hetzner|oracle cloud|fly.io"
    ),
    "password manager": "lastpass|1password|bitwarden|dashlane|keepass|keepassxc|proton pass",
    "keyboard layout": "qwerty|azerty|qwertz|dvorak|colemak|workman layout",
    "email": "gmail|outlook|proton mail|protonmail|fastmail|icloud mail|yahoo mail",
    "cloud storage": "dropbox|google drive|onedrive|icloud drive|pcloud|sync.com",
    "e-reader": "kindle|kobo|nook|remarkable|boox|pocketbook",
    "smartwatch": "apple watch|garmin|fitbit|galaxy watch|pixel watch|whoop|oura ring",
    "motorbike": "vespa|yamaha|kawasaki|ducati|harley|harley-davidson|Triumph|ktm|royal enfield",
}


@functools.cache
def _pattern() -> re.Pattern[str]:
    # One alternation of every name, the longest first so that "linux mint" wins over
    # "linux"; a name listed capitalised must be typed so.
    names = sorted((n for ns in _TYPES.values() for n in ns.split("|")), key=len, reverse=True)
    parts = [(re.escape(n) if n[:1].isupper() else "(?i:" + re.escape(n) + ")") for n in names]
    # (a possessive, or its "s" typed without the apostrophe: "Sainsburys")
    return re.compile(r"(?<![\w+#-])(" + "|".join(parts) + r")(?:['’]?s)?(?![\w+#]|-\w)")


@functools.cache
def _type_of() -> dict[str, str]:
    return {n.casefold(): kind for kind, ns in _TYPES.items() for n in ns.split("|")}


def named_things(text: str) -> dict[str, frozenset[str]]:
    """The types of the things a text names, each with the names found ("I moved to Neovim":
    editor: {neovim})."""
    return dict(_named(text))


@functools.lru_cache(maxsize=65536)
def _named(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    # (cached: every stored fact is read again for each message that names such a thing,
    # and a store of tens of thousands of facts must not be read by the pattern each time)
    found: dict[str, set[str]] = {}
    type_of = _type_of()
    for match in _pattern().finditer(text):
        plural = match.group().endswith("s") and not match.group(1).endswith("s")
        if plural and not match.group(1)[:1].isupper():
            continue  # "dead pixels": a plural, no name; "Sainsburys" is a name
        name = match.group(1).casefold()
        found.setdefault(type_of[name], set()).add(name)
    return tuple((kind, frozenset(names)) for kind, names in found.items())


def replaced_by(stored: str, said: str) -> bool:
    """Whether a statement names another thing of a type the stored one names, and not the
    stored thing itself: "I'm with Sainsbury's now" of "I work at Tesco"."""
    new = named_things(said)
    if not new:
        return False
    old = named_things(stored)
    where_held, where_said = _settings(stored), _settings(said)
    if where_held and where_said and not where_held & where_said:
        return False  # "Linux at home", then "Windows at work": both hold
    return any(kind in old and not (old[kind] & names) for kind, names in new.items())


# Where a thing is used: one at home and another at work are two things, not a change.
_SETTING = re.compile(
    r"\b(?:at|for|from) (home|work|school|uni|the office)\b|"
    r"\b(work|personal|home) (?:laptop|phone|pc|computer|machine)\b",
    re.I,
)


def _settings(text: str) -> set[str]:
    found = {(m[1] or m[2]).casefold() for m in _SETTING.finditer(text)}
    return {"work" if w == "the office" else w for w in found}


# A change said of a thing one keeps one of: a word of change, or of a new one got (not
# "lately", which tells more of something: "Also I do a lot of Rust lately").
_TOLD_AS_CHANGE = re.compile(
    rf"{CHANGE.pattern}|"
    r"\b(?:switched|moved|changed|went over|gone over|migrated|upgraded|now|instead|new|"
    r"finally|got|bought|go-to|treated myself|picked up|back to)\b",
    re.IGNORECASE,
)
# One more of its type, not a replacement: "I'm learning Rust now", "also on Firefox".
_ONE_MORE = re.compile(
    r"\b(?:also|too|as well|another|second|both|plus|learn\w*|trying|tried|picking up|"
    r"dabbl\w*|exploring|side project|for fun|a lot of)\b",
    re.IGNORECASE,
)


# A thing that does something is told of, not taken up ("Chrome has a new update now"),
# unless it is said to be the user's ("Ryanair is my go-to now").
_THING_ACTS = re.compile(r"\s+(?!(?:is|are|was|now|it|all|only|for|and|or)\b)[a-z]+\b")
# Once, not for good: "Booked a Ryanair flight for the stag do now".
_ONCE = re.compile(
    rf"{MOMENT.pattern}|\b(?:booked|booking|this (?:time|week|weekend|month|trip)|"
    r"for the (?:\w+ )?(?:trip|stag|hen|holiday|flight)|just for|"
    # a thing had for a while, not owned: "a Jeep rental for the Moab trip"
    r"rental|rented|hire car|loaner|borrowed|borrowing|on loan)\b",
    re.IGNORECASE,
)


def told_as_a_change(said: str) -> bool:
    """Whether a statement says the thing it names is the user's new one, not one more of
    its type, nor someone else's ("my wife got an iPhone now"), nor once ("booked a
    Ryanair flight for the stag do")."""
    if _ONCE.search(said) or _ONE_MORE.search(said) or ONES_OF_MINE.search(said):
        return False
    said = said.lstrip(" \"'“")
    opening = _pattern().match(said)
    if opening is not None and _THING_ACTS.match(said, opening.end()):
        return False
    return _TOLD_AS_CHANGE.search(said) is not None

"""What "I'm X" says, in English: a diet, a health fact, a job, an age, a name...

One classifier serves every place a bare predicate appears: "I'm vegetarian", "Being
diabetic, ...", "As a nurse, ...", "I'm not vegan anymore". It looks at the head of the
predicate only, so "I'm thinking of going vegan" is not a diet.
"""

from __future__ import annotations

import re

from .grammar import FLAGS, NAME, compile_words, tidy
from .vocab_en import (
    CONDITION_PHRASES,
    DIET_WORDS,
    HEALTH_ADJECTIVES,
    HOBBYISTS,
    JOB_HEADS,
    NATIONALITIES,
)

Found = list[tuple[str, str]]  # (slot, value)

_ARTICLE = re.compile(r"^(?:an?|the)\s+", FLAGS)
_DEGREE = re.compile(
    r"^(?:(?:very|quite|pretty|really|strictly|strict|mostly|fully|totally|completely|"
    r"a\s+strict|severely|now|currently|actually|also|still|officially|basically|"
    r"kind\s+of|sort\s+of|full-time|part-time|newly|recently)\s+)+",
    FLAGS,
)
_DIET = re.compile(rf"(?P<d>{compile_words(DIET_WORDS)})(?:\s+diet)?$", FLAGS)
_HEALTH = re.compile(
    rf"(?P<h>{compile_words(HEALTH_ADJECTIVES)})(?P<more>\s+(?:with|since|for)\s+.+)?$", FLAGS
)
_CONDITION = re.compile(rf"(?P<c>{compile_words(CONDITION_PHRASES)})$", FLAGS)
_HOBBYIST = re.compile(rf"(?:[\w-]+\s+){{0,2}}{compile_words(HOBBYISTS)}$", FLAGS)
_ALLERGIC = re.compile(
    r"(?:allergic|hypersensitive)\s+to\s+(?P<v>.+)|(?P<w>[\w\s-]+?)\s+(?:allergy|intolerance)$",
    FLAGS,
)
_INTOLERANT = re.compile(r"(?:(?P<a>[\w-]+)[- ]intolerant|intolerant\s+to\s+(?P<b>.+))$", FLAGS)
_NATION = re.compile(rf"(?P<n>{compile_words(NATIONALITIES)})$", FLAGS)
_AGE = re.compile(r"(?P<a>\d{1,3})(?:\s*(?:years?\s+old|yrs?(?:\s+old)?|y/?o))?$", FLAGS)
_FAN = re.compile(
    r"(?:(?:an?\s+)?(?:big|huge|massive|great|die-hard|lifelong|keen|avid|passionate|"
    r"enthusiastic|devoted|serious|total)\s+)+(?P<v>.+(?:er|or|ist|ie|ian|fan|lover|"
    r"enthusiast|buff|nerd|geek|junkie|addict|supporter|head|aholic))$|"
    r"(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\s+(?P<w>.+)$|(?P<x>.+?)\s+fan$|"
    r"(?:really\s+)?(?:into|passionate\s+about|obsessed\s+with|crazy\s+about)\s+(?P<y>.+)$",
    FLAGS,
)
_JOB_PREP = re.compile(r"\s+(?P<prep>at|for|in|with|on)\s+(?P<org>.+)$", FLAGS)
_JOB_HEAD = re.compile(rf"(?:[\w&'-]+\s+){{0,3}}{compile_words(JOB_HEADS)}s?$", FLAGS)
_RETIRED = re.compile(r"(?P<v>retired|unemployed|self-employed|between jobs|a freelancer)$", FLAGS)
_STATUS = re.compile(
    r"(?P<v>married|single|divorced|widowed|engaged|separated|in a relationship)$", FLAGS
)
_PARENT = re.compile(
    r"(?P<v>(?:a\s+)?(?:single\s+)?(?:mum|mom|mother|dad|father|parent|grandmother|grandfather|"
    r"grandparent|grandma|grandpa)\s+(?:of|to)\s+[\w -]+)$",
    FLAGS,
)
_NAME = re.compile(rf"(?P<n>{NAME})$")
_NOT_NAMES = frozenset(
    [
        "ok",
        "okay",
        "sorry",
        "fine",
        "good",
        "great",
        "back",
        "here",
        "done",
        "ready",
        "new",
        "not",
        "in",
        "out",
        "home",
        "free",
        "busy",
        "sure",
        "afraid",
        "glad",
        "happy",
        "tired",
    ]
)


def job_parts(phrase: str) -> Found:
    """ "a software engineer at a fintech startup" -> job + workplace, or [] when the head
    noun is not a job."""
    phrase = _ARTICLE.sub("", tidy(phrase))
    where = _JOB_PREP.search(phrase)
    job = phrase[: where.start()] if where else phrase
    job = _DEGREE.sub("", job)
    job = _ARTICLE.sub("", job)
    if not _JOB_HEAD.fullmatch(job):
        return []
    found: Found = [("job", job)]
    if where and len(where.group("org").split()) <= 6:
        found.append(("workplace", f"{where.group('prep').lower()} {where.group('org')}"))
    return found


def classify(predicate: str, *, allow_name: bool = False) -> Found:
    """The (slot, value) pairs a bare predicate states about the speaker."""
    pred = _DEGREE.sub("", tidy(predicate))
    bare = _DEGREE.sub("", _ARTICLE.sub("", pred))
    if m := _DIET.fullmatch(bare):
        return [("diet", m.group("d"))]
    if m := _HEALTH.fullmatch(pred) or _HEALTH.fullmatch(bare):
        return [("health", m.group("h") + (m.group("more") or ""))]
    if m := _CONDITION.fullmatch(bare):
        return [("health", m.group("c"))]
    if m := _ALLERGIC.fullmatch(bare):
        return [("allergies", m.group("v") or m.group("w"))]
    if m := _INTOLERANT.fullmatch(bare):
        return [("allergies", f"{m.group('a')} (intolerant)" if m.group("a") else m.group("b"))]
    if m := _AGE.fullmatch(bare):
        age = int(m.group("a"))
        return [("age", str(age))] if 3 <= age <= 120 else []
    if m := _RETIRED.fullmatch(bare):
        return [("job", m.group("v"))]
    if m := _STATUS.fullmatch(bare):
        return [("relationship", m.group("v"))]
    if m := _PARENT.fullmatch(pred):
        return [("family", _ARTICLE.sub("", m.group("v")))]
    if m := _FAN.fullmatch(pred):
        value = next(g for g in m.groups() if g)
        return [("likes", _ARTICLE.sub("", pred) if m.group("v") else value)]
    if found := job_parts(pred):
        return found
    if _HOBBYIST.fullmatch(bare):
        return [("likes", bare)]
    if m := _NATION.fullmatch(bare):
        return [("nationality", m.group("n"))]
    m = _NAME.fullmatch(predicate.strip()) if allow_name else None
    if m and m.group("n").casefold() not in _NOT_NAMES:
        return [("name", m.group("n"))]
    return []

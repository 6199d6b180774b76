"""Updates and corrections, for the statement reader (`statements.py`, `reading_fixes.py`):
how things are now against how they were, what ended, what was said wrong and the value it
replaces. Patterns only, as in `clause_patterns`; the reader decides.
"""

from __future__ import annotations

import re

from .time_patterns import LEFT_BEHIND

# A statement of how things are now, against how they were: it replaces the newest
# statement about the same thing.
SWITCH = re.compile(
    r"\b(?:switched|moved|changed|converted|transferred|went over|migrated|upgraded|"
    r"now|these days|nowadays|lately|instead|anymore|any more|no longer|update|"
    r"jetzt|inzwischen|maintenant|désormais|ahora|ya no|adesso|agora|nu)\b",
    re.IGNORECASE,
)
# A change said outright: what it replaces need not be named.
CHANGE = re.compile(
    r"\b(?:switched|moved (?:(?:everything|it all|things|it|them) )?(?:over |across )?to"
    r"(?!\s+(?:\d|next\b|tomorrow\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b))|"
    r"changed|converted|transferred|instead|no longer|"
    r"upgraded|swapped|replaced|these days|nowadays|(?:i'm|i am|we're|we are|it's) now|as of|"
    r"(?<=\s)now(?=[.!]?$)|"
    r"anymore|any more|not so much|update:|gewechselt|umgezogen|changé|déménagé|cambié|"
    r"me mudé|trasferit\w*|mudei)\b",
    re.IGNORECASE,
)
# A change told by its verb ("switched to", "moved over to", "instead"), not by a word of
# time alone ("now", "these days"): only such a change may stand for a fact of another kind
# ("I moved over to marketing" replaces "I'm in sales" though marketing is no known kind;
# "I'm learning Spanish now" replaces nothing it does not name).
CHANGED_OUTRIGHT = re.compile(
    r"\b(?:switched|moved (?:(?:everything|it all|things|it|them) )?(?:over |across )?to"
    r"(?!\s+(?:\d|next\b|tomorrow\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b))|"
    r"changed|converted|transferred|instead|no longer|upgraded|swapped|replaced|update:|"
    r"gewechselt|umgezogen|changé|déménagé|cambié|me mudé|trasferit\w*|mudei)\b",
    re.IGNORECASE,
)
# Clauses whose verb ends or reverses something: they retire, they do not add.
ENDING = re.compile(
    r"(?<!\bmy )(?<!\bthe )(?<!\bour )(?<!\bher )(?<!\bhis )(?<!\byour )"
    r"(?<!\bnever )(?<!\bnot )(?<!n't )"  # "never left": what did not end
    # "left my laptop at the office": a thing left behind somewhere, not an ending
    r"\b(?:(?!" + LEFT_BEHIND + r")left|"
    r"quit|stopped|gave up|given up|dropped|cancell?ed|sold|died|ended(?! up)|laid off|"
    r"(?:got|was|been|were) (?:stolen|written off|totall?ed|wrecked|scrapped)|"
    r"made redundant|let go from|fired from|sacked from|"
    r"finished with|moved (?:away|out|on)(?! (?:to|into)\b)|"  # "moved out to Aix": a move
    r"(?:migrated|moved|switched) (?:off|away from)|"
    r"(?:moved|switched|changed|went|transferred|migrated|upgraded|converted|jumped)"
    r"(?: \w+)? from(?= .{1,40}? to )|"
    r"(?:is|are|was|'s) (?:over|done|gone|finished|uninstalled|history|old news|behind me)|"
    r"done with|"
    r"(?:is|are|was|'s) (?:off|called off)(?=\s*(?:[,.;!]|$))|called off|"
    r"got rid of|ditched|broke up|wrong|misspoke|typo|mistake|scratch|disregard|"
    r"gone off|went off|lost interest in|grown out of|outgrew|outgrown|got over|recovered from|"
    r"fell out of love with|"
    r"(?:i'm|im|i am) (?:so )?over|traded|"
    # one thing given for another: "swapped climbing for squash"
    r"(?:swapped|exchanged)(?= .{1,40}? (?:for|with) )|"
    r"changed my mind|not so much|kidding|joking|(?<!nothing )beats|"
    r"nicht mehr|aufgehört|verlassen|gekündigt|quitté|arrêté|ya no|dejé|equivoqué|"
    r"non più|não mais|saí|foutje|niet meer)\b(?!-)",  # "left-handed" ended nothing
    re.IGNORECASE,
)
# "Leiden, not Leipzig", "aspirin, not ibuprofen", "rather than X": the contrast names the
# value being corrected.
# A word's letters told: "with a ph", "with an h", "one L", "double n", "two Ls" ("a" and
# "i" are words as well as letters, and are not read as letters).
LETTERS_TOLD = (
    r"(?:with\s+(?:an?|one|two|a\s+double|a\s+silent|a\s+capital|double)|one|two|double|"
    r"single)\s+['\"‘“]?(?:[b-hj-zB-HJ-Z]|ph|th|ch|sh|gh|ck)(?:['’]?s)?['\"’”]?(?=[\s,.!;:]|$)"
)
# Says a value was spelt or given wrong: the correction holds even beside other words.
SPELT = re.compile(
    r"\b(?:typo|misspel\w*|spelled|spelt|mistyped|autocorrect|" + LETTERS_TOLD + r")", re.I
)
RESPELT = re.compile(
    r"\b(?:i meant|typo|misspel\w*|spelled|spelt|correction|mistyped|autocorrect|"
    + LETTERS_TOLD
    + r")",
    re.I,
)
NOT_X = re.compile(
    r"(?:,\s*(?:and\s+|but\s+)?(?:not|nicht|pas|no|non|não|niet)|\s+(?:rather than|instead of|"
    r"statt|au lieu de|en vez de|en lugar de))\s+(?:in\s+|at\s+|the\s+|en\s+|à\s+|a\s+|"
    r"in\s+)?(?P<old>(?!(?:a|an|really|so|sure|very|too|that|yet|only|just|bad|quite|much|"
    r"fan|into|keen)\b)(?:[^,.;:!?\s]{2,}|\d)(?:\s+[^,.;:!?\s]+){0,3})\s*(?=[,.;:!?]|$)",
    re.IGNORECASE,
)
# The same contrast said first ("Not penicillin, it's amoxicillin I react to"), or in a
# sentence of its own after the value ("Sorry, Australia! Not Austria.").
NOT_FIRST = re.compile(
    r"(?:no,?\s+)?not\s+(?P<old>[^,;:]{2,40}?),\s*(?P<new>[^.;!?]{2,60})", re.IGNORECASE
)
NOT_AFTER = re.compile(
    r"(?P<new>[^.!?]{2,60})[.!]\s+not\s+(?P<old>[^.!?,]{2,40})[.!]?", re.IGNORECASE
)
# No longer so: a statement of how things are now that also retires what it negates.
NO_LONGER = re.compile(
    r"\b(?:anymore|any more|no longer|not now|nicht mehr|ne \w+ plus|ya no|non più|não mais|já não|"
    r"niet meer)\b",
    re.IGNORECASE,
)
# A reply that says only that what was said before holds no more ("Not anymore.", "Not so
# much these days", "Nicht mehr."): degree and time words around a negation of continuance.
LAPSED = re.compile(
    r"(?:(?:nope|no|nah|well|actually|honestly|sadly|ehh?|hmm|um|ok(?:ay)?|haha|lol|"
    r"that's|that is|it's|it is|isn't|not|so|much|really|true|the case|at all|for me|"
    r"any ?more|no longer|now|these days|nowadays|lately|since then|just|kidding|joking|jk|"
    r"nicht|mehr|nein|plus|ce n'est|c'est|le cas|non|ya|ahora|no es|así)[\s,.!;:…]*)+",
    re.IGNORECASE,
)
LAPSE_SAID = re.compile(
    r"\b(?:any ?more|no longer|not so much|not really (?:now|these days)|kidding|joking|jk|"
    r"nicht mehr|"
    r"plus maintenant|n'est plus|ya no)\b",
    re.IGNORECASE,
)
# Says that something said earlier was wrong: the new value replaces the most similar word
# of the newest fact.
CORRECTION = re.compile(
    r"\b(?:typo|misspo?ke|mistake|mistyped|misspelled|misspelt|spelled that wrong|"
    r"spelt that wrong|correction|i meant|sorry|autocorrect|wrong|scratch that|oops|whoops|"
    r"my bad|it'?s actually|actually,? it'?s|i lied|i fibbed|"
    # "Actually she's 8, …": a reply that opens by saying what a number really is
    r"(?<=^)actually,? (?:he|she|it|they)(?:'s| is)(?= \d[^?]*$)|"
    r"(?:let me |to )?correct (?:that|myself|this)|"
    r"(?<=^)[\w'-]+(?: [\w'-]+)?,? (?:actually|technically)\b|"
    r"tippfehler|korrektur|erreur|pardon|perdón|error(?!\s*:)|sbagliato|errado|foutje|"
    # the README's other languages: the autocorrect, a mistake owned, an apology
    r"autokorrektur|autocorrector|correcteur|vertippt|vertan|verschrieben|"
    r"me equivoqu[ée]|me confund[íi]|je me suis tromp[ée]e?|perdona|disculpa|disculpe)\b|"
    + r"\b"
    + LETTERS_TOLD,
    re.IGNORECASE,
)
# The assistant's reply said to be wrong: "you got it wrong", "a correction to your answer".
ANSWER_CORRECTED = re.compile(
    r"\byou(?:'ve| have)? got (?:it|that|this) wrong\b|\byou(?:'re| are) wrong\b|"
    r"\b(?:correction|fix) (?:to|for|on) your (?:answer|reply|response|last)\b|"
    r"\byour (?:answer|reply|response) (?:is|was) (?:wrong|incorrect|off)\b|"
    r"\bthat(?:'s| is) (?:not right|incorrect)\b",
    re.IGNORECASE,
)
# A named one's life, or life with the user, ended.
LIFE_ENDED = re.compile(
    r"\b(?P<who>(?-i:[A-Z])[\w'-]+(?<!(?-i:The))(?<!(?-i:My))(?<!(?-i:Our))|(?:the|my|our)\s+[\w'-]+|"
    # "mittens passed away": typed in lower case, a name is the sentence's first word; a
    # pronoun there names no one said before.
    r"(?:^|(?<=[.!?]\s))(?!(?:i|he|she|it|they|we|you|who|that|this|someone|somebody|"
    r"everyone|everybody|nobody|he's|she's|it's|they've|we've)\b)[^\W\d_][\w'-]+)"
    r"(?:\s+and\s+(?:I|me))?\s+(?:(?:has|have|had|just|sadly)\s+)*"
    r"(?:died|passed away|passed on|split up|broke up|divorced|got divorced|was put down|"
    r"was put to sleep|(?:is|isn't|is not|is no longer) with us|"
    # "Luna ist leider gestorben", "Rex est hélas mort": words may stand between.
    r"ist (?:\w+\s+){0,3}gestorben|est (?:\w+\s+){0,2}morte?|murió|se murió|ha muerto)\b",
    re.IGNORECASE,
)
# A named one lost, as people say of a death: "We lost Whiskers in the spring".
LOST_ONE = re.compile(
    r"\b(?i:we|i)\s+(?i:sadly\s+|just\s+|recently\s+)?(?i:lost)\s+(?P<who>[A-Z][\w'-]+)"
    r"(?=\s+(?i:in|last|this|on|to|after|before|recently|earlier|a|two|three|over)\b|\s*[,.;!]|$)"
)
# Of the cues of `CORRECTION`, those that can only mean an earlier statement was wrong ("sorry"
# and "wrong" also apologise, or judge something else).
RETRACTED_AS_WRONG = re.compile(
    r"\b(?:typo|misspo?ke|mistake|mistyped|correction|i meant|scratch that|tippfehler|"
    r"correct (?:that|myself|this)|"
    r"it'?s actually|actually,? it'?s|(?<=^)[\w'-]+(?: [\w'-]+)?,? (?:actually|technically)\b|"
    r"korrektur|erreur|me equivoqué|foutje|autokorrektur|autocorrector|correcteur|vertippt|"
    r"vertan|verschrieben|je me suis tromp[ée]e?|me confund[íi])\b",
    re.IGNORECASE,
)
# What was just said, taken back: "ignore that", "disregard what I said".
THAT_UNSAID = re.compile(
    r"\b(?:ignore|disregard|forget|scratch|strike)\s+"
    r"(?:that|this|it|what i (?:said|wrote|typed)|"
    r"my (?:earlier|previous|last|first) (?:statement|message|comment|answer|reply))\b",
    re.IGNORECASE,
)
# What a clause says no longer holds: "not a barista any more", "no more bus for me".
NO_MORE = re.compile(
    r"\b(?:no (?:more|longer) (?:at |with |in |an? |the )?|not (?:an? |the )?)"
    r"(?P<old>(?!(?:so|really|very|too|quite|much|that|any|anymore|now|true|sure)\b)"
    r"[\w'-]+(?: [\w'-]+)?)"
    r"(?= (?:any ?more|for me|now|these days)\b|\s*[,.;!]|$)",
    re.IGNORECASE,
)
# Giving one thing for another: the first goes, the second is what holds now.
EXCHANGE = re.compile(
    r"\b(?:traded|swapped|exchanged|replaced|switched)\s+(?P<given>(?:(?:my|the|our|a|an)\s+)?"
    r"(?P<old>[\w' -]+?))\s+(?:in\s+)?(?:for|with|to)\s+\S"
    # "moved from Barclays to HSBC": from the old one to the new.
    r"|\b(?:moved|switched|changed|went|transferred|migrated|upgraded|converted|jumped)"
    r"(?:\s+\w+)?\s+(?P<given_from>from\s+(?:(?:my|the|our|a|an)\s+)?(?P<old_from>[\w' -]+?))"
    r"\s+to\s+\S",
    re.IGNORECASE,
)

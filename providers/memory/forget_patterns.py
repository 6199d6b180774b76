"""The shapes of a request to forget (`forget_request.py`): what is to leave the memory, what
is to be kept, "the rest" and "everything". Patterns only, as in `clause_patterns`.
"""

from __future__ import annotations

import re

_DE_INFINITIVE = r"(?:vergessen|löschen|entfernen|streichen)"
# "take Pip off the list", "keep my kid's details out of this": the memory is the place.
FORGET_AROUND = re.compile(
    r"\b(?:take|leave|keep|cross)\s+(?P<target>.{1,50}?)\s+(?:off (?:the|your|my) "
    r"(?:list|memory|notes|file)|out of (?:this|it|your memory|memory|my file|your notes|"
    r"there)|out)(?:,?\s*please)?\s*[.!]?$"
    # Whatever the verb, what is to leave the memory: "scratch where I live from your memory".
    # A verb of fetching from the memory ("pull my address from your notes") is no removal.
    r"|^(?:please\s+|can you\s+|could you\s+)?(?!(?:please|can|could|get|got|pull|fetch|"
    r"retrieve|recall|grab|use|read|look|check|find|found|learn|know|copy|quote|take|bring|"
    r"tell)\w*\b)"
    r"(?![\w'’]*(?:ed|ing)\b)\w+\s+(?P<from>.{1,60}?)\s+(?:from|out of|off)\s+"
    r"(?:your|the|ctxchat's)\s+(?:memory|memories|notes|records?|files?)\b"
    # "You can let the chess thing go": the thing let go of sits between the verb's parts.
    r"|\blet\s+(?P<let>(?:the|my|that|those|these)\b.{1,40}?)\s+go(?:,?\s*please)?\s*[.!]?$"
    # Asked with a modal, a German request puts its verb last: "Kannst du das mit meinem Hund
    # vergessen?", or before a clause naming the thing: "Könntest du vergessen, wo ich wohne?"
    r"|^(?:bitte\s+)?(?:(?:kannst|könntest|würdest|magst)\s+du|(?:können|könnten|würden)\s+"
    r"sie)\s+(?:bitte\s+|mal\s+)*(?:(?P<last>.+?)\s+(?:bitte\s+)?"
    + _DE_INFINITIVE
    + r"|"
    + _DE_INFINITIVE
    + r"\s*,\s*(?P<after>.+?))\s*[?.!]*$"
    # A German "don't keep" holds the thing between the verb and its "nicht": "Merk dir meine
    # Adresse nicht", "Du musst dir meine Krankheit nicht merken".
    r"|\b(?:merk|merke|speicher|speichere|behalte)\s+(?:dir\s+)?(?:bitte\s+)?(?P<unkept>.{1,50}?)"
    r"\s+(?:bitte\s+)?nicht\b|\b(?:musst|brauchst|sollst)\s+(?:dir\s+)?(?:(?P<unneeded>.{1,50}?)\s+)?"
    r"nicht\s+(?:zu\s+)?(?:merken|speichern|behalten|wissen)\b(?:\s*,\s*(?P<which>[^.!?]+))?"
    # The thing put first, as German may: "Das mit der Arbeit kannst du vergessen", "Meinen
    # Job brauchst du dir nicht zu merken".
    r"|^(?P<fronted>[^,]{1,50}?)\s+(?:kannst|könntest|darfst|sollst)\s+du\s+"
    r"(?:(?:bitte|ruhig|gerne?|auch|jetzt|einfach|mal)\s+)*" + _DE_INFINITIVE + r"\s*[?.!]*$"
    r"|^(?P<unneeded_first>[^,]{1,50}?)\s+(?:musst|brauchst|sollst)\s+du\s+(?:dir\s+)?"
    r"(?:(?:auch|wirklich|echt)\s+)*nicht\s+(?:zu\s+)?(?:merken|speichern|behalten|wissen)\b",
    re.IGNORECASE,
)
THE_REST = re.compile(
    r"(?:the rest|everything else|all (?:the )?(?:rest|others?|else)|the others?|anything "
    r"else|all other \w+)\b",
    re.IGNORECASE,
)
ONLY_KEEP = re.compile(
    r"(?:please\s+)?(?:only keep|keep only|just keep|keep just|remember only|only remember)\s+"
    r"(?P<what>[^;,.!]+?)(?:[,;]?\s*(?:and\s+)?(?:nothing else|(?:forget|drop|lose|delete) "
    r"(?:the rest|everything else)))?\s*[.!]?",
    re.IGNORECASE,
)
KEEP = re.compile(r"\b(?:keep|behalte|garde|guarda|mantén)\s+(?P<what>[^;,.!]+)", re.I)
EVERYTHING = re.compile(
    r"^(?:(?:out|away|off)\s+)?(?:everything|all|anything)\b.{0,30}\b(?:about me|on me|"
    r"you know|you've (?:saved|stored|learnt|learned|got)|you have)|"
    r"^(?:everything|all of it|it all)$"
    # "Forget me completely": the user, whole.
    r"|^me(?:\s+(?:completely|entirely|altogether|totally))?$"
    # "Vergiss alles über mich", "Oublie tout ce que tu sais sur moi", "Olvida todo".
    r"|^(?:alles|tout|todo)(?:,?\s+(?:was du|ce que tu|ce que vous|lo que)\s+(?:\w+\s+)?"
    r"(?:weißt|sais|savez|sabes|sabe))?(?:\s+(?:über mich|sur moi|de moi|de mí|sobre mí))?$",
    re.IGNORECASE,
)
FORGET_TARGET_TRIM = re.compile(
    # The particle of a phrasal verb ("clear out", "wipe away") is no part of the target.
    r"^(?:out|away|off|that|about|the fact that|the|my|me|everything|anything|all|of|stuff|"
    r"thing|what|you know|you've|you have|saved|stored|said|i said|i told you|"
    r"that i|dass|que|de|du|des|la|le|les|lo)\b\s*",
    re.IGNORECASE,
)
# What a request names inside itself: "I don't want my religion on record".
NAMED_INSIDE = re.compile(
    r"\b(?:my|the|that|those|any)\s+[\w' -]{1,30}?(?=\s+(?:saved|stored|kept|remembered|"
    r"removed|deleted|erased|wiped|forgotten|gone|taken out|on record|on file|in (?:your )?"
    r"memory)\b)",
    re.IGNORECASE,
)
# "what I told you about X": X is what it names.
WHAT_I_SAID = re.compile(
    r"^\s*(?:what|everything|anything|all)\s+(?:i|i've)\s+(?:told you|said|mentioned|shared)\s+"
    r"(?:about|regarding|on)\s+(?=\S)",
    re.IGNORECASE,
)
# An act of keeping, in any of its forms, for a request with no verb of forgetting
# ("No more saving my name"), and a "no" to it.
_KEEPING_WORD = (
    r"sav(?:e|es|ed|ing)|stor(?:e|es|ed|ing|age)|keep(?:s|ing)?|kept|record(?:s|ed|ing)?|"
    r"unrecorded|notes?|noted|fil(?:e|ed)|memory|memori[sz]e|remember(?:ed|ing)?|"
    r"log(?:ged|ging)?|track(?:ed|ing)?(?! of\b)|knowing"  # (not "losing track of")
)
# "keep going", "keep up", "keep busy": keeping on, not keeping a record.
KEEPING = re.compile(
    rf"\b(?:{_KEEPING_WORD})\b(?!\s+(?:\w+ing|up|on|at|in touch|it up|calm|fit|busy|warm|safe)\b)",
    re.IGNORECASE,
)
NOT_KEPT = re.compile(
    r"\b(?:no|not|never|nothing|none|no more|skip|off|private|to myself|out of|without|"
    r"rather not|unnecessary)\b|n't\b|\bun\w+ed\b",
    re.IGNORECASE,
)
# The user as the keeper: "I keep my job private from my family".
I_KEEP = re.compile(rf"\b(?:i|we)\b(?:\s+[\w'’]+){{0,2}}?\s+(?:{_KEEPING_WORD})\b", re.IGNORECASE)
# A thing of the user's that a request is about.
TOPIC = re.compile(
    r"\b(?:my|our)\s+[\w'’-]+(?:\s+(?:stuff|info|details|thing|bits?|data))?|"
    r"\bwhere (?:i|we) (?:live|work|am from|'m from|come from)\b|"
    r"\bthe\s+[\w'’-]+\s+(?:stuff|info|details|thing|bit)\b",
    re.IGNORECASE,
)
# "I don't remember my PIN": the user's own keeping, after "I" or "we".
OWN_KEEPING = re.compile(
    r"(?:don't|do not|didn't|did not|never|no longer)\s+(?:remember|keep|stor|sav|retain|track|"
    r"log|record|not|fil|hold|hang)",
    re.IGNORECASE,
)
# A thing of someone else's: "forget her address", "oublie son adresse", or of someone named,
# who may be the user's own ("drop Rolo's details").
OTHERS_THING = re.compile(
    r"^(?:about\s+|the\s+|that\s+)*(?:his|her|their|sein\w*|ihr\w*|son|sa|ses|leurs?|"
    r"(?P<name>(?-i:[A-Z])[\w-]+)['’]s)\b",
    re.IGNORECASE,
)
# "…; keep the name and the job": what is to stay, after what is to go.
KEEP_PART = re.compile(
    r"(?:(?:[;,]\s*)?\b(?:but\s+)?(?:keep|remember|hold on to|leave(?![^;]*\bout\b)|behalte|"
    r"garde|guarda|mantén)\b"
    # "forget my job, not my city": what the request is not about stays
    r"|(?:[;,]\s*(?:but\s+)?|\s+but\s+)not\s+(?=(?:my|our|the|where|what|how|about)\b))"
    r"(?P<what>[^;]*);?",
    re.I,
)

# "the medical info and my career plans": the parts of a request, each naming its own kind.
KIND_PARTS = re.compile(r"\s*(?:[,;&]|\band\b|\bor\b)\s*", re.IGNORECASE)

# "Forget everything except my name", "Vergiss alles außer meinem Wohnort".
EXCEPT = re.compile(
    r"(?:everything|all(?: of (?:that|it|this|them))?|it all|alles|tout|todo)\s+"
    r"(?:except|but|apart from|other than|besides|außer|bis auf|sauf|à part|excepté|menos|"
    r"excepto|salvo)\s+(?P<what>.+)",
    re.IGNORECASE,
)

# "Scrub that", "Oublie ça": what was just said, or a topic named before.
DEMONSTRATIVE = re.compile(
    r"(?:that|this|it|those|these|that one|this one|das|dies|ça|cela|ceci|eso|esto|ello)"
    r"(?:\s+(?:please|thanks|thank you|either|bitte|stp|svp|por favor))?",
    re.IGNORECASE,
)

# A negation just before the verb of forgetting ("Don't forget", "N'oublie pas", "No
# olvides") or, in German, French and Dutch, just after it ("Vergiss nicht").
PLEA_BEFORE = re.compile(
    r"(?:\b(?:don'?t|do not|never|won'?t|mustn'?t|no|nunca|jamás|non|não|nao)\s+(?:te\s+)?|"
    r"\bn['’]\s*|\bne\s+)$",
    re.IGNORECASE,
)

PLEA_AFTER = re.compile(r"\s*(?:nicht|nie|pas|jamais|niet|nooit)\b", re.IGNORECASE)

# The user as a statement's subject, with its verb: "I like", "I don't eat", "I'm",
# "I've got", "je suis", "ich habe", "soy".
STATEMENT = re.compile(
    r"(?:i|we)(?:['’](?:m|re|ve|d)\b(?:\s+got\b)?|\s+(?:am|are|was|were)\b|"
    r"\s+(?:(?:do|does|did)(?:n['’]t| not)|really|still|also|just|usually|never|always)\s+\w+|"
    r"\s+\w+)|je suis|j['’]ai|je \w+|ich (?:bin|habe|\w+)|soy|estoy|tengo",
    re.IGNORECASE,
)

# A pronoun's contraction ("I'm", "we've", "j'ai"): no word a fact is named by.
CONTRACTED = re.compile(r"(?:i|we|you|they|he|she|it|j|c)['’]\w{1,3}", re.IGNORECASE)

# A text as the place a thing is taken from: "remove the dog from the story", "in the essay,
# drop any mention of…" ask for an edit of that text, not of the memory.
_TEXT = (
    r"(?:paragraph|sentence|line|bullet|bullet point|section|intro|introduction|conclusion|"
    r"slide|page|chapter|draft|essay|story|poem|letter|email|e-mail|post|caption|script|"
    r"speech|article|summary|table|text|document|doc|report|cv|resume|bio|toast|"
    r"absatz|satz|abschnitt|text|paragraphe|phrase|texte|párrafo|frase|texto)s?"
)
OF_A_TEXT = re.compile(
    rf"\b(?:from|in|out of|off)\s+(?:the|this|that|my|your)\s+(?:\w+\s+)?{_TEXT}\b"
    # …or a part only a text has: "delete the second paragraph about my dog".
    r"|^the\s+(?:\w+\s+)?(?:paragraph|section|bullet(?: point)?|slide|chapter|intro|"
    r"introduction|conclusion|verse|stanza|heading|footnote)s?\b",
    re.I,
)
IN_A_TEXT = re.compile(rf"\b(?:in|from|for)\s+(?:the|this|that|my|your)\s+{_TEXT}\b", re.I)
# "everything you know about my family", "all you have on my health": a topic, all of it.
ALL_ABOUT = re.compile(
    r"^(?:everything|all|anything)(?: (?:you know|you have|you've got|you've saved|you've "
    r"stored|i've said|i said|i told you|i've told you))?\s+(?:about|on|regarding|concerning|"
    r"to do with|related to)\s+(?!me\b|myself\b)(?=\S)"
    r"|^(?:alles|tout|todo),?\s+(?:was du|ce que tu|ce que vous|lo que)\s+"
    r"(?:(?:sais|savez|sabes|sabe)\s+)?(?:über|sur|de|sobre|von)\s+(?!mich\b|moi\b|mí\b)(?=\S)",
    re.IGNORECASE,
)

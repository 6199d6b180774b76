"""The patterns the statement reader (`statements.py`) cuts a message into sentences and
clauses with, and reads their mood with: quotes and pasted text, hedges, requests and the
text a task works on, reactions, sarcasm and role-play, advice, how the user wants replies,
favourites. Each is a regular expression of general English (and, where noted, German,
French and Spanish) grammar and function words, never a sentence of a tuning set. Who a
clause is about is in `subject_patterns`, whether it lasts in `time_patterns`, updates and
corrections in `change_patterns`, forget requests in `forget_patterns`.
"""

from __future__ import annotations

import re

QUOTE = re.compile(
    r"""(?<![\w])'(?:[^'\n]|'(?=[^\W\d_]))+'(?![^\W\d_])|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]"""
)
# A sentence ends at . ! ? … or a line break, but not after a title or a common abbreviation.
SENTENCE = re.compile(
    # (an initial before a name is no end: "Ursula K. Le Guin")
    r"(?:(?:\b(?:dr|mr|mrs|ms|mx|prof|st|sr|jr|vs|etc|e\.g|i\.e|approx|no|mt|ft)\.)|"
    r"(?-i:\b(?!I\b)[A-Z]\.(?=\s+[A-Z][a-z]))|[.!?…](?=\S)|[^.!?…\n])+"
    r"(?:[.!?…]+(?=\s|$)|$)|[.!?…]+",
    re.IGNORECASE,
)
# A new clause: a comma, semicolon or dash, optionally a conjunction, then its own subject.
CLAUSE_BREAK = re.compile(
    r"\s*(?:;|\s[-–—]+\s|,\s*(?:(?:and|but|so|because|since|as|though|although|while|"
    r"und|aber|denn|et|mais|car|y|pero|porque|e|ma|perché|mas|en|maar)\s+)?(?=(?:i|i'm|im|i've|"
    r"i'd|my|we|we're|our|ich|mein|meine|je|j'|mon|ma|mes|yo|mi|mis|io|eu|ik|mijn)\b)"
    r"|:\s+(?=(?:i|i'm|my|we|our|ich|mein|meine|je|j'|mon|ma|yo|mi|vivo|soy|trabajo|sono|abito|"
    r"moro|sou|trabalho|ik|mijn|ze|he|she|his|her|they|il|elle|er|sie)\b)"
    # ("since I was a kid", with no comma, says when, and belongs to the clause before)
    r"|\s+(?:and|but|so|because|aber|mais|pero)\s+(?=(?:i|i'm|im|i've|my|we|our)\b)"
    r"(?!i\s+(?:are|were|both)\b)"
    # "I live in Perth and work as a geologist": the "I" of a second verb is left out (but
    # "I live and work in Paris" is one statement).
    r"|(?<!\blive)(?<!\bwork)(?:\s+and|,)\s+(?=(?:work|live|study|teach)\s+(?:\w+\s+){0,2}?"
    r"(?:as|at|in|for)\b)"
    # "Ich heiße Jonas und arbeite als Bäcker", "…y vivo en Quito", "…et j'ai un chat": the
    # other languages drop or elide the "I" after their "and".
    r"|\s+(?:und|et|y|e|en)\s+(?=(?:ich|mein|meine|je|j'|mon|ma|mes|yo|mi|mis|io|eu|ik|mijn|"
    r"arbeite|wohne|lebe|bin|habe|studiere|vivo|trabajo|soy|tengo|estudio|travaille|habite|"
    r"suis|lavoro|abito|sono|moro|trabalho|tenho|sou|woon|werk|ben|heb)\b))",
    re.IGNORECASE,
)
PASTE_INTRO = re.compile(
    r":\s*['\"“‘«]|\b(?:says?|said|reads?|wrote|writes|following|below|this|text|email|message|note|"
    r"paragraph|review|draft|letter|post|quote|lyrics?|poem|story|cv|resume|résumé|motto|"
    r"mantra|saying|proverb|words to live by)\s*:\s*\S",
    re.IGNORECASE,
)
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# A hedge or an aside before what is said: "I guess you could say", "heads up that".
HEDGE = re.compile(
    r"^(?:i guess (?:you could say )?|you could say |i'd say (?:that )?|i suppose |i think |"
    r"i mean,? |to be honest,? |heads up(?: that|:)? |fun fact:? |for context,? |"
    r"(?:(?:i\s+)?(?:probably|just|should|i'd better|thought i'd|wanted to|might as well)\s+)+"
    r"(?:mention|add|flag|note)(?: that)?:? |"
    r"(?:please |can you |could you )?(?:remember|note|keep in mind)(?: that)?:? |"
    # A plea not to forget a statement of the user's is that statement, told again.
    r"(?:don'?t|do not|never) forget(?: that)?,? (?=(?:i|i'm|im|i've|my|we|we're|our)\b)|"
    r"vergiss (?:bitte )?nicht,? (?:dass )?(?=(?:ich|mein\w*|wir|unser\w*)\b)|"
    r"n'oublie(?:z)? pas,? (?:que |qu')?(?=(?:je|j'|mon|ma|mes|nous)\b)|"
    r"no (?:te )?olvides,? (?:de )?que )",
    re.IGNORECASE,
)
# Verbs that ask for a piece of work, against those that say how to answer ("use", "keep",
# "cap"): an instruction given with a task verb is about that task unless it says it lasts.
TASK_VERB = re.compile(
    r"(?:explain|write|draft|summari[sz]e|translate|describe|compare|list|tell|give|show|make|"
    r"create|generate|find|fix|check|review|plan|suggest|recommend|calculate|convert|rewrite|"
    r"edit|proofread|outline|teach|brainstorm|analy[sz]e|help|walk me|go through|break down|"
    r"i need|i want|i'd like|i'm looking for|looking for|put together|compile|draw up|"
    r"come up with|work out|figure out|sort out|set up|pick|choose|pitch|propose|get me|"
    r"send me|bring me|fetch|grab me|"
    r"erkläre|schreib|übersetze|fasse|explique|écris|traduis|résume|explica|escribe|traduce|"
    r"resume)\b",
    re.IGNORECASE,
)
# An exclamation or a reaction: "Wow, what a moment!", "Those moments make me thankful".
REACTION = re.compile(
    r"^(?:wow|whoa|aww|omg|what an?|how|yay|congrats|congratulations|nice|cool|great|awesome|"
    r"amazing|lol|haha|sounds? (?:good|great|fine|perfect|lovely)|works for me|fine by me|"
    r"(?:so |really )?glad|"
    r"good to me)\b|\byou(?:'re| are)?\s+(?:\w+\s+)?(?:rock|amazing|awesome|the best|"
    r"inspiring|a star|a legend)\b|\bi (?:\w+ )?(?:admire|appreciate|respect|love|miss) "
    r"(?:what |how |that )?(?:you|your)\b"
    r"|^(?:love|loving|adore)\s+(?:that|the|this|these|those|all|your|how|it)\b"
    r"|\bi (?:\S+ )?agree\b|\bi (?:really )?appreciate (?:it|that|this)\b|\bthanks?\b|\bthank you\b"
    r"|\bi (?:do |must |really )?apologi[sz]e\b"  # "I apologise for any confusion"
    r"|\b(?:love|like|glad|happy|proud|impressed)\s+(?:that\s+)?(?:you|your)\b"
    r"|\b(?:makes?|made) me (?:feel |so |really )*(?:happy|thankful|"
    r"grateful|proud|glad|hopeful|relaxed|smile)|\bbrings? me (?:so much |such )?joy\b"
    # how a thing at hand looks: "…, it looks so cozy"
    r"|\b(?:it|that|this|they)(?:['’]s| is| are)?\s+(?:looks?|seems?)\s+(?:so |really |very )?"
    r"(?:cozy|cosy|lovely|beautiful|amazing|great|gorgeous|fun|nice|awesome|cool|peaceful)\b"
    # a suggestion judged: "Rock climbing sounds like a fun way to…"
    r"|\bsounds? like (?:a |an |such a )?(?:fun|great|good|nice|cool|amazing|lovely|"
    r"interesting|wonderful|blast)\b",
    re.IGNORECASE,
)
# An activity as the subject, judged: "seeing it was amazing", "sharing is important".
JUDGED_ACTIVITY = re.compile(
    r"^(?:\w+ing)\b[^,.!?]{0,80}\b(?:is|was|are|were|'s)\s+(?:\w+\s+)?(?:amazing|great|"
    r"the best|best|important|special|awesome|wonderful|beyond words|so \w+|super \w+|"
    r"really \w+|freeing|necessary|rewarding|fulfilling|a \w+)",
    re.IGNORECASE,
)
# A statement is about the replies when it names them or the user's wish for them.
STYLE_SAID = re.compile(
    # (a word that says it lasts says it is of the replies: "I'd like detailed explanations
    # with examples from here on")
    r"\b(?:you|your|u|ur|please|pls|only|for me|from now on|from here on|going forward|"
    r"moving forward|in future|in the future|for future|henceforth|instead|i'd rather|i prefer|"
    r"i'd take|works best|work best|i (?:like|want|need)(?! to\b)|suits? me|works? for me|"
    r"(?:your|the|my) (?:answers?(?!\s+(?:is|was|to)\b)|repl\w*|responses?|explanations?|"
    r"messages?|code|output)|"
    r"when (?:you|u) (?:explain|answer|reply|write|give))\b",
    re.IGNORECASE,
)
# Verbs that say how to answer; another verb with an object ("shorten the second paragraph")
# is work on a text.
STYLE_VERB = re.compile(
    r"(?:use|keep|cap|limit|put|avoid|stop|answer|reply|respond|be|write in|include|add|skip|"
    r"cite|format|stick to|give me|call|address|spell|show|drop|leave out|no)\b",
    re.IGNORECASE,
)
STANDING_DISLIKE = re.compile(
    r"(?:please\s+)?(?:avoid|don't|do not|never|no more|stop)\s+(?:ever\s+)?(?:recommending|"
    r"suggesting|mentioning|giving me|showing me|including|offering)\b",
    re.IGNORECASE,
)
FAVOURITE = re.compile(
    r"\b(?:my\s+)?(?:all-time\s+)?favou?rite\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|was|:)"
    r"|\b(?:is|are)\s+my\s+(?:all-time\s+)?favou?rite\s+(?P<after>[a-z]+(?:\s+[a-z]+)?)\b"
    # "Wet Leg is my favourite band now", "purple has overtaken green as my favourite colour"
    r"|\b(?:(?P<fave>\w+)(?:'s| is)|as) my (?:all-time\s+)?(?:fave|favou?rite)\b"
    r"(?:\s+(?!(?:now|these|too|again|by|and|but|so|of)\b)(?P<named>[a-z]+)\b)?",
    re.IGNORECASE,
)
# Sarcasm announces itself: praise opening a complaint. Role-play casts the user.
NOT_MEANT = re.compile(
    r"^(?:oh\s+)?yeah,?\s+(?:because|right|sure|like|as if)\b|"
    r"^(?:oh\s+)?(?:great|fantastic|wonderful|lovely|brilliant|perfect|sure|yeah right|"
    r"just what i needed|best day ever|just my luck|typical|love it when)\b[,!]|"
    r"\b(?:i'll play|i'll be (?:a|an|the)|you be (?:a|an|the)|"
    r"you play|in this scene|let's play|act as|you are (?:a|an) |you're (?:a|an|the) |"
    r"(?:i'm|i am) writing (?:a|an|my) (?:\w+ )?(?:story|novel|book|poem|script|screenplay|"
    r"scene|song|fanfic|sketch) (?:about|where|in which)|"
    r"play the role|stay in character|in the story|in this story|in my story|in the game|"
    r"my character)\b",
    re.IGNORECASE,
)
# Praise in capitals ("I just LOVE waiting") is how sarcasm is typed.
SHOUTED_PRAISE = re.compile(r"\b(?:LOVE|ADORE|LIVE FOR|ENJOY)\b")
# A tag that turns a statement into a question of whether it holds: "…, don't they?",
# "…, right?", "…, n'est-ce pas ?", "…, ¿verdad?", "…, oder?".
QUESTION_TAG = re.compile(
    r"(?:(?:do|does|did|is|are|am|was|were|have|has|had|can|could|will|would|should)(?:n't)?"
    r"(?:\s+not)?\s+(?:i|you|we|they|he|she|it|there)|right|no|eh|yeah|innit|surely|"
    r"n'est-ce pas|non|hein|verdad|no es así|oder|nicht wahr|ne|gell|vero|né|toch)"
    r"\s*[?!.]*",
    re.IGNORECASE,
)
ASIDE = re.compile(r"\([^()]*\)")
TIME_NAMED = re.compile(
    r"\b(?:this|that|these|those)\s+(?:week|month|year|morning|afternoon|evening|night|"
    r"weekend|summer|winter|spring|autumn|fall|time|day|season)s?\b",
    re.IGNORECASE,
)
# A finite verb: a sentence with one is no verbless fragment ("Cats are better than dogs").
FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|do|did|will|can|beats?)\b", re.I)
# A request, then a colon: what follows is the text to work on ("Translate to German: …").
TEXT_LABEL = re.compile(
    r"(?:paste|pasted|text|email|e-mail|message|draft|quote|lyrics?|input|content|document|"
    r"article|passage|review|post|tweet|letter|transcript|excerpt|snippet|sentence|paragraph|"
    r"code|log|output|error)",
    re.IGNORECASE,
)
# The fields of a brief for a piece of work ("Tone: friendly. Length: 200 words."): a message
# holding one is a task's content, whatever else it says.
BRIEF_LABEL = re.compile(
    r"(?:^|[.!?]\s+)(?:subject(?: line)?|title|genre|theme|topic|tone|length|audience|format|"
    r"context|word count|deadline|setting|scene|plot|characters?|prompt|keywords?|headline|"
    r"caption|brief|requirements?|constraints?)\b[^:.!?]{0,25}:",
    re.IGNORECASE,
)
WORK_ON = re.compile(r"[^:\n]{0,80}?:\s*\S")
STOP = frozenset(
    """last bit before earlier again anymore though detail details sorry oops okay yes
    thanks a an the and or but so to of in on at for with from by about as into than
    then that this these those there here it its it's is are was were be been being am
    do does did have has had having i me my mine myself we us our you your he she they
    them his her their what which who whom whose when where why how all any some each
    every no not nor only own same too very can will just don't should now also one
    thing things stuff part bit anything everything something whatever whole rest lot
    mentioned told said saved stored know knowing keep kept remember remembered memory
    file please pls thanks mind ich du er sie es wir ihr mein meine und oder nicht das
    der die je tu il elle nous vous mon ma mes et ou pas le la les yo tú él ella mi mis
    y o no el los las meinen meinem meiner meines mit über von vom zum zur bitte alles
    dass betrifft mich mir tout tous toute ceci cela qui que sur des aux concerne plaît stp
    svp del por favor todo toda sobre dónde donde sus hab habe hat kein keine keinen ein eine
    einen une una unos""".split()  # noqa: SIM905
)
FIELD = re.compile(r"(?P<label>[^:?!]{1,30}):\s*(?P<value>[^:?!]+)$")
# A truth of the world, a motto: a bare abstract noun (told by its ending) or life, time or
# practice as the subject, then a verb of the present ("Honesty is the best policy", "Kindness
# costs nothing", "Life is short"). Nobody's taste or fact: it names no thing of anyone's.
GENERAL_TRUTH = re.compile(
    r"(?:\w+\s+)?(?:\w+(?:ness|ty|ence|ance|ment|ship|hood|ism)|life|time|practice)\s+"
    r"(?:always\s+|never\s+|really\s+|truly\s+)?(?:is|isn't|are|aren't|\w+[^\Wsu]s)\b",
    re.IGNORECASE,
)
# A verb after an adverb of how often: "always pays", "never fails". No verbless fragment has
# one ("Always late" has none; "always nervous" is an adjective).
FREQUENT_VERB = re.compile(
    r"\b(?:always|never|often|usually|rarely|seldom)\s+\w+[^\Wsu]s\b", re.IGNORECASE
)
# Advice and mottos speak to a "you" ("surround yourself with…", "never give up on your
# dreams", "that's what I always tell myself"): they tell nothing of the user's life.
ADVICE = re.compile(
    r"\b(?:yourself|yourselves)\b|\byou (?:just |really |sometimes )?(?:need|have|got|gotta|"
    r"should|must|can't|cannot)\b|^(?:never|always|just|don't|do)\s+\w+(?:\s+\w+)?\s+"
    r"(?:on |in |to |for )?your\b|\b(?:tell myself|tell yourself|my motto|i live by|"
    r"words to live by|as they say|i always say)\b",
    re.IGNORECASE,
)
BARE_IMPERATIVE = re.compile(
    # (not "Doing a part-time degree": a form in -ing or -ed has its "I" left out)
    r"(?![a-z]+(?:ing|ed)\b)[a-z]+\s+(?:the|this|that|these|those|it|them|me|us|out|up|a|an|"
    r"some|all)\b",
    re.IGNORECASE,
)
# Words about the memory or the conversation itself: a message holding them speaks of what
# was said, not of the user ("that part can go", "no need to keep the old one").
OF_THE_TALK = re.compile(
    r"\b(?:remember\w*|memor\w*|forg[eo]t\w*|stor(?:e|ed|ing)|sav(?:e|ed|ing)|keep\w*|kept|"
    r"notes?|on file|records?|recorded|know|knowing|mention\w*|said|told|earlier|before|"
    r"anymore|any more|part(?!-)|bit(?!-)|stuff|thing)\b",  # (not "part-time")
    re.IGNORECASE,
)


def content_words(text: str) -> list[str]:
    """The words of a text that carry its meaning (function words and short words out)."""
    return [w for w in WORD.findall(text) if len(w) > 2 and w.casefold() not in STOP]

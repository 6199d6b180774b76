"""The patterns the statement reader (`statements.py`) reads clauses with: mood, subject,
time, changes and forgets, each a regular expression of general English (and, where noted,
German, French and Spanish) grammar and function words, never a sentence of a tuning set.
"""

from __future__ import annotations

import re

QUOTE = re.compile(
    r"""(?<![\w])'(?:[^'\n]|'(?=[^\W\d_]))+'(?![^\W\d_])|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]"""
)
# A sentence ends at . ! ? … or a line break, but not after a title or a common abbreviation.
SENTENCE = re.compile(
    r"(?:(?:\b(?:dr|mr|mrs|ms|mx|prof|st|sr|jr|vs|etc|e\.g|i\.e|approx|no|mt|ft)\.)|[.!?…](?=\S)|[^.!?…\n])+"
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
    r"|\s+(?:and|but|so|because|since|aber|mais|pero)\s+(?=(?:i|i'm|im|i've|my|we|our)\b)"
    r"(?!i\s+(?:are|were|both)\b)"
    # "I live in Perth and work as a geologist": the "I" of a second verb is left out (but
    # "I live and work in Paris" is one statement).
    r"|(?<!\blive)(?<!\bwork)\s+and\s+(?=(?:work|live|study|teach)\s+(?:as|at|in|for)\b)"
    # "Ich heiße Jonas und arbeite als Bäcker", "…y vivo en Quito", "…et j'ai un chat": the
    # other languages drop or elide the "I" after their "and".
    r"|\s+(?:und|et|y|e|en)\s+(?=(?:ich|mein|meine|je|j'|mon|ma|mes|yo|mi|mis|io|eu|ik|mijn|"
    r"arbeite|wohne|lebe|bin|habe|studiere|vivo|trabajo|soy|tengo|estudio|travaille|habite|"
    r"suis|lavoro|abito|sono|moro|trabalho|tenho|sou|woon|werk|ben|heb)\b))",
    re.IGNORECASE,
)
PASTE_INTRO = re.compile(
    r":\s*['\"“‘«]|\b(?:says?|said|reads?|wrote|writes|following|below|this|text|email|message|note|"
    r"paragraph|review|draft|letter|post|quote|lyrics?|poem|story|cv|resume|résumé)\s*:\s*\S",
    re.IGNORECASE,
)
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# A hedge or an aside before what is said: "I guess you could say", "heads up that".
HEDGE = re.compile(
    r"^(?:i guess (?:you could say )?|you could say |i'd say (?:that )?|i suppose |i think |"
    r"i mean,? |to be honest,? |heads up(?: that|:)? |fun fact:? |for context,? |"
    r"(?:please |can you |could you )?(?:remember|note|keep in mind)(?: that)?:? )",
    re.IGNORECASE,
)
OTHER_PEOPLE = re.compile(
    r"\b(?:my|our|mein\w*|mon|ma|mes|mi|mis|mio|mia|meu|minha|mijn)\s+(?:[\w'’]+\s+)?"
    r"(?:friend|friends|colleague|colleagues|coworker|coworkers|co-worker|boss|manager|"
    r"client|clients|customer|customers|neighbou?r|neighbou?rs|roommate|flatmate|housemate|"
    r"classmate|teammate|guest|guests|students?|patients?|landlord|tenant|ex|mate|buddy|"
    r"pal|freund\w*|kolleg\w*|chef|ami|amie|amis|collègue|amigo|amiga|amigos|compañer\w*|"
    r"jefe|amico|amica|collega|amigo|vriend\w*|collega|mentor|coach|tutor|barista|doctor|"
    r"dentist|teacher|therapist|voisin|voisine|vecino|vecina|vicino|vicina|buurman|buurvrouw|"
    r"nachbar\w*)\b",
    re.IGNORECASE,
)
# Someone other than the user as the subject: "a guest at my party has…", "my mentor…".
SOMEONE_ELSE = re.compile(
    r"^(?:everyone|everybody|someone|somebody|nobody|people|they all|most people)\b|"
    r"^(?:most|all|many|some|few)\s+[^\W\d_]+s\b|"  # "Most cats hate water": of a kind, no one
    r"^(?:\w+\s+){0,2}?(?:a|an|the|this|that|my|our|his|her|their|one|some)\s+(?:\w+\s+)?"
    r"(?:guest|guests|barista|waiter|waitress|mentor|coach|tutor|nanny|babysitter|stranger|"
    r"guy|girl|woman|man|lady|person|people|everyone|someone|somebody|friend|friends|"
    r"colleague|coworker|boss|client|customer|neighbou?r|roommate|flatmate|classmate|"
    r"teammate|landlord|doctor|dentist|teacher|professor|therapist|character|protagonist|"
    r"author|hero|villain)\b",
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
# Someone's words passed on: a saying is theirs, not a fact about the user.
REPORTED = re.compile(
    r"\b(?:thinks|reckons|believes|says|said|wants me to|told me to|keeps telling me)\s+"
    r"(?:that\s+)?"
    r"(?:i|we)\b|"
    r"\b(?:used to say|always says?|always said|would say|says that|said that|told (?:me|us) "
    r"(?:that|to)|likes to say|as they say|the saying goes|i wonder|i'm wondering|"
    r"i was wondering|not sure (?:if|whether)|curious (?:if|whether)|not sure(?=\W*$)|"
    r"i (?:read|heard|saw) (?:somewhere |online |once )?that|apparently)\b",
    re.IGNORECASE,
)
# Time. A story of one occasion ("I went to a workshop last Friday") and a feeling ("I'm so
# thankful") are not lasting; a change of state ("I moved to Berlin") is.
EPISODE = re.compile(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|even\s+|also\s+|recently\s+|actually\s+)?"
    r"(?:went|saw|had|did|was|were|got|made|took|felt|met|came|gave|found|told|thought|ran|"
    r"began|brought|caught|chose|drew|drank|drove|ate|fell|fought|flew|forgot|heard|held|"
    r"kept|knew|lost|paid|rode|sang|sat|said|sent|slept|spoke|spent|stood|swam|threw|woke|"
    r"won|wrote|tried|visited|watched|played|talked|attended|finished|enjoyed|loved|hated|"
    r"liked|wanted|needed|realized|realised|noticed|decided|learned|learnt|checked|painted|"
    r"baked|cooked|signed|joined a|picked|saved|helped|stopped by|ended up|managed|set up a|"
    r"\w+ed)\b|\b(?:yesterday|(?<!my )(?<!our )(?<!the )(?<!his )(?<!her )"
    r"last (?:night|week|weekend|month|year|friday|saturday|sunday|"
    r"monday|tuesday|wednesday|thursday|time)|ago|the other day|earlier today|this past)\b",
    re.IGNORECASE,
)
CHANGE_OF_STATE = re.compile(
    r"\b(?:moved|relocated|married|divorced|adopted|born|grew up|raised|started|joined|"
    r"switched|quit|retired|graduated|hired|became|converted|transferred|got an?|bought|"
    r"got married|got engaged|retrained|trained as|qualified as|promoted|upgraded|swapped|"
    r"replaced|traded|exchanged|turned \d+|completed|founded|(?:my|our) new|as of|"
    r"(?:opened|set up) (?:my|our) own|"
    r"(?:finished|did|earned|got|have|hold) (?:my |a |an |the )?(?:\w+ )?(?:degree|course|"
    r"training|apprenticeship|phd|masters?|diploma)|"
    r"(?:have|has|'ve|'s) been|since|for (?:\w+ )?(?:years|months|decades)|always|every|"
    r"usually|never)\b",
    re.IGNORECASE,
)
FEELING = re.compile(
    r"\b(?:i'm|im|i am|i feel|i felt|i was|i've been|we've been|we were|made me feel|"
    r"makes me feel|feeling)\s+"
    r"(?:so\s+|really\s+|very\s+|super\s+|totally\s+|truly\s+|just\s+|kinda\s+|"
    r"pretty\s+|a bit\s+|quite\s+)*(?:happy|glad|thankful|grateful|proud|excited|stoked|"
    r"thrilled|lucky|blessed|sorry|sad|amazed|inspired|hopeful|optimistic|honored|honoured|"
    r"touched|moved|relieved|nervous|worried|curious|impressed|pumped|psyched|down|bummed|"
    r"jealous|envious|shocked|surprised|speechless|overjoyed|delighted|great|good|fine|"
    r"awful|terrible|better|worse|overwhelmed|blown away|humbled|stumped|torn|unsure|"
    r"conflicted)\b"
    # "I got a surge of energy", "I feel like this is my calling", "still thinking about Max"
    r"|\ba (?:surge|sense|wave|rush|burst) of\b|\bi feel like (?:this|that|it)\b"
    r"|\b(?:still )?thinking about\b|\b(?:haven't|have not|hasn't) been able to\b"
    # Resolve, whatever it is about: "I'm determined to make it work", "I'm not giving up".
    r"|\bdetermined to\b|\b(?:not|never) giving up\b|\bhoping for the best\b",
    re.IGNORECASE,
)
PLAN_AHEAD = re.compile(
    r"\b(?:i'm|im|i am|we're|we are)\s+(?:going to|gonna|thinking (?:of|about)|about to|"
    r"planning (?:a|an|the|my|our)\b|"
    r"off to|heading|ready to|looking forward)\b|\b(?:i'll|i will|we'll|i'd love to|can't wait|"
    r"i (?:\w+ )?(?:want|hope|wish|plan) to|i wanna|i might|i bet|i believe|"
    r"i can picture|i find it|we can|we should|we need to|let's|we all)\b",
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
    r"|\b(?:love|like|glad|happy|proud|impressed)\s+(?:that\s+)?(?:you|your)\b"
    r"|\b(?:makes?|made) me (?:feel |so |really )*(?:happy|thankful|"
    r"grateful|proud|glad|hopeful|relaxed|smile)|\bbrings? me (?:so much |such )?joy\b",
    re.IGNORECASE,
)
# An activity as the subject, judged: "seeing it was amazing", "sharing is important".
JUDGED_ACTIVITY = re.compile(
    r"^(?:\w+ing)\b[^,.!?]{0,80}\b(?:is|was|are|were|'s)\s+(?:\w+\s+)?(?:amazing|great|"
    r"the best|best|important|special|awesome|wonderful|beyond words|so \w+|super \w+|"
    r"really \w+|freeing|necessary|rewarding|fulfilling|a \w+)",
    re.IGNORECASE,
)
# The user as the subject: "I…", "my X…", or a predicate that is theirs ("the Kinks are my
# band", "Python is what I write all day").
ADVERBS = (
    r"(?:(?:also|still|really|just|now|honestly|actually|definitely|totally|usually|mostly|"
    r"recently|currently|lately|these days|at the moment|generally|basically|personally|"
    r"anyway|yeah|yes|no|well|so|oh|and|but|plus|for work|at home|most \w+|on \w+s|"
    r"weekends|mornings|evenings)[,\s]+)*"
)
USER_SUBJECT = re.compile(
    ADVERBS + r"(?:i|i'm|im|i've|ive|i'd|me|my|mine|we|we're|we've|our|ich|mein\w*|wir|unser\w*|"
    r"je|j'|j’|moi|mon|ma|mes|nous|notre|nos|yo|mi|mis|nosotros|nuestr\w*|me|io|mio|mia|"
    r"noi|eu|meu|minha|nós|ik|mijn|wij|we)(?:\b|(?<=['’]))"
    r"|^[^,.;]{1,40}\s+and\s+(?:i|me)\b"
    r"|^(?:moved|switched|started|joined|quit|left|got|bought|adopted|married|graduated|"
    r"cancell?ed|dropped|sold|gave up|stopped|ditched|upgraded|swapped|turned|traded|"
    r"finished|retired|transferred|relocated|became|work|live|love|hate|use)\b"
    r"|^[^,.;]{1,60}\b(?:is|are|was|'s|'re)\s+(?:\w+\s+)?(?:my|our|what i|where i|how i|"
    r"who i|for me|mine)\b"
    # The user after a fronted time or place: "After ten years in finance I opened…".
    r"|^(?:after|before|since|during|for|in|at|by|over|within|two|three|\d+)\b[^,.;!?]{1,50}?"
    r",?\s+(?:i|we)(?:['’](?:m|ve|d|re|ll))?\s+(?!(?:think|guess|mean|wonder|suppose)\b)",
    re.IGNORECASE,
)
ASIDES = re.compile(
    r"\b(?:just so you know|so you know|you know|so you can \w+|when you can|if you can|"
    r"for you|thank you|thanks to you|you see)\b",
    re.IGNORECASE,
)
MINE = re.compile(
    r"(?<![\w'’])(?:i|i'm|im|i've|i'd|me|my|mine|myself|ich|mich|mir|mein\w*|je|j'|moi|mon|ma|"
    r"mes|yo|mi|mis|io|mio|mia|miei|eu|meu|minha|ik|mijn)(?:(?<=['’])|(?![\w'’]))",
    re.IGNORECASE,
)
# What the user is doing these days, said of no kind of thing: "I'm staying positive",
# "I'm wrapping up the plan". (With a category it tells: "I'm learning Korean".)
ONGOING = re.compile(
    r"been\b|(?:(?:now|still|currently|just|really|lately|and)[,\s]+)*(?:i'm|im|i am|i've been|"
    r"we're|we've been)\s+(?:\w+ly\s+|still\s+|just\s+|so\s+|really\s+)*\w+ing\b"
    r"|(?:i'm|im|i am) (?:sure|certain|determined|not gonna|not going to|up for)\b",
    re.IGNORECASE,
)
TO_YOU = re.compile(r"\b(?:you|your|you're|ya|u)\b", re.IGNORECASE)
# A statement is about the replies when it names them or the user's wish for them.
STYLE_SAID = re.compile(
    r"\b(?:you|your|u|ur|please|pls|only|for me|from now on|instead|i'd rather|i prefer|"
    r"i'd take|works best|work best|i (?:like|want|need)(?! to\b)|"
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
    r"\b(?:switched|moved (?:over )?to|changed|converted|transferred|instead|no longer|"
    r"upgraded|swapped|replaced|these days|nowadays|(?:i'm|i am|we're|we are|it's) now|as of|"
    r"(?<=\s)now(?=[.!]?$)|"
    r"anymore|any more|not so much|update:|gewechselt|umgezogen|changé|déménagé|cambié|"
    r"me mudé|trasferit\w*|mudei)\b",
    re.IGNORECASE,
)
AS_A = re.compile(
    r"\s*(?P<what>(?:as|being)\s+(?:an?\s+)?[^,?.]{2,40}?)\s*,",
    re.IGNORECASE,
)
OWN_RELATIVE = re.compile(
    r"(?:(?P<place>\b(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*),\s*)?"
    r"\b(?:where|who|which|that|when)\s+(?P<said>(?:i|we)\s+(?:\w+\s+)?(?:live|work|teach|"
    r"study|grew up|was born|am based|are based|come from|moved|volunteer|train)\b"
    r"(?:(?!\s(?:is|was|were|are|has|had|have)\b)[^?.!,])*)",
    re.IGNORECASE,
)
THATS_ME = re.compile(
    r"\b(?:someone|a|an)\s+(?:like me\s+)?(?P<who>(?:who|that)\s+[^?.!]{3,80}|"
    r"[\w-]+(?:\s+[\w-]+)?\s+(?:who|that)\s+[^?.!]{3,80})[?.!]\s*"
    r"(?:that'?s me|that is me|that'd be me|(?:this is|i'm) (?:about|asking for) me)\b"
    r"|\bsomeone like me\s+(?P<like>who\s+[^?.!,]{3,80})"
    # "…for a night-shift nurse like me", "someone with sciatica like me": what the user is.
    r"|\b(?:someone|somebody|people|a|an)\s+(?P<as>(?:with\s+)?(?:[\w'-]+\s+){0,3}?[\w'-]+)"
    r"\s+like me\b",
    re.IGNORECASE,
)
STANDING_DISLIKE = re.compile(
    r"(?:please\s+)?(?:avoid|don't|do not|never|no more|stop)\s+(?:ever\s+)?(?:recommending|"
    r"suggesting|mentioning|giving me|showing me|including|offering)\b",
    re.IGNORECASE,
)
NAME_INTRO = re.compile(
    r"^(?i:(?:hi|hey|hello)[,!]?\s+)?(?i:i'm|i am|im|it's|this is|call me)\s+[A-Z][\w'-]+"
    r"(?:\s+from\s+[^,.!?]{1,40}?)?(?i:\s+again)?[.!]?$"
    r"|^(?i:(?:it's|this is)\s+)?[A-Z][\w'-]+\s+(?:from\s+[^,.]{1,40}\s+)?here\b",
)
# Where the user is, said with a place's name: "I'm in Toronto", "now in Accra".
IN_PLACE = re.compile(
    r"\b(?i:i'm|i am|im|we're|we are|now|currently|still|based)\s+(?i:\w+\s+)?(?i:in|near|"
    r"outside|out of)\s+(?:the\s+)?[A-Z][\w'’-]+",
)
FAVOURITE = re.compile(
    r"\b(?:my\s+)?(?:all-time\s+)?favou?rite\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|was|:)"
    r"|\b(?:is|are)\s+my\s+(?:all-time\s+)?favou?rite\s+(?P<after>[a-z]+(?:\s+[a-z]+)?)\b"
    r"|\b(?P<fave>\w+)(?:'s| is) my (?:fave|favou?rite)\b",
    re.IGNORECASE,
)
# The user in another's clause, but not as the one told or asked ("keeps telling me she's…").
SELF_AS_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|(?<!telling )(?<!told )(?<!tells )(?<!tell )(?<!asked )(?<!asks )"
    r"(?<!asking )me|myself|ich|mich|mir|je|moi|yo)\b",
    re.I,
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
# A plan for one day: "I'm cooking for her on Saturday".
WHEN_NEXT = (
    r"(?:tomorrow|this weekend|next (?:week|month|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))"
)
PLAN = re.compile(
    r"\b(?:i'm|i am|we're|we are|i will|i'll|we'll|going to|gonna)\b.*\b" + WHEN_NEXT + r"\b"
    r"|^" + WHEN_NEXT + r",?\s+(?:i'm|i am|we're|i'll|i will)\b",
    re.IGNORECASE,
)
MOMENT = re.compile(
    r"\b(?:today|tonight|right now|just now|this morning|this afternoon|this evening|rn|"
    r"headache|hangover|jet ?lag|barely slept|out of my mind|heute|gerade|aujourd'hui|"
    r"out of order|broken down|stopped working|not working|"
    r"(?:is|are) (?:so )?(?:tired|sore|aching|itchy|swollen|killing me)|"
    r"ce soir|hoy|esta noche|oggi|stasera|hoje|vandaag)\b",
    re.IGNORECASE,
)
PASSING = re.compile(
    r"\b(?:i'm|im|i am) at (?:a|an|the|my|our)\b|"
    r"^(?:stuck|waiting|queu(?:e)?ing|sitting|standing|soaked|drenched|freezing|boiling|"
    r"starving|running on|running late|home sick|off sick|off work|laid up|snowed under|"
    r"swamped)\b|\b(?:hanging in there|trying to stay|staying positive|holding up|getting by|"
    r"keeping (?:my )?head up|coping)\b|"
    r"\b(?:i'm|im|i am|i feel|feeling|i'm feeling|i was|i got)\s+(?:so\s+|really\s+|very\s+|"
    r"a bit\s+|kind of\s+|kinda\s+|super\s+|pretty\s+|totally\s+|absolutely\s+)?"
    r"(?:tired|exhausted|knackered|hungry|starving|thirsty|sleepy|bored|stressed|sick|ill|"
    r"cold|freezing|hot|sad|angry|annoyed|grumpy|excited|nervous|busy|late|lost|confused|"
    r"stuck|drunk|hungover|full|sore|fried|wiped|shattered|overwhelmed|frustrated|"
    r"in a hurry|in a rush|on my way|travell?ing|running late|on holiday|on vacation|away)\b"
    r"(?! of\b| with\b)"  # "tired of superhero films" is a taste, not a state
    r"|\b(?:ich bin|je suis|estoy)\s+"
    r"(?:so\s+|très\s+|muy\s+)?(?:müde|hungrig|fatigué|fatiguée|crevé|cansad[oa]|agotad[oa])",
    re.IGNORECASE,
)
# Clauses whose verb ends or reverses something: they retire, they do not add.
ENDING = re.compile(
    r"(?<!\bmy )(?<!\bthe )(?<!\bour )(?<!\bher )(?<!\bhis )(?<!\byour )"
    r"(?<!\bnever )(?<!\bnot )(?<!n't )"  # "never left": what did not end
    r"\b(?:left|quit|stopped|gave up|given up|dropped|cancell?ed|sold|died|ended|laid off|"
    r"made redundant|let go from|fired from|sacked from|"
    r"finished with|moved (?:away|out|on)|(?:migrated|moved|switched) (?:off|away from)|"
    r"(?:is|are|was|'s) (?:over|done|gone|finished|uninstalled|history)|done with|"
    r"got rid of|ditched|broke up|wrong|misspoke|typo|mistake|scratch|disregard|"
    r"gone off|went off|lost interest in|grown out of|fell out of love with|"
    r"(?:i'm|im|i am) (?:so )?over|traded|"
    r"changed my mind|not so much|kidding|joking|(?<!nothing )beats|"
    r"nicht mehr|aufgehört|verlassen|gekündigt|quitté|arrêté|ya no|dejé|equivoqué|"
    r"non più|não mais|saí|foutje|niet meer)\b(?!-)",  # "left-handed" ended nothing
    re.IGNORECASE,
)
# "Leiden, not Leipzig", "aspirin, not ibuprofen", "rather than X": the contrast names the
# value being corrected.
# Says a value was spelt or given wrong: the correction holds even beside other words.
SPELT = re.compile(r"\b(?:typo|misspel\w*|spelled|spelt|mistyped|autocorrect)\b", re.I)
RESPELT = re.compile(
    r"\b(?:i meant|typo|misspel\w*|spelled|spelt|correction|mistyped|autocorrect)\b", re.I
)
NOT_X = re.compile(
    r"(?:,\s*(?:and\s+|but\s+)?(?:not|nicht|pas|no|non|não|niet)|\s+(?:rather than|instead of|"
    r"statt|au lieu de|en vez de|en lugar de))\s+(?:in\s+|at\s+|the\s+|en\s+|à\s+|a\s+|"
    r"in\s+)?(?P<old>(?!(?:a|an|really|so|sure|very|too|that|yet|only|just|bad|quite|much|"
    r"fan|into|keen)\b)[^,.;:!?\s]{2,}(?:\s+[^,.;:!?\s]+){0,3})\s*(?=[,.;:!?]|$)",
    re.IGNORECASE,
)
# No longer so: a statement of how things are now that also retires what it negates.
NO_LONGER = re.compile(
    r"\b(?:anymore|any more|no longer|not now|nicht mehr|ne \w+ plus|ya no|non più|não mais|"
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
    r"my bad|it'?s actually|actually,? it'?s|"
    r"(?<=^)[\w'-]+(?: [\w'-]+)?,? (?:actually|technically)\b|"
    r"tippfehler|korrektur|erreur|pardon|perdón|error(?!\s*:)|sbagliato|errado|foutje)\b",
    re.IGNORECASE,
)
# A named one's life, or life with the user, ended.
LIFE_ENDED = re.compile(
    r"\b(?P<who>(?-i:[A-Z])[\w'-]+)(?:\s+and\s+(?:I|me))?\s+(?:(?:has|have|had|just|sadly)\s+)*"
    r"(?:died|passed away|passed on|split up|broke up|divorced|got divorced|was put down|"
    r"was put to sleep|(?:is|isn't|is not|is no longer) with us|ist gestorben|est mort|"
    r"est morte|murió|se murió)\b",
    re.IGNORECASE,
)
# Of those, the ones that can only mean an earlier statement was wrong ("sorry" and "wrong"
# also apologise, or judge something else).
RETRACTED_AS_WRONG = re.compile(
    r"\b(?:typo|misspo?ke|mistake|mistyped|correction|i meant|scratch that|tippfehler|"
    r"it'?s actually|actually,? it'?s|(?<=^)[\w'-]+(?: [\w'-]+)?,? (?:actually|technically)\b|"
    r"korrektur|erreur|me equivoqué|foutje)\b",
    re.IGNORECASE,
)
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
    r"(?:your|the|ctxchat's)\s+(?:memory|memories|notes|records?|files?)\b",
    re.IGNORECASE,
)
THE_REST = re.compile(
    r"(?:the rest|everything else|all (?:the )?(?:rest|others?|else)|the others?|anything "
    r"else|all other \w+)\b",
    re.IGNORECASE,
)
KEEP = re.compile(r"\b(?:keep|behalte|garde|guarda|mantén)\s+(?P<what>[^;,.!]+)", re.I)
EVERYTHING = re.compile(
    r"^(?:everything|all|anything)\b.{0,30}\b(?:about me|you know|you've (?:saved|stored|"
    r"learnt|learned)|you have)|^(?:everything|all of it|it all)$",
    re.IGNORECASE,
)
# In a request or a question the user may still say who is in their life: "a gift for my
# wife Yuki", "my daughter's first sleepover".
MY_PEOPLE = re.compile(
    r"\b(?i:my|our)\s+(?:\w+\s+)?(?:wife|husband|partner|spouse|girlfriend|boyfriend|son|"
    r"daughter|kids?|children|child|baby|mum|mom|mother|dad|father|parents|brother|sister|"
    r"twins|grandma|grandpa|toddler|newborn|teen|teenager|stepson|stepdaughter|grandson|"
    r"granddaughter|fianc[ée]e?|dog|cat|puppy|kitten|parrot|rabbit|horse|ferrets?|"
    r"hamsters?|guinea pigs?|tortoise|turtles?|snake|lizard|gecko|budgies?|goldfish|"
    r"chickens|hens|goats?|pony|dogs|cats|rabbits|horses|[\w]+-(?:year|month|week)-old)"
    r"(?![\w-])(?:'s)?"
    r"(?:,?\s+(?:named\s+|called\s+)?[A-Z][\w-]+(?:'s)?)?",
)
SELF_INTRO = re.compile(
    r"^[\w .'’-]{2,40}\s(?:here|speaking|checking in)\b|^(?:greetings|hello|hi|hey) from\s+"
    r"(?:\w+\s+)?[A-Z]|^(?:name's|name is|call me|"
    r"names?:|pronouns:|lives:|job:|(?:quick |short )?bio:|about me:)|"
    r"^(?:some )?(?:background|context|profile|intro|about me)\b[^:]{0,40}:|"
    r"^home(?: for me)? is\b[^.!?]*\b(?:in|near|outside)\s+[A-Z]",
    re.IGNORECASE,
)
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
    y o no el los las""".split()  # noqa: SIM905
)
FORGET_TARGET_TRIM = re.compile(
    r"^(?:that|about|the fact that|the|my|me|everything|anything|all|of|stuff|"
    r"thing|what|you know|you've|you have|saved|stored|said|i said|i told you|"
    r"that i|dass|que|de|du|des|la|le|les|lo)\b\s*",
    re.IGNORECASE,
)


# For a message with no "I": a sentence opening with its own subject and verb is about that
# subject; one opening with a verb and its object is an order, not a statement.
SUBJECT_VERB = re.compile(
    r"(?:[\w'’-]+\s+){0,4}?(?:is|are|was|were|has|have|had|does|do|did|'s|'re|can|will|"
    r"\w+s|\w+ed)\b",
    re.IGNORECASE,
)
# What holds since a change ("I'm doing nursing instead"): no passing activity.
SINCE_CHANGE = re.compile(r"\b(?:instead|these days|nowadays|full[- ]time)\b", re.IGNORECASE)
# An end with its date ("quit smoking two years ago"): the end itself is what lasts.
DATED_END = re.compile(
    r"\b(?:\w+|a|an|\d+) (?:years?|months?|weeks?|decades?) ago\b|\bin (?:19|20)\d\d\b|"
    r"\bsince (?:19|20)\d\d\b",
    re.IGNORECASE,
)
# How long or how often: what makes an ongoing activity a lasting one. "Since we last
# spoke" dates a conversation, not a habit.
HOW_LONG = re.compile(
    r"\b(?:since(?!\s+(?:we|you)\b|\s+\w+\s+last\b)|for (?:\w+ )?(?:years|months|decades|weeks)|"
    r"every|always|usually|most days|each (?:week|day|month|year))\b",
    re.IGNORECASE,
)
NOT_YET = re.compile(
    r"\b(?:will|won't|might|hope|hopefully|wish|gonna|going to|someday|"
    r"one day|maybe|perhaps)\b",
    re.IGNORECASE,
)
FIELD = re.compile(r"(?P<label>[^:?!]{1,30}):\s*(?P<value>[^:?!]+)$")
# Advice and mottos speak to a "you" ("surround yourself with…", "never give up on your
# dreams", "that's what I always tell myself"): they tell nothing of the user's life.
ADVICE = re.compile(
    r"\b(?:yourself|yourselves)\b|\byou (?:just |really |sometimes )?(?:need|have|got|gotta|"
    r"should|must|can't|cannot)\b|^(?:never|always|just|don't|do)\s+\w+(?:\s+\w+)?\s+"
    r"(?:on |in |to |for )?your\b|\b(?:tell myself|tell yourself|my motto|i live by|"
    r"words to live by|as they say|i always say)\b",
    re.IGNORECASE,
)
# What a clause says no longer holds: "not a barista any more", "no more bus for me".
NO_MORE = re.compile(
    r"\b(?:no more |not (?:an? |the )?)"
    r"(?P<old>(?!(?:so|really|very|too|quite|much|that|any|anymore|now|true)\b)"
    r"[\w'-]+(?: [\w'-]+)?)"
    r"(?= (?:any ?more|for me|now|these days)\b|\s*[,.;!]|$)",
    re.IGNORECASE,
)
# Giving one thing for another: the first goes, the second is what holds now.
EXCHANGE = re.compile(
    r"\b(?:traded|swapped|exchanged|replaced|switched)\s+(?:(?:my|the|our|a|an)\s+)?"
    r"(?P<old>[\w' -]+?)\s+(?:in\s+)?(?:for|with|to)\s+\S",
    re.IGNORECASE,
)
YOURS = re.compile(r"\b(?:your|yours)\b", re.IGNORECASE)
_PAST = (
    r"\w+ed|went|became|began|bought|sold|quit|left|took|gave|made|found|grew|built|kept|"
    r"lost|met|paid|spent|won|wrote|had|born"
)
DROPPED_I = re.compile(r"(?:been|\w+ing|" + _PAST + r")\b", re.IGNORECASE)
DROPPED_I_PAST = re.compile(r"(?:" + _PAST + r")\b", re.IGNORECASE)
BARE_IMPERATIVE = re.compile(
    r"[a-z]+\s+(?:the|this|that|these|those|it|them|me|us|out|up|a|an|some|all)\b",
    re.IGNORECASE,
)
# Words about the memory or the conversation itself: a message holding them speaks of what
# was said, not of the user ("that part can go", "no need to keep the old one").
OF_THE_TALK = re.compile(
    r"\b(?:remember\w*|memor\w*|forg[eo]t\w*|stor(?:e|ed|ing)|sav(?:e|ed|ing)|keep\w*|kept|"
    r"notes?|on file|records?|recorded|know|knowing|mention\w*|said|told|earlier|before|"
    r"anymore|any more|part|bit|stuff|thing)\b",
    re.IGNORECASE,
)
WHEN_AHEAD = re.compile(
    r"^feeling\b|\b(?:tomorrow|tonight|next (?:week|month|year|time)|later|soon)\b",
    re.IGNORECASE,
)


def content_words(text: str) -> list[str]:
    """The words of a text that carry its meaning (function words and short words out)."""
    return [w for w in WORD.findall(text) if len(w) > 2 and w.casefold() not in STOP]

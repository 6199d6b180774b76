"""The statement reader: which parts of a message are lasting statements about the user.

One general test, applied clause by clause, instead of a pattern per kind of sentence:

- **Mood.** A question, a condition or an imagined world ("if", "suppose", "pretend"), and a
  request for a task ("explain this step by step") assert nothing. Quoted text and what
  follows a colon that introduces pasted content are someone else's words.
- **Subject.** The user speaks of themselves: a first-person word ("I", "my", "me", or a
  pro-drop verb form such as "vivo"), or a self-introduction fragment ("Paramedic here").
  A clause whose subject is another person ("my coworker…", "she…") is theirs, not the
  user's; the user's family is the user's life and is kept.
- **Time.** A passing state ("I'm exhausted today") is not lasting.

What passes is kept as the user said it, trimmed of fillers, never cut inside a clause: a
clause ends only where a new one begins with its own subject. The category (`categories.py`)
only decides whether the statement supersedes an earlier one.

Standing instructions about replies ("keep it brief, please", "metric units only") are kept
as style when they stand alone or say they last ("from now on", "always"); an instruction
inside a task is part of that task. Changes are read by meaning of the clause, not by cue
phrase: a clause that ends or negates something the user said earlier ("left Shopify",
"Leiden, not Leipzig") retires the facts holding those words; a bare one ("not anymore")
retires the newest fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .categories import category_of, style_aspect_of
from .lexicon import Compiled, compiled, language_of
from .ops import FORGET_ALL, NEWEST, SPELLING, Extraction, Op
from .secrets import screen
from .slots import favourite_slot, slot_info

_QUOTE = re.compile(
    r"""(?<![\w])'(?:[^'\n]|'(?=[^\W\d_]))+'(?![^\W\d_])|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]"""
)
# A sentence ends at . ! ? … or a line break, but not after a title or a common abbreviation.
_SENTENCE = re.compile(
    r"(?:(?:\b(?:dr|mr|mrs|ms|mx|prof|st|sr|jr|vs|etc|e\.g|i\.e|approx|no|mt|ft)\.)|[.!?…](?=\S)|[^.!?…\n])+"
    r"(?:[.!?…]+(?=\s|$)|$)|[.!?…]+",
    re.IGNORECASE,
)
# A new clause: a comma, semicolon or dash, optionally a conjunction, then its own subject.
_CLAUSE_BREAK = re.compile(
    r"\s*(?:;|\s[-–—]+\s|,\s*(?:(?:and|but|so|because|since|as|though|although|while|"
    r"und|aber|denn|et|mais|car|y|pero|porque|e|ma|perché|mas|en|maar)\s+)?(?=(?:i|i'm|im|i've|"
    r"i'd|my|we|we're|our|ich|mein|meine|je|j'|mon|ma|mes|yo|mi|mis|io|eu|ik|mijn)\b)"
    r"|:\s+(?=(?:i|i'm|my|we|our|ich|mein|meine|je|j'|mon|ma|yo|mi|vivo|soy|trabajo|sono|abito|"
    r"moro|sou|trabalho|ik|mijn|ze|he|she|his|her|they|il|elle|er|sie)\b)"
    r"|\s+(?:and|but|so|because|since|aber|mais|pero)\s+(?=(?:i|i'm|im|i've|my|we|our)\b)"
    r"(?!i\s+(?:are|were|both)\b))",
    re.IGNORECASE,
)
_PASTE_INTRO = re.compile(
    r":\s*['\"“‘«]|(?:says?|said|reads?|wrote|writes|following|below|this|text|email|message|note|"
    r"paragraph|review|draft|letter|post|quote|lyrics?|poem|story)\s*:\s*\S",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# A hedge or an aside before what is said: "I guess you could say", "heads up that".
_HEDGE = re.compile(
    r"^(?:i guess (?:you could say )?|you could say |i'd say (?:that )?|i suppose |i think |"
    r"i mean,? |to be honest,? |heads up(?: that|:)? |fun fact:? |for context,? |"
    r"(?:please |can you |could you )?(?:remember|note|keep in mind)(?: that)?:? )",
    re.IGNORECASE,
)
_OTHER_PEOPLE = re.compile(
    r"\b(?:my|our|mein\w*|mon|ma|mes|mi|mis|mio|mia|meu|minha|mijn)\s+(?:\w+\s+)?"
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
_SOMEONE_ELSE = re.compile(
    r"^(?:everyone|everybody|someone|somebody|nobody|people|they all|most people)\b|"
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
_TASK_VERB = re.compile(
    r"(?:explain|write|draft|summari[sz]e|translate|describe|compare|list|tell|give|show|make|"
    r"create|generate|find|fix|check|review|plan|suggest|recommend|calculate|convert|rewrite|"
    r"edit|proofread|outline|teach|brainstorm|analy[sz]e|help|walk me|go through|break down|"
    r"i need|i want|i'd like|i'm looking for|looking for|"
    r"erkläre|schreib|übersetze|fasse|explique|écris|traduis|résume|explica|escribe|traduce|"
    r"resume)\b",
    re.IGNORECASE,
)
# Someone's words passed on: a saying is theirs, not a fact about the user.
_REPORTED = re.compile(
    r"\b(?:thinks|reckons|believes|says|wants me to|told me to|keeps telling me)\s+(?:that\s+)?"
    r"(?:i|we)\b|"
    r"\b(?:used to say|always says?|always said|would say|says that|said that|told (?:me|us) "
    r"(?:that|to)|likes to say|as they say|the saying goes|i wonder|i'm wondering|"
    r"i was wondering|not sure (?:if|whether)|curious (?:if|whether))\b",
    re.IGNORECASE,
)
# Time. A story of one occasion ("I went to a workshop last Friday") and a feeling ("I'm so
# thankful") are not lasting; a change of state ("I moved to Berlin") is.
_EPISODE = re.compile(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|even\s+|also\s+|recently\s+|actually\s+)?"
    r"(?:went|saw|had|did|was|were|got|made|took|felt|met|came|gave|found|told|thought|ran|"
    r"began|brought|caught|chose|drew|drank|drove|ate|fell|fought|flew|forgot|heard|held|"
    r"kept|knew|lost|paid|rode|sang|sat|said|sent|slept|spoke|spent|stood|swam|threw|woke|"
    r"won|wrote|tried|visited|watched|played|talked|attended|finished|enjoyed|loved|hated|"
    r"liked|wanted|needed|realized|realised|noticed|decided|learned|learnt|checked|painted|"
    r"baked|cooked|signed|joined a|picked|saved|helped|stopped by|ended up|managed|"
    r"\w+ed)\b|\b(?:yesterday|last (?:night|week|weekend|month|year|friday|saturday|sunday|"
    r"monday|tuesday|wednesday|thursday|time)|ago|the other day|earlier today|this past)\b",
    re.IGNORECASE,
)
_CHANGE_OF_STATE = re.compile(
    r"\b(?:moved|relocated|married|divorced|adopted|born|grew up|raised|started|joined|"
    r"switched|quit|retired|graduated|hired|became|converted|transferred|got an?|bought|"
    r"got married|got engaged|retrained|trained as|qualified as|promoted|upgraded|swapped|"
    r"replaced|traded|exchanged|turned \d+|completed|"
    r"finished (?:my |a |the )?(?:\w+ )?(?:degree|course|training|apprenticeship|phd|masters?)|"
    r"(?:have|has|'ve|'s) been|since|for (?:\w+ )?(?:years|months|decades)|always|every|"
    r"usually|never)\b",
    re.IGNORECASE,
)
_FEELING = re.compile(
    r"\b(?:i'm|im|i am|i feel|i felt|i was|i've been|made me feel|makes me feel|feeling)\s+"
    r"(?:so\s+|really\s+|very\s+|super\s+|totally\s+|truly\s+|just\s+|kinda\s+|"
    r"pretty\s+|a bit\s+|quite\s+)*(?:happy|glad|thankful|grateful|proud|excited|stoked|"
    r"thrilled|lucky|blessed|sorry|sad|amazed|inspired|hopeful|optimistic|honored|honoured|"
    r"touched|moved|relieved|nervous|worried|curious|impressed|pumped|psyched|down|bummed|"
    r"jealous|envious|shocked|surprised|speechless|overjoyed|delighted)\b",
    re.IGNORECASE,
)
_PLAN_AHEAD = re.compile(
    r"\b(?:i'm|im|i am|we're|we are)\s+(?:going to|gonna|thinking (?:of|about)|about to|"
    r"off to|heading|ready to|looking forward)\b|\b(?:i'll|i will|we'll|i'd love to|can't wait|"
    r"i (?:\w+ )?(?:want|hope|wish|plan) to|i wanna|i might|i bet|i believe|"
    r"i can picture|i find it|we can|we should|we need to|let's|we all)\b",
    re.IGNORECASE,
)
# An exclamation or a reaction: "Wow, what a moment!", "Those moments make me thankful".
_REACTION = re.compile(
    r"^(?:wow|whoa|aww|omg|what an?|how|yay|congrats|congratulations|nice|cool|great|awesome|"
    r"amazing|lol|haha)\b|\byou(?:'re| are)?\s+(?:\w+\s+)?(?:rock|amazing|awesome|the best|"
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
_JUDGED_ACTIVITY = re.compile(
    r"^(?:\w+ing)\b[^,.!?]{0,80}\b(?:is|was|are|were|'s)\s+(?:\w+\s+)?(?:amazing|great|"
    r"the best|best|important|special|awesome|wonderful|beyond words|so \w+|super \w+|"
    r"really \w+|freeing|necessary|rewarding|fulfilling|a \w+)",
    re.IGNORECASE,
)
# The user as the subject: "I…", "my X…", or a predicate that is theirs ("the Kinks are my
# band", "Python is what I write all day").
_ADVERBS = (
    r"(?:(?:also|still|really|just|now|honestly|actually|definitely|totally|usually|mostly|"
    r"recently|currently|lately|these days|at the moment|generally|basically|personally|"
    r"anyway|yeah|yes|no|well|so|oh|and|but|plus|for work|at home|most \w+|on \w+s|"
    r"weekends|mornings|evenings)[,\s]+)*"
)
_USER_SUBJECT = re.compile(
    _ADVERBS + r"(?:i|i'm|im|i've|ive|i'd|me|my|mine|we|we're|we've|our|ich|mein\w*|wir|unser\w*|"
    r"je|j'|j’|moi|mon|ma|mes|nous|notre|nos|yo|mi|mis|nosotros|nuestr\w*|me|io|mio|mia|"
    r"noi|eu|meu|minha|nós|ik|mijn|wij|we)(?:\b|(?<=['’]))"
    r"|^[^,.;]{1,40}\s+and\s+(?:i|me)\b"
    r"|^(?:moved|switched|started|joined|quit|left|got|bought|adopted|married|graduated|"
    r"cancell?ed|dropped|sold|gave up|stopped|ditched|upgraded|swapped|turned|traded|"
    r"finished|retired|transferred|relocated|became|work|live|love|hate|use)\b"
    r"|^[^,.;]{1,60}\b(?:is|are|was|'s|'re)\s+(?:\w+\s+)?(?:my|our|what i|where i|how i|"
    r"who i|for me|mine)\b",
    re.IGNORECASE,
)
_ASIDES = re.compile(
    r"\b(?:just so you know|so you know|you know|so you can \w+|when you can|if you can|"
    r"for you|thank you|thanks to you|you see)\b",
    re.IGNORECASE,
)
_MINE = re.compile(
    r"(?<![\w'’])(?:i|i'm|im|i've|i'd|me|my|mine|myself|ich|mich|mir|mein\w*|je|j'|moi|mon|ma|"
    r"mes|yo|mi|mis|io|mio|mia|miei|eu|meu|minha|ik|mijn)(?:(?<=['’])|(?![\w'’]))",
    re.IGNORECASE,
)
# What the user is doing these days, said of no kind of thing: "I'm staying positive",
# "I'm wrapping up the plan". (With a category it tells: "I'm learning Korean".)
_ONGOING = re.compile(
    r"been\b|(?:(?:now|still|currently|just|really|lately|and)[,\s]+)*(?:i'm|im|i am|i've been|"
    r"we're|we've been)\s+(?:\w+ly\s+|still\s+|just\s+|so\s+|really\s+)*\w+ing\b"
    r"|(?:i'm|im|i am) (?:sure|certain|determined|not gonna|not going to|up for)\b",
    re.IGNORECASE,
)
_TO_YOU = re.compile(r"\b(?:you|your|you're|ya|u)\b", re.IGNORECASE)
# A statement is about the replies when it names them or the user's wish for them.
_STYLE_SAID = re.compile(
    r"\b(?:you|your|u|ur|please|pls|only|for me|from now on|instead|i'd rather|i prefer|"
    r"i'd take|works best|work best|i like|i want|i need|(?:your|the|my) (?:answers?|repl\w*|"
    r"responses?|explanations?|messages?|code|output)|when (?:you|u) (?:explain|answer|reply|"
    r"write|give))\b",
    re.IGNORECASE,
)
# Verbs that say how to answer; another verb with an object ("shorten the second paragraph")
# is work on a text.
_STYLE_VERB = re.compile(
    r"(?:use|keep|cap|limit|put|avoid|stop|answer|reply|respond|be|write in|include|add|skip|"
    r"cite|format|stick to|give me|call|address|spell|show|drop|leave out|no)\b",
    re.IGNORECASE,
)
# A statement of how things are now, against how they were: it replaces the newest
# statement about the same thing.
_SWITCH = re.compile(
    r"\b(?:switched|moved|changed|converted|transferred|went over|migrated|upgraded|"
    r"now|these days|nowadays|lately|instead|anymore|any more|no longer|update|"
    r"jetzt|inzwischen|maintenant|désormais|ahora|ya no|adesso|agora|nu)\b",
    re.IGNORECASE,
)
# A change said outright: what it replaces need not be named.
_CHANGE = re.compile(
    r"\b(?:switched|moved (?:over )?to|changed|converted|transferred|instead|no longer|"
    r"upgraded|swapped|replaced|"
    r"anymore|any more|not so much|update:|gewechselt|umgezogen|changé|déménagé|cambié|"
    r"me mudé|trasferit\w*|mudei)\b",
    re.IGNORECASE,
)
_AS_A = re.compile(
    r"\s*(?P<what>(?:as|being)\s+(?:an?\s+)?[^,?.]{2,40}?)\s*,",
    re.IGNORECASE,
)
_OWN_RELATIVE = re.compile(
    r"(?:(?P<place>\b(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*),\s*)?"
    r"\b(?:where|who|which|that|when)\s+(?P<said>(?:i|we)\s+(?:\w+\s+)?(?:live|work|teach|"
    r"study|grew up|was born|am based|are based|come from|moved|volunteer|train)\b"
    r"(?:(?!\s(?:is|was|were|are|has|had|have)\b)[^?.!,])*)",
    re.IGNORECASE,
)
_THATS_ME = re.compile(
    r"\b(?:someone|a|an)\s+(?:like me\s+)?(?P<who>(?:who|that)\s+[^?.!]{3,80}|"
    r"[\w-]+(?:\s+[\w-]+)?\s+(?:who|that)\s+[^?.!]{3,80})[?.!]\s*"
    r"(?:that'?s me|that is me|that'd be me|(?:this is|i'm) (?:about|asking for) me)\b"
    r"|\bsomeone like me\s+(?P<like>who\s+[^?.!,]{3,80})",
    re.IGNORECASE,
)
_STANDING_DISLIKE = re.compile(
    r"(?:please\s+)?(?:avoid|don't|do not|never|no more|stop)\s+(?:ever\s+)?(?:recommending|"
    r"suggesting|mentioning|giving me|showing me|including|offering)\b",
    re.IGNORECASE,
)
_NAME_INTRO = re.compile(
    r"^(?i:(?:hi|hey|hello)[,!]?\s+)?(?i:i'm|i am|im|it's|this is|call me)\s+[A-Z][\w'-]+[.!]?$"
    r"|^(?i:(?:it's|this is)\s+)?[A-Z][\w'-]+\s+(?:from\s+[^,.]{1,40}\s+)?here\b",
)
# Where the user is, said with a place's name: "I'm in Toronto", "now in Accra".
_IN_PLACE = re.compile(
    r"\b(?i:i'm|i am|im|we're|we are|now|currently|still|based)\s+(?i:\w+\s+)?(?i:in|near|"
    r"outside|out of)\s+(?:the\s+)?[A-Z][\w'’-]+",
)
_FAVOURITE = re.compile(
    r"\b(?:my\s+)?(?:all-time\s+)?favou?rite\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|was|:)"
    r"|\b(?:is|are)\s+my\s+(?:all-time\s+)?favou?rite\s+(?P<after>[a-z]+(?:\s+[a-z]+)?)\b"
    r"|\b(?P<fave>\w+)(?:'s| is) my (?:fave|favou?rite)\b",
    re.IGNORECASE,
)
_SELF_AS_PERSON = re.compile(r"\b(?:i|i'm|im|i've|i'd|me|myself|ich|mich|mir|je|moi|yo)\b", re.I)
# Sarcasm announces itself: praise opening a complaint. Role-play casts the user.
_NOT_MEANT = re.compile(
    r"^(?:oh\s+)?(?:great|fantastic|wonderful|lovely|brilliant|perfect|sure|yeah right|yeah|"
    r"just what i needed|best day ever|just my luck|typical|love it when)\b[,!]|"
    r"\b(?:i'll play|i'll be (?:a|an|the)|you be (?:a|an|the)|"
    r"you play|in this scene|let's play|act as|you are (?:a|an) |you're (?:a|an|the) |"
    r"play the role|stay in character|in the story|in this story|in my story|in the game|"
    r"my character)\b",
    re.IGNORECASE,
)
# Praise in capitals ("I just LOVE waiting") is how sarcasm is typed.
_SHOUTED_PRAISE = re.compile(r"\b(?:LOVE|ADORE|LIVE FOR|ENJOY)\b")
# A finite verb: a sentence with one is no verbless fragment ("Cats are better than dogs").
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|do|did|will|can|beats?)\b", re.I)
# A request, then a colon: what follows is the text to work on ("Translate to German: …").
_TEXT_LABEL = re.compile(
    r"(?:paste|pasted|text|email|e-mail|message|draft|quote|lyrics?|input|content|document|"
    r"article|passage|review|post|tweet|letter|transcript|excerpt|snippet|sentence|paragraph|"
    r"code|log|output|error)",
    re.IGNORECASE,
)
# The fields of a brief for a piece of work ("Tone: friendly. Length: 200 words."): a message
# holding one is a task's content, whatever else it says.
_BRIEF_LABEL = re.compile(
    r"(?:^|[.!?]\s+)(?:subject(?: line)?|title|genre|theme|topic|tone|length|audience|format|"
    r"context|word count|deadline|setting|scene|plot|characters?|prompt|keywords?|headline|"
    r"caption|brief|requirements?|constraints?)\b[^:.!?]{0,25}:",
    re.IGNORECASE,
)
_WORK_ON = re.compile(r"[^:\n]{0,80}?:\s*\S")
# A plan for one day: "I'm cooking for her on Saturday".
_WHEN_NEXT = (
    r"(?:tomorrow|this weekend|next (?:week|month|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))"
)
_PLAN = re.compile(
    r"\b(?:i'm|i am|we're|we are|i will|i'll|we'll|going to|gonna)\b.*\b" + _WHEN_NEXT + r"\b"
    r"|^" + _WHEN_NEXT + r",?\s+(?:i'm|i am|we're|i'll|i will)\b",
    re.IGNORECASE,
)
_MOMENT = re.compile(
    r"\b(?:today|tonight|right now|just now|this morning|this afternoon|this evening|rn|"
    r"headache|hangover|jet ?lag|barely slept|out of my mind|heute|gerade|aujourd'hui|"
    r"ce soir|hoy|esta noche|oggi|stasera|hoje|vandaag)\b",
    re.IGNORECASE,
)
_PASSING = re.compile(
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
    r"|\b(?:ich bin|je suis|estoy)\s+"
    r"(?:so\s+|très\s+|muy\s+)?(?:müde|hungrig|fatigué|fatiguée|crevé|cansad[oa]|agotad[oa])",
    re.IGNORECASE,
)
# Clauses whose verb ends or reverses something: they retire, they do not add.
_ENDING = re.compile(
    r"(?<!\bmy )(?<!\bthe )(?<!\bour )(?<!\bher )(?<!\bhis )(?<!\byour )"
    r"\b(?:left|quit|stopped|gave up|given up|dropped|cancell?ed|sold|died|ended|"
    r"finished with|moved (?:away|out|on)|(?:migrated|moved|switched) (?:off|away from)|"
    r"(?:is|are|was|'s) (?:over|done|gone|finished|uninstalled|history)|done with|"
    r"got rid of|ditched|broke up|wrong|misspoke|typo|mistake|scratch|disregard|"
    r"gone off|went off|lost interest in|grown out of|fell out of love with|"
    r"(?:i'm|im|i am) (?:so )?over|traded|"
    r"changed my mind|not so much|kidding|joking|beats|"
    r"nicht mehr|aufgehört|verlassen|gekündigt|quitté|arrêté|ya no|dejé|equivoqué|"
    r"non più|não mais|saí|foutje|niet meer)\b",
    re.IGNORECASE,
)
# "Leiden, not Leipzig", "aspirin, not ibuprofen", "rather than X": the contrast names the
# value being corrected.
# Says a value was spelt or given wrong: the correction holds even beside other words.
_SPELT = re.compile(r"\b(?:typo|misspel\w*|spelled|spelt|mistyped|autocorrect)\b", re.I)
_RESPELT = re.compile(
    r"\b(?:i meant|typo|misspel\w*|spelled|spelt|correction|mistyped|autocorrect)\b", re.I
)
_NOT_X = re.compile(
    r"(?:,\s*(?:and\s+|but\s+)?(?:not|nicht|pas|no|non|não|niet)|\s+(?:rather than|instead of|"
    r"statt|au lieu de|en vez de|en lugar de))\s+(?:in\s+|at\s+|the\s+|en\s+|à\s+|a\s+|"
    r"in\s+)?(?P<old>(?!(?:a|an|really|so|sure|very|too|that|yet|only|just|bad|quite|much|"
    r"fan|into|keen)\b)[^,.;:!?\s]+(?:\s+[^,.;:!?\s]+){0,3})\s*(?=[,.;:!?]|$)",
    re.IGNORECASE,
)
# No longer so: a statement of how things are now that also retires what it negates.
_NO_LONGER = re.compile(
    r"\b(?:anymore|any more|no longer|not now|nicht mehr|ne \w+ plus|ya no|non più|não mais|"
    r"niet meer)\b",
    re.IGNORECASE,
)
# Says that something said earlier was wrong: the new value replaces the most similar word
# of the newest fact.
_CORRECTION = re.compile(
    r"\b(?:typo|misspo?ke|mistake|mistyped|misspelled|misspelt|spelled that wrong|"
    r"spelt that wrong|correction|i meant|sorry|autocorrect|wrong|scratch that|"
    r"tippfehler|korrektur|erreur|pardon|perdón|error(?!\s*:)|sbagliato|errado|foutje)\b",
    re.IGNORECASE,
)
# "take Pip off the list", "keep my kid's details out of this": the memory is the place.
_FORGET_AROUND = re.compile(
    r"\b(?:take|leave|keep|cross)\s+(?P<target>.{1,50}?)\s+(?:off (?:the|your|my) "
    r"(?:list|memory|notes|file)|out of (?:this|it|your memory|memory|my file|your notes|"
    r"there)|out)(?:,?\s*please)?\s*[.!]?$",
    re.IGNORECASE,
)
_THE_REST = re.compile(
    r"(?:the rest|everything else|all (?:the )?(?:rest|others?|else)|the others?|anything "
    r"else|all other \w+)\b",
    re.IGNORECASE,
)
_KEEP = re.compile(r"\b(?:keep|behalte|garde|guarda|mantén)\s+(?P<what>[^;,.!]+)", re.I)
_EVERYTHING = re.compile(
    r"^(?:everything|all|anything)\b.{0,30}\b(?:about me|you know|you've (?:saved|stored|"
    r"learnt|learned)|you have)|^(?:everything|all of it|it all)$",
    re.IGNORECASE,
)
# In a request or a question the user may still say who is in their life: "a gift for my
# wife Yuki", "my daughter's first sleepover".
_MY_PEOPLE = re.compile(
    r"\b(?i:my|our)\s+(?:\w+\s+)?(?:wife|husband|partner|spouse|girlfriend|boyfriend|son|"
    r"daughter|kids?|children|child|baby|mum|mom|mother|dad|father|parents|brother|sister|"
    r"twins|grandma|grandpa|toddler|newborn|teen|teenager|stepson|stepdaughter|grandson|"
    r"granddaughter|fianc[ée]e?|dog|cat|puppy|kitten|parrot|rabbit|horse)(?![\w-])(?:'s)?"
    r"(?:,?\s+(?:named\s+|called\s+)?[A-Z][\w-]+(?:'s)?)?",
)
_SELF_INTRO = re.compile(
    r"^[\w .'’-]{2,40}\s(?:here|speaking|checking in)\b|^(?:name's|name is|call me|"
    r"names?:|pronouns:|lives:|job:|(?:quick |short )?bio:|about me:)|"
    r"^(?:some )?(?:background|context|profile|intro|about me)\b[^:]{0,40}:",
    re.IGNORECASE,
)
_STOP = frozenset(
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
_FORGET_TARGET_TRIM = re.compile(
    r"^(?:that|about|the fact that|the|my|me|everything|anything|all|of|stuff|"
    r"thing|what|you know|you've|you have|saved|stored|said|i said|i told you|"
    r"that i|dass|que|de|du|des|la|le|les|lo)\b\s*",
    re.IGNORECASE,
)


# For a message with no "I": a sentence opening with its own subject and verb is about that
# subject; one opening with a verb and its object is an order, not a statement.
_SUBJECT_VERB = re.compile(
    r"(?:[\w'’-]+\s+){0,4}?(?:is|are|was|were|has|have|had|does|do|did|'s|'re|can|will|"
    r"\w+s|\w+ed)\b",
    re.IGNORECASE,
)
# How long or how often: what makes an ongoing activity a lasting one.
_HOW_LONG = re.compile(
    r"\b(?:since|for (?:\w+ )?(?:years|months|decades|weeks)|every|always|usually|most days|"
    r"each (?:week|day|month|year))\b",
    re.IGNORECASE,
)
_NOT_YET = re.compile(
    r"\b(?:will|won't|might|hope|hopefully|wish|gonna|going to|someday|"
    r"one day|maybe|perhaps)\b",
    re.IGNORECASE,
)
_FIELD = re.compile(r"(?P<label>[^:?!]{1,30}):\s*(?P<value>[^:?!]+)$")
# Advice and mottos speak to a "you" ("surround yourself with…", "never give up on your
# dreams", "that's what I always tell myself"): they tell nothing of the user's life.
_ADVICE = re.compile(
    r"\b(?:yourself|yourselves)\b|\byou (?:just |really |sometimes )?(?:need|have|got|gotta|"
    r"should|must|can't|cannot)\b|^(?:never|always|just|don't|do)\s+\w+(?:\s+\w+)?\s+"
    r"(?:on |in |to |for )?your\b|\b(?:tell myself|tell yourself|my motto|i live by|"
    r"words to live by|as they say|i always say)\b",
    re.IGNORECASE,
)
# What a clause says no longer holds: "not a barista any more", "no more bus for me".
_NO_MORE = re.compile(
    r"\b(?:no more |not (?:an? |the )?)(?P<old>[\w'-]+(?: [\w'-]+)?)"
    r"(?= (?:any ?more|for me|now|these days)\b|\s*[,.;!]|$)",
    re.IGNORECASE,
)
# Giving one thing for another: the first goes, the second is what holds now.
_EXCHANGE = re.compile(
    r"\b(?:traded|swapped|exchanged|replaced|switched)\s+(?:(?:my|the|our|a|an)\s+)?"
    r"(?P<old>[\w' -]+?)\s+(?:in\s+)?(?:for|with|to)\s+\S",
    re.IGNORECASE,
)
_YOURS = re.compile(r"\b(?:your|yours)\b", re.IGNORECASE)
_DROPPED_I = re.compile(r"(?:been|\w+ing|\w+ed)\b", re.IGNORECASE)
_DROPPED_I_PAST = re.compile(r"\w+ed\b", re.IGNORECASE)
_BARE_IMPERATIVE = re.compile(
    r"[a-z]+\s+(?:the|this|that|these|those|it|them|me|us|out|up|a|an|some|all)\b",
    re.IGNORECASE,
)
# Words about the memory or the conversation itself: a message holding them speaks of what
# was said, not of the user ("that part can go", "no need to keep the old one").
_OF_THE_TALK = re.compile(
    r"\b(?:remember\w*|memor\w*|forg[eo]t\w*|stor(?:e|ed|ing)|sav(?:e|ed|ing)|keep\w*|kept|"
    r"notes?|on file|records?|recorded|know|knowing|mention\w*|said|told|earlier|before|"
    r"anymore|any more|part|bit|stuff|thing)\b",
    re.IGNORECASE,
)
_WHEN_AHEAD = re.compile(
    r"^feeling\b|\b(?:tomorrow|tonight|next (?:week|month|year|time)|later|soon)\b",
    re.IGNORECASE,
)


def mask_quotes(text: str) -> str:
    """The text with each quotation blanked out (same length, so offsets still hold)."""
    return _QUOTE.sub(lambda m: " " * len(m.group()), text)


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    for m in _SENTENCE.finditer(text):
        if m.group().strip():
            yield m.start(), m.end()


def _clauses(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    for m in _CLAUSE_BREAK.finditer(text, start, end):
        if len(_WORD.findall(text, at, m.start())) <= 1:
            continue  # "Jonas, my son, …": a name before an apposition opens no clause
        if m.start() > at:
            yield at, m.start()
        at = m.end()
    if at < end:
        yield at, end


def _trim(text: str, lang: Compiled) -> str:
    fillers = lang.opens["fillers"]
    text = _HEDGE.sub("", text.strip(" \t,;:-–—"))
    while fillers is not None:
        m = fillers.match(text)
        if m is None or m.end() == 0:
            break
        rest = text[m.end() :].lstrip(" ,:!-–—")
        if not rest or rest == text:
            break
        text = rest
    return text.strip(" \t,;-–—")


def content_words(text: str) -> list[str]:
    """The words of a text that carry its meaning (function words and short words out)."""
    return [w for w in _WORD.findall(text) if len(w) > 2 and w.casefold() not in _STOP]


@dataclass(slots=True)
class _Group:
    """Neighbouring clauses about one thing: kept as one statement."""

    slot: str | None
    values: list[str]
    index: int
    start: int
    end: int
    edited: bool


class _Reader:
    def __init__(self, message: str) -> None:
        self.message = message
        self.code = language_of(message)
        self.lang = compiled(self.code)
        self.text = mask_quotes(message)
        self.ops: list[Op] = []
        # A turn of over 25 words is conversation more than telling: someone who tells a
        # fact to be kept says it in a sentence or two.
        self.chatty = len(_WORD.findall(message)) > 25

    def has(self, kind: str, text: str) -> bool:
        pattern = self.lang.search[kind]
        return pattern is not None and pattern.search(text) is not None

    def opens(self, kind: str, text: str) -> bool:
        pattern = self.lang.opens[kind]
        return pattern is not None and pattern.match(text) is not None

    def read(self) -> list[Op]:
        text = self.text
        if _NOT_MEANT.search(text) or _SHOUTED_PRAISE.search(text) or _BRIEF_LABEL.search(text):
            return []
        if self.form():
            return self.ops
        paste = _PASTE_INTRO.search(self.message)
        end = len(text)
        for s_start, _ in _sentences(text):
            intro = _WORK_ON.match(text, s_start)
            head = text[s_start : text.index(":", s_start)].strip() if intro else ""
            if intro and (
                self.opens("request_openers", head)
                or _TASK_VERB.match(head)
                or _TEXT_LABEL.fullmatch(head)
            ):
                end = min(end, text.index(":", s_start))
                break
        if paste is not None:
            # What follows is someone else's text, and the sentence introducing it is about
            # that text ("the email says:", "a lyric stuck in my head: '…'").
            cut = max(text.rfind(mark, 0, paste.start()) for mark in ".!?\n")
            end = cut + 1 if cut >= 0 else 0
        for s_start, s_end in _sentences(text[:end]):
            self.sentence(s_start, s_end)
        if any(op.kind == "forget" for op in self.ops):
            # A message about what to forget: its other sentences speak of the memory
            # ("I'd rather that stayed private"), not of the user, unless they say what.
            self.ops = [op for op in self.ops if op.kind != "add" or op.slot is not None]
        self.correction()
        if (
            not self.ops
            and not self.chatty
            and self.code == "en"  # its tests of a dropped "I" are English grammar
            and paste is None
            and end == len(text)
            and text == self.message  # a quotation is someone else's words
            and not _OF_THE_TALK.search(text)
        ):
            self.unheard()
        return self.ops

    def form(self) -> bool:
        """A message that is a form filled in about oneself ("Name: Beatriz. Based in: Porto.
        Field: architecture."): every sentence a field, one of them at least of a kind a
        person has. Each field is kept as written."""
        fields = [_trim(self.text[a:b], self.lang).rstrip(" .!") for a, b in _sentences(self.text)]
        labels = [_FIELD.match(f) for f in fields if f]
        if not labels or not all(labels) or self.code not in ("en",):
            return False
        if not any(category_of(m["label"]) or self.first_person(m["label"]) for m in labels if m):
            return False
        for m in labels:
            if m is not None:
                value = m.group().strip()
                self.ops.append(Op("add", self.slot_of(value), value, self.message))
        return True

    def unheard(self) -> None:
        """A short message that none of the tests above heard, yet that tells rather than
        asks, is kept in the user's words: people drop the "I" ("Been learning the cello
        since May"), fill in a form ("Job: paramedic. City: Cork.") or give a topic and their
        verdict ("Country music? No thanks."). Every sentence must tell, else the message is
        a question or a task and keeps nothing."""
        spans = list(_sentences(self.text))
        kept: list[str] = []
        topic = ""
        for index, (start, end) in enumerate(spans):
            said = _trim(self.text[start:end], self.lang)
            if not said:
                continue
            bare = said.rstrip(" .!)\"'”»")
            last = index == len(spans) - 1
            if bare.endswith("?"):
                # "Jazz fusion? Hard pass.": a bare topic before a verdict is no question;
                # "Really!?" is a reaction.
                if (
                    last
                    or len(_WORD.findall(bare)) > 3
                    or _FINITE.search(bare)
                    or re.search(r"!\?|\?!", bare)
                ):
                    return
                topic = bare
                continue
            if (
                topic
                and len(_WORD.findall(bare)) <= 4
                and not self.opens("request_openers", bare)
                and not self.opens("third_person", bare)  # "that's him": said of someone
            ):
                kept.append(f"{topic} {bare}")  # the verdict on a topic: "No thanks."
            elif self.tells(bare):
                kept.append(f"{topic} {bare}" if topic else bare)
            else:
                return
            topic = ""
        for value in kept:
            self.ops.append(Op("add", self.slot_of(value), value, self.message))

    def tells(self, said: str) -> bool:
        """Whether one sentence of an unheard message is a lasting statement of the user's."""
        if (
            self.opens("request_openers", said)
            or self.opens("question_openers", said)
            or self.opens("hypothetical", said)
            or _WHEN_AHEAD.search(said)
            or _TASK_VERB.match(said)
            or self.asks(said)
            or _REPORTED.search(said)
            or _PASSING.search(said)
            or _MOMENT.search(said)
            or _FEELING.search(said)
            or _REACTION.search(said)
            or _NOT_YET.search(said)  # a hope or a plan is no fact yet
        ):
            return False
        mine = self.first_person(said)
        if (_SOMEONE_ELSE.match(said) or _OTHER_PEOPLE.match(said)) and not _SELF_AS_PERSON.search(
            said
        ):
            return False
        if self.opens("third_person", said) and not mine:
            return False  # "It's pouring here", "They're closed on Sundays"
        label = re.match(r"([^:]{1,30}):\s*\S", said)
        if label is not None:
            # A form filled in about oneself: "Job: paramedic", not "Error: refused".
            return mine or category_of(label.group(1)) is not None
        if not mine and (_SUBJECT_VERB.match(said) or not _DROPPED_I.match(said)):
            # Without an "I", only a sentence whose "I" was dropped before its verb is the
            # user's: "Paris is the capital of France" is about Paris.
            return False
        if _BARE_IMPERATIVE.match(said):
            return False  # "Pull the details out into JSON"
        return self.lasting(said)

    # -- one sentence ----------------------------------------------------------------------
    def sentence(self, start: int, end: int) -> None:
        said = _trim(self.text[start:end], self.lang)
        if not said:
            return
        if self.forget(said):
            return
        if self.opens("hypothetical", said) or re.search(
            r"\b(?:pretend|imagine|hypothetically|role-?play|what if|let's say|in a world|"
            r"picture (?:me|yourself|this|a world))\b",
            said,
            re.IGNORECASE,
        ):
            return
        question = said.rstrip(" )\"'”»").endswith("?")
        conditional = re.match(
            r"(?:when|whenever|if|every time|each time)\s+(?:you|u)\b", said, re.I
        )
        lasting_start = re.match(
            r"(?:always|never|from now on|going forward|in future)[,\s]+", said, re.I
        )
        bare = said[lasting_start.end() :] if lasting_start else said
        request = self.opens("request_openers", bare) or conditional is not None
        conditional = conditional or (lasting_start if request else None)
        if request or (question and self.has("lasting", said)):
            self.directive(said, start, end, standing=conditional is not None)
            return
        if question:
            self.indirect(start, end, causal_only=True)
            return
        spans = [
            (c_start, c_end)
            for c_start, c_end in _clauses(self.text, start, end)
            if _trim(self.text[c_start:c_end], self.lang)
        ]
        about_user = any(self.about_user(_trim(self.text[a:b], self.lang)) for a, b in spans)
        # Clauses about one thing stay one statement, in the user's words as written; a
        # clause about something else ("I'm vegetarian and I live in Ghent") is its own.
        groups: list[_Group] = []
        for index, (c_start, c_end) in enumerate(spans):
            clause = _trim(self.text[c_start:c_end], self.lang)
            judged = self.clause(clause, sentence_about_user=about_user)
            if judged is None:
                continue
            slot, value = judged
            slot = slot or self.slot_of(value)
            last = groups[-1] if groups else None
            if last and last.index == index - 1 and (slot is None or last.slot in (None, slot)):
                last.slot, last.index, last.end = last.slot or slot, index, c_end
                last.values.append(value)
                last.edited = last.edited or value != clause
            else:
                groups.append(_Group(slot, [value], index, c_start, c_end, value != clause))
        if not groups:
            self.own_relatives(start, end)
        for group in groups:
            switched = any(_SWITCH.search(v) for v in group.values)
            changed = any(_CHANGE.search(v) for v in group.values)
            if group.slot is not None and switched and slot_info(group.slot).kind == "list":
                # "Switched to a Mac": the newest statement about the same thing goes (a
                # single-valued slot supersedes by itself, keeping the old value's history).
                self.ops.append(Op("retract", group.slot, NEWEST, said))
            if len(group.values) == 1:
                value = group.values[0]
            elif group.edited:
                value = ", ".join(v.rstrip(".!") for v in group.values)
            else:  # as written, separators and all
                value = _trim(self.message[group.start : group.end], self.lang)
            # A change said outright ("I moved over to marketing") replaces what was said
            # last when nothing of its own kind was said before.
            self.ops.append(Op("add", group.slot, value, said, NEWEST if changed else None))

    def forget(self, said: str) -> bool:
        around = _FORGET_AROUND.search(said)
        pattern = self.lang.search["forget"]
        m = pattern.search(said) if pattern is not None else None
        if m is None and around is None:
            return False
        if m is not None:
            before = said[: m.start()].strip(" ,")
            # A verb of forgetting in the user's life ("I always forget my keys", "I steer
            # clear of energy drinks") asks nothing of the memory.
            asks_memory = re.search(r"\byou\b|rememb|memor|stor|sav|keep|know", m.group(), re.I)
            if not asks_memory and re.search(
                r"\b(?:i|we|ich|je|yo)\b\s*(?:\w+\s+)?\w*\s*$", before, re.IGNORECASE
            ):
                return False
            target = said[m.end() :].strip(" .!?")
            if _THE_REST.match(target):
                # "Keep my name, lose the rest": everything goes but what is to stay.
                kept = _KEEP.search(said)
                self.ops.append(Op("forget", FORGET_ALL, "", said, kept and kept["what"]))
                return True
            if not self.target_words(target):
                # "The Hungarian detail doesn't need to stick around": the topic comes first.
                target = before or target
        else:
            assert around is not None
            before, target = said[: around.start()], around.group("target")
        # "…; keep the name and the job": what is to stay is no part of what goes.
        target = re.sub(
            r"(?:[;,]\s*)?\b(?:but\s+)?(?:keep|behalte|garde|guarda|mantén)\b[^;]*;?",
            " ",
            target,
            flags=re.I,
        )
        if _EVERYTHING.search(target.strip()):
            self.ops.append(Op("forget", FORGET_ALL, "", said))
            return True
        words = self.target_words(target)
        if not words:
            # "Scrub that." / "Forget that last bit.": the newest fact.
            self.ops.append(Op("forget", NEWEST, "", said))
            return True
        category = category_of(target) or style_aspect_of(target)
        if category is not None and len(words) <= 3:
            self.ops.append(Op("forget", category.slot, "", said))
        for word in words:
            self.ops.append(Op("forget", None, word, said))
        return True

    @staticmethod
    def target_words(target: str) -> list[str]:
        target = re.split(
            r"\b(?:from|out of|off)\s+(?:your|my|the)?\s*(?:memory|list|notes|file|records?|"
            r"whatever)\b|\b(?:i|that i)\s+(?:mentioned|said|told)\b|\bfrom before\b",
            target,
            flags=re.IGNORECASE,
        )[0]
        previous = None
        while previous != target:
            previous = target
            target = _FORGET_TARGET_TRIM.sub("", target.strip(" ,.")).strip()
        return content_words(target)

    def directive(self, said: str, start: int, end: int, *, standing: bool) -> None:
        """A request: a standing instruction about replies, or a task (nothing kept)."""
        if _STANDING_DISLIKE.match(said):
            self.ops.append(Op("add", "dislikes", said, said))  # "avoid recommending X"
            return
        aspect = style_aspect_of(said)
        if aspect is None:
            self.indirect(start, end)
            return
        polite = re.match(
            r"(?:(?:please|pls|plz|can you|could you|would you|will you|kindly)\b"
            r"[\s,]*)*",
            said,
            re.I,
        )
        verb = said[polite.end() if polite else 0 :]
        if _TASK_VERB.match(verb) and not (standing or self.has("lasting", said)):
            self.indirect(start, end)  # "explain the key points step by step": this task's
            return
        opener = self.lang.opens["request_openers"]
        rest = said
        while opener is not None and (m := opener.match(rest)) and m.end() > 0:
            rest = rest[m.end() :].lstrip(" ,")
        named = category_of(said)
        if named is not None and named.slot == "name":
            self.ops.append(Op("add", "name", said, said))  # "please call me Bex"
            return
        object_first = re.match(
            r"(?:this|that|these|those|the following|the attached|my|it's|our|a|an|some)\b",
            rest,
            re.I,
        )
        worked_on = not _STYLE_VERB.match(rest) and re.match(
            r"[\w-]+\s+(?:this|that|these|those|the|it|my|our)\b", rest, re.I
        )
        if object_first or worked_on:
            self.indirect(start, end)  # "proofread this paragraph": a task on a text
            return
        # A directive about replies with no task in it stands until the user says otherwise.
        self.ops.append(Op("add", aspect.slot, said, said))

    def indirect(self, start: int, end: int, *, causal_only: bool = False) -> None:
        """Inside a request, a clause giving the user's own reason still tells: "since I'm
        vegan, suggest a dinner", "as a diabetic, what can I eat?"."""
        apposed = _AS_A.match(self.text, start, end)
        if apposed is not None:
            value = apposed.group("what").strip()
            self.ops.append(Op("add", self.slot_of(value), value, apposed.group()))
        for m in _MY_PEOPLE.finditer(self.text, start, end):
            person = m.group().removesuffix("'s")
            self.ops.append(Op("add", self.slot_of(person) or "family", person, m.group()))
        self.own_relatives(start, end)
        for m in _THATS_ME.finditer(self.text, start, len(self.text)):
            if m.start() < end:  # "…for a software developer who sits all day? That's me."
                value = (m.group("who") or m.group("like") or "").strip()
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))
        for c_start, c_end in _clauses(self.text, start, end):
            clause = _trim(self.text[c_start:c_end], self.lang)
            if causal_only and not re.match(r"(?:since|because|as)\b", clause, re.I):
                continue
            if clause and not self.opens("request_openers", clause) and self.first_person(clause):
                judged = self.clause(clause, sentence_about_user=True)
                if judged is not None:
                    self.ops.append(Op("add", judged[0], judged[1], clause))

    def own_relatives(self, start: int, end: int) -> None:
        """ "…near Grenoble, where I live?", "…at the hospital where I work as a nurse": a
        relative clause of the user's own, inside a question or a need, still tells."""
        for m in _OWN_RELATIVE.finditer(self.text, start, end):
            said = m.group("said").strip(" ,?.!")
            place = m.group("place")
            value = m.group().strip(" ,?.!") if place else said
            if place or self.clause(said, sentence_about_user=True) is not None:
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))

    @staticmethod
    def slot_of(value: str) -> str | None:
        if _NAME_INTRO.search(value):
            return "name"
        if _IN_PLACE.search(value):
            return "home"
        subject = _MY_PEOPLE.match(value)
        if subject is not None:
            # "My sister lives in Galway" is about the sister: it must not move the user.
            found = category_of(subject.group())
            return found.slot if found else "family"
        favourite = _FAVOURITE.search(value)
        if favourite is not None:
            thing = favourite.group("thing") or favourite.group("after") or "thing"
            return favourite_slot(
                re.sub(r"\s+(?:now|these days|too|again)$", "", thing, flags=re.I)
            )
        found = category_of(value)
        return found.slot if found else None

    # -- one clause ------------------------------------------------------------------------
    def first_person(self, clause: str) -> bool:
        return self.has("first_person", clause) or self.has("first_person_verbs", clause)

    def about_user(self, clause: str) -> bool:
        if _SELF_INTRO.search(clause):
            return True
        if _OTHER_PEOPLE.match(clause) and not _SELF_AS_PERSON.search(clause):
            return False
        verbs = self.lang.opens["first_person_verbs"]
        if _USER_SUBJECT.match(clause) is not None or (
            verbs is not None
            and verbs.match(re.sub(_ADVERBS, "", clause, count=1, flags=re.I)) is not None
        ):
            return True
        # "Sesame sends me to the ER", "home for me is Leith": the user is named further in,
        # which counts when the clause is about something a person has (a category), and its
        # subject is no "it", "they" or "this".
        return (
            _MINE.search(clause) is not None
            and not self.opens("third_person", clause)
            and category_of(clause) is not None
        )

    def clause(self, clause: str, *, sentence_about_user: bool) -> tuple[str | None, str] | None:
        """The (slot, words) a clause adds, or None; retirements it implies are queued."""
        if self.asks(clause) or _PASSING.search(clause) or _MOMENT.search(clause):
            return None
        negated = list(_NO_MORE.finditer(clause))
        for m in negated:
            self.retire(m["old"], bare_ok=False)  # "not a barista any more", "no more bus"
        if negated and negated[0].start() == 0:
            return None  # the clause only says what no longer holds
        if _REPORTED.search(clause) or _ADVICE.search(clause):
            return None  # someone's words, or advice and mottos ("never give up on your dreams")
        if _PLAN.search(clause) and self.slot_of(clause) in (None, "travel", "schedule", "goals"):
            return None  # "I'm going to a concert tomorrow" (but "I'm vegan and visiting…")
        if (
            _YOURS.search(clause)
            and not _USER_SUBJECT.match(clause)
            and style_aspect_of(clause) is None  # "no emojis in your replies" is about replies
        ):
            return None  # "tell me about your trip to Crete": the listener's, not the user's
        someone_else = _SOMEONE_ELSE.match(clause) or _OTHER_PEOPLE.match(clause)
        if someone_else and not _SELF_AS_PERSON.search(clause):
            return None
        intro = _SELF_INTRO.search(clause) is not None
        if not intro and self.opens("third_person", clause) and not _USER_SUBJECT.match(clause):
            return None  # "it made me think…", "they've been there for me": not the user's
        aspect = style_aspect_of(clause)
        # In a long turn, style comes from directives only, never from a remark that
        # happens to say "step" or "response".
        style = (
            aspect is not None
            and not self.chatty
            and not _REACTION.search(clause)
            and _STYLE_SAID.search(clause) is not None
        )
        if not (sentence_about_user or style or self.fragment(clause)):
            return None
        exchanged = False
        if _ENDING.search(clause):
            parts = [p for p in re.split(r",\s*|\s+and\s+|:\s+", clause) if p.strip()]
            ending = [p for p in parts if _ENDING.search(p)]
            for part in ending:
                exchange = _EXCHANGE.search(part)
                if exchange is not None:
                    # "Traded the Golf in for a Tesla": the Golf goes, the Tesla stays.
                    self.retire(exchange["old"])
                    ending.remove(part)
                    exchanged = True
                    continue
                self.retire(_ENDING.sub(" ", part))
            if not (exchanged or self.still_tells(clause) or _NOT_X.search(clause)):
                return None
            clause = ", ".join(p for p in parts if p not in ending) or clause
        for m in _NOT_X.finditer(clause):
            self.retire(m.group("old"), bare_ok=False)
        value = _NOT_X.sub("", clause).strip(" ,")
        if _NO_LONGER.search(value):
            self.retire(value, bare_ok=False)
        if not content_words(value):
            return None
        if style and aspect is not None:
            return aspect.slot, value
        if not self.lasting(value):
            return None
        return None, value

    def lasting(self, clause: str) -> bool:
        """Whether a statement holds beyond the occasion it was said on."""
        category = category_of(clause)
        if _FEELING.search(clause) or _REACTION.search(clause) or _JUDGED_ACTIVITY.search(clause):
            return False
        if _PLAN_AHEAD.search(clause) and (category is None or category.slot != "goals"):
            return False
        if _TO_YOU.search(_ASIDES.sub(" ", clause)) and (category is None or self.chatty):
            return False  # speaks to the listener: "your words mean a lot to me"
        if self.slot_of(clause) is None:
            ongoing = _ONGOING.match(clause) and not _HOW_LONG.search(clause)
            if len(content_words(clause)) < 2 or ongoing:
                # "Yeah", "Been a long road", "I'm staying positive" (but "been learning
                # the cello since May" says how long: it lasts)
                return False
            if self.chatty and not (_HOW_LONG.search(clause) and _USER_SUBJECT.match(clause)):
                # In a long turn of a conversation, a remark of no kind a person has (no
                # category) is talk, not something told to be kept.
                return False
        # One occasion, with its "I" or without ("Finished the report at last").
        episode = _EPISODE.search(clause) or (
            _DROPPED_I_PAST.match(clause) and self.slot_of(clause) is None
        )
        return not (episode and not _CHANGE_OF_STATE.search(clause))

    def asks(self, clause: str) -> bool:
        """A question without its question mark: "how do i profile a slow function"."""
        opener = self.lang.opens["question_openers"]
        if opener is None:
            return False
        m = opener.match(clause)
        if m is None:
            return False
        nxt = clause[m.end() :].split()[:1]
        return bool(nxt) and nxt[0].casefold() in {
            "do", "does", "did", "is", "are", "can", "could", "should", "would", "will",
            "i", "you", "we", "much", "many", "long", "often",
        }  # fmt: skip

    def fragment(self, clause: str) -> bool:
        """A verbless self-description ("Pescatarian here", "gluten free") counts as the
        user's only in a short message that is nothing but that."""
        found = category_of(clause)
        slot = found.slot if found else self.slot_of(clause)
        return (
            slot is not None
            and not _FINITE.search(clause)
            and len(_WORD.findall(clause)) <= 8
            and len(_WORD.findall(self.message)) <= 14
            and not self.has("third_person", clause)
            and (
                slot
                in {
                    "diet",
                    "allergy",
                    "work",
                    "name",
                    "health",
                    "pets",
                    "family",
                    "home",
                    "age",
                    "education",
                    "language",
                }
                or re.search(
                    r"\b(?:here|for me|me|only|myself|user|fan|lover|speaker|owner|person)\b",
                    clause,
                    re.I,
                )
                is not None
            )
        )

    def still_tells(self, clause: str) -> bool:
        """Whether a clause that ends something also states what holds now ("I switched to
        cello"): then it is kept too."""
        return (
            re.search(
                r"\b(?:now|these days|instead|switched to|moved to|am now|i'm now|officially|"
                r"bought|got a|took up|started|joined|became|in for|for an? \w+|"
                r"jetzt|maintenant|ahora|adesso|agora|nu)\b",
                clause,
                re.IGNORECASE,
            )
            is not None
        )

    def retire(self, text: str, *, bare_ok: bool = True) -> None:
        words = [w for w in content_words(text) if not w.isdigit()]
        if not words:
            if bare_ok:
                self.ops.append(Op("retract", NEWEST, "", self.message))
            return
        for word in words:
            self.ops.append(Op("retract", None, word, text))

    def correction(self) -> None:
        """ "Oops, typo: 26", "Correction: it's Ayla": a short message that says something
        was wrong and gives a value corrects the newest fact where it is most alike."""
        if not _CORRECTION.search(self.text) or len(_WORD.findall(self.text)) > 16:
            return
        if any(op.kind == "add" and op.slot is not None for op in self.ops):
            return  # it says something of its own ("Sorry, I'm actually vegan")
        if any(op.kind == "add" for op in self.ops) and not _RESPELT.search(self.text):
            return
        named = [m.group("old").strip() for m in _NOT_X.finditer(self.text)]
        text = _NOT_X.sub("", self.text)
        words = _WORD.findall(text)
        values = [
            w for i, w in enumerate(words)
            if (w[0].isupper() and i > 0 and len(w) > 2 and w.casefold() not in _STOP)
            or w.isdigit()
        ]  # fmt: skip
        values = [v for v in values if not _CORRECTION.fullmatch(v)]
        if not values:
            return
        self.ops = [op for op in self.ops if op.slot != NEWEST and op.kind != "add"]
        if named:
            # "ze heet Snoes, niet Pluis": the old value is named, whatever it looks like.
            self.ops = [op for op in self.ops if op.kind != "retract"]
            self.ops.append(Op("update", None, values[0], self.message, replaces=named[0]))
        else:
            respelt = SPELLING if _SPELT.search(self.text) else ""
            self.ops.append(Op("update", NEWEST, values[0], self.message, replaces=respelt))


# What a person tells to be kept fits in a few sentences; past this a message is a document
# (a megabyte piped in), and reading all of it would hold the prompt for seconds.
MAX_READ = 10_000


def extract_rules(message: str) -> Extraction:
    """The operations one user message proposes, secrets screened out."""
    if not message.strip():
        return Extraction()
    if len(message) > MAX_READ:
        head = message[:MAX_READ]
        end = max(head.rfind(mark) for mark in ".!?\n")
        message = head[: end + 1] if end > 0 else head
    return screen(_Reader(message).read())

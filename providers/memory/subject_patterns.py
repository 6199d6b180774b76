"""Who a clause is about, for the statement reader (`statements.py`): the user ("I", "my",
an introduction, the user inside a request: "where I live", "someone like me"), the
assistant addressed, or someone else (other people, someone's words passed on). Patterns
only, as in `clause_patterns`; the reader decides.
"""

from __future__ import annotations

import re

from .lexicon import PARTICLES

OTHER_PEOPLE = re.compile(
    # (Italian and Portuguese put an article before the possessive: "il mio", "o meu")
    r"\b(?:(?:il|la|i|le|o|a|os|as)\s+)?(?:my|our|mein\w*|unser\w*|mon|ma|mes|notre|nos|mi|mis|nuestr\w*|mio|mia|miei|mie|"
    r"meu|minha|meus|minhas|mijn|onze)\s+(?:[\w'’]+\s+)?"
    r"(?:friend|friends|colleague|colleagues|coworker|coworkers|co-worker|boss|manager|"
    r"client|clients|customer|customers|neighbou?r|neighbou?rs|roommate|flatmate|housemate|"
    r"classmate|teammate|guest|guests|students?|patients?|landlord|tenant|ex|mate|buddy|"
    r"pal|mentor|coach|tutor|barista|doctor|dentist|teacher|therapist|supervisor|advisor|"
    r"adviser|lecturer|professor|director|principal|headteacher|trainer|instructor|"
    # the same people in the other six languages the reader meets
    r"freund\w*|kolleg\w*|chef\w*|nachbar\w*|kund\w*|lehrer\w*|arzt|ärztin|vermieter\w*|"
    r"mitbewohner\w*|ami|amie|amis|amies|collègues?|patronne|patron|voisin\w*|médecin|"
    r"propriétaire|coloc\w*|amig[oa]s?|compañer\w*|jef[ea]s?|vecin[oa]s?|caser[oa]|"
    r"amic[oa]|amici|amiche|colleg[ah]i?|capo|vicin[oa]|vicini|vizinh[oa]s?|colegas?|"
    r"patr[ãa]o|patroa|vriend\w*|buurman|buurvrouw|buren|baas|klant\w*|leraar|lerares|"
    r"huisbaas|client[eas]*|professor\w*|profesor\w*|médic[oa]s?|medic[oa]|compagn[oa])\b",
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
    r"teammate|landlord|doctor|dentist|teacher|professor|therapist|supervisor|advisor|"
    r"adviser|lecturer|director|principal|headteacher|trainer|instructor|character|protagonist|"
    r"author|hero|villain)\b",
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
    r"i (?:read|heard|saw) (?:somewhere |online |once )?that)\b",
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
# "weirdly love olives now", "finally switched to linux": an adverb of comment or time
# before a verb whose "I" is left out. A lower-case word in -ly is such an adverb unless it
# is one of the few common nouns and adjectives so spelt ("family moved" is theirs).
_BEFORE_DROPPED = (
    r"(?:(?:(?-i:(?!(?:family|only|daily|early|ally|belly|jelly|bully|rally|fly|reply|"
    r"supply|assembly|holy|lily|silly|ugly|lovely|friendly|elderly)\b)[a-z]{2,}ly)|really|"
    r"just|still|also|actually|finally|now|recently|lately)[,\s]+)*"
)
USER_SUBJECT = re.compile(
    ADVERBS + r"(?:i|i'm|im|i've|ive|i'd|me|my|mine|we|we're|we've|our|ich|mein\w*|wir|unser\w*|"
    r"je|j'|j’|moi|mon|ma|mes|nous|notre|nos|yo|mi|mis|nosotros|nuestr\w*|me|io|mio|mia|"
    r"noi|eu|meu|minha|nós|ik|mijn|wij|we)(?:\b|(?<=['’]))"
    r"|^[^,.;]{1,40}\s+and\s+(?:i|me)\b"
    r"|^"
    + _BEFORE_DROPPED
    + r"(?:moved|switched|started|joined|quit|left|got|bought|adopted|married|graduated|"
    r"cancell?ed|dropped|sold|gave up|stopped|ditched|upgraded|swapped|turned|traded|"
    r"finished|retired|transferred|relocated|became|love|hate|use)\b"
    # ("Work hard, play harder" is a motto: the left-out "I" works somewhere, as something)
    r"|^(?:work|working)\s+(?:as|at|for|in|from|with|on|nights|days|weekends|shifts|remotely|"
    r"part|full|freelance)\b|^live\s+(?:in|near|with|on|by|alone|off|abroad|out)\b"
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
TO_YOU = re.compile(r"\b(?:you|your|you're|ya|u)\b", re.IGNORECASE)
AS_A = re.compile(
    r"\s*(?P<what>(?:as|being)\s+(?:an?\s+)?[^,?.]{2,40}?)\s*,",
    re.IGNORECASE,
)
# The same apposition inside the sentence, set off by commas before the user as the subject
# it describes: "…my manager that, as a type 1 diabetic, I need breaks".
AS_A_WITHIN = re.compile(
    r"[,;]\s*(?P<what>(?:as|being)\s+(?:an?\s+)?[^,?.;]{2,40}?)\s*,\s*"
    r"(?=(?:i|i'm|i've|i'd|we|we're)\b)",
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
    r"\s+like me\b"
    # "…when you're lactose intolerant like me": what "you" stands in for is the user.
    r"|\b(?:you're|you are|they're|they are|who's|who is|who are)\s+"
    r"(?P<being>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+like me\b",
    re.IGNORECASE,
)
# The commonest nationalities, said as adjectives ("I'm Dutch", "I'm half Brazilian").
NATIONALITY = (
    r"(?i:british|english|scottish|welsh|irish|american|canadian|mexican|brazilian|argentin\w+|"
    r"chilean|colombian|peruvian|cuban|spanish|portuguese|french|belgian|dutch|german|swiss|"
    r"austrian|italian|greek|polish|czech|slovak|hungarian|romanian|bulgarian|ukrainian|"
    r"russian|swedish|norwegian|danish|finnish|icelandic|turkish|kurdish|iranian|persian|"
    r"israeli|lebanese|syrian|egyptian|moroccan|algerian|tunisian|nigerian|ghanaian|kenyan|"
    r"ethiopian|somali|south african|indian|pakistani|bangladeshi|sri lankan|nepali|chinese|"
    r"japanese|korean|vietnamese|thai|filipino|filipina|indonesian|malaysian|australian|"
    r"kiwi|jewish|arab|latin[oa]|asian|european|african|half \w+)"
)
# A short name glossed by the full one: "Kit, short for Christopher", "Basti, kurz für
# Sebastian".
_SHORT_FOR = (
    r",?\s+(?i:short for|kurz für|diminutif de|abréviation de|diminutivo de|abreviatura de)\s+"
    r"[A-Z][\w'-]+"
)
# A title and a name the user accepts being addressed by: "Dr. Mbeki is fine", "Mr.
# Oyelaran, please", "Frau Berger passt", "Madame Roux, s'il vous plaît".
ADDRESSED = re.compile(
    r"^(?i:dr|mr|mrs|ms|mx|miss|prof|professor|herr|frau|monsieur|madame|mme|señora?|sra?|"
    r"doña|don)\.?\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?(?:\s+(?i:is|would be|ist|est|es)\s+"
    r"(?i:fine|good|great|ok|okay|perfect|best|gut|bien|bon|parfait|perfecto)|\s+(?i:works|will do|"
    r"passt|va bien|me va)|,?\s*(?i:please|bitte|s'il vous plaît|por favor))(?:\s+(?i:for me))?"
    r"[.!]?$"
)
NAME_INTRO = re.compile(
    rf"{ADDRESSED.pattern}|"
    rf"^(?:(?i:it's|this is|i'm|i am|im|ich bin|je suis|c'est|soy)\s+)?[A-Z][\w'-]+"
    rf"(?:\s+(?i:{PARTICLES}))?{_SHORT_FOR}"
    r"|^(?i:(?:hi|hey|hello)[,!]?\s+)?(?i:i'm|i am|im|it's|this is|call me)\s+"
    # "It's Tuesday", "I'm Dutch": a day of the calendar or a nationality, not a name.
    r"(?!(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|"
    r"july|august|september|october|november|december|christmas|easter)\b)"
    rf"(?!{NATIONALITY}\b)[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?"  # a surname may follow
    r"(?:\s+from\s+[^,.!?]{1,40}?)?(?i:\s+again)?"
    # an aside after the name: "It's Sid btw, short for Siddharth"
    r"(?i:,?\s+(?:btw|by the way))?(?i:,\s*(?:short for|as in|with an?)\s+[^.!?]{1,30})?[.!]?$"
    r"|^(?i:(?:it's|this is)\s+)?(?!I\b|I['’])[A-Z][\w'-]+\s+(?:from\s+[^,.]{1,40}\s+)?here\b"
    r"|^(?i:the\s+)?(?i:name's|name is)\s+[A-Z][\w'-]+",  # "The name's Okonkwo"
)
# Where the user is, said with a place's name: "I'm in Toronto", "now in Accra".
IN_PLACE = re.compile(
    # (a word between says where or when the user is, not what: "I'm interested in
    # Buddhism", "I'm fluent in German" are no home)
    r"\b(?i:i'm|i am|im|we're|we are|now|currently|still|based)\s+"
    r"(?i:(?:\w+ly|now|still|based|living|staying|settled|located|stationed|posted|back|"
    r"here|over|out|up|down|right|just|finally|also|away|home|mostly|somewhere)\s+)?(?i:in|near|"
    r"outside|out of)\s+(?:the\s+)?[A-Z][\w'’-]+"
    # "I've settled in Perth": settled is where one lives now
    r"|\b(?i:i've|ive|we've|i have|we have|i|we)\s+(?i:(?:finally|just|now)\s+)?(?i:settled)\s+"
    r"(?i:(?:down\s+)?in)\s+[A-Z][\w'’-]+"
    # "Been in Swansea since the spring": a stay with its start or length told is a home.
    r"|\b(?i:been)\s+(?i:living\s+)?(?i:in)\s+[A-Z][\w'’-]+(?=[^.!?]*\b(?i:since|for (?:\w+ )?"
    r"(?:years|months)))",
)
# The user in another's clause, but not as the one told or asked ("keeps telling me she's…").
# The user as the one a verb of naming names, whoever does the naming: "folks call me Roz",
# "alle nennen mich Fritzi", "mes amis m'appellent Mimi", "todos me dicen Chema".
NAMED_ME = re.compile(
    r"\b(?:calls?|called|calling|know|knows|known)\s+me\s+(?:as\s+)?(?-i:[A-Z])|"
    r"\b(?:nenn|ruf|kenn)\w*\s+mich\s+(?:als\s+)?(?-i:[A-Z])|"
    r"\bm['’](?:appel|surnomm)\w*\s+(?-i:[A-Z])|\bme\s+(?:surnomm|appel)\w*\s+(?-i:[A-Z])|"
    r"\bme\s+(?:llam|dic|conoc|apod)\w*\s+(?:como\s+)?(?-i:[A-Z])|"
    # the object after the infinitive or before the verb: "llamarme Nacho", "mich Tommy nennen"
    r"\b(?:llam|decir|apod)\w*me\s+(?-i:[A-Z])|\bmich\s+(?:\w+\s+)?(?-i:[A-Z])[\w'-]+\s+(?:nenn|ruf)",
    re.IGNORECASE,
)
# The user among a clause's subjects ("My friend and I run a shop"); "me" after a preposition
# is the user as a place or a goal, not a subject ("the guy in the flat above me", "kind to me").
SELF_AS_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|(?<!telling )(?<!told )(?<!tells )(?<!tell )(?<!asked )(?<!asks )"
    r"(?<!asking )(?<!above )(?<!below )(?<!beside )(?<!behind )(?<!near )(?<!next to )"
    r"(?<!to )(?<!for )(?<!with )(?<!from )(?<!of )(?<!at )me|myself|ich|mich|mir|je|moi|yo)\b",
    re.I,
)
# The user as the one someone set to a task: "they've got me teaching biology", "work has
# me on nights", "they moved me to days".
SET_TO = re.compile(
    r"\b(?:got|have|has|had|put|moved|switched|transferred|assigned)\s+me\s+"
    r"(?:\w+ing\b|on\s+\w+|to\s+\w+|as\s+(?:an?\s+)?\w+)",
    re.I,
)
# Kin and pets in the other six languages, after their possessives ("mein Bruder", "ma
# copine", "mi hermana", "mia sorella", "minha mãe", "mijn zus").
_THEIR_KIN = (
    r"(?i:mein|meine|meinem|meiner|unser|unsere|mon|ma|mes|notre|nos|mi|mis|nuestr[oa]s?|"
    r"(?:il |la |i |le )?(?:mio|mia|miei|mie)|(?:o |a |os |as )?(?:meu|minha|meus|minhas)|"
    r"mijn|onze)\s+(?:\w+\s+)?(?i:bruder|schwester|mutter|vater|mama|papa|eltern|sohn|"
    r"tochter|kinder|kind|frau|mann|freundin|freund|partner(?:in)?|oma|opa|hund|katze|"
    r"cousine?|tante|onkel|neffe|nichte|frère|s(?:œ|oe)ur|mère|père|parents|fils|fille|"
    r"enfants?|femme|mari|copine|copain|partenaire|oncle|neveu|nièce|chien|chat|hermano|"
    r"hermana|madre|padre|padres|hij[oa]s?|espos[oa]|mujer|marido|novi[oa]|pareja|primo|"
    r"prima|t[íi]o|t[íi]a|sobrin[oa]|perro|gato|fratello|sorella|genitori|figli[oa]|moglie|"
    r"ragazz[oa]|cugin[oa]|zio|zia|nipote|cane|gatto|irmão|irmã|mãe|pai|pais|filh[oa]s?|"
    r"namorad[oa]|cão|cachorro|broer|zus|moeder|vader|ouders|zoon|dochter|vrouw|man|"
    r"vriendin|vriend|oom|neef|hond|kat|"
    # kin by marriage, and grandparents, in each language
    r"schwieger\w+|schwager(?:in)?|gro(?:ß|ss)(?:mutter|vater|eltern)|enkel(?:in)?|"
    r"belle-\w+|beau-\w+|grand-(?:mère|père)|grands-parents|petite?-(?:fils|fille)|"
    r"suegr[oa]s?|cuñad[oa]s?|abuel[oa]s?|niet[oa]s?|yerno|nuera|"
    r"suocer[oa]|cognat[oa]|nonn[oa]|sogr[oa]|cunhad[oa]|av[óô]|"
    r"schoon\w+|zwager|opa|oma)"
)
# In a request or a question the user may still say who is in their life: "a gift for my
# wife Yuki", "my daughter's first sleepover".
MY_PEOPLE = re.compile(
    # Kin by marriage or by a parent's marriage are kin too: "stepdad", "sister-in-law".
    r"\b(?:"
    + _THEIR_KIN
    + r"|(?i:my|our)\s+(?:\w+\s+)?(?:step-?|half-?)?(?:wife|husband|partner|spouse|"
    r"girlfriend|boyfriend|son|daughter|kids?|children|child|baby|mum|mom|mother|dad|father|"
    r"parents|brother|sister|twins|grandma|grandpa|toddler|newborn|teen|teenager|stepson|"
    r"stepdaughter|grandson|granddaughter|fianc[ée]e?|cousin|aunt|uncle|niece|nephew|"
    r"grandmother|grandfather|grandparents|in-laws|stepmom|stepmum|stepdad|stepmother|"
    r"stepfather|siblings?|godson|goddaughter|dog|cat|puppy|kitten|parrot|rabbit|horse|"
    r"ferrets?|hamsters?|guinea pigs?|tortoise|turtles?|snake|lizard|gecko|budgies?|"
    r"goldfish|chickens|hens|goats?|pony|dogs|cats|rabbits|horses|ex|"
    r"[\w]+-(?:year|month|week)-old))"
    r"(?:-in-laws?)?(?![\w-])(?:'s)?"
    r"(?:,?\s+(?:named\s+|called\s+)?[A-Z][\w-]+(?:'s)?)?",
)
# A thing of the user's named with its possessive dropped, given a proper name: "home is
# Bergen these days", "job's at Siemens now", "team is Platform".
DROPPED_MY = re.compile(
    r"(?P<thing>[^\W\d_][\w-]*)(?:'s|’s|\s+is|\s+are)\s+(?:(?:now|still|currently|"
    r"officially|at|in|with|for|an?|the)\s+)*(?-i:[A-Z])",
    re.IGNORECASE,
)
# A self-description as the one who does or loves something, with no verb: "Huge cricket
# fan", "Vinyl collector", "Proud owner of a Land Rover", "Keen cyclist".
_FOR_GOOD = (
    r"huge|big|massive|proud|keen|avid|lifelong|life-long|die-hard|diehard|self-confessed|"
    r"total|serious|amateur|hobby|casual|passionate|former|retired|long-time|longtime|"
    r"obsessive|proper"
)
ONE_WHO = re.compile(
    r"(?:(?:a|an)\s+)?(?:"
    rf"(?:(?:{_FOR_GOOD})\s+)?(?:[\w'’-]+\s+){{0,3}}?"
    r"(?:fan|lover|owner|collector|enthusiast|addict|nerd|geek|buff|junkie|fanatic|devotee|"
    r"aficionado|supporter|hoarder)s?"
    # an agent noun, after a word that says the person is it for good: "Keen cyclist"
    rf"|(?:{_FOR_GOOD})\s+(?:[\w'’-]+\s+){{0,2}}?[\w'’-]+(?:er|ist|or)s?"
    r")\b(?:\s+(?:of|since|for)\b.*)?(?:,.*)?$",
    re.IGNORECASE,
)
# The user named by a role in a clause about something else: "as a single dad", "being
# the only nurse on nights".
AS_ROLE = re.compile(r"^it\S*\s.*?\b(?:as|being)\s+(?P<role>(?:a|an|the)\s+[^,.;:!?]{1,40})", re.I)
# One of the user's named in apposition: "my greyhound, Misty,", "our boat, the Tern".
NAMED_MINE = re.compile(
    r"\b(?i:my|our)\s+(?:[a-z][\w-]*\s+)?[a-z][\w-]*,\s+(?:(?i:named|called)\s+)?"
    r"(?:the\s+)?[A-Z][\w'-]+(?=\s*,|\s*[.?!]?$)",
)
SELF_INTRO = re.compile(
    r"^(?![\w .'’-]*\b(?:is|are|was|were|been|i|i'm|we)\s[\w .'’-]*(?:here|speaking))"
    r"[\w .'’-]{2,40}\s(?:here|speaking|checking in)\b|^(?:greetings|hello|hi|hey) from\s+"
    r"(?:\w+\s+)?[A-Z]|^(?:name's|name is|call me|"
    r"names?:|pronouns:|lives:|job:|(?:quick |short )?bio:|about me:)|"
    r"^(?:some )?(?:background|context|profile|intro|about me)\b[^:]{0,40}:|"
    r"^home(?: for me)? is\b[^.!?]*\b(?:in|near|outside)\s+[A-Z]|"
    # an aim for one's life named with no owner is the speaker's: "The plan is to retrain
    # as a nurse" (but "the plan is to meet at six" is the evening's)
    r"^the\s+(?:[\w-]+\s+)?(?:plan|goal|aim|dream|ambition)\s+(?:is|'s)\s+to\s+(?:become|"
    r"retrain|retire|move|emigrate|learn|study|qualify|switch|change|open|start|launch|found|"
    r"build|buy a (?:house|home|flat)|own|run my own|go back to)\b",
    re.IGNORECASE,
)


# For a message with no "I": a sentence opening with its own subject and verb is about that
# subject; one opening with a verb and its object is an order, not a statement.
SUBJECT_VERB = re.compile(
    r"(?:[\w'’-]+\s+){0,4}?(?:is|are|was|were|has|have|had|does|do|did|'s|'re|can|will|"
    r"\w+s|\w+ed)\b",
    re.IGNORECASE,
)
# "Have a nut allergy", "Get migraines a lot": a verb of having with its "I" dropped, told
# of what a body or a household has (an order to have or get something names no such kind).
DROPPED_I_HAVING = re.compile(
    r"(?:have|get|suffer from|live with|deal with|struggle with)\s+"
    r"(?!(?:me|you|it|this|that|them|a look|a go|fun)\b)",
    re.IGNORECASE,
)
YOURS = re.compile(r"\b(?:your|yours)\b", re.IGNORECASE)
PAST = (
    r"\w+ed|went|became|began|bought|sold|quit|left|took|gave|made|found|grew|built|kept|"
    r"lost|met|paid|spent|won|wrote|had|born"
)
# (after a word of time: "currently doing an apprenticeship")
DROPPED_I = re.compile(
    r"(?:(?:currently|still|now|lately|recently|also|just)\s+)?(?:been|\w+ing|" + PAST + r")\b",
    re.IGNORECASE,
)
DROPPED_I_PAST = re.compile(r"(?:" + PAST + r")\b", re.IGNORECASE)
# A possessive pronoun as a sentence's subject ("mine's 16", "ours is called Pippin"): it
# stands for the user's own one of a thing named before it ("mine too" agrees, and tells
# nothing of its own).
MINE_FIRST = re.compile(
    r"(?:mine|ours)(?:['’]s)?\b(?!\s*(?:too|as well|either|[.!?]*$))", re.IGNORECASE
)
# "he" or "she" opening a sentence, or "his"/"her" before what is theirs: someone named
# before is its subject.
THEY_FIRST = re.compile(r"(?:he|she|he's|she's|his|her)\b", re.IGNORECASE)

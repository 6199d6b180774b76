"""What a kept statement is about: a category, found from the words of the statement.

A category decides two things. Single-valued categories (where someone lives, their job,
their name, their diet) hold one current statement: a new one supersedes the old, which
moves into the fact's history. List categories (likes, allergies, pets) accumulate. The
statement itself is always kept in the user's words, so a wrong category costs an early
supersession at worst, never a wrong value.

The vocabulary below is open-class (nouns, verbs, adjectives of each domain) as any
thesaurus lists it, with stems so that inflections match and a few stems of the README's
other three languages. A statement matching none is a "note": still kept, never superseding.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .polarity import LIKING_DENIED, REFUSED, UNBEATEN


@dataclass(frozen=True, slots=True)
class Category:
    slot: str  # whether it holds one statement or a list is the slot's (slots.py)
    stems: str  # a regular-expression fragment of word starts
    guessed: bool = False  # told by a word's ending alone, not by a word that names the kind


# The parts of a body an injury or a condition is told of.
_BODY = (
    r"(?:wrist|ankle|arm|leg|knee|hip|shoulder|elbow|back|neck|finger|thumb|toe|foot|feet|"
    r"hand|rib|collarbone|hamstring|ligament|tendon|achilles|meniscus|disc|cartilage|muscle|"
    r"spine|joint|eye|ear|lung|heart|kidney|liver|stomach|gut)"
)

# Order matters: the first category whose words a statement holds wins, so the narrow ones
# (an allergy, a diet) come before the broad ones (likes, health).
CATEGORIES: tuple[Category, ...] = (
    Category(
        "name",
        # Someone else's name ("his name is Buster", "my daughter's name") is not the user's.
        r"(?<!\bhis )(?<!\bher )(?<!\btheir )(?<!\bits )(?<!\x27s )(?<!’s )name\b|named? me|"
        r"call me|calls me|called me|(?:i'm|i am) called|go by|goes by|address me|"
        r"(?:going|went) by (?-i:[A-Z])|"
        r"nickname|surname|first name|(?:rather|prefer) you (?:used?|called?)|heiße|"
        r"ich heisse|nenn\w* mich|mich (?:\w+ )?\w+ (?:nenn|ruf)|m'appel|llamarme|knows? me as|"
        r"me (?:llaman|dicen|conocen como)\b|"
        r"refer to me as|refer to me by|"
        r"meinen namen|mon prénom|"
        r"appelle-moi|appelez-moi|me llamo|llámame|mi nombre|mon nom|mein name",
    ),
    Category(
        "pronouns",
        # ("she/her", "they/them": the pair is how pronouns are written)
        r"(?:my|use|go by|with)\s+(?:\w+/)*\w+\s+pronouns?\b|(?:my\s+)?pronouns? (?:is|are)\b|"
        r"(?:she|he|they|xe|ze)/(?:her|hers|him|his|them|theirs|xem|zir)\b|"
        r"mes pronoms|mis pronombres|meine pronomen",
    ),
    Category(
        "allergy",
        # German puts the allergy at the end of a compound: "Nussallergie".
        r"\w*all?erg|\w*intoleran|anaphyla|epipen|epi-pen|hives|react(?:s|ion)? to|"
        r"break(?:s)? me out|makes? me (?:sick|ill|nauseous|throw up|vomit|itch|swell|wheez)|"
        r"coeliac|celiac|c(?:oe|œ)liaq|celiaq|celíac|zöliak|"
        r"\w*unverträglich|alérgic",
    ),
    Category(
        "diet",
        r"vegan|vegetari|veggie|pescatari|pescetari|flexitari|carnivore|omnivore|kosher|"
        r"halal|keto\b|paleo\b|gluten|lactose|fasting|calorie|teetotal|sober|"
        # named ways of eating
        r"mediterranean (?:diet|style)|low[- ]carb\b|high[- ]protein\b|"
        r"atkins\b|whole30\b|raw food|dash diet|"
        # a food or drink left out for good: "nut-free", "sugar free", "alcohol-free"
        r"(?:dairy|nut|peanut|egg|sugar|meat|alcohol|soy|wheat|caffeine|grain|fish|shellfish|"
        r"sesame|milk|pork|oil|salt)[- ]free\b|"
        r"don't drink|do not drink|végé|végan|vegano|"
        # An animal eaten is food, not a pet: "started eating chicken again".
        r"\beat(?:s|ing)?\s+(?:meat|fish|chicken|pork|beef|lamb|poultry|seafood|eggs|dairy)\b|"
        r"food restriction|dietary|diet\b|"
        r"vegetarisch|vegetariano|fleisch|viande|carne\b|\bcarne|\bmeat\b|plant-based|"
        r"plant based",
    ),
    Category(
        "age",
        # (the age of a thing or of someone else, "my car is 12 years old", is not the user's)
        r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\x27s )(?<!’s )\b(?:\d+|[a-z]+) years? old\b|"
        r"years young|\bage\b|\baged\b|my birthday|born in (?:19|20)\d\d|"
        # "as a 34-year-old", "as a 19 y/o": the user described by their age
        r"\bas an? \d+(?:-| )?(?:year-old|years? old|y/?o|yr old)\b|"
        r"born (?:on )?(?:the \d+\w* of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
        r"[a-z]* \d|born (?:on )?\d+(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
        r"oct|nov|dec)|"
        r"(?:\bi(?:'ll| will| just| am| have)?\s+|^\W*(?:just\s+|finally\s+)?|\bi'm\s+)"
        # (not an age ahead: "by the time I'm 50", "when I'm 60")
        r"turn(?:ed|ing)? \d|(?<!time )(?<!when )(?<!until )(?<!till )(?<!before )(?<!once )"
        r"\bi'?m (?:\w+ )?\d\d\b|\bi am (?:\w+ )?\d\d\b|\bi'll be \d\d\b|"
        r"jahre alt|"
        r"\bans\b|\baños\b",
    ),
    Category(
        "relationship",
        r"\b(?:i'm|i am|im)\s+(?:\w+\s+)?(?:single|married|divorced|engaged|widowed|separated)\b|"
        r"got (?:married|engaged|divorced)|in a relationship|seeing someone|dating someone|"
        # "I'm dating a guy called Tom", "I've been seeing Priya since May"
        r"\b(?:i'm|i am|im|i've been|ive been|i have been)\s+(?:\w+\s+)?(?:dating\b(?! app)|"
        r"seeing (?:(?:a|this) (?:guy|girl|man|woman|lad|boy)\b|somebody\b|(?-i:[A-Z])\w+\b))|"
        r"\b(?:and i|we) (?:divorced|separated|split up|broke up|got married|got engaged)\b|"
        r"\b(?:ledig|verheiratet|geschieden|verlobt|geheiratet|célibataire|mariée?|divorcée?|"
        r"fiancée?|solter[oa]|casad[oa]|divorciad[oa]|prometid[oa]|me casé|nos casamos)\b",
    ),
    # The user's own clinician ("my doctor put me on…", "my therapist says I have…") is who
    # treats the user: what is said of them is health, not the user's trade, so it comes
    # before home and work.
    Category(
        "health",
        r"\b(?:(?:my|our)\s+(?:\w+\s+)?|(?:seeing|see|sees) (?:a|an)\s+)"
        r"(?:doctors?|dr|gp|therapist|psychiatrist|psychologist|"
        r"counsell?or|physio\w*|specialist|surgeon|midwife|ob-?gyn|\w+ologist)\b"
        r"(?!'s\s+(?:office|surgery|practice|clinic))",
    ),
    Category(
        "home",
        # Who or what one lives with ("I live with my sister", "living with MS") is no
        # place: a new one must not supersede where the user lives.
        # ("living my dream", "living the life": an idiom, no home)
        r"\blive\b(?! without| with\b)|\blives\b(?! with\b)|"
        r"(?<!for a )\bliving\b(?! with\b| (?:my|the|a|our|his|her|their|your) (?:\w+ )?(?:dream|"
        r"life|lie|legend|moment|best|self|truth))|"
        r"\bliv(?:e|es|ing) with\b[^.;!?]{1,40}?\b(?:in|at|near|outside)\b|based in|-based|"
        # (a meeting moved to 3pm is no home)
        r"(?:moved|move|moving) to(?!\s+(?:\d|next\b|tomorrow\b|today\b|(?:mon|tues|wednes|thurs|"
        r"fri|satur|sun)day\b|the (?:morning|afternoon|evening)\b))|"
        # ("our company moved everything to Teams" is no home)
        r"moved (?!(?:me|us|them|him|her|it|everything|things|all)\b)\w+ to\b|"
        r"moved back (?:home )?to\b|"
        r"relocat|"
        # "my home" is where one lives, not "my home PC" or "my home office".
        r"my home\b(?! ?(?:pc|computer|laptop|office|network|server|setup|desk|gym|page|"
        r"screen|router|wi-?fi|printer|made|cooking|brew|country))|home for me|home is|"
        r"\b(?:flat|house|apartment|condo|place|room|bungalow|cottage) in\b|"
        r"hometown|my (?:city|town)\b|my flat|my apartment|my house|our house|"
        r"our flat|our place|my place|our own place|neighbou?rhood|village|suburb|"
        r"wohne|lebe in|gezogen|j'habite|habite|\bvivo\b|vivimos|abito|moro\b|woon|address|"
        r"street|"
        r"\bje vis\b|\bvis (?:à|en|au)\b|vivons|déménag|emménag|\bmud(?:é|ado|ada|amos)\b|verhuisd|"
        r"\binstallée?s? (?:à|en|au)\b|"
        r"\blocation\b|where i live|\bresident\b|\blocal here\b",
    ),
    Category(
        "origin",
        # Where the user comes from, which a new home does not change ("I'm from Chile
        # originally", "born and raised in Cork"); a capital says it is a place.
        r"\b(?:i'm|i am|im|we're|we are)\s+(?:originally\s+|actually\s+)?from\s+(?-i:[A-Z])|"
        r"\boriginally from\b|\bborn and raised in\b|\bborn in (?-i:[A-Z])|"
        r"\bgrew up in (?-i:[A-Z])|\bmy home country\b|\bi come from (?-i:[A-Z])|"
        r"\bich komme (?:ursprünglich )?aus\b|\bje viens d[e']|\bje suis originaire\b|"
        r"\bsoy (?:originari[oa] )?de (?-i:[A-Z])|\bnací en\b",
    ),
    Category(
        "timezone",
        # (in capitals: "est" is French for "is", "ist" German)
        r"time ?zone|timezone|\b(?:utc|gmt)\b|\b(?-i:CET|CEST|BST|EST|EDT|PST|PDT|IST|JST|AEST)\b|"
        r"(?:eastern|central|mountain|pacific|atlantic) time",
    ),
    # Before work: what someone earns is its own fact, forgotten without the job.
    Category(
        "income",
        r"salary|income|\bearn\b|\bearns\b|\bearning|\bwages?\b|paycheck|pay ?check|"
        r"take-home|per annum|gehalt|verdiene|salaire|sueldo|salario|stipendio",
    ),
    Category(
        "goals",
        r"goal|aim\b|aiming (?:for|to|at)\b|plan is|planning to|want to become|want to be an?\b|"
        r"aspire|saving up|"
        r"thinking (?:of|about) (?:working|becoming|studying|going into|training|retraining)|"
        # ("still dreaming about the broth", "dreamt of it": a night's dream, no aim)
        r"save up|dream(?!ing about|t\b|ed\b)|hope to|trying to|training for|resolution|"
        r"by the end of|"
        # "I want to open a bookshop", "I'd love to retire in Portugal": a life aim.
        r"(?:want|hope|plan|intend|would love|d love|wish) to (?:(?:open|start|run|launch|own|"
        r"build|found|write|publish) (?:a|an|my own|our own)\b|become|retire|move (?:to|abroad)|"
        r"learn\b|live in|travel (?:the world|around))|"
        # an aim with its deadline: "I want to pay off my student loans by 30"
        r"(?:want|hope|plan|intend) to\b[^.!?]{3,60}\bby (?:(?:age )?[2-9]\d\b|the time i|"
        r"next year|my \d\d(?:st|nd|rd|th)? birthday)",
    ),
    # Work told by its verb or its post, at a place of learning ("I teach maths at a high
    # school", "I work at a university"), is the user's work: the school names where.
    Category(
        "work",
        r"\b(?:i|we)\s+(?:\w+\s+)?(?:work|teach|lecture)\b(?! out\b| on (?:my|a|the) "
        r"(?:degree|thesis|dissertation|course|homework|assignment))[^.;!?]{0,30}?"
        r"\b(?:at|in|for)\b|\bmy job\b|"
        r"\b(?:teacher|lecturer|professor|tutor|headteacher|principal|dean|janitor|caretaker|"
        r"librarian|nurse|secretary) (?:at|in|of) (?:a|an|the|my|our)\b",
    ),
    Category(
        "education",
        r"student|studying|studied|majored|\bstudy\b|\bstudies\b|degree|university|\buni\b|college|school|"
        r"grade \d|year \d|phd|mba|master'?s|bachelor|sophomore|freshman|graduat|course|"
        r"apprenticeship|traineeship|studiere|étudiant|estudio|estudiante",
    ),
    Category(
        "work",
        # (a work laptop or phone is a device: "my work laptop is a ThinkPad")
        r"\bwork\b(?!\s+(?:laptop|computer|pc|machine|phone|mobile|desktop|monitor|mac)s?\b)|"
        r"\bworks\b|for a living|working (?:as|at|for|in)\b|\bjob\b|employ|employer|"
        # Work told in the past tense, or its loss: "worked in retail for years", "got laid
        # off", "made redundant", "out of work" (the job held or not held is the same kind).
        r"worked (?:as|at|for|in)\b|retiree|pensioner|"
        # "working nights as a guard", "work part-time as an usher": the role after "as".
        r"\bwork(?:s|ed|ing)?\s+(?:[\w-]+\s+){1,2}?as\s+an?\b|"
        r"laid off|redundan|out of work|between jobs|jobless|unemployed|"
        r"hired|career|"
        r"profession|"
        r"by trade|self-employed|freelanc|my company|our company|my team|my boss|colleague|"
        r"office|shifts?\b|salary|retired|startup|teach(?:es|ing)?\b|consultan|intern\b|internship|"
        r"i run a|i own a|i manage|manager|engineer|developer|designer|teacher|nurses?\b|"
        r"nursing|doctor|"
        r"\bvet\b|"
        r"lawyer|accountant|chef|\bcook\b|electrician|plumber|paramedic|scientist|researcher|"
        r"analyst|officer|lecturer|lecture|professor|postdoc|\bgp\b|surgeon|therapist|"
        r"architect|pilot|driver|writer|journalist|artist|musician|farmer|mechanic|"
        r"barista|bartender|waiter|waitress|cashier|baker|butcher|welder|carpenter|joiner|"
        r"roofer|builder|tradesman|tradie|labou?rer|cleaner|carer|caregiver|nanny|childminder|"
        r"hairdresser|barber|pharmacist|dentist|hygienist|midwife|physio|firefighter|"
        r"police|soldier|courier|receptionist|secretary|clerk|librarian|tutor|translator|"
        r"interpreter|programmer|coder|\bdevs?\b|sysadmin|solicitor|barrister|paralegal|"
        r"realtor|estate agent|contractor|technician|"
        # German compounds end in the trade: "Krankenpfleger", "Grundschullehrerin".
        r"\w*lehrer|\w*pfleger|\w*ärzt|\w*bäcker|\w*verkäufer|\w*ingenieur|köchin|"
        r"infirmi|boulang|serveu|médecin|avocat|enfermer|camarer|médic[oa]\b|abogad|"
        r"cociner|ingenier|mesero|profesor|"
        r"arbeite|arbeit\b|beruf|je travaille|travaille|travail\b|emploi|trabajo|empleo|lavoro|"
        r"\bje bosse\b|\bcurro\b|\bbin (?:jetzt |nun |inzwischen )?bei\b|"
        r"trabalho|werk",
    ),
    Category(
        "family",
        r"wife|husband|partner|spouse|girlfriend|boyfriend|fianc|married|divorc|widow|"
        r"son\b|sons\b|daughter|step(?:son|daughter|kids?|children|mum|mom|dad|father|mother|"
        r"brother|sister)|kids?\b|kiddos?\b|child\b|children|baby|toddler|twins|teenager|mum\b|mums\b|mom\b|moms\b|"
        r"mother|dad\b|father|parent|brother|sister|sibling|grandma|grandpa|grandmother|"
        r"grandfather|grandchild|niece|nephew|aunt|uncle|cousin|in-law|"
        # Whole words: "Maria" is no "mari", "Mannheim" no "Mann".
        r"frau\b|mann\b|tochter|töchter|sohn\b|söhne|kinder\b|eltern|mutter|vater|bruder|"
        r"brüder|schwester|enkel|femme\b|mari\b|fille\b|filles\b|fils\b|enfants?\b|mère|père|"
        r"frères?\b|sœur|soeur|esposa|esposo|hija|hijo|madre|padre|herman[oa]s?\b|niñ[oa]s\b|"
        r"niet[oa]s?\b",
    ),
    Category(
        "pets",
        r"\bpet\b|\bpets\b|\bdog\b|\bdogs\b|puppy|pup\b|\bcat\b|\bcats\b|kitten|parrot|"
        r"budgie|hamster|guinea pig|rabbit|bunny|tortoise|turtle|lizard|gecko|snakes?\b|"
        r"horses?\b|horse-?riding|"
        r"pony\b|ponies|goldfish|aquarium|ferret|chicken|greyhound|collie|terrier|retriever|labrador|"
        r"poodle|doodle|goldendoodle|labradoodle|cockapoo|cavapoo|mutt|furball|rescue|corgi|beagle|spaniel|dachshund|husk(?:y|ies)|pug|"
        r"schnauzer|shepherd|whippet|lurcher|pointer|setter|boxer\b|bulldog|chihuahua|"
        r"maine coon|siamese|tabby|ragdoll|moggy|cockatiel|canary|axolotl|"
        r"hund\b|hunde\b|katze|chien|(?:mon|un|le|mes) chats?\b|perro|"
        r"gatos?\b|kat\b|"
        # the animals kept in the README's other languages, and in Italian, Portuguese, Dutch
        r"kaninchen|meerschweinchen|papagei|wellensittich|schildkröte|pferde?\b|kater\b|"
        r"welpe|hündin|lapins?\b|chaton|chiot|perroquet|perruche|cochon d'inde|tortue|"
        r"chienne|poisson rouge|perr[oa]s?\b|perrit[oa]|gatit[oa]|gatas?\b|conejo|loro\b|"
        r"periquito|tortuga|caballo|cachorro|cobaya|gatt[oa]\b|coniglio|pappagallo|coelho|"
        r"papagaio|\bhond\b|konijn|papegaai|paard\b",
    ),
    Category(
        "health",
        r"diabet|asthma|epilep|\bocd\b|migrain|arthrit|adhd|autis|dyslex|anxiety|depress|bipolar|"
        r"injur|surgery|recover|chronic|condition|disabilit|wheelchair|blind\b|colou?r-?blind|"
        r"partially sighted|visually impaired|deaf|hearing|"
        # German names an ailment after the part of the body: "Rückenprobleme".
        r"(?:rücken|knie|herz|hüft|schulter|nacken|magen|darm|kopf)(?:problem|schmerz|leiden|"
        r"verletzung|operation)|"
        r"hard of hearing|knees?\b|back pain|\bbad back\b|blood pressure|cholesterol|pregnan|"
        r"medication|\bmg\b|prescri|therapy|doctor says|diagnos|insomnia|sleep apnea|"
        r"\bacl\b|cancer|heart (?:condition|disease|attack|surgery|problem|murmur|failure|rate)|"
        r"cardiac|health\b|medical|antidepress|inhaler|pacemaker|chemo\b|chemotherapy|radiotherapy|dialysis|sciatica|"
        r"crohn|colitis|\bibs\b|fibromyalg|lupus|multiple sclerosis|\bms\b|parkinson|"
        r"eczema|psoriasis|tinnitus|vertigo|hay fever|fatigue|flat-foot|scoliosis|hernia|"
        r"heuschnupfen|asthme|\basma\b|diabète|diabetes|migräne|migraña|"
        r"stammer|stutter|ptsd|hypertension|thyroid|anaemi|anemi|endometriosis|pcos|gout\b|"
        r"osteopor|glaucoma|cataract|dementia|alzheimer|\bhiv\b|hepatitis|"
        # An injury or a lasting weakness: a word of harm before a part of the body ("broke
        # my wrist", "bad ankle"), or what an injury leaves.
        rf"(?:broke|broken|sprained|fractured|dislocated|tore|torn|pulled|injured|hurt|twisted|"
        rf"damaged|bad|dodgy|weak|gammy|trick|arthritic|replaced|fused|slipped) "
        rf"(?:my |a |an |both |the )?(?:\w+ )?{_BODY}s?\b|in a cast\b|"
        r"on crutches|fractur|gebrochen|verstaucht|bänderriss|cassé|foulé|me rompí|esguince|"
        # An operation on a part of the body, or a medical event a person has had: what
        # it leaves is lasting ("a hip replacement", "had a stroke", but "a stroke of luck").
        rf"{_BODY}s? (?:replacement|transplant|surgery|operation|op)\b|transplant|"
        r"\w{3,}ectomy\b|amput|\ba (?:mini-?)?stroke\b(?! of)|seizures?\b|concussion|"
        # What a body goes through that lasts a while, and the words that name a condition
        # by its kind ("chronic fatigue syndrome", "an eating disorder").
        r"menopaus|perimenopaus|postpartum|post-?natal|miscarri|immuno|syndrome\b|"
        r"disorder\b|intoleran|"
        # A deficiency of something the body needs, not "a deficiency in the code".
        r"(?:vitamin\s+\w+|iron|b-?12|zinc|magnesium|calcium|folate|potassium)\s+deficien|"
        # A doctor putting the user on (or off) something: a treatment, whatever it is.
        r"\b(?:doctor|dr|gp|consultant|psychiatrist|specialist|cardiologist|neurologist)\b"
        r"[\w\s']{0,20}?\b(?:put|started|switched|took|has)\s+me\s+(?:on|off)\b|"
        # Medicines named by their kind.
        r"blood thinner|anticoagul|antibiotic|antihistamin|antipsychotic|beta.?blocker|"
        r"steroid|painkiller|birth control|\bhrt\b|diabét|diabétic|"
        # A medicine, by the stems international drug names are built on (the same in
        # every language): metformin, lisinopril, sertraline, amoxicillin.
        r"meds\b|medicine|insulin|statins?\b|\bssris?\b|opioid|\w{3,}(?:pril|sartan|olol|statin|formin|gliptin|glutide|"
        r"gliflozin|prazole|oxetin|traline|opram|triptan|dipin|tinib|cillin|mycin|cyclin|"
        r"floxacin|semid|thiazid|azepam|zolam|lukast|tidin|nisolon|nison|thyroxin|parin|xaban|gabalin|"
        r"pentin)e?s?\b",
    ),
    Category(
        "dislikes",
        r"hate|hates|loathe|detest|despise|can(?:'t|not) (?:stand|bear|do)\b|dislike|"
        rf"{LIKING_DENIED}\b|no fan of|{REFUSED}|"
        r"(?:pas|plus|kein\w*|no|nada)\s+(?:\w+\s+){0,2}?(?:fan|fana)\b|"
        r"(?:tired|sick|bored) of (?!this|these|that|it\b|today|the weather)|fed up with|"
        r"avoid|allergic to fun|bores? me|boring|gross|disgust|no-go|"
        # ("ugh, coriander" is a dislike, "ugh, I'm so tired of this rain" a moment's mood)
        r"ugh(?=,?\s+(?!i\b|we\b|it|this|that))|"
        r"turns my stomach|never eat|don't eat|don't touch|aversion|"
        r"(?:tastes?|smells?) (?:like|awful|gross|bad|terrible|vile)|\bno \w+(?: \w+)? for me\b|"
        r"nicht leiden|hasse|mag kein|je déteste|déteste|n'aime pas|odio|no me gusta",
    ),
    # How the user is, said as a kind of person ("more of a go-with-the-flow person", "the
    # kind of person who reads the last page first").
    Category(
        "traits",
        r"\b(?:kind|type|sort) of (?:person|guy|girl|woman|man|people)\b|"
        r"(?:i'm|i am|im)\s+(?:\w+\s+){0,3}?(?:an?\s+)?(?:[\w-]+\s+)?person\b|"
        r"(?:i'm|i am|im) (?:someone|somebody) who\b|introvert|extrovert|ambivert|"
        r"night owl|early bird|perfectionist|procrastinat|people-pleaser|homebody",
    ),
    Category(
        "likes",
        # ("I feel like an adult", "I look like my dad": a likeness, no liking)
        r"\b(?:i|we)\s+(?!(?:feel|felt|look|looked|sound|seem|seemed)\s+like\b)(?:\w+\s+)?"
        r"(?:love|like|adore|enjoy|prefer|loved|liked|adored|enjoyed)\b|"
        r"\blove (?:of|for)\b|"
        r"fan of|big fan|fan (?:de|des|du|del|von|vom)\b|"
        r"favou?rite|fave\b|obsessed|sucker for|(?:i'm|im|i am) (?:\w+ )?into\b|"
        r"passionate about|comfort (?:food|watch|read)|can't get enough|"
        rf"{UNBEATEN}|live without|go-to|my thing|my jam|i'm all about|"
        r"addicted|significance for me|"
        r"means (?:a lot|so much|everything) to me|(?:special|important|dear) to me|"
        r"close to my heart|"
        # A verdict's frames: "Earl Grey or nothing", "window seat, every time", "tea > coffee"
        r"or nothing\b|all the way\b|every time\b|any day\b|hands down\b|"
        r"only from now on\b|"
        r"(?:is|are) the best\b|over (?:any|every|all) other|[^\W\d]\s*>\s*[^\W\d]|"
        r"team \w+\b(?= all)|"
        r"liebe\b|mag\b|j'adore|adore|j'aime|aime\b|me encanta|me gusta|amo\b|piace|gosto",
    ),
    Category(
        "hobby",
        r"hobby|hobbies|free time|spare time|weekends|pastime|"
        r"(?:play(?:s|ing)?|learn(?:s|ing|t|ed)?|practi[cs](?:e|es|ing)) (?:the )?"
        r"(?:guitar|piano|bass|drums|violin|cello|ukulele|saxophone|sax|flute|trumpet|harp|"
        r"clarinet|banjo|mandolin|chess|tennis|football|golf)\b|hiking|"
        r"climbing|bouldering|running(?! (?:on|late|out|low|behind|errands|around|a|an|my|the)\b)|"
        r"cycling|swimming|knitting|painting|gardening|baking|"
        r"fishing|birdwatch|photograph|woodwork|restor|collect|band\b|choir|gym|yoga|"
        r"marathon|triathlon|volunteer|\bmentor\b|\bmentoring\b|drawing|sketching|member of|"
        r"(?:our|my) (?:group|club|society|choir|crew)\b|belong to|part of (?:a|the|our) "
        r"(?:group|club|team|community|network|brigade|choir|band|society)|"
        r"(?:i've|i have) been (?:trying out|getting into|learning|practi[cs]ing|taking up)\b",
    ),
    Category(
        "tech",
        r"linux|windows|macos|mac\b|macbook|iphone|android|pixel|laptop|desktop|\bpc\b|"
        r"editor\b|vim\b|neovim|emacs|vscode|vs code|ide\b|terminal\b|shell\b|zsh\b|bash\b|"
        r"python|javascript|typescript|java\b|kotlin|rust\b|golang|ruby\b|rails\b|php\b|"
        r"c\+\+|c#|swift\b|elixir|haskell|sql\b|postgres|mysql|aws\b|azure|gcp\b|docker|"
        r"kubernetes|terraform|raspberry pi|my setup|tech stack|framework|self-host|obsidian|"
        r"notion\b|excel\b|programming|coding\b|devices?\b|gadgets?\b",
    ),
    Category(
        "possessions",
        # "I have an hour to plan" is time, not a thing owned.
        r"\bi (?:own|have|got|bought|drive)\b(?! (?:an? |no |some |the )?(?:hour|minute|"
        r"moment|second|day|week|time|chance|question|meeting|call|idea|photo|picture|pic|text|"
        r"message|email|letter|reply|notification|compliment|haircut)s?\b)|\bi've got\b|"
        r"my car|our car|"
        r"\bdriv(?:e|es|ing) (?:a|an|my)\b|daily "
        r"driver|\bbike\b|motorbike|vespa|printer|piano|guitar|"
        # What a person keeps for years, telling of their pursuits (a thesaurus's instruments,
        # vehicles, cameras, plants kept, ferments fed).
        r"(?:cello|violin|viola|double bass|ukulele|banjo|mandolin|harp|flute|clarinet|oboe|"
        r"bassoon|saxophone|sax|trumpet|trombone|tuba|french horn|accordion|harmonica|drum kit|"
        r"synth|synthesi[sz]er|campervan|camper van|motorhome|caravan|motorcycle|scooter|moped|"
        r"truck|sailboat|boat|yacht|kayak|canoe|camera|dslr|mirrorless|telescope|sewing machine|"
        r"pottery wheel|kiln|3d printer|espresso machine|houseplant|house plant|bonsai|succulent|"
        r"cact(?:us|i)|orchid|fern|monstera|pothos|ficus|fiddle-leaf fig|peace lily|snake plant|"
        r"allotment|sourdough starter|kombucha|scoby|kefir grains)s?\b|"
        # A thing of the user's named by its maker and a model code that ends the noun
        # phrase ("my Fujifilm X-T4", "our Yamaha P-125 at home"; "my Ryanair FR123 flight"
        # is a booking): a function word or nothing may follow, not a noun.
        r"(?:my|our) (?-i:[A-Z])[\w-]+ (?-i:[A-Z])[\w-]*\d[\w-]*\b(?!\s+(?!(?:before|after|"
        r"for|to|in|on|at|with|from|and|or|but|so|if|when|that|which|is|are|was|has|have|had|"
        r"does|did|can|will|would|should|again|now|still|any|anymore)\b)(?-i:[a-z]))",
    ),
    Category(
        "schedule",
        r"every (?:day|morning|evening|night|week|weekday|weekend|monday|tuesday|wednesday|"
        r"thursday|friday|saturday|sunday)|mondays|tuesdays|wednesdays|thursdays|fridays|"
        r"saturdays|sundays|day off|weekday|nights\b|mornings|evenings|\d(?::\d\d)? ?(?:am|pm)\b|"
        r"\d\d:\d\d|usually up|wake up|bedtime|commute|school run",
    ),
    Category(
        "language",
        r"native|speaker|fluent|bilingual|mother tongue|first language|second language|"
        r"learning (?:spanish|french|german|italian|japanese|chinese|mandarin|korean|"
        r"portuguese|arabic|russian|dutch|welsh)|"
        # ("speak up for", "speak out", "speak to my boss": no language)
        r"speaks?\b(?!\s+(?:up|out|to|with|for|about|on|of|highly|softly|loudly)\b)|"
        r"spricht|parle|hablo",
    ),
    Category(
        "travel",
        r"\bfly\b|flying|flight|airline|trips?\b|travel|holiday|vacation|abroad|visit(?:ing)?|"
        r"spending .{1,20} in|window seat|aisle seat",
    ),
    Category(
        "values",
        r"religio|catholic|christian|muslim|jewish|hindu|buddhist|atheist|faith|church|"
        r"mosque|synagogue|temple|pray|mass\b|vote|politic|welfare|ethic|environment|"
        r"sustainab|climate|"
        # a cause the user stands for: "I speak up for the LGBTQ+ community"
        r"speak(?:ing)? (?:up|out) (?:for|against|about)\b|stand(?:ing)? up for\b|"
        r"advocat(?:e|ing) for\b|campaign(?:ing)? for\b|"
        # what counts most to the user: "what I value most", "honesty matters most to me"
        r"(?:i|we) value\b|values? most|matters? (?:most|more than|above)|(?:is|are) everything to "
        r"me|comes? first\b|am wichtigsten|plus que tout|lo más importante",
    ),
    # What someone works as, or is with no article (German, French and Spanish give a job so,
    # the agent noun straight after the verb: "bin ich Lehrerin", "je suis pâtissier", "soy
    # camarero"; German writes it with a capital, which tells it from "sicher" or "sauer").
    Category(
        "work",
        r"\bwork(?:s|ed|ing)? as\b|\barbeite als\b|\btravaille comme\b|\btrabajo como\b|"
        r"\b(?:ich bin|bin ich)\s+(?:\w+\s+)?(?-i:[A-ZÄÖÜ])\w*(?:er|erin|ist|istin|eur|eurin|"
        r"ant|antin|ent|entin|or|orin|ege|egin)\b|"
        r"\b(?:je suis|suis)\s+(?:\w+\s+)?\w+(?:eur|euse|ier|ière|iste|ien|ienne|er|ère|aire)\b|"
        r"\bsoy\s+(?:\w+\s+)?\w+(?:ero|era|ista|or|ora|ante|ico|ica|ario|aria|ogo|oga)\b",
    ),
    # What someone is, said with an English agent noun ("I'm a welder", "I'm an
    # illustrator"): the commonest way to give a job, and open-ended, so it is tried after
    # every named one; and a guess, since "a smoker" or "a Londoner" is said so as well.
    Category(
        "work",
        r"i'?m (?:now )?an? (?:\w+ )?\w+(?:er|or|ist|ian|ant|ent|ic|ee|smith|wife|man|woman)\b"
        r"(?! of\b| fan\b)|"
        r"i am (?:now )?an? (?:\w+ )?\w+(?:er|or|ist|ian|ant|ent|ic|ee|smith|wife|man|woman)\b",
        guessed=True,
    ),
)


def compiled_table(table: tuple[Category, ...]) -> tuple[tuple[Category, re.Pattern[str]], ...]:
    """Each category with its words as one pattern matched at the start of a word."""
    # People type "cant stand" and "I’m" as often as "can't stand" and "I'm".
    return tuple(
        (c, re.compile(rf"(?<![\w])(?:{c.stems.replace(_APOSTROPHE, _ANY_APOSTROPHE)})", re.I))
        for c in table
    )


_APOSTROPHE = "'"
_ANY_APOSTROPHE = "['’]?"


@functools.cache
def _compiled() -> tuple[tuple[Category, re.Pattern[str]], ...]:
    return compiled_table(CATEGORIES)


# A noun after a preposition of time names when, not what the statement is about: "a cold
# lager after work" is a taste, "nach der Arbeit", "après le travail" the same.
_WHEN = re.compile(
    r"\b(?:after|before|during|nach|vor|während|après|avant|pendant|después de|antes de|"
    r"durante)\s+(?:(?:the|my|a|der|dem|den|einem|le|la|les|l'|el|del|mi)\s*)?[\w'-]+"
    # The user's own age of life says when, not that a child is about: "diagnosed with
    # asthma as a kid", "since I was a teenager" are health, not family (but "as a kid's
    # entertainer" names work for children).
    r"|\b(?:(?:back\s+)?when|since|ever since)\s+(?:i|we)\s+(?:was|were)\s+(?:an?\s+)?"
    r"(?:(?:little|young|small)\s+)?(?:kids?|child|children|teens?|teenagers?|babys?|babies|"
    r"toddlers?|boys?|girls?)\b(?!['’]s)"
    r"|\bas\s+(?:an?\s+)?(?:(?:little|young|small)\s+)?(?:kids?|child|children|teens?|"
    r"teenagers?|baby|toddler|boy|girl)\b(?!['’]s)"
    # "diagnosed at age five", "at the age of 12": an age something happened at says when,
    # not how old the user is.
    r"|\bat\s+(?:the\s+)?age\s+(?:of\s+)?[\w-]+",
    re.IGNORECASE,
)


# Someone the user sees, meets or calls is someone else: "seeing the dentist tomorrow",
# "meeting a plumber", "talked to my accountant" name a trade that is not the user's. The
# person is left out when work is looked for (the verb stays: "I work with a designer").
_DEALT_WITH = re.compile(
    r"\b(?:see|sees|seeing|saw|seen|meet|meets|meeting|met|visit(?:s|ed|ing)?|"
    r"call(?:s|ed|ing)?|ring|ringing|rang|phon(?:e|es|ed|ing)|text(?:s|ed|ing)?|"
    r"email(?:s|ed|ing)?|book(?:s|ed|ing)?|wait(?:s|ed|ing)? for|"
    r"(?:talk|speak)(?:s|ed|ing)? (?:to|with)|spoke (?:to|with)|(?:go|goes|going|went) to|"
    r"with)\s+(?:(?:one of )?(?:a|an|the|my|our|his|her|their|this|that|some|another)\s+)"
    r"(?:[\w-]+\s+)?[\w-]+",
    re.IGNORECASE,
)


# The reader asks of the same clause many times over while it reads one message (its slot,
# whether it lasts, whether it is a fragment): the answer is the text's alone, so it is kept
# while that message is read (`extract_rules` clears it for each one).
@functools.lru_cache(maxsize=1024)
def category_of(text: str) -> Category | None:
    """The first category whose words the statement holds, or None (a note)."""
    when_left_out = _WHEN.sub(" ", text)
    for said in (when_left_out, text) if when_left_out != text else (text,):
        others_left_out = _DEALT_WITH.sub(" ", said)
        for category, pattern in _compiled():
            if pattern.search(others_left_out if category.slot == "work" else said):
                return category
    return None


def guessed_kind(text: str) -> bool:
    """Whether the statement's kind was told only by a word's ending ("I'm a smoker")."""
    found = category_of(text)
    return found is not None and found.guessed


def categories_in(text: str) -> list[Category]:
    """Every category whose words the statement holds: a statement kept in the user's words
    may be about more than one kind ("I own a bakery" is work and a thing owned)."""
    return [category for category, pattern in _compiled() if pattern.search(text)]


_REST_OF_WORD = re.compile(r"[\w'-]*")


def named_as(text: str) -> tuple[Category, str] | None:
    """The first category the text names, with the text up to the end of the word that
    names it: in "my diet balanced enough" the thing named is "my diet"."""
    for category, pattern in _compiled():
        m = pattern.search(text)
        if m is not None:
            end = _REST_OF_WORD.match(text, m.end())
            return category, text[: end.end() if end else m.end()]
    return None

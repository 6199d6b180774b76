"""Whether what a clause says lasts, for the statement reader (`statements.py`): a story of
one occasion, a feeling, a plan or the moment's state passes; a change of state, a habit or
an end with its date lasts. Patterns only, as in `clause_patterns`; the reader decides.
"""

from __future__ import annotations

import re

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
    r"monday|tuesday|wednesday|thursday|time)|ago|the other day|earlier today|this past)\b"
    # An outing told in the past, whoever had it: "the kids had a blast at the fair".
    r"|\b(?:had|have had) (?:a lot of |so much |such |a )?(?:fun|blast|great time|good time|"
    r"ball)\b"
    # Forgetting or losing a thing, in each language's past: "J'ai oublié mon parapluie",
    # "Ich habe meinen Schlüssel verloren", "Se me olvidó la cartera".
    r"|\b(?:j'ai|j’ai|on a|nous avons)\s+(?:encore\s+|déjà\s+)?(?:oublié|perdu|égaré)\b"
    r"|\b(?:ich|wir)\s+(?:habe|hab|haben)\b.{0,50}?\b(?:vergessen|verloren|verlegt)\b"
    r"|\b(?:ich|wir)\s+(?:vergaß|vergass|verlor)\b"
    r"|\b(?:se\s+me|se\s+nos)\s+(?:olvid|perdi|cay)\w*|\b(?:olvidé|perdí|he\s+(?:olvidado|perdido))\b"
    r"|\b(?:ho|abbiamo)\s+(?:dimenticato|perso)\b|\b(?:mi|ci)\s+(?:sono|siamo)\s+dimenticat[oaie]\b"
    r"|\b(?:esqueci|perdi)\b"
    r"|\b(?:ik|we)\s+(?:ben|zijn|heb|hebben)\b.{0,50}?\b(?:vergeten|verloren|kwijt)\b",
    re.IGNORECASE,
)
CHANGE_OF_STATE = re.compile(
    r"\b(?:moved|relocated|married|divorced|adopted|born|grew up|raised|started|joined|"
    r"switched|quit|retired|graduated|studied(?! for\b)|majored|hired|became|converted|"
    r"transferred|got an?|bought|brought home an?|took in an?|"
    r"took (?:a|an|up a|on a) (?:[\w-]+ )?(?:job|position|role|post)|"
    r"got married|got engaged|retrained|trained as|qualified as|promoted|upgraded|swapped|"
    r"replaced|traded|exchanged|turned \d+|completed|founded|(?:my|our) new|as of|"
    r"(?:opened|set up) (?:my|our) own|"
    # "went back to an iPhone": a return is a change too
    r"(?:went|gone|switched|moved|changed) back to (?:an?\b|using\b|my old\b|\w+ing\b)|"
    # "went into teaching": a field entered, by its activity's name.
    r"(?:went|got|moved) into \w+ing|"
    # "changed my major to biochemistry", "upped my dose to 40mg": a thing of the user's
    # given a new value.
    r"(?:changed|switched|moved|upped|raised|lowered|increased|reduced|cut|bumped|put)"
    r" (?:my|our) [\w' -]{1,30}? (?:up |down )?to\b|"
    r"(?:finished|did|earned|got|have|hold) (?:my |a |an |the )?(?:\w+ )?(?:degree|course|"
    r"training|apprenticeship|phd|masters?|diploma)|"
    r"(?:have|has|'ve|'s) been|since|for (?:\w+ )?(?:years|months|decades)|always|every|"
    r"usually|never)\b",
    re.IGNORECASE,
)
FEELING = re.compile(
    r"\b(?:i'm|im|i am|i feel|i felt|i was|i've been|we've been|we were|made me feel|"
    r"makes me feel|feeling|getting|gets)\s+"
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
    # A piece of work under way is the occasion of what is asked: "I'm writing an essay".
    r"(?:writing|drafting|making|building|preparing|putting together|organi[sz]ing|"
    r"designing|creating|reading|fixing|throwing|hosting) (?:a|an|this|some)\b|"
    r"off to|heading|ready to|looking forward)\b|\b(?:i'll|i will|we'll|i'd love to|can't wait|"
    r"i (?:\w+ )?(?:want|hope|wish|plan) to|i wanna|i might|i bet|i believe|"
    r"i can picture|i find it|(?<!than )(?<!as much as )we can|we should|we need to|let's|"
    r"we all)\b",
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
# A pursuit carried on, not the moment's doing: "I'm learning Perl", "I'm studying law".
PURSUIT = re.compile(
    r"(?:(?:now|still|currently|also)[,\s]+)*(?:i'm|im|i am|we're)\s+(?:\w+ly\s+|still\s+|now\s+|"
    r"also\s+)*(?:learning|studying|teaching|practi[cs]ing|volunteering|homeschooling|fostering)"
    # ("I'm learning a ton", "learning so much": of no pursuit named)
    r"\s+(?!(?:to|how|about|that|this|what|the ropes|a (?:ton|lot|bunch)|so much|loads|lots|"
    r"tons|heaps|something|things|stuff|new|more|every)\b)\w",
    re.IGNORECASE,
)
# A plan for one day: "I'm cooking for her on Saturday", "I have a presentation tomorrow".
WHEN_NEXT = (
    r"(?:tomorrow|this weekend|next (?:week|month|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))"
)
PLAN = re.compile(
    r"\b(?:i'm|i am|we're|we are|i will|i'll|we'll|going to|gonna|i have|i've got|we have|"
    r"we've got)\b.*\b" + WHEN_NEXT + r"\b"
    r"|^" + WHEN_NEXT + r",?\s+(?:i'm|i am|we're|i'll|i will)\b",
    re.IGNORECASE,
)
# A thing left behind somewhere: "left my keys at the office again" (an occasion, not an end).
LEFT_BEHIND = (
    r"left\s+(?:my|the|a|an|our|his|her|their)\s+(?:[\w'-]+\s+){0,3}?(?:at|in|on|behind)\s+"
    r"(?:home|work|school|the (?:office|car|train|bus|station|pub|gym|restaurant|hotel|shop|"
    r"airport|cafe|café|beach|park)|my desk)\b"
)
MOMENT = re.compile(
    r"\b(?:today|tonight|right now|just now|this morning|this afternoon|this evening|rn|"
    + LEFT_BEHIND
    + r"|"
    # A stay with its end in sight: "in Lisbon for a conference", "back Thursday".
    r"for the (?:week|weekend|night|day|holidays)|"
    r"over (?:the )?(?:holidays|christmas|easter|summer break|half[- ]term|the break)|"
    r"until the \d{1,2}(?:st|nd|rd|th)?\b|"
    r"for (?:a|one|two) (?:week|weekend|night|day|fortnight|few days|few weeks|couple of weeks)\b|"
    r"for \d+ (?:days|nights|weeks)\b|\bdelayed\b|\babout to\b|it'?s my day off|"
    r"it'?s \d{1,2}(?::\d\d)? ?(?:am|pm)\b|in a (?:bad|good|foul|terrible|great|weird) mood|"
    r"\bgutted\b|"
    r"for (?:a|the) "
    r"(?:conference|wedding|funeral|meeting|few days|couple of days)|for christmas|"
    r"(?:until|till|back(?: on)?) (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"on a (?:work |business )?trip|for a (?:work|business) trip|"
    r"headache|hangover|jet ?lag|barely slept|out of my mind|heute|gerade|aujourd'hui|"
    r"out of order|broken down|stopped working|not working|"
    # a while with its end in sight: "working from my parents' place for a bit"
    r"for a bit|for a little while|temporarily|for the time being|"
    # a thing run out of at home: "we're out of milk", "ran out of coffee"
    r"(?:(?:we|i)['’]?(?:re|m| are| am)|ran|run|running) out of|"
    r"(?:is|are) (?:so )?(?:tired|sore|aching|itchy|swollen|killing me)|"
    r"ce soir|hoy|esta noche|oggi|stasera|hoje|vandaag|"
    # The next day, this week and a holiday, in the other languages: one occasion.
    # ("jeden Morgen" is every morning)
    r"(?<!jeden )morgen|im urlaub|am wochenende|diese woche|demain|en vacances|ce week-end|"
    r"cette semaine|"
    r"mañana|de vacaciones|este fin de semana|esta semana|domani|questa settimana|amanhã|"
    r"deze week)\b",
    re.IGNORECASE,
)
# Verbs of a standing state, where one lives or works: "right now" only dates the state
# as the current one ("living in Austin rn", "ich wohne gerade in Köln").
_STANDING = re.compile(
    r"\b(?:live|lives|living|based|resid\w+|work(?:s|ing)? (?:as|at|for|in)|employed|"
    r"wohne|lebe|arbeite|habite|vis|travaille|vivo|resido|trabajo)\b",
    re.IGNORECASE,
)
_NOW = re.compile(r"right now|rn|gerade", re.IGNORECASE)


# A past occasion in the other languages ("Letzte Woche war ich in Rom"): a story, unless
# what it dates is a move or a start ("Bin letzten Monat nach Köln gezogen").
_PAST_OCCASION = re.compile(
    r"\b(?:gestern|letzte woche|letzten monat|hier soir|la semaine dernière|ayer|"
    r"la semana pasada|ieri|la settimana scorsa|ontem|gisteren|vorige week)\b",
    re.IGNORECASE,
)
_MOVED_OR_BEGAN = re.compile(
    r"\b(?:\w*gezogen|angefangen|begonnen|déménagé|commencé|installée?s?|mud[éeó]\w*|"
    r"empecé|trasferit\w*|iniziato|verhuisd)\b",
    re.IGNORECASE,
)


# A state said to hold this week, in the present: "I'm on call this week", "I'm in Rome this
# weekend".
_STATE_THIS_WEEK = re.compile(
    r"\b(?:i'm|im|i am)\s+(?:[\w'-]+\s+){0,4}?this (?:week|weekend)\b|"
    r"\bthis (?:week|weekend),?\s+(?:i'm|im|i am)\b",
    re.IGNORECASE,
)


def momentary(clause: str) -> bool:
    """Whether a clause says how things are only for the moment ("headache today", "stuck
    in traffic rn"); "right now" said of a standing state does not."""
    if _PAST_OCCASION.search(clause) and not _MOVED_OR_BEGAN.search(clause):
        return True
    if _STATE_THIS_WEEK.search(clause):
        return True  # "I'm on call this week" (but "I started a new job this week" lasts)
    said = [m.group() for m in MOMENT.finditer(clause)]
    if not said:
        return False
    return not (all(_NOW.fullmatch(w) for w in said) and _STANDING.search(clause))


PASSING = re.compile(
    r"\b(?:i'm|im|i am) at (?:a|an|the|my|our)\b|"
    r"^(?:(?:ugh|argh|urgh|oh|man|god|sigh|great)[,!.]*\s+)?(?:(?:currently|still|just|now)\s+)?"
    r"(?:stuck|waiting|queu(?:e)?ing|sitting|standing|soaked|drenched|freezing|boiling|"
    r"starving|running on|running late|home sick|off sick|off work|laid up|snowed under|"
    r"swamped)\b|\b(?:hanging in there|trying to stay|staying positive|holding up|getting by|"
    r"keeping (?:my )?head up|coping)\b|"
    r"\b(?:i'm|im|i am|i feel|feeling|i'm feeling|i was|i got)\s+(?:so\s+|really\s+|very\s+|"
    r"a bit\s+|kind of\s+|kinda\s+|super\s+|pretty\s+|totally\s+|absolutely\s+)?"
    r"(?:tired|exhausted|knackered|hungry|starving|thirsty|sleepy|bored|stressed|sick|ill|"
    r"cold|freezing|hot|sad|angry|annoyed|grumpy|excited|nervous|busy|late|lost|confused|"
    r"stuck|drunk|hungover|full|sore|fried|wiped|shattered|overwhelmed|frustrated|"
    r"in a hurry|in a rush|on my way|travell?ing|running late|on holiday|on vacation|away|"
    r"off sick|off work|home sick|laid up|under the weather)\b"
    r"(?! of\b| with\b)"  # "tired of superhero films" is a taste, not a state
    # "my cat's been sick all day": a symptom said as lately begun, of anyone.
    r"|\b(?:'s|is|has|have|'ve)\s+been\s+(?:\w+\s+)?(?:sick|ill|unwell|poorly|vomiting|"
    r"throwing up|coughing|sneezing|limping|lethargic|off (?:his|her|its|their|my) food)\b"
    r"|\b(?:ich bin|je suis|estoy)\s+"
    r"(?:so\s+|très\s+|muy\s+)?(?:müde|hungrig|fatigué|fatiguée|crevé|cansad[oa]|agotad[oa])",
    re.IGNORECASE,
)
# What holds since a change ("I'm doing nursing instead"): no passing activity.
SINCE_CHANGE = re.compile(r"\b(?:instead|these days|nowadays|full[- ]time)\b", re.IGNORECASE)
# A change the user's state began with, fronted: "Ever since we moved here from Tucson…",
# "Since I came out as nonbinary…", "After I adopted Biscuit…".
SINCE_A_CHANGE = re.compile(
    r"(?:ever since|since|after|when)\s+(?:i|we)\s+(?:\w+\s+)?"
    rf"(?:came out|(?:got|was) diagnosed|lost|left|{CHANGE_OF_STATE.pattern})",
    re.IGNORECASE,
)
# A change dated: "four years back", "a couple of years ago", "in 2019", "back in college".
DATED = re.compile(
    r"\b(?:a|an|\d+|a few|a couple(?: of)?|several|many|some|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|twelve|fifteen|twenty|thirty) (?:years?|months?|decades?) "
    r"(?:ago|back)\b|\bin (?:19|20)\d\d\b|\bback in (?:college|school|uni|high school|\d{4})\b|"
    r"\b(?:as a (?:kid|child|teen)|when i was (?:a kid|little|young|\d+))\b",
    re.IGNORECASE,
)
# An end with its date ("quit smoking two years ago"): the end itself is what lasts.
DATED_END = re.compile(
    # (a count before the unit: "tennis years ago" ended tennis)
    r"\b(?:a|an|\d+|a few|a couple(?: of)?|several|many|some|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|twelve|fifteen|twenty|thirty) (?:years?|months?|weeks?|decades?) "
    r"ago\b|\b(?:years|months|weeks|decades|ages) ago\b|\bin (?:19|20)\d\d\b|"
    r"\bsince (?:19|20)\d\d\b",
    re.IGNORECASE,
)
# When a thing was said to happen ("in May", "last week", "on Friday", "two years ago"):
# the time of an ending, never the thing that ended.
WHEN_SAID = re.compile(
    r"\b(?:(?:in|on|since|by|until|till|from)\s+)?(?:january|february|march|april|may|june|"
    r"july|august|september|october|november|december|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)\b"
    # a season or a part of the day only with its preposition: "my morning runs" ended
    r"|\b(?:(?:back |early |late )?(?:in|on|since|by|until|till|over)\s+(?:the\s+)?|"
    r"(?:last|this|next)\s+)(?:weekend|week|month|year|spring|summer|autumn|fall|winter|"
    r"morning|night|evening)\b"
    r"|\b(?:yesterday|today|tonight|recently|lately)\b|" + DATED_END.pattern,
    re.IGNORECASE,
)
# How long or how often: what makes an ongoing activity a lasting one. "Since we last
# spoke" dates a conversation, not a habit.
HOW_LONG = re.compile(
    r"\b(?:since(?!\s+(?:we|you)\b|\s+\w+\s+last\b)|"
    r"for (?:\w+ ){0,2}(?:years|months|decades|weeks)|"
    r"(?:\w+ )(?:years|decades) (?:as an?|in the)\b|"
    r"every|always|usually|most days|each (?:week|day|month|year))\b",
    re.IGNORECASE,
)
# An intention: what follows has not happened ("planning to move to Austin", "je vais
# déménager à Lyon", "ich will nach Köln ziehen"), so it is a goal, not where one lives.
INTENT = re.compile(
    r"\b(?:thinking (?:of|about)|planning (?:to|on)|plan to|hoping to|hope to|considering|"
    r"want to|wanna|would like to|'d like to|'d love to|would love to|going to|gonna|"
    r"about to|looking to|intend to|"
    r"will|möchte|plane|je vais|je veux|j'aimerais|je compte|voy a|quiero|me gustaría|"
    r"planeo|pienso)\b",
    re.IGNORECASE,
)
# "I'm trying to figure out which laptop to buy": an aim to know or decide something is the
# occasion of a question, no goal of a life.
INQUIRY = re.compile(
    r"\b(?:trying|want|wanting|need|needing|hoping|have|got|looking)\s+to\s+(?:\w+\s+)?"
    r"(?:understand|figure|work out|find out|decide|choose|pick|know|make sense|wrap my head|"
    r"get my head|learn (?:how|what|why|which|whether|if|about))\b"
    # "I'm after a flooring that grips": a thing sought for now
    r"|\b(?:i'm|im|i am|we're|we are) after (?:a|an|some|the)?\b",
    re.IGNORECASE,
)
NOT_YET = re.compile(
    r"\b(?:will|won't|might|hope|hopefully|wish|gonna|going to|someday|"
    r"one day|maybe|perhaps)\b",
    re.IGNORECASE,
)
WHEN_AHEAD = re.compile(
    r"^feeling\b|\b(?:tomorrow|tonight|next (?:week|month|year|time)|later|soon)\b",
    re.IGNORECASE,
)

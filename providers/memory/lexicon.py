"""The function words the statement reader looks for, per language.

Closed classes only: pronouns, question words, conditional and modal markers, negation,
the verbs that ask a memory to forget. These are the grammar of each language, the same for
every speaker and every topic, which is why a reader built on them carries over to sentences
nobody here wrote. Open-class vocabulary (what a sentence is about) lives in `categories.py`.

Each entry is a regular expression fragment matched on whole words, case-folded.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    # The user as subject or owner: "I", "my", "me" (and the clitics that carry them).
    first_person: str
    # First-person verb forms standing without a pronoun (pro-drop languages).
    first_person_verbs: str = ""
    # Third persons that can be a sentence's subject.
    third_person: str = ""
    # Words that open a question without a question mark.
    question_openers: str = ""
    # A condition or an imagined world: nothing after it is asserted.
    hypothetical: str = ""
    # Opens a request to the assistant ("can you", "please").
    request_openers: str = ""
    # Negation and the end of a state ("not", "no longer", "anymore").
    negation: str = ""
    # Asks the memory to forget (imperative or "don't keep").
    forget: str = ""
    # Says a statement lasts beyond the task at hand ("always", "from now on").
    lasting: str = ""
    # Sentence-initial fillers trimmed off a kept statement.
    fillers: str = ""
    # A greeting, thanks or aside closing a statement after a comma ("I'm Gwen, nice to
    # meet you", "This is Ingrid, by the way"): no part of what is stated.
    sign_offs: str = ""


# Any way of saying not to keep something, composed rather than listed: a negation or an end
# ("don't", "no need to", "stop", "I'd rather you didn't") before any verb of keeping, in any
# of its forms ("hold onto", "tracking", "remembering").
_EN_RETAIN = (
    r"(?:remember|keep|stor|sav|retain|track|log|record|not|fil|hold|hang)(?:e|es|ed|ing|s)?"
    r"(?: on ?to| onto)?"
)
_EN_NOT_RETAINED = (
    r"(?:don't|do not|didn't|did not|wouldn't|would not|won't|will not|never|no longer|"
    r"no need to|needn't|need not|stop|quit|(?:don't|do not|doesn't|does not) (?:have|need) to)"
    r"(?: you)?(?: to)?(?: be)? " + _EN_RETAIN
)

# What a thing is wanted not to be, or to be, in a request that names it in between ("I don't
# want my religion on record", "I'd like my health stuff removed").
_EN_KEPT = r"(?:saved|stored|kept|remembered|on record|on file|in (?:your )?memory)"
_EN_GONE = r"(?:removed|deleted|erased|wiped|forgotten|gone|taken out)"

EN = Language(
    "en",
    first_person=r"i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us",
    third_person=r"he|she|they|he's|she's|they're|they've|they'd|they'll|he'd|she'd|he'll|"
    r"she'll|his|him|her|their|them|it|it's|it'd|it'll|this|that|that's|that'll|there|there's",
    question_openers=r"what|whats|what's|who|whom|whose|which|when|where|why|how|is|are|am|"
    r"was|were|do|does|did|can|could|should|would|will|shall|may|might|have|has|any|anyone",
    hypothetical=r"if|suppose|supposing|imagine|imagining|pretend|pretending|hypothetically|"
    r"what if|let's say|say|assuming|assume|were i|in a world|roleplay|role-play|role play|"
    # ("I wish you'd stop using emojis" wishes a way of being answered, for good)
    r"as if|i wish(?! you)|if only i|you're my|you are my",
    request_openers=r"can you|could you|would you|will you|please|pls|plz|help|tell me|"
    r"kindly|use|keep|cap|limit|put|avoid|stop|don't|do not|never|be|answer|reply|respond|talk|"
    r"speak|call|address|cite|include|add|skip|format|stick to|go easy|no more|"
    r"get to|get straight|cut to|cut the|spare me|no need for|lose the|drop the|"
    r"show me|show|give me|let me|i need you|i want you|i'd like you|can u|could u|write|draft|"
    r"make|create|generate|explain|summari[sz]e|translate|list|describe|compare|find|fix|"
    r"check|review|plan|suggest|recommend|calculate|convert|rewrite|edit|proofread|outline|"
    r"teach|remind|brainstorm|analy[sz]e|name|pick|choose|rank|estimate|interview|quiz|"
    r"i need (?:a|an|some|help|you|ideas)|i want (?:a|an|you|ideas)|i'd like (?:a|an|you)|"
    r"i'd like (?:some )?(?:ideas|tips|help|advice|suggestions|recommendations)|"
    r"play (?:my|a|an|the)|"
    r"i'm looking for|looking for",
    negation=r"not|no|never|n't|don't|dont|doesn't|didn't|isn't|aren't|wasn't|no longer|"
    r"anymore|any more|nope|neither|nor|wrong|misspoke|mistake|typo|instead|scratch|"
    r"rather than|over|done|gone|quit|left|stopped|dropped|gave up|given up|cancel(?:led|ed)?|"
    r"sold|died|ended|finished|graduated|switched|changed|moved|transferred|replaced|ditched",
    forget=r"forget|forgets|unremember|un-remember|delete|erase|remove|wipe|scrub|drop|bin|"
    r"ditch|scrap|toss|trash|purge|clear|lose|strike|nix|un-?save|un-?learn|discard|"
    r"scratch(?= (?:my|all|everything|the bit|the part)\b)|"  # not "scratch that, it's …"
    # "the job stuff can go", not "you can go into more detail": nothing follows the verb
    r"can go(?=\s*(?:[,.;!]|$|now\b|too\b|as well\b|please\b))|"
    r"(?:take back|retract|withdraw)(?= (?:what|everything|all|anything) i (?:said|told|mentioned)|"
    r" that\b| it\b)|"
    r"get rid of|throw (?:out|away)|let go of|disregard|ignore|"
    r"no (?:reason|need) (?:for you )?to (?:remember|keep|store|hold on to|hang on to)|"
    r"don't want (?:you )?(?:knowing|to know|keeping|saving|storing|remembering|having|"
    r"holding on ?to|hanging on ?to|tracking|recording|logging)|"
    r"shouldn't have (?:shared|told you|said|mentioned)|"
    r"(?:can you |please |could you )?not (?:keep|store|save|remember|hang on to|hold on to|"
    r"hang onto|hold onto|track|log)|"
    r"you (?:don't|do not|won't|shouldn't|needn't) (?:need|have)? ?to know|"
    r"(?:rather|prefer|preferred) (?:that )?you (?:not|didn't|did not|don't|wouldn't) "
    r"(?:know|keep|store|save|remember|have)(?: anything)?|"
    r"(?:don't|do not) want (?:my |any |the |that )?[\w' -]{1,30} " + _EN_KEPT + "|"
    r"(?:i want|we want|i'd like|i would like) (?:my |the |that |those )[\w' -]{1,30} "
    + _EN_GONE
    + "|"
    r"(?:not|n't) (?:comfortable|happy|okay|ok|keen) with you (?:knowing|keeping|having|"
    r"storing|remembering)|you (?:didn't|did not|wouldn't|would not) know|"
    r"pretend (?:that )?i never (?:told you|said|mentioned|shared)|"
    r"(?:doesn't|don't|does not|do not) need to (?:stick around|be (?:remembered|kept|saved|"
    r"stored|(?:in|on) (?:your|the) (?:memory|notes|records?|list|files?)))|"
    r"(?:isn't|is not|aren't) something i want (?:remembered|saved|kept|stored)|"
    r"(?:don't|do not) need you (?:to )?(?:remember|know)\w*|(?:don't|do not) write down|"
    + _EN_NOT_RETAINED,
    lasting=r"always|from now on|from here on|going forward|in future|in the future|"
    r"whenever|every time|each time|all the time|by default|in general|generally|as a rule|"
    r"for me|for all|any time|anytime|never",
    fillers=r"hi there|hey there|hello there|oh|and|also|so|well|ok|okay|btw|by the way|fyi|"
    r"honestly|tbh|ngl|not gonna lie|not going to lie|gotta say|i must say|i have to say|just|"
    r"heads up|for the record|for what it's worth|in case|anyway|hey|hi|hello|um|uh|"
    r"hmm|actually|also|plus|oh and|just so you know|fun fact|p\.?s\.?|note|quick note|"
    r"yeah|yep|yup|yes|ah|aha|ooh|i see",
    sign_offs=r"hi|hello|hey|by the way|btw|fyi|honestly|tbh|ngl|lol|haha|thanks|thank you|"
    r"cheers|(?:nice|pleased|good|great|lovely) to (?:meet|e-?meet) you|for the record|"
    r"just so you know|if that helps|if that matters|if it matters",
)

DE = Language(
    "de",
    first_person=r"ich|mich|mir|mein|meine|meinen|meinem|meiner|meines|wir|uns|unser|"
    r"unsere|unseren|unserem|unserer",
    # Spoken German drops the "ich" before a verb in its first person: "Bin Lehrerin".
    first_person_verbs=r"bin|hab|habe|wohne|lebe|arbeite|unterrichte|studiere|mag|liebe|"
    r"hasse|esse|trinke|spiele|heiße|heisse|komme|nehme|fahre|spreche|leide|mache",
    third_person=r"er|sie|es|sein|seine|ihr|ihre|das|dies|dieser",
    question_openers=r"was|wer|wen|wem|wessen|welche|welcher|welches|wann|wo|wohin|woher|"
    r"warum|wieso|weshalb|wie|ist|sind|bin|kannst|können|könntest|hast|hat|gibt|"
    # A verb before its "du" or "ihr" asks: "Kennst du…?", "Habt ihr…?".
    r"\w+st du|\w+t ihr",
    hypothetical=r"wenn|falls|angenommen|stell dir vor|stellen sie sich vor|würde|würdest|"
    r"wäre|hätte|als ob|vielleicht|ich wünschte|wenn ich nur",
    request_openers=r"kannst du|können sie|könntest du|bitte|hilf|schreib|schreibe|erkläre|"
    r"antworte|antworten sie|sei|seien sie|halte|nutze|verwende|sprich|benutze|"
    r"erklär|übersetze|fasse|gib|zeig|zeige|mach|mache|nenne|liste|finde|vergleiche",
    negation=r"nicht|kein|keine|keinen|nie|niemals|nicht mehr|kein mehr|falsch|sondern|"
    r"stattdessen|aufgehört|verlassen|gekündigt|umgezogen|gewechselt",
    forget=r"vergiss|vergessen sie|vergesst|lösch|lösche|löschen sie|entferne|entfernen sie|"
    r"streich|streiche",
    lasting=r"immer|ab jetzt|von nun an|ab sofort|künftig|in zukunft|jedes mal|generell|"
    r"grundsätzlich|stets|nie",
    fillers=r"also|und|übrigens|ach|ja|nun|hallo|hi|ehrlich gesagt|nur|zur info",
    sign_offs=r"übrigens|hallo|hi|danke|freut mich|ehrlich gesagt",
)

FR = Language(
    "fr",
    first_person=r"je|j'|j’|moi|me|m'|m’|mon|ma|mes|nous|notre|nos",
    third_person=r"il|elle|ils|elles|son|sa|ses|leur|leurs|ce|cela|ça",
    question_openers=r"qu'est-ce|quel|quelle|quels|quelles|qui|quand|où|pourquoi|comment|"
    r"combien|est-ce|peux-tu|pouvez-vous|as-tu|y a-t-il",
    hypothetical=r"si|supposons|imagine|imaginez|imaginons|au cas où|serait|aurais|aurait|"
    r"serais|ferais|comme si|peut-être|si seulement|j'aimerais tant|j'aimerais tellement",
    request_openers=r"peux-tu|pouvez-vous|pourrais-tu|pourriez-vous|tu peux|tu pourrais|"
    r"vous pouvez|vous pourriez|s'il te plaît|"
    r"réponds|répondez|sois|soyez|utilise|utilisez|parle-moi|parlez-moi|"
    r"s'il vous plaît|stp|svp|aide|aidez|écris|écrivez|explique|expliquez|traduis|traduisez|"
    r"résume|résumez|donne|donnez|montre|montrez|fais|faites|trouve|trouvez|liste|compare",
    negation=r"ne|n'|pas|plus|jamais|aucun|aucune|non|faux|erreur|plutôt|mais|quitté|"
    r"arrêté|déménagé|changé",
    forget=r"oublie|oubliez|oublions|supprime|supprimez|efface|effacez|retire|retirez|"
    r"ne (?:garde|retiens|mémorise|enregistre)s? pas|"
    # Asked with a modal, the verb is an infinitive: "Tu peux oublier où j'habite ?"
    r"(?:tu peux|peux-tu|tu pourrais|pourrais-tu|vous pouvez|pouvez-vous|pourriez-vous|"
    r"vous pourriez)(?: bien| stp| svp)? (?:oublier|supprimer|effacer|retirer)|"
    # Wished in the subjunctive: "Je préfère que tu oublies où j'habite."
    r"que tu (?:oublies|effaces|supprimes|retires)|que vous (?:oubliiez|oubliez|effaciez|"
    r"supprimiez)",
    lasting=r"toujours|désormais|dorénavant|à partir de maintenant|à l'avenir|chaque fois|"
    r"en général|jamais",
    fillers=r"alors|et|bon|bref|au fait|d'ailleurs|salut|bonjour|coucou|franchement|aussi",
    sign_offs=r"au fait|salut|bonjour|coucou|merci|enchantée?|franchement",
)

ES = Language(
    "es",
    first_person=r"yo|me|mi|mis|mí|conmigo|nosotros|nosotras|nuestro|nuestra|nuestros|"
    r"nuestras|nos",
    first_person_verbs=r"soy|estoy|vivo|tengo|trabajo|hablo|prefiero|odio|amo|adoro|como|"
    r"bebo|uso|nací|crecí|estudio|juego|toco|sigo|voy|hago|necesito|quiero|llevo|practico|"
    r"cocino|conduzco|enseño|dirijo|me llamo|me encanta|me gusta|me gustan|me mudé|me equivoqué",
    third_person=r"él|ella|ellos|ellas|su|sus|esto|eso",
    question_openers=r"qué|quién|quiénes|cuál|cuáles|cuándo|dónde|por qué|cómo|cuánto|"
    r"cuántos|puedes|podrías|hay",
    hypothetical=r"si|supongamos|imagina|imagínate|imaginemos|en caso de|sería|tendría|"
    r"haría|como si|quizás|quizá|tal vez|ojalá|ojala",
    request_openers=r"puedes|podrías|por favor|porfa|ayúdame|ayuda|escribe|explica|explícame|"
    r"responde|respóndeme|contesta|contéstame|usa|habla|háblame|"
    r"traduce|resume|dame|muéstrame|haz|busca|encuentra|lista|compara|dime",
    negation=r"no|nunca|jamás|ya no|ningún|ninguna|ninguno|sino|equivoqué|error|"
    r"dejé|cambié|mudé",
    forget=r"olvida|olvídate|olvide|olvídese|borra|bórralo|elimina|quita|no (?:guardes|"
    r"recuerdes|memorices)|"
    r"(?:puedes|podrías|podrias|puede|podría|podria)(?: por favor)? (?:olvidar|borrar|eliminar|"
    r"quitar)|olvídalo|olvídala|olvídalos|elimínalo|quítalo|bórrala|"
    # Wished in the subjunctive: "Prefiero que olvides dónde trabajo", "no hace falta que
    # recuerdes dónde vivo".
    r"que (?:olvides|borres|elimines|quites)|no (?:hace falta|es necesario|necesitas) (?:que )?"
    r"(?:recuerdes|guardes|sepas|recordar|guardar|saber)",
    lasting=r"siempre|a partir de ahora|de ahora en adelante|en adelante|cada vez|"
    r"en general|nunca",
    fillers=r"bueno|pues|y|oye|hola|por cierto|la verdad|también",
    sign_offs=r"por cierto|hola|gracias|encantad[oa]|un saludo",
)

# The languages a user may write in without being understood fully: enough of each to keep
# its questions, conditions and other people's facts out, and its plain first-person
# statements in the user's own words.
IT = Language(
    "it",
    first_person=r"io|mi|mio|mia|miei|mie|me|noi|nostro|nostra|ci",
    first_person_verbs=r"sono|abito|vivo|lavoro|ho|studio|parlo|preferisco|odio|amo|adoro|"
    r"mangio|bevo|uso|gioco|suono|insegno|mi chiamo|mi piace|mi piacciono",
    third_person=r"lui|lei|loro|suo|sua|questo|quello",
    question_openers=r"che|cosa|chi|quale|quali|quando|dove|perché|come|quanto|puoi|potresti",
    hypothetical=r"se|supponiamo|immagina|sarebbe|avrei|farei|come se|forse|magari",
    request_openers=r"puoi|potresti|per favore|aiutami|scrivi|spiega|traduci|riassumi|dammi|"
    r"mostrami|fai|trova",
    negation=r"non|mai|più|nessun|nessuna|invece|sbagliato",
    forget=r"dimentica|dimenticati|cancella|elimina|togli|lascia perdere|lasci perdere",
    lasting=r"sempre|d'ora in poi|da ora in poi|ogni volta|in generale",
    fillers=r"allora|e|beh|ciao|comunque",
    sign_offs=r"ciao|grazie|piacere|comunque",
)

PT = Language(
    "pt",
    first_person=r"eu|me|meu|minha|meus|minhas|mim|comigo|nós|nosso|nossa",
    first_person_verbs=r"sou|estou|moro|vivo|trabalho|tenho|falo|prefiro|odeio|amo|adoro|"
    r"como|bebo|uso|jogo|toco|estudo|ensino|me chamo|gosto|saí",
    third_person=r"ele|ela|eles|elas|seu|sua|isto|isso",
    question_openers=r"que|quem|qual|quais|quando|onde|por que|porque|como|quanto|pode|"
    r"poderia",
    hypothetical=r"se|suponha|imagine|imagina|seria|teria|faria|como se|talvez|quem me dera|"
    r"tomara",
    # (the imperative of "você" and, as Brazil speaks it, of "tu")
    request_openers=r"pode|poderia|por favor|me ajude|ajude|escreva|explique|traduza|resuma|"
    r"me dê|mostre|faça|encontre|me ajuda|escreve|explica|traduz|resume|me dá|mostra|faz|"
    r"encontra|cria|crie|manda|mande",
    negation=r"não|nunca|jamais|nenhum|nenhuma|mais|errado",
    forget=r"esqueça|esquece|apague|apaga|remova|remove|tire",
    lasting=r"sempre|de agora em diante|a partir de agora|toda vez|em geral",
    fillers=r"então|e|bom|olá|oi|aliás",
    sign_offs=r"olá|oi|obrigad[oa]|prazer|aliás",
)

NL = Language(
    "nl",
    first_person=r"ik|mij|me|mijn|wij|we|ons|onze",
    third_person=r"hij|zij|ze|hun|zijn|haar|dit|dat",
    question_openers=r"wat|wie|welke|wanneer|waar|waarom|hoe|hoeveel|kun|kunt|kan|is|zijn|heb",
    hypothetical=r"als|stel|stel je voor|zou|zouden|alsof|misschien|ik wou dat|ik wilde dat",
    request_openers=r"kun je|kunt u|kan je|alsjeblieft|alstublieft|help|schrijf|leg uit|"
    r"vertaal|vat|geef|toon|maak|zoek",
    negation=r"niet|geen|nooit|niet meer|fout|foutje|maar|in plaats van",
    forget=r"vergeet|verwijder|wis|schrap",
    lasting=r"altijd|vanaf nu|voortaan|elke keer|in het algemeen",
    fillers=r"nou|en|hoi|hallo|trouwens",
    sign_offs=r"trouwens|hoi|hallo|bedankt|dank je",
)

LANGUAGES: tuple[Language, ...] = (EN, DE, FR, ES, IT, PT, NL)

_FIELDS = (
    "first_person",
    "first_person_verbs",
    "third_person",
    "question_openers",
    "hypothetical",
    "request_openers",
    "negation",
    "forget",
    "lasting",
    "fillers",
    "sign_offs",
)


@dataclass(frozen=True)
class Compiled:
    """One language's word classes as compiled patterns: `search` finds a word anywhere,
    `opens` matches at the start of a clause."""

    code: str
    search: dict[str, re.Pattern[str] | None]
    opens: dict[str, re.Pattern[str] | None]
    # A sign-off closing a clause, with the comma before it.
    closing: re.Pattern[str] | None


def _words(fragment: str) -> str:
    # An elided form ("j'", "m'") runs straight into the next word.
    return rf"(?<![\w'’])(?:{fragment})(?:(?<=['’])|(?![\w'’]))"


# Chat's abbreviations close a clause without a comma ("Kit btw", "never again lol"), and
# are typed the same in every language.
PARTICLES = r"btw|tbh|ngl|lol|lmao|haha|hahaha|imo|fwiw|tho"
# The languages the reader reads in full (the README's four); in the others it keeps only
# what it is sure of, and stores nothing wrong.
READ_IN_FULL = frozenset({"en", "de", "fr", "es"})


@functools.cache
def compiled(code: str) -> Compiled:
    lang = next(lang for lang in LANGUAGES if lang.code == code)
    search: dict[str, re.Pattern[str] | None] = {}
    opens: dict[str, re.Pattern[str] | None] = {}
    for name in _FIELDS:
        fragment: str = getattr(lang, name)
        if not fragment:
            search[name] = opens[name] = None
            continue
        search[name] = re.compile(_words(fragment), re.IGNORECASE)
        opens[name] = re.compile(r"\s*" + _words(fragment), re.IGNORECASE)
    closing = (
        re.compile(
            rf"(?:\s*[,;]\s*{_words(lang.sign_offs)}|\s+{_words(PARTICLES)})[\s.!?]*$",
            re.IGNORECASE,
        )
        if lang.sign_offs
        else None
    )
    return Compiled(code, search, opens, closing)


_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


_EN_FORGET = frozenset(EN.forget.split("|"))


@functools.cache
def _markers() -> dict[str, frozenset[str]]:
    """Each language's single-word markers, for telling which language a message is in."""
    out: dict[str, frozenset[str]] = {}
    for lang in LANGUAGES:
        found: set[str] = set()
        names = ["first_person", "first_person_verbs", "question_openers", "negation"]
        if lang.code != "en":
            # "Bitte halte deine Antworten kurz", "Oublie son adresse": a request's verbs tell
            # its language too (English's, such as "be" or "no", would count in every
            # language, and so would a verb English shares, such as "remove").
            names.extend(["request_openers", "forget"])
        for name in names:
            fragment: str = getattr(lang, name)
            found.update(
                w
                for w in fragment.split("|")
                if re.fullmatch(r"[^\W\d_]+", w) and not (name == "forget" and w in _EN_FORGET)
            )
        found.update(_FUNCTION_WORDS[lang.code].split())
        out[lang.code] = frozenset(found)
    return out


# Each language's commonest articles, conjunctions and prepositions: a message of plain
# content words ("I'll need help with grant applications") shows its language by these.
# No word is in two lists: one that two languages share tells neither.
_FUNCTION_WORDS = {
    "en": "the and with for of to is are this that have has been from",
    "de": "der die das und ist nicht mit ein eine zu für auf den dem",
    "fr": "le les et est une des pour avec dans pas du",
    "es": "el los las y es una para del",
    "it": "il gli è per che non della",
    "pt": "o os é um uma com do da não",
    "nl": "het een en van met voor op niet dat ik",
}


def language_of(text: str) -> str:
    """The language whose function words the text uses most (English on a tie)."""
    tokens = [t.casefold() for t in _TOKEN.findall(text)]
    if re.search(r"(?<![\w])[jm][’'][^\W\d_]", text, re.IGNORECASE):
        tokens.extend(["je"] * 2)  # French elision: j'habite, m'appelle
    scores = {code: sum(1 for t in tokens if t in words) for code, words in _markers().items()}
    best = max(scores.values())
    if best == 0 or scores["en"] == best:
        return "en"
    return next(code for code, score in scores.items() if score == best)

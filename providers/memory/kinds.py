"""The names of the kinds of fact: the words a person uses for a whole kind when asking about
it ("forget my occupation", "drop the medical stuff", "oublie mon adresse", "borra lo de mi
salud"), not for one fact of it.

`categories.py` tells what a statement is about from the words of the statement ("I'm a
welder" is work); a request names the kind itself, by its hypernym, and those words are
seldom in any statement of it ("occupation", "Beruf", "métier", "profesión"). They are a
closed list per kind in each of the four main languages, as a thesaurus gives them, with
stems so that inflections and compounds match ("Gesundheitsdaten", "medical history").
"""

from __future__ import annotations

import functools
import re

# The slot each kind's name stands for: forgetting a slot forgets its whole category.
_KIND_NAMES: tuple[tuple[str, str], ...] = (
    (
        "allergy",
        r"allerg|alerg|intoleran|unverträglich",
    ),
    (
        "diet",
        r"diet|dieta|régime|ernährung|eating|food (?:habits|preferences|restrictions)|"
        r"what i eat|alimentation|alimentación|hábitos alimentarios|essgewohnheit",
    ),
    (
        "health",
        r"health|medical|medic|condition|illness|disease|diagnos|gesundheit|krankheit|"
        r"medizin|santé|médical|maladie|salud|médic|enfermedad",
    ),
    (
        "home",
        r"where (?:i|we)(?: live| stay| reside| am based|'m based| are based|'re based| grew up|"
        r" come from| am from|'m from| was born)|home\b|"
        r"address|adress|location|"
        r"whereabouts|hometown|home town|wohnort|wohnung|wohnsitz|wo ich wohne|"
        r"domicile|où j'habite|où je vis|ville|dirección|direccion|domicilio|"
        r"d[oó]nde vivo|ciudad",
    ),
    (
        "work",
        r"occupation|job|career|profession|work\b|workplace|employer|what i do\b|"
        r"where i work|beruf|arbeit|arbeitsplatz|arbeitgeber|wo ich arbeite|métier|"
        r"travail|boulot|emploi|où je travaille|trabajo|profesión|empleo|oficio|"
        r"d[oó]nde trabajo|curro",
    ),
    (
        "education",
        r"education|studies|schooling|degree|bildung|studium|ausbildung|études|formation|"
        r"estudios|formación",
    ),
    (
        "family",
        r"family|relatives|familie|famille|familia|kin\b|relationship|love life|beziehung|"
        r"couple|pareja|relación",
    ),
    ("pets", r"pets?\b|animals?\b|haustier|tier\b|tiere\b|animaux|mascota"),
    ("possessions", r"car\b|cars\b|vehicle|wheels\b|auto\b|fahrzeug|voiture|véhicule|coche"),
    (
        "tech",
        r"computer|setup|set-up|hardware|software|devices?\b|gadgets?\b|rechner|ordinateur|"
        r"ordenador|computadora|tech\b",
    ),
    (
        "phone",
        r"e-?mail|phone|mobile(?: number)?|contact (?:details|info)|telefon|handy(?:nummer)?|"
        r"courriel|portable|correo|teléfono|móvil",
    ),
    ("age", r"age\b|how old|birthday|alter\b|âge|edad|geburtstag|anniversaire|cumpleaños"),
    ("name", r"name|nom\b|prénom|nombre"),
    ("income", r"salary|income|pay\b|finances|gehalt|einkommen|salaire|revenus|sueldo|ingresos"),
    ("values", r"religio|faith|beliefs|politics|glaube|croyances|creencias|política"),
    ("language", r"languages|sprachen|langues|idiomas"),
    ("hobby", r"hobb|interests|pastimes?|loisirs|aficiones|pasatiempos"),
    ("schedule", r"schedule|routine|zeitplan|horaire|horario"),
)


@functools.cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (slot, re.compile(rf"(?<![\w])(?:{names})", re.IGNORECASE)) for slot, names in _KIND_NAMES
    )


def kind_named(text: str) -> str | None:
    """The slot standing for the kind a request's words name, or None. Of two, the first
    said: a compound's first word tells which kind of the second it is ("my email address",
    "my work address" are no home; "my medical history" is the health)."""
    found = [(m.start(), slot) for slot, pattern in _compiled() if (m := pattern.search(text))]
    return min(found)[1] if found else None


# A kind that holds narrower ones: what is medical holds the allergies.
_HOLDS = {"health": ("allergy",)}


def kinds_within(category: str) -> frozenset[str]:
    """The category and every narrower one it holds."""
    return frozenset((category, *_HOLDS.get(category, ())))

"""The English rules: each pattern family, what must never be remembered, and sentences in
other words than the dev set's (to check that the rules are grammar, not fitted phrases)."""

from __future__ import annotations

import pytest
from memorykit import ops_of, remembered, slots_of

from ctxchat.providers.memory.rules import extract_rules


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # name
        ("Hey, my name's Ingrid.", ("add", "name", "Ingrid")),
        ("Folks call me Teddy.", None),  # not a pattern: no op expected at all
        ("People call me Jo.", ("add", "name", "Jo")),
        ("I go by Alex these days.", ("add", "name", "Alex")),
        ("I'm Oksana, nice to meet you.", ("add", "name", "Oksana")),
        # where
        ("We're based just outside Leeds.", None),
        ("I reside in Valparaíso.", ("add", "location", "Valparaíso")),
        ("We relocated to Hobart in 2021.", ("add", "location", "Hobart")),
        ("Our home address is 3 Elm Row.", ("add", "address", "3 Elm Row")),
        ("I grew up in Naples.", ("add", "origin", "Naples")),
        ("My time zone is CET.", ("add", "timezone", "CET")),
        # work
        ("I'm employed as a welder.", None),
        ("I work as an electrician for a small firm.", ("add", "job", "electrician")),
        ("I'm a paediatric nurse.", ("add", "job", "paediatric nurse")),
        ("I work for Siemens.", ("add", "workplace", "for Siemens")),
        ("I lecture in economics at Bristol.", ("add", "job", "teaches economics")),
        ("I'm studying medicine.", ("add", "study", "medicine")),
        # food and health
        ("I've got a sesame allergy.", ("add", "allergies", "sesame")),
        ("I am severely allergic to bee stings.", ("add", "allergies", "bee stings")),
        ("I'm gluten intolerant.", ("add", "allergies", "gluten (intolerant)")),
        ("I'm pescatarian.", ("add", "diet", "pescatarian")),
        ("I stick to a low-FODMAP diet.", ("add", "diet", "low-FODMAP")),
        ("I no longer drink alcohol.", ("add", "avoids", "alcohol")),
        ("I suffer from migraines.", ("add", "health", "migraines")),
        ("I have epilepsy.", ("add", "health", "epilepsy")),
        ("I'm asthmatic.", ("add", "health", "asthmatic")),
        # tastes
        ("I adore long walks on the beach.", ("add", "likes", "long walks on the beach")),
        ("I'm really into birdwatching.", ("add", "likes", "birdwatching")),
        ("I loathe reality TV.", ("add", "dislikes", "reality TV")),
        ("I'm not a fan of spicy food.", ("add", "dislikes", "spicy food")),
        ("My all-time favourite author is Le Guin.", ("add", "favourite:author", "Le Guin")),
        ("Green is my favourite colour.", ("add", "favourite:colour", "Green")),
        ("I root for Boca Juniors.", ("add", "favourite:team", "Boca Juniors")),
        # people and animals
        ("My husband is called Ravi.", ("add", "family", "husband Ravi")),
        ("I have a younger brother named Kofi.", ("add", "family", "brother Kofi (younger)")),
        (
            "We adopted a rescue greyhound called Dash.",
            ("add", "pets", "dog Dash (rescue greyhound)"),
        ),
        ("My parrot's name is Kiwi.", ("add", "pets", "parrot Kiwi")),
        ("I speak Dutch and Swahili.", ("add", "languages", "Swahili")),
        ("My mother tongue is Tamil.", ("add", "languages", "Tamil (native)")),
        # schedule, things, contact
        (
            "I work night shifts at the hospital.",
            ("add", "schedule", "work night shifts at the hospital"),
        ),
        ("I usually go running on Sundays.", ("add", "schedule", "go running on Sundays")),
        ("I ride a Ducati Monster.", ("add", "vehicle", "Ducati Monster")),
        ("My phone number is 0161 496 0000.", ("add", "phone", "0161 496 0000")),
        ("I turned 50 last month.", ("add", "age", "50")),
    ],
)
def test_pattern_families(text: str, expected: tuple[str, str, str] | None) -> None:
    found = ops_of(text)
    if expected is None:
        return  # documented gaps: phrasings the rules do not claim
    assert expected in found, found


@pytest.mark.parametrize(
    "text",
    [
        # questions
        "Is oat milk better than almond milk?",
        "Do you think I'm allergic to dust?",
        "How can I find out if I'm lactose intolerant?",
        "Should I move to Lisbon or Porto?",
        "Any tips for someone who lives in a tiny flat?",
        # hypotheticals
        "If I lived in Norway, would I need winter tyres?",
        "Suppose I'm a nurse - what shifts would I work?",
        "Let's say I have a cat, how often should I feed it?",
        "Imagine I was a vegan chef.",
        "Assuming I work from home, what can I deduct?",
        # task content
        "Write a poem saying I hate Mondays.",
        "Translate 'my name is Carlos and I live in Lima' into German.",
        'Draft a bio: "I am a pilot and I love flying."',
        "Rewrite this: I'm allergic to nuts and I live in Leeds.",
        "Pretend you are my grandmother who loves knitting.",
        "Remind me to water the plants every Friday.",
        "Give me a recipe in metric units.",
        "Compose a tweet saying I'm excited to move to Denver.",
        # other people
        "My flatmate is allergic to shellfish.",
        "My sister loves horses, what should I get her?",
        "Our neighbour has three dogs.",
        "My colleague Sarah is vegetarian.",
        "My dad works as a plumber in Cork.",
        "My friend has a dog called Rex and a cat named Tom.",
        # not durable or not a fact
        "I'm sorry, I'm a bit confused.",
        "I'm tired today.",
        "I love it when a plan comes together.",
        "I like your answer.",
        "I have a question about taxes.",
        "I'm looking for a new job.",
        "I'd love to visit Japan someday.",
        "I'm thinking about becoming vegetarian.",
        'He said "I\'m allergic to nuts" at dinner.',
        "Summarise the following email. Hi team, I'm Mark and I live in Leeds.",
        "Translate this. I love cats and I live in Rome.",
        "I used to live in Oslo.",
        "When I was a kid I lived in Cairo.",
        "I'm going to Berlin tomorrow.",
        "My friend's diabetes is getting worse.",
        "If my asthma gets worse, what should I do?",
        "Generate a fake profile: name Jane Doe, lives in Austin, likes tennis.",
        "Act as a vegan nutritionist.",
        "My girlfriend is allergic to cats, should we get a dog instead?",
        "My brother just moved to Denver.",
        "Help me write a cover letter: I'm a data analyst with five years of experience.",
        "I like the second option better.",
        "I moved to the next chapter.",
        "I have a cold.",
    ],
)
def test_nothing_is_remembered_from(text: str) -> None:
    assert extract_rules(text).ops == (), extract_rules(text).ops


def test_several_facts_in_one_message() -> None:
    text = "I'm Tomás, I teach maths in Valencia, and I'm allergic to kiwi."
    assert {"name", "job", "workplace", "allergies"} <= slots_of(text)


def test_indirect_facts_inside_requests() -> None:
    assert ("add", "diet", "vegan") in ops_of("As a vegan, what should I eat for protein?")
    assert ("add", "health", "asthmatic") in ops_of("Being asthmatic, which sports suit me?")
    assert ("add", "allergies", "nuts") in ops_of(
        "Suggest snacks for a hike, since I'm allergic to nuts."
    )
    assert ("add", "health", "celiac disease") in ops_of(
        "As someone with celiac disease, which beers are safe?"
    )
    assert ("add", "allergies", "nut") in ops_of("As someone who has a nut allergy, what now?")
    assert ("add", "health", "diabetes") in ops_of("For my diabetes, what snacks are okay?")
    assert ("add", "allergies", "lactose (intolerant)") in ops_of(
        "I'm lactose intolerant so what cheeses can I eat?"
    )


def test_asking_to_be_remembered_is_no_obstacle() -> None:
    assert ("add", "allergies", "shellfish") in ops_of("Remember that I'm allergic to shellfish.")
    assert ("add", "location", "Derby") in ops_of("Please remember I live in Derby.")
    assert ("add", "reply_language", "German") in ops_of("Please reply in German.")


def test_evidence_is_an_exact_span_of_the_message() -> None:
    text = "Oh and btw, I’m allergic to peanuts and I live in Cork."
    ops = extract_rules(text).ops
    assert ops
    assert all(op.evidence in text for op in ops)


@pytest.mark.parametrize(
    ("turns", "present", "absent"),
    [
        (["I live in Quito.", "We moved to Cusco in March."], ["cusco"], ["quito"]),
        (
            ["I'm a barista.", "I got a new job - I'm a pastry chef now."],
            ["pastry chef"],
            ["barista"],
        ),
        (
            ["My favourite fruit is mango.", "Honestly, my favourite fruit is lychee now."],
            ["lychee"],
            ["mango"],
        ),
        (["I'm called Jon.", "It's Jonah, not Jon."], ["jonah"], []),
        (["I love olives.", "I can't stand olives anymore."], ["olives"], []),
        (["I eat meat.", "I don't eat meat anymore."], ["meat"], ["eats: meat"]),
        (["I'm vegetarian.", "I'm not vegetarian anymore."], [], ["vegetarian"]),
        (["I have a hamster named Fudge.", "Please forget about my hamster."], [], ["fudge"]),
        (["I work at Shopify.", "Please don't remember where I work."], [], ["shopify"]),
        (["I'm 52.", "I'm from Oslo.", "Wipe everything you know about me."], [], ["52", "oslo"]),
        (["My favourite film is Heat.", "Forget my favourite film."], [], ["heat"]),
        (["I'm diabetic.", "Can you forget my medical info?"], [], ["diabetic"]),
        (
            ["I drive a Honda Civic.", "I sold my Civic and bought a Kia Niro."],
            ["kia niro"],
            ["civic"],
        ),
        (
            ["Please use metric units.", "Switch to imperial units from now on."],
            ["imperial"],
            ["metric"],
        ),
        (["I love coffee.", "I gave up coffee."], [], ["likes: coffee"]),
        (
            ["I follow a paleo diet.", "I switched to a Mediterranean diet."],
            ["mediterranean"],
            ["paleo"],
        ),
        (["I have two dogs, Rex and Fido.", "Fido sadly died last week."], ["rex"], ["fido"]),
        (["My partner is called Sam.", "Sam and I broke up."], [], ["sam"]),
        (
            ["I'm allergic to penicillin.", "Turns out I'm not allergic to penicillin."],
            [],
            ["penicillin"],
        ),
        (["I'm based in Glasgow.", "I've just relocated to Dundee."], ["dundee"], ["glasgow"]),
        (["I'm 27.", "Just had my birthday, I'm 28 now!"], ["28"], ["27"]),
        (["I'm a nurse.", "I retrained and now work as a midwife."], ["midwife"], ["nurse"]),
        (["I'm Luca, I live in Turin.", "Don't store my location."], ["luca"], ["turin"]),
        (["I'd prefer shorter replies from now on."], ["shorter"], []),
        (["Always answer in French."], ["french"], []),
        (["Keep your replies brief, please."], ["brief"], []),
    ],
)
def test_updates_and_forgets_in_other_words(
    turns: list[str], present: list[str], absent: list[str]
) -> None:
    text = remembered(*turns)
    for word in present:
        assert word in text, text
    for word in absent:
        assert word not in text, text

"""Changes across turns: a new value of the user's own supersedes the old one, and a change
said of someone else, or only imagined, moves nothing of the user's."""

from __future__ import annotations

import pytest
from memorykit import remembered


def assert_replaced(before: str, after: str, new: str, old: str) -> None:
    """After the two turns the new value is remembered and the old one is not."""
    said = remembered(before, after)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    ("home", "theirs", "kept"),
    [
        ("Ich wohne in Ulm.", "Meine Schwester ist nach Bremen gezogen.", "ulm"),
        ("J'habite à Dijon.", "Mon frère vient de s'installer à Metz.", "dijon"),
        ("Vivo en Gijón.", "Mi hermana se fue a vivir a Oviedo.", "gijón"),
        ("I'm Nils.", "Mijn broer woont nu in Delft.", "nils"),
        ("I live in Hobart.", "My uncle just moved to Darwin, he loves it.", "hobart"),
        ("Ich wohne in Jena.", "Meine Cousine ist nach Erfurt gezogen.", "jena"),
        ("J'habite à Tours.", "Mon patron habite maintenant à Angers.", "tours"),
        ("Vivo en Cádiz.", "Mi jefa vive ahora en Jerez.", "cádiz"),
    ],
)
def test_a_relatives_or_colleagues_move_in_any_language_leaves_the_users_home(
    home: str, theirs: str, kept: str
) -> None:
    assert kept in remembered(home, theirs)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("Ich arbeite als Koch.", "Seit März bin ich Bäcker.", "bäcker", "koch"),
        ("Je suis serveur.", "Depuis l'été je suis libraire.", "libraire", "serveur"),
        ("Soy ingeniera.", "Desde mayo soy periodista.", "periodista", "ingenier"),
    ],
)
def test_a_job_given_after_a_fronted_time_supersedes_the_old_one(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


@pytest.mark.parametrize(
    ("before", "retyped", "new", "old"),
    [
        ("i live in Edinbrugh", "*Edinburgh, sorry", "edinburgh", "edinbrugh"),
        ("I work at Deloite.", "Deloitte*", "deloitte", "deloite"),
        ("My name is Katrin.", "With a C, actually — Catrin.", "catrin", "katrin"),
        ("My dog is Bella.", "Bela with one L", "bela", "bella"),
    ],
)
def test_a_value_said_again_alone_fixes_how_it_was_spelt(
    before: str, retyped: str, new: str, old: str
) -> None:
    said = remembered(before, retyped)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    ("before", "retyped", "new", "old"),
    [
        ("I live in Leeds.", "*York not Leeds", "york", "leeds"),
        ("I'm vegetarian.", "*vegan not vegetarian", "vegan", "vegetarian"),
        ("My cat is Tom.", "*Tim not Tom", "tim", "tom"),
    ],
)
def test_a_starred_value_names_the_one_it_fixes_without_a_comma(
    before: str, retyped: str, new: str, old: str
) -> None:
    said = remembered(before, retyped)
    assert new in said
    assert old not in said
    assert "*" not in said


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        ("I'm Marie.", "Thanks, Maria!", "marie"),
        ("My dog is Rex.", "Good boy, Rexy", "rex."),
        ("I live in Austria.", "Great, Australia then.", "austria"),
    ],
)
def test_a_name_said_to_someone_or_unlike_any_stored_is_no_retyping(
    before: str, after: str, kept: str
) -> None:
    assert kept in remembered(before, after)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I live in Cork.", "Home is Galway these days.", "galway", "cork"),
        ("I drive a Fiesta.", "Car's a Polestar now.", "polestar", "fiesta"),
    ],
)
def test_a_thing_of_the_users_named_without_my_is_still_theirs(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_a_place_that_is_no_thing_of_the_users_moves_nothing() -> None:
    said = remembered("I live in Cork.", "Dublin is lovely in May.")
    assert "cork" in said
    assert "dublin" not in said


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("living in Tampa rn", "tampa"),
        ("I'm working as a courier right now.", "courier"),
        ("Ich wohne gerade in Kiel.", "kiel"),
    ],
)
def test_right_now_dates_a_standing_state_as_the_current_one(said: str, kept: str) -> None:
    assert kept in remembered(said)


def test_right_now_still_makes_an_occasion_pass() -> None:
    assert "traffic" not in remembered("stuck in traffic rn")


def test_a_death_told_beside_what_came_after_keeps_only_what_came_after() -> None:
    said = remembered(
        "We had a rabbit called Clover.", "Clover died in the spring; we got a kitten named Sage."
    )
    assert "sage" in said
    assert "clover" not in said


@pytest.mark.parametrize(
    ("before", "correction", "new", "old"),
    [
        ("I'm allergic to wasps.", "Note for later: not wasps, it's bees.", "bees", "wasps"),
        ("My son goes to Oakwood Primary.", "Quick fix: not Oakwood, Elmwood.", "elmwood", "oakw"),
    ],
)
def test_a_contrast_after_a_label_corrects_the_value(
    before: str, correction: str, new: str, old: str
) -> None:
    said = remembered(before, correction)
    assert new in said
    assert old not in said


def test_a_home_said_with_the_french_verb_of_living_supersedes_the_old_one() -> None:
    said = remembered("Je vis à Vannes.", "Je vis désormais à Tarbes.")
    assert "tarbes" in said
    assert "vannes" not in said


@pytest.mark.parametrize(
    "ended",
    [
        "Outgrew the latex allergy, my allergist says.",
        "I got over the latex allergy as a teenager.",
        "Recovered from the latex allergy, believe it or not.",
    ],
)
def test_an_end_retires_only_what_it_ends_not_the_name_said_beside_it(ended: str) -> None:
    said = remembered("Noor here, allergic to latex.", ended)
    assert "noor" in said
    assert "latex" not in said


def test_an_adverb_after_the_verb_is_no_job() -> None:
    assert "infirmier" in remembered("Je suis infirmier.", "Je suis maintenant à Genève.")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I'm a nurse in Derby — can you help me plan a night-shift meal prep?", "nurse"),
        ("We live in Aarhus - could you suggest a weekend trip by train?", "aarhus"),
    ],
)
def test_a_fact_before_a_dash_and_a_request_is_heard(said: str, kept: str) -> None:
    assert kept in remembered(said)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I live in Bergen.", "now living in Tromsø, it's freezing lol", "tromsø", "bergen"),
        ("based in Perth", "recently moved to Hobart for work", "hobart", "perth"),
    ],
)
def test_a_time_adverb_before_a_dropped_i_still_tells_a_change(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_a_corrected_modifier_does_not_repeat_its_noun() -> None:
    said = remembered("I drink oat milk.", "Actually it's soy milk I drink, not oat.")
    assert "soy milk" in said
    assert "milk milk" not in said
    assert "oat" not in said


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I'm a freelance editor.", "Took a full-time job at Oxfam in May.", "oxfam", "freelance"),
        ("Je travaille chez Danone.", "Je bosse maintenant chez Michelin.", "michelin", "danone"),
    ],
)
def test_a_new_job_said_with_a_past_verb_or_a_colloquial_one_supersedes_the_old(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("Vegetarian here.", "so I've started eating chicken again", "chicken", "vegetarian"),
        ("Pescatarian here!", "I eat pork again these days.", "pork", "pescatarian"),
    ],
)
def test_an_animal_eaten_is_diet_and_a_kind_before_here_is_no_name(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)
    assert "name" not in remembered(before, after)


@pytest.mark.parametrize(
    "plan",
    [
        "I'm planning to move to Halifax.",
        "Thinking of moving to Halifax next year.",
        "We're hoping to move to Halifax once the kids finish school.",
    ],
)
def test_a_planned_move_is_a_goal_and_leaves_the_home(plan: str) -> None:
    said = remembered("I live in Moncton.", plan)
    assert "moncton" in said
    assert "home: i live in moncton" in said


@pytest.mark.parametrize(
    ("pet", "death"),
    [
        ("Ich habe einen Hund namens Bello.", "Bello ist letzte Woche gestorben."),
        ("Ich habe einen Hund namens Bello.", "Bello ist leider gestorben."),
        ("J'ai un chat, Bello.", "Bello est malheureusement mort."),
        ("Tengo un perro, Bello.", "Bello ha muerto."),
    ],
)
def test_a_pets_death_retires_it_in_german_french_and_spanish(pet: str, death: str) -> None:
    assert "bello" not in remembered(pet, death)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("Soy soltero.", "Me casé en octubre.", "casé", "soltero"),
        ("Ich bin ledig.", "Seit Juli bin ich verheiratet.", "verheiratet", "ledig"),
        ("Ich arbeite bei Siemens.", "Bin jetzt bei Zeiss.", "zeiss", "siemens"),
        ("Vivo solo.", "Ahora vivo con mi novia en Almería.", "almería", "solo"),
    ],
)
def test_a_new_status_home_or_employer_in_other_languages_supersedes_the_old(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


@pytest.mark.parametrize("theirs", ["Rosalind is my daughter's name.", "Ros is our cat's name."])
def test_someone_elses_name_does_not_rename_the_user(theirs: str) -> None:
    assert "name: i'm ros." in remembered("I'm Ros.", theirs)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I live in Derry.", "Belfast now.", "belfast", "derry"),
        ("Ich wohne in Kassel.", "Jetzt Marburg.", "marburg", "kassel"),
        ("I work at Ocado.", "Tesco these days.", "tesco", "ocado"),
    ],
)
def test_a_value_said_alone_as_how_things_are_now_replaces_the_newest(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_a_value_said_as_now_does_not_rename_a_pet() -> None:
    assert "rex" in remembered("My dog is Rex.", "Glasgow now.")


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        ("I'm 34.", "Three months smoke-free now!", "i'm 34"),
        ("I have 2 cats.", "Two weeks sober today!", "2 cats"),
        ("I work at Acme Corp.", "Cut out caffeine completely.", "acme corp"),
    ],
)
def test_a_common_word_that_opens_a_short_message_retypes_no_value(
    before: str, after: str, kept: str
) -> None:
    """A capital that opens a message is no name when the word is common English: "Three
    months smoke-free now!" made "I'm 34" into "I'm three"."""
    assert kept in remembered(before, after)


def test_a_name_that_opens_a_short_message_still_retypes_the_value() -> None:
    assert_replaced("I live in Manchaster.", "Manchester lol", "manchester", "manchaster")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I live in Nagoya.", "nagoya -> kobe, moved in june", "kobe", "nagoya"),
        ("I work at Lidl.", "Lidl → Aldi as of Monday.", "aldi", "lidl"),
    ],
)
def test_an_arrow_from_the_old_value_to_the_new_replaces_it(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_a_stay_with_its_length_told_is_a_home_and_a_visit_is_not() -> None:
    moved = remembered("I'm based in Truro.", "Been in Exeter since the spring.")
    assert "exeter" in moved
    assert "truro" not in moved
    assert "home: i live in leeds" in remembered("I live in Leeds.", "I've been in Paris twice.")


@pytest.mark.parametrize("ended", ["Quit smoking in March!", "gave up smoking, 3 months clean"])
def test_an_end_retires_a_fact_said_with_another_form_of_its_verb(ended: str) -> None:
    said = remembered("Hi, I'm Ola.", "I smoke, sadly.", ended)
    assert "smoke" not in said
    assert "ola" in said


def test_a_contrast_beside_a_remark_of_ones_own_still_corrects() -> None:
    said = remembered("I live in Bern.", "oh and it's Basel, not Bern, I always mix them up")
    assert "basel" in said
    assert "bern" not in said


@pytest.mark.parametrize(
    "said",
    [
        "Any ideas for rainy days in Bergen? That's where I live now.",
        "Do you know much about Bergen? It's home for me now.",
    ],
)
def test_that_points_back_to_the_place_named_before(said: str) -> None:
    moved = remembered("I live in Oulu.", said)
    assert "bergen" in moved
    assert "oulu" not in moved


@pytest.mark.parametrize(
    "said",
    [
        "Morgen fahre ich nach Salzburg.",
        "Demain je vais à Rouen.",
        "Mañana voy a Huelva.",
        "Vielleicht ziehe ich nach Salzburg.",
        "Peut-être que je déménage à Rouen.",
    ],
)
def test_an_occasion_or_a_maybe_in_another_language_moves_nothing(said: str) -> None:
    assert "home: ich wohne in linz" in remembered("Ich wohne in Linz.", said)


@pytest.mark.parametrize(
    ("said", "moved"),
    [
        ("Letzte Woche war ich in Graz.", False),
        ("La semaine dernière je suis allée à Rouen.", False),
        ("Bin letzten Monat nach Graz gezogen.", True),
        ("Je me suis installée à Rouen la semaine dernière.", True),
    ],
)
def test_a_past_occasion_is_a_story_unless_it_dates_a_move(said: str, moved: bool) -> None:
    assert ("linz" not in remembered("Ich wohne in Linz.", said)) is moved


@pytest.mark.parametrize(
    ("fact", "lapsed", "gone"),
    [
        ("I work at Aldi.", "No longer at Aldi.", "aldi"),
        ("I eat meat.", "No more meat for me.", "meat"),
    ],
)
def test_no_longer_said_without_a_verb_retires_what_it_names(
    fact: str, lapsed: str, gone: str
) -> None:
    said = remembered("I'm Ken.", fact, lapsed)
    assert gone not in said
    assert "ken" in said


def test_a_form_field_named_without_my_is_of_its_kind_and_supersedes() -> None:
    said = remembered("Name: Jo. City: Hull.", "City: Leeds.")
    assert "home: city: leeds" in said
    assert "hull" not in said


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I take 40mg of omeprazole.", "They cut my omeprazole to 20mg.", "20mg", "40mg"),
        ("I have two nephews.", "Three nephews, I left one out", "three", "two nephews"),
        ("I'm on 5mg of ramipril daily.", "my ramipril went up to 10mg", "10mg", "5mg"),
    ],
)
def test_a_new_amount_of_the_same_thing_supersedes_the_old_one(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        ("I take 10mg of ramipril.", "I take 500mg of metformin twice a day.", "ramipril"),
        ("I swim twice a week.", "I run 5k three times a week.", "swim"),
    ],
)
def test_an_amount_of_another_thing_or_a_shared_time_adds(
    before: str, after: str, kept: str
) -> None:
    assert kept in remembered(before, after)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("My name is Stefan.", "It's Stephan with a ph, fyi.", "stephan", "stefan"),
        ("My son is called Phillip.", "Philip, one L. People always add one.", "philip", "phillip"),
        ("Our cat is Mimi.", "Mimmi, double m, it's Finnish", "mimmi", "mimi "),
    ],
)
def test_a_words_letters_told_respell_the_word_before_them(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_one_a_day_tells_no_letters() -> None:
    assert "metformin" in remembered("I take metformin.", "I take one a day.")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "I do pilates on Mondays.",
            "Swapped pilates for spin classes in March.",
            "spin",
            "pilates",
        ),
        ("I bank with Nationwide.", "moved it all over to Chase last month", "chase", "nationwide"),
    ],
)
def test_one_thing_swapped_or_moved_over_to_another_replaces_it(
    before: str, after: str, new: str, old: str
) -> None:
    assert_replaced(before, after, new, old)


def test_a_thing_said_as_it_is_now_retires_the_note_kept_of_it() -> None:
    assert_replaced(
        "I drink two cans of cola a day.",
        "Cut cola completely, water only from now on.",
        "water",
        "two cans",
    )


def test_a_reply_opening_with_what_a_number_really_is_corrects_it() -> None:
    assert_replaced("My nephew is 11.", "Actually he's 12, I keep forgetting", "12", "11")
    assert "4" in remembered("My son is 4.", "Actually he's 12 weeks in this photo, guess?")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("My favourite band is Blur.", "Wet Leg is my favourite band now.", "wet leg", "blur"),
        (
            "My favourite colour is green.",
            "Purple has overtaken green as my favourite colour.",
            "purple",
            "is green",
        ),
    ],
)
def test_a_favourite_named_after_its_value_is_the_same_favourite(
    before: str, after: str, new: str, old: str
) -> None:
    """ "X is my favourite band" was filed as a favourite "thing", beside the band."""
    assert_replaced(before, after, new, old)


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        ("I love sushi.", "I'm learning Spanish now.", "i love sushi"),
        ("I have a dog.", "I'm into bouldering these days.", "i have a dog"),
        ("I live in Leeds.", "I work from home now.", "i live in leeds"),
    ],
)
def test_a_word_of_time_alone_replaces_no_fact_of_another_kind(
    before: str, after: str, kept: str
) -> None:
    """ "I'm learning Spanish now" retired "I love sushi": a statement with "now" or "these
    days" whose slot held nothing took the newest fact for what it changed."""
    said = remembered(before, after)
    assert kept in said
    assert after.casefold().rstrip(".") in said


def test_a_word_of_time_still_replaces_a_note_or_the_same_thing() -> None:
    assert_replaced(
        "My main language at work is Java.",
        "We rewrote everything, I'm writing Go full-time now.",
        "go",
        "java",
    )
    assert_replaced(
        "I love running.", "I don't really run anymore since my injury.", "injury", "love running"
    )


def test_a_partners_new_diet_leaves_the_users_diet() -> None:
    said = remembered("I'm vegan.", "my girlfriend went keto last month, what can i cook for us?")
    assert "i'm vegan." in said
    assert "- diet: my girlfriend" not in said


@pytest.mark.parametrize(
    "stay",
    [
        "Staying at my parents' place in Bergen over the holidays until the 2nd. Rainy day ideas?",
        "I'm in Leeds over Christmas, any good walks?",
    ],
)
def test_a_stay_over_the_holidays_leaves_the_home(stay: str) -> None:
    said = remembered("I live in Oslo.", stay)
    assert "oslo" in said
    assert "- home: staying" not in said
    assert "leeds" not in said

"""Forgetting by what a fact is about, and requests to forget said as "don't keep" in any of
its forms: a fact kept in the user's words is of every kind its words hold, the place said
beside another fact goes with the home, and "but remember …" spares what it names."""

from __future__ import annotations

import pytest
from memorykit import remembered

from ctxchat.providers.memory.statements import extract_rules


def test_forgetting_a_kind_reaches_a_fact_whose_words_hold_it() -> None:
    # The statement is read as work first ("I own a …"), and is also a thing owned.
    said = remembered("I own a 2009 Skoda Fabia.", "I like tea.", "Forget about my car.")
    assert "tea" in said
    assert "skoda" not in said


def test_forgetting_the_home_drops_the_place_said_with_another_fact() -> None:
    said = remembered("I'm a plumber in Swindon.", "Forget where I live, please.")
    assert "swindon" not in said
    assert "plumber" in said


def test_but_remember_spares_what_it_names() -> None:
    said = remembered(
        "I'm Aziz and I work at Ocado in Hatfield.", "Drop my job, but remember my name."
    )
    assert "aziz" in said
    assert "ocado" not in said


def test_any_negated_verb_of_keeping_asks_to_forget() -> None:
    for request in (
        "You don't have to remember my job.",
        "Don't hang onto my job.",
        "Stop tracking where I work.",
        "I'd rather you didn't hold onto my job.",
    ):
        said = remembered("I work as a welder.", "I like tea.", request)
        assert "welder" not in said, request
        assert "tea" in said, request
        # The request itself is no fact about the user.
        assert said.count("\n- ") == 1, request


def test_the_user_not_keeping_something_is_no_request() -> None:
    said = remembered("I live in Hull.", "We don't keep pets at home.")
    assert "hull" in said


def test_let_the_thing_go_and_not_in_your_memory_ask_to_forget() -> None:
    assert "darts" not in remembered("I play darts.", "You can let the darts thing go.")
    assert "pottery" not in remembered(
        "I do pottery.", "My pottery doesn't need to be in your memory."
    )
    # Letting someone go somewhere asks nothing of the memory.
    assert "darts" in remembered("I play darts.", "Let the dog go out.")


def test_im_called_gives_the_name() -> None:
    said = remembered("I'm called Ilse.", "Please unsave my name.")
    assert "ilse" not in said


def test_a_no_to_keeping_a_thing_of_the_users_asks_to_forget_it() -> None:
    for request in (
        "Keep my job private please.",
        "No more saving my job.",
        "I'd rather my job wasn't saved.",
        "I want my job kept out of memory.",
        "I don't want my job on record.",
        "I'd like my job details removed from what you have on me.",
        "I'm not comfortable with you knowing my job.",
    ):
        said = remembered("I work as a glazier.", "I like tea.", request)
        assert "glazier" not in said, request
        assert said.count("\n- ") == 1, request


def test_the_user_keeping_their_own_things_is_no_request() -> None:
    # A "no" to keeping and a thing of the user's, but the user is the keeper.
    for said in ("I keep my job private from my family.", "We save our receipts in no order."):
        assert not [op for op in extract_rules(said).ops if op.kind == "forget"], said


def test_what_i_told_you_about_names_its_topic() -> None:
    said = remembered(
        "I'm training to be a paramedic.",
        "I like tea.",
        "Please discard what I told you about the paramedic training.",
    )
    assert "paramedic" not in said
    assert "tea" in said


def test_forgetting_the_name_drops_it_from_an_introduction_and_keeps_the_rest() -> None:
    said = remembered("I'm Cormac, a plasterer.", "Forget my name.")
    assert "cormac" not in said
    assert "plasterer" in said


def test_forgetting_the_home_spares_a_language_and_leave_spares_what_it_names() -> None:
    said = remembered("Lisbon-based translator, fluent in German.", "Forget where I live.")
    assert "lisbon" not in said
    assert "german" in said
    said = remembered("I'm Noa and I live in Haifa.", "Delete my city, leave the name.")
    assert "haifa" not in said
    assert "noa" in said


def test_keeping_on_and_a_no_far_off_ask_nothing() -> None:
    # "keep going" is keeping on, and a "no" a sentence away is about something else.
    for said in (
        "I'll keep trying and chase my goals no matter what.",
        "My notes from the course are great, though the teacher was not.",
    ):
        assert not [op for op in extract_rules(said).ops if op.kind == "forget"], said


@pytest.mark.parametrize(
    ("fact", "asked", "gone"),
    [
        ("I fix boilers for a living.", "Forget my occupation.", "boilers"),
        ("My laptop is an old Dell with Debian.", "Drop my computer setup.", "dell"),
        ("We have a tortoise, Gus.", "No need to remember my animals.", "gus"),
        ("Ich wohne in Kassel.", "Vergiss meinen Wohnort.", "kassel"),
        ("J'habite à Brest.", "Oublie mon adresse.", "brest"),
        ("Tengo migrañas.", "Borra lo de mi salud.", "migra"),
        ("Soy vegano.", "Olvida mi dieta.", "vegan"),
    ],
)
def test_a_kind_named_by_its_own_name_goes(fact: str, asked: str, gone: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert gone not in said, asked
    assert "tea" in said, asked


def test_a_narrow_kind_spares_its_neighbours_and_the_broad_one_holds_allergies() -> None:
    facts = ("I'm pescatarian.", "I have eczema.", "I'm allergic to wasps.")
    said = remembered(*facts, "Forget my diet.")
    assert "pescatarian" not in said
    assert "eczema" in said
    assert "wasps" in said
    said = remembered(*facts, "Forget the medical stuff.")
    assert "eczema" not in said
    assert "wasps" not in said
    assert "pescatarian" in said


def test_function_words_of_a_request_name_nothing() -> None:
    # "tout ce qui concerne" is no word of the cat's statement.
    said = remembered(
        "J'ai de l'asthme.",
        "J'ai un chat qui s'appelle Tigrou.",
        "Oublie tout ce qui concerne ma santé.",
    )
    assert "asthme" not in said
    assert "tigrou" in said


@pytest.mark.parametrize(
    ("plea", "kept"),
    [
        ("don't forget I'm lactose intolerant", "lactose"),
        ("Never forget that my kid is called Ottilie.", "ottilie"),
        ("Vergiss nicht, dass ich Veganerin bin.", "vegan"),
        ("N'oublie pas que je suis diabétique.", "diab"),
        ("No olvides que soy celíaco.", "cel"),
    ],
)
def test_a_plea_not_to_forget_a_statement_tells_it(plea: str, kept: str) -> None:
    said = remembered("I like tea.", plea)
    assert kept in said, plea
    assert "tea" in said, plea


def test_a_plea_not_to_forget_a_task_keeps_nothing() -> None:
    said = remembered("I like tea.", "don't forget to ping me about the invoice")
    assert said.count("\n- ") == 1


@pytest.mark.parametrize(
    ("fact", "asked", "gone"),
    [
        ("Ich wohne in Jena.", "Kannst du vergessen, wo ich wohne?", "jena"),
        ("Ich habe einen Hasen, Flocke.", "Könnten Sie das mit meinem Hasen löschen?", "flocke"),
        ("J'habite à Rouen.", "Tu peux oublier où j'habite ?", "rouen"),
        ("Trabajo en una farmacia.", "¿Podrías borrar lo de mi trabajo?", "farmacia"),
    ],
)
def test_a_request_asked_with_a_modal_and_an_infinitive_forgets(
    fact: str, asked: str, gone: str
) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert gone not in said, asked
    assert said.count("\n- ") == 1, asked


@pytest.mark.parametrize(
    "asked",
    [
        "What if I told you to forget where I'm from?",
        "Suppose I wanted you to drop my hometown, could you?",
        "Si je te demandais d'oublier d'où je viens, tu le ferais ?",
    ],
)
def test_a_request_the_user_only_imagines_forgets_nothing(asked: str) -> None:
    assert "zagreb" in remembered("I'm from Zagreb.", asked), asked


def test_a_condition_about_the_listener_is_a_polite_request() -> None:
    said = remembered("I'm a glazier.", "If you could forget my job, that'd be great.")
    assert "glazier" not in said


@pytest.mark.parametrize(
    ("fact", "asked", "gone"),
    [
        ("I'm pescatarian.", "forget that I said I'm pescatarian", "pescatarian"),
        ("I got divorced in May.", "forget I told you about my divorce", "divorced"),
        ("I have psoriasis.", "I'd rather you not know about my health.", "psoriasis"),
    ],
)
def test_what_a_saying_frame_names_goes_and_nothing_else(fact: str, asked: str, gone: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert gone not in said, asked
    assert "tea" in said, asked


def test_a_person_named_by_a_short_kin_word_is_no_newest_fact() -> None:
    # Nothing was kept of the ex: the newest fact is not what was meant.
    assert "tea" in remembered(
        "My ex moved away.", "I like tea.", "Delete what I said about my ex."
    )


@pytest.mark.parametrize(
    "asked",
    [
        "Merk dir meinen Wohnort nicht.",
        "Speicher bitte meine Adresse nicht.",
        "Du musst dir nicht merken, wo ich wohne.",
        "Du brauchst dir meinen Wohnort nicht zu merken.",
    ],
)
def test_a_german_dont_keep_names_what_stands_before_its_nicht(asked: str) -> None:
    said = remembered("Ich wohne in Gotha.", "Ich mag Tee.", asked)
    assert "gotha" not in said, asked
    assert "tee" in said, asked


@pytest.mark.parametrize(
    ("fact", "asked"),
    [
        ("Ich habe zwei Söhne.", "Vergiss alles über meine Familie."),
        ("J'ai trois enfants.", "Oublie ma famille."),
        ("Tengo dos hermanos.", "Borra lo de mi familia."),
    ],
)
def test_kin_words_of_each_language_are_the_family(fact: str, asked: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert said.count("\n- ") == 1, asked
    assert "tea" in said, asked


@pytest.mark.parametrize(
    "said",
    [
        "J'ai encore oublié mes lunettes au bureau.",
        "Ich hab schon wieder mein Handy im Zug vergessen.",
        "Se me olvidaron las llaves en el coche.",
        "Ho dimenticato il portafoglio a casa.",
        "Mi sono dimenticata le chiavi in ufficio.",
        "Ik ben mijn sleutels kwijt.",
    ],
)
def test_the_user_forgetting_or_losing_a_thing_is_one_occasion(said: str) -> None:
    assert remembered(said).count("\n- ") == 0, said


@pytest.mark.parametrize(
    "asked",
    [
        "ok so my job... just forget it",
        "The work stuff, you can delete that.",
        "My occupation is private, please erase it.",
        "you don't need to know what I do",
    ],
)
def test_it_names_the_topic_a_request_opens_with(asked: str) -> None:
    said = remembered("I'm a roofer.", "I like tea.", asked)
    assert "roofer" not in said, asked
    assert "tea" in said, asked


def test_forget_it_after_a_task_forgets_no_fact() -> None:
    said = remembered("I like tea.", "Draft a toast for my brother, actually forget it.")
    assert "tea" in said


@pytest.mark.parametrize(
    "asked",
    [
        "Did you forget where I live?",
        "How do I get you to forget my address?",
        "¿Olvidaste dónde vivo?",
        "Pourquoi tu as oublié mon adresse ?",
    ],
)
def test_a_question_not_asking_the_listener_to_forget_forgets_nothing(asked: str) -> None:
    said = remembered("I live in Truro.", "I like tea.", asked)
    assert "truro" in said, asked
    assert "tea" in said, asked


@pytest.mark.parametrize(
    "asked",
    ["my sister asked you to forget her address", "Forget his job.", "Oublie son adresse."],
)
def test_someone_elses_thing_is_none_of_the_users(asked: str) -> None:
    said = remembered("I live in Truro.", "I'm a chemist.", asked)
    assert "truro" in said, asked
    assert "chemist" in said, asked
    assert said.count("\n- ") == 2, asked


def test_a_thing_of_someone_named_goes_with_what_was_said_of_them() -> None:
    said = remembered(
        "We adopted a lurcher called Ziggy.", "I like tea.", "Forget Ziggy's details."
    )
    assert "ziggy" not in said
    assert "tea" in said


@pytest.mark.parametrize(
    "asked", ["forgt my job plz", "pls foget my job", "delte my job", "plz remvoe my job"]
)
def test_a_verb_of_forgetting_mistyped_by_one_letter_still_asks(asked: str) -> None:
    said = remembered("I'm a locksmith.", "I like tea.", asked)
    assert "locksmith" not in said, asked
    assert "tea" in said, asked


def test_a_word_of_its_own_near_the_verb_is_no_slip() -> None:
    # "remote" is one letter from "remove", and a word.
    said = remembered("I'm a locksmith.", "I like tea.", "remote desktops lag a lot")
    assert "locksmith" in said


@pytest.mark.parametrize(
    ("fact", "asked"),
    [
        ("Ich bin Tischler.", "Vergiss meinen Beruf."),
        ("Je suis kinésithérapeute à Lille.", "Oublie mon métier."),
        ("Soy carpintero.", "Olvida mi trabajo."),
    ],
)
def test_a_trade_given_as_a_bare_noun_is_the_job(fact: str, asked: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert said.count("\n- ") == 1, asked
    assert "tea" in said, asked


def test_a_bare_place_after_i_am_is_no_job() -> None:
    assert "lyon" in remembered("Je suis de Lyon.", "Oublie mon métier.")


@pytest.mark.parametrize(
    "asked",
    [
        "hey quick one - can u forget my job? ty",
        "I take back what I said about my job.",
        "Kindly purge my employment details.",
        "Also, I'd like you to drop anything about my job, I'm changing careers soon anyway.",
        "Forget my job. I'm a farrier btw, but don't save that.",
    ],
)
def test_a_request_said_casually_or_in_passing_forgets_the_job(asked: str) -> None:
    said = remembered("I'm a farrier.", "I like tea.", asked)
    assert "farrier" not in said, asked
    assert "career" not in said, asked
    assert "tea" in said, asked


def test_taking_back_a_thing_of_ones_own_life_asks_nothing() -> None:
    said = remembered("I'm a farrier.", "I'll withdraw my job application.")
    assert "farrier" in said


@pytest.mark.parametrize(
    ("fact", "asked", "gone"),
    [
        ("Ich arbeite bei Zeiss.", "Das mit der Arbeit kannst du vergessen.", "zeiss"),
        ("Ich arbeite bei Zeiss.", "Meinen Job brauchst du dir nicht zu merken.", "zeiss"),
        ("J'habite à Sète.", "Je préfère que tu oublies où j'habite.", "sète"),
        ("Vivo en Lugo.", "Prefiero que olvides dónde vivo.", "lugo"),
        ("Vivo en Lugo.", "No hace falta que recuerdes dónde vivo.", "lugo"),
        ("Trabajo en Seat.", "Lo de mi trabajo, olvídalo.", "seat"),
    ],
)
def test_a_request_with_its_thing_first_or_wished_in_the_subjunctive_forgets(
    fact: str, asked: str, gone: str
) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert gone not in said, asked
    assert "tea" in said, asked


def test_a_german_you_may_keep_that_forgets_nothing() -> None:
    assert "zeiss" in remembered("Ich arbeite bei Zeiss.", "Das kannst du dir merken.")


@pytest.mark.parametrize(
    ("fact", "asked"),
    [
        ("I've got a dodgy knee and a weak ankle.", "Forget my medical stuff."),
        ("I stutter when I'm tired.", "Forget my health info."),
        ("I have two stepsons.", "Forget my family."),
        ("My girlfriend Kim and I met at uni.", "Forget my relationship."),
    ],
)
def test_a_kind_reaches_its_words_of_body_illness_and_kin(fact: str, asked: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert said.count("\n- ") == 1, asked
    assert "tea" in said, asked


@pytest.mark.parametrize(
    ("asked", "kept", "gone"),
    [
        ("Forget my email address.", "wakefield", None),
        ("Forget my work address.", "wakefield", "tesco"),
        ("Forget my home address.", "tesco", "wakefield"),
    ],
)
def test_a_compounds_first_word_tells_which_kind_it_names(
    asked: str, kept: str, gone: str | None
) -> None:
    said = remembered("I live in Wakefield.", "I work at Tesco.", asked)
    assert kept in said, asked
    assert gone is None or gone not in said, asked


@pytest.mark.parametrize(
    "plea",
    [
        "Vergiss nicht, mich an den Zahnarzt zu erinnern.",
        "N'oublie pas de m'envoyer le lien.",
        "Don't delete my name!",
        "Non dimenticare la riunione.",
    ],
)
def test_a_verb_of_forgetting_negated_forgets_nothing(plea: str) -> None:
    said = remembered("I'm Orla.", "I like tea.", plea)
    assert "orla" in said, plea
    assert "tea" in said, plea


def test_what_goes_ends_where_a_clause_of_the_users_own_begins() -> None:
    said = remembered("I'm a tiler.", "I like tea.", "Forget Java, I'm all about Go now.")
    assert "tiler" in said
    assert "tea" in said


def test_a_pronouns_contraction_names_no_fact() -> None:
    # "I'm" is in both statements; only the trade was asked to go.
    said = remembered("I'm Orla.", "I'm a tiler.", "Forget that I'm a tiler.")
    assert "orla" in said
    assert "tiler" not in said


@pytest.mark.parametrize(
    ("facts", "asked", "kept", "gone"),
    [
        (("I like tea.", "I like jazz."), "Forget that I like jazz.", "tea", "jazz"),
        (
            ("I'm allergic to kiwi.", "I'm allergic to wasps."),
            "Forget that I'm allergic to kiwi.",
            "wasps",
            "kiwi",
        ),
        (("I'm a medic in Derby.", "I like tea."), "forget that I live in Derby", "medic", "derby"),
    ],
)
def test_a_statement_named_goes_by_what_it_says_not_by_its_verb(
    facts: tuple[str, str], asked: str, kept: str, gone: str
) -> None:
    said = remembered(*facts, asked)
    assert kept in said, asked
    assert gone not in said, asked


def test_a_statement_no_fact_words_alike_goes_by_its_kind() -> None:
    said = remembered("I'm vegetarian.", "I like tea.", "Forget that I don't eat meat.")
    assert "vegetarian" not in said
    assert "tea" in said


@pytest.mark.parametrize(
    "asked",
    [
        "I regret telling you about my asthma, please delete it",
        "oops, TMI about my health — wipe that",
        "nah scrap the medical bit",
        "I don't want you holding on to my medical info",
        "Health stuff: please forget.",
    ],
)
def test_a_request_about_the_health_said_loosely_forgets_it(asked: str) -> None:
    said = remembered("I have asthma.", "I like tea.", asked)
    assert "asthma" not in said, asked
    assert said.count("\n- ") == 1, asked


@pytest.mark.parametrize(
    "asked",
    [
        "Vergiss alles außer meinem Wohnort.",
        "Oublie tout sauf mon adresse.",
        "Olvida todo menos dónde vivo.",
        "Forget everything except my address.",
    ],
)
def test_everything_but_a_kind_named_spares_that_kind(asked: str) -> None:
    said = remembered("I live in Zug.", "I like tea.", asked)
    assert "zug" in said, asked
    assert "tea" not in said, asked


def test_one_thing_of_a_list_kind_goes_and_its_neighbours_stay() -> None:
    said = remembered("We have a dog, Pudding.", "I have a cat called Miso.", "Forget the dog.")
    assert "pudding" not in said
    assert "miso" in said


def test_a_thing_no_fact_names_takes_its_whole_kind() -> None:
    # Nothing says "dog": the retriever is what was meant.
    said = remembered("We have a golden retriever, Bramble.", "I like tea.", "Forget the dog.")
    assert "bramble" not in said
    assert "tea" in said


@pytest.mark.parametrize(
    "asked",
    [
        "remove the dog from the story",
        "In the essay, drop any mention of my dog.",
        "Delete the second paragraph, the one about my dog.",
    ],
)
def test_taking_a_thing_out_of_a_text_is_an_edit_of_the_text(asked: str) -> None:
    said = remembered("I have a dog called Fig.", "I like tea.", asked)
    assert "fig" in said, asked
    assert said.count("\n- ") == 2, asked


def test_the_part_of_a_kind_kept_stays_when_the_rest_goes() -> None:
    said = remembered(
        "I'm Suvi, Tampere-based, and I coach rowing.", "Keep my name, lose the rest."
    )
    assert "suvi" in said
    assert "tampere" not in said
    assert "rowing" not in said


def test_a_kind_forgotten_only_when_no_words_match_is_the_users_alone() -> None:
    from ctxchat.providers.memory.project import split_ops

    ops = extract_rules("Forget that I use a laptop.").ops
    person, work = split_ops(ops)
    assert any((op.slot or "").startswith("otherwise:") for op in person)
    assert not any((op.slot or "").startswith("otherwise:") for op in work)


@pytest.mark.parametrize(
    ("fact", "asked"),
    [
        ("My brother Sam is a pilot.", "Wipe everything you know about my family."),
        ("I have eczema.", "Delete all you have on my health."),
        ("I'm a vet.", "Could you not hang on to my job details going forward?"),
        ("I grew up in Cork.", "Forget where I grew up."),
    ],
)
def test_all_of_a_topic_is_that_topic_not_everything(fact: str, asked: str) -> None:
    said = remembered(fact, "I like tea.", asked)
    assert said.count("\n- ") == 1, asked
    assert "tea" in said, asked


@pytest.mark.parametrize(
    ("asked", "left"),
    [
        ("Vergiss alles über mich.", 0),
        ("Oublie tout ce que tu sais sur moi.", 0),
        ("Olvida todo.", 0),
        ("Vergiss alles, was du über meine Familie weißt.", 1),
        ("Oublie tout ce que tu sais sur ma famille.", 1),
        ("Olvida todo lo que sabes de mi familia.", 1),
    ],
)
def test_everything_and_everything_of_a_topic_in_each_language(asked: str, left: int) -> None:
    said = remembered("Mi hermano Luis es piloto.", "I like tea.", asked)
    assert said.count("\n- ") == left, asked

"""The statement reader: what in a message is a lasting statement about the user.

Every sentence here is written for these tests, in words of their own (none is taken from the
evaluation sets): each checks one part of the general test (mood, subject, time, style,
change, forget, language), so that a failure names the part that broke.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memorykit import learn, remembered

from ctxchat.providers.memory.evaluate import evaluate_file
from ctxchat.providers.memory.statements import extract_rules


def added(text: str) -> list[tuple[str | None, str]]:
    return [(o.slot, o.value) for o in extract_rules(text).ops if o.kind == "add"]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I keep bees on my allotment.", "possessions"),
        ("My sister lives in Galway.", "family"),
        ("I'm a welder at a shipyard.", "work"),
        ("I live in Tromsø with my husband.", "home"),
        ("Shellfish makes my throat close up, I'm allergic.", "allergy"),
        ("Been a vegetarian since 2015.", "diet"),
        ("I play the cello in a community orchestra.", "hobby"),
    ],
)
def test_a_plain_statement_is_kept_in_the_users_words(text: str, slot: str | None) -> None:
    [(got_slot, value)] = added(text)
    assert value == text
    assert got_slot == slot


def test_a_clause_is_never_cut_at_a_comma_or_an_and_that_belongs_to_it() -> None:
    text = "I'm passionate about building a calm, welcoming and safe space for new players."
    assert [v for _, v in added(text)] == [text]


def test_clauses_about_different_things_are_kept_apart() -> None:
    assert added("I'm vegan and I live in Cork.") == [
        ("diet", "I'm vegan"),
        ("home", "I live in Cork."),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # mood
        "Do you know a good bakery in Lyon?",
        "how do i clean a cast iron pan",
        "If I lived in Oslo I would ski every day.",
        "Imagine I'm a dragon guarding a hoard of gold.",
        "Write a poem about a farmer who loves his goats.",
        "Summarise the report: the author lives in Perth and hates winter.",
        "Translate 'I am allergic to cats' into Polish.",
        "Let's role-play: you're the captain and I'll be a sailor from Hull.",
        "Oh great, the bus is late again. I just love waiting.",
        # subject
        "My colleague is allergic to wasps.",
        "A guest at my wedding is coeliac, what cake is safe?",
        "She moved to Madrid last year.",
        # time
        "I'm so tired today.",
        "I went to a pottery class last Tuesday and it was fun.",
        "I'm really grateful for your help.",
        "I'm going to a concert tomorrow.",
        "I have a big presentation tomorrow.",
        "We've got friends over next week.",
        # sayings are someone else's words
        "My uncle always said that hard work beats talent.",
        "Never give up on your dreams.",
    ],
)
def test_what_is_not_a_lasting_statement_about_the_user_is_not_kept(text: str) -> None:
    assert added(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Keep it brief, please.", True),
        ("Use metric units from now on.", True),
        ("Always answer in Spanish.", True),
        ("Explain the main causes step by step.", False),
        ("Write a short summary of this chapter.", False),
        ("Stay positive and keep going!", False),
    ],
)
def test_style_comes_only_from_a_standing_instruction_about_replies(text: str, kept: bool) -> None:
    slots = [slot for slot, _ in added(text)]
    if kept:
        assert slots
        assert all(s is not None and s.startswith(("reply", "units")) for s in slots)
    else:
        assert not any(s and s.startswith(("reply", "units", "emoji")) for s in slots)


def test_a_new_home_supersedes_the_old_one() -> None:
    block = remembered("I live in Dundee.", "We've moved to Perth now.")
    assert "perth" in block
    assert "dundee" not in block


def test_a_change_retires_what_it_ends() -> None:
    block = remembered("I drive a Skoda Fabia.", "I sold the Fabia and bought a bike.")
    assert "fabia" not in block
    assert "bike" in block


def test_a_contrast_corrects_the_value_it_names() -> None:
    block = remembered("My cat is called Biscuit.", "Sorry, the cat's called Pickle, not Biscuit.")
    assert "biscuit" not in block


def test_a_bare_correction_replaces_the_most_alike_word() -> None:
    block = remembered("My surname is Halloran.", "Oops, typo: Holloran.")
    assert "holloran" in block
    assert "halloran" not in block


@pytest.mark.parametrize(
    ("turns", "gone", "kept"),
    [
        (("I'm vegan.", "I live in Bath.", "Forget that I am vegan."), "vegan", "bath"),
        (("I work at Initech.", "I live in Ely.", "Please forget where I work."), "initech", "ely"),
        (("My dog is called Rufus.", "I'm a nurse.", "Scrub the dog."), "rufus", "nurse"),
        (("I'm Dara, from the Acme billing team.", "Remove Acme from my memory."), "acme", "dara"),
    ],
)
def test_forget_by_meaning_within_a_facts_topic(
    turns: tuple[str, ...], gone: str, kept: str
) -> None:
    block = remembered(*turns)
    assert gone not in block
    assert kept in block


def test_forget_everything() -> None:
    assert (
        remembered("I live in Leeds.", "I'm a chef.", "Forget everything you know about me.") == ""
    )


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Ich wohne in Graz.", "graz"),
        ("J'habite à Nantes depuis cinq ans.", "nantes"),
        ("Vivo en Rosario con mi familia.", "rosario"),
        ("Bitte antworte immer auf Deutsch.", "deutsch"),
    ],
)
def test_the_readmes_four_languages(text: str, word: str) -> None:
    assert word in remembered(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wo kann ich in Wien gut essen?",
        "Mon ami habite à Lille.",
        "¿Qué tiempo hace en Bilbao?",
        "Dove posso mangiare a Napoli?",
        "Onde fica a estação?",
        "Waar kan ik fietsen huren?",
        "Mein Kollege ist allergisch gegen Nüsse.",
    ],
)
def test_questions_and_other_peoples_facts_store_nothing_in_any_language(text: str) -> None:
    assert added(text) == []


def test_a_second_statement_of_the_same_thing_is_not_a_second_fact() -> None:
    facts = learn("I live in Riga.", "I live in Riga.")
    assert len(facts.active()) == 1


PROBE = Path(__file__).parent / "data" / "memory_probe.jsonl"


def test_the_probe_sentences_written_here_hold() -> None:
    """Cases written for ctxchat in registers of their own (terse, chatty, hedged,
    lowercase, facts inside requests, the seven languages, updates, forgets, and negatives of
    every kind the data README lists, and of everyday work and chat), used to find where the
    reader's general tests fall short. A regression guard: the thresholds are what the reader
    does today (0.943 of 2,228, the last 652 being batches written before the reader was
    changed for them: updates, plain facts in shapes it missed, forgets by meaning, the other
    languages, reply style and mottos, negatives, lists with no "I", tastes and names, updates
    and corrections by meaning, facts said in passing inside a question, updates typed in
    lower case without apostrophes, job and health in many registers; 11 false memories of
    387 negatives: the kids asleep, a new kettle, a phone battery, four of a relative or a pet
    inside a question, a bio asked for, two mottos, a verdict on an app), less a few cases."""
    result = evaluate_file(PROBE)
    negatives = [r for r in result.results if "negative" in r.case.tags]
    assert result.pass_rate >= 0.935, result.failed
    assert sum(not r.passed for r in negatives) <= 12, [
        r.case.id for r in negatives if not r.passed
    ]


def test_a_document_sized_message_is_read_only_as_far_as_a_person_tells() -> None:
    from ctxchat.providers.memory.statements import MAX_READ

    told = "I live in Dundee. " + "y" * (MAX_READ * 100)
    assert [v for _, v in added(told)] == ["I live in Dundee."]


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Can you suggest a weekend hike near Grenoble, where I live?", "Grenoble, where I live"),
        (
            "I need lunch ideas for a short break at the hospital where I work as a radiographer.",
            "I work as a radiographer",
        ),
        ("Any stretches for a software developer who sits all day? That's me.", "developer"),
        # an apposition before the user as the subject, inside the sentence
        ("Could you tell my boss that, as a coeliac, I can't share the cake?", "coeliac"),
        # "he" or "she" straight after one of the user's people is that person
        ("Any ideas for a bedtime story for my son? He's 4 and called Rafi.", "Rafi"),
        # a thing the user keeps, named in passing
        ("Which rosin works best on my viola?", "my viola"),
        ("Is it worth servicing my Nikon D750 before the trip?", "Nikon D750"),
        # "mine" and "ours" stand for the user's own one of the thing named before them
        ("How much should a rabbit eat? Ours is called Clover.", "rabbit: ours is called Clover"),
    ],
)
def test_a_clause_of_the_users_own_inside_a_question_or_a_need_is_kept(
    message: str, kept: str
) -> None:
    assert kept.casefold() in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Can you suggest a weekend hike near Grenoble?",
        "Where do people who work night shifts usually eat?",
        "Any stretches for a software developer who sits all day?",
        "Is my Lufthansa LH902 flight on time?",
        "How do I tell the team that, as a result, I need more time?",
        "Do hamsters get lonely on their own? Mine too.",
    ],
)
def test_a_question_about_other_people_keeps_nothing(message: str) -> None:
    assert learn(message).active() == []


def test_a_passing_state_of_someone_named_before_is_not_kept() -> None:
    assert "exhausted" not in remembered("Any quick dinners for my mum? She's exhausted today.")


def test_forgetting_the_age_keeps_the_name() -> None:
    block = remembered("I'm Hugo.", "I'm 41 years old.", "Please forget my age.")
    assert "hugo" in block
    assert "41" not in block


def test_forgetting_the_person_a_statement_is_about_forgets_all_of_it() -> None:
    block = remembered("Greg, my partner, is the cook in our house.", "Please forget Greg.")
    assert "cook" not in block
    assert "partner" not in block


def test_keep_one_thing_and_forget_the_rest() -> None:
    block = remembered(
        "I'm Rina.", "I am based in Osaka.", "I teach piano.", "Keep my name, lose the rest."
    )
    assert "rina" in block
    assert "osaka" not in block
    assert "piano" not in block


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Been learning the cello since January.", "cello"),
        ("Job: paramedic. City: Cork.", "cork"),
        ("Country music? No thanks.", "country music"),
        ("Allergic to penicillin, just so you know.", "penicillin"),
    ],
)
def test_a_short_statement_with_its_i_left_out_is_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Paris is the capital of France.",
        "Tone: friendly but professional. Length: 200 words.",
        "Stuck in traffic on the ring road.",
        "Finished the report finally, time for a coffee.",
        "Really!? Yeah, that's him.",
        "Hopefully we will find a flat soon.",
        "Pull the caller's details out into JSON.",
    ],
)
def test_a_short_message_that_tells_nothing_lasting_keeps_nothing(message: str) -> None:
    assert learn(message).active() == []


def test_a_pasted_error_label_corrects_nothing() -> None:
    facts = learn("I live in Leeds.", "Error: connection refused. Code: 500.")
    assert [f.value for f in facts.active()] == ["I live in Leeds."]


@pytest.mark.parametrize(
    ("earlier", "now", "gone", "kept"),
    [
        ("I'm a barista.", "Not a barista any more, I manage the cafe now.", "barista", "cafe"),
        ("I commute by bus.", "Bought a bike, so no more bus for me.", "commute", "bike"),
        ("My car is a Golf.", "Traded the Golf in for a Tesla.", "my car is", "tesla"),
    ],
)
def test_what_a_statement_says_no_longer_holds_is_retired(
    earlier: str, now: str, gone: str, kept: str
) -> None:
    block = remembered(earlier, now)
    assert gone not in block
    assert kept in block


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I studied history at Leeds.", True),
        ("I majored in economics.", True),
        ("I studied for my exam last night.", False),
    ],
)
def test_what_the_user_studied_is_their_education(said: str, kept: bool) -> None:
    assert ("education:" in remembered(said)) is kept


def test_scratch_my_kind_forgets_it() -> None:
    block = remembered("I studied law at Edinburgh.", "Scratch my education from memory please.")
    assert "law" not in block


@pytest.mark.parametrize(
    "said",
    [
        "Quick note: I'm allergic to shellfish.",
        "Ah, I need to fix something I said: I'm allergic to shellfish.",
    ],
)
def test_a_lead_that_introduces_the_users_own_words_is_no_paste(said: str) -> None:
    assert "shellfish" in remembered(said)


@pytest.mark.parametrize(
    "said",
    ["The note says: I'm allergic to shellfish.", "My friend said: I'm allergic to shellfish."],
)
def test_a_text_introduced_as_someone_elses_is_still_not_the_users(said: str) -> None:
    assert "shellfish" not in remembered(said)


def test_a_comment_after_not_is_no_value() -> None:
    block = remembered(
        "I'm allergic to peanuts.",
        "Ah, I need to fix something I said: it's shellfish I'm allergic to. Not peanuts, no "
        "idea why I typed that.",
    )
    assert "no idea" not in block


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("I live in Lisbon and want to find weekend hikes nearby.", "home:"),
        ("I want to move to Austin.", "goal"),
        ("Planning to move to Austin.", "goal"),
    ],
)
def test_a_wish_after_a_home_told_leaves_it_a_home(said: str, slot: str) -> None:
    assert slot in remembered(said)


@pytest.mark.parametrize(
    "then", ["I'm fluent in German.", "I'm interested in Buddhism.", "I'm involved in Scouts."]
)
def test_what_the_user_is_in_is_no_home(then: str) -> None:
    assert "i live in leeds" in remembered("I live in Leeds.", then)


@pytest.mark.parametrize(
    "then", ["I'm currently in Berlin.", "I'm back in Cork.", "I'm living in Oslo."]
)
def test_where_the_user_is_now_is_their_home(then: str) -> None:
    assert "leeds" not in remembered("I live in Leeds.", then)


def test_a_comparison_with_we_can_is_no_plan() -> None:
    said = (
        "We have a border collie called Biscuit who needs way more exercise than we can give him."
    )
    assert "biscuit" in remembered(said)
    assert "- " not in remembered("We can go to the zoo on Saturday.")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I want to pay off my student loans by 30.", True),
        ("I hope to run a marathon by the time I'm 50.", True),
        ("I want to finish this email by 5.", False),
    ],
)
def test_an_aim_with_a_deadline_in_years_is_a_goal(said: str, kept: bool) -> None:
    assert ("goal:" in remembered(said)) is kept


@pytest.mark.parametrize(
    "then", ["I hope to run a marathon by the time I'm 50.", "When I'm 60 I want to live in Spain."]
)
def test_an_age_ahead_is_not_the_users_age(then: str) -> None:
    assert "i'm 34" in remembered("I'm 34.", then)

"""Health said with a time of life, a medical event, or the user's own clinician.

The kind of a statement decides whether a told occasion is kept for what it left behind
("diagnosed with asthma" is health, which lasts), so a word that only says when ("as a
kid", "at age five") or who treats the user ("my doctor") must not give it another kind.
"""

from __future__ import annotations

import pytest
from memorykit import ops_of, remembered, slots_of


def test_an_age_of_life_says_when_not_that_a_child_is_about() -> None:
    assert "asthma" in remembered("I was diagnosed with asthma when I was a kid.")
    assert "asthma" in remembered("I was diagnosed with asthma as a teenager.")
    slots = {slot for _, slot, _ in ops_of("I've had eczema since I was a child.")}
    assert slots == {"health"}


def test_an_age_something_happened_at_is_not_the_users_age() -> None:
    assert "asthma" in remembered("I was diagnosed with asthma at age five.")
    assert {slot for _, slot, _ in ops_of("I'm 34.")} == {"age"}


def test_a_kids_trade_is_still_work() -> None:
    assert {slot for _, slot, _ in ops_of("I work as a kid's entertainer.")} == {"work"}


def test_a_medical_event_leaves_a_lasting_state() -> None:
    assert "replacement" in remembered("I had a hip replacement in June.")
    assert "stroke" in remembered("I had a stroke in 2021 and my left hand is weak.")
    assert remembered("I had a stroke of luck yesterday.") == remembered()


def test_the_users_clinician_tells_health_not_work() -> None:
    assert "statins" in remembered("My doctor put me on statins last year.")
    assert {slot for _, slot, _ in ops_of("My therapist says I have PTSD.")} == {"health"}
    # A job said outright later does not retire it.
    assert "ptsd" in remembered("My therapist says I have PTSD.", "I'm a teacher.")
    assert {slot for _, slot, _ in ops_of("I'm a doctor.")} == {"work"}


def test_conditions_named_by_their_kind_are_health() -> None:
    for said in (
        "I'm going through menopause.",
        "I'm six months postpartum.",
        "I'm immunocompromised.",
        "I'm an amputee.",
        "I have a vitamin D deficiency.",
    ):
        assert {slot for _, slot, _ in ops_of(said)} == {"health"}, said


def test_work_held_in_the_past_tense_or_lost_is_work() -> None:
    assert {slot for _, slot, _ in ops_of("I've worked in retail for years.")} == {"work"}
    assert {slot for _, slot, _ in ops_of("I've been unemployed since January.")} == {"work"}
    assert "carpentry" in remembered("I'm doing an apprenticeship in carpentry.")


def test_a_role_after_a_verb_of_work_and_as_is_work() -> None:
    said = "Working nights as a security guard, how do I stay awake?"
    assert {slot for _, slot, _ in ops_of(said)} == {"work"}
    assert {slot for _, slot, _ in ops_of("As a retiree, what hobbies would you suggest?")} == {
        "work"
    }


def test_who_or_what_one_lives_with_leaves_the_home_alone() -> None:
    """ "I'm living with MS" was filed as home, and superseded where the user lives."""
    for told in ("I'm living with MS.", "I live with my girlfriend."):
        said = remembered("I live in Berlin.", told)
        assert "i live in berlin" in said, told
    assert "home: i'm living with ms" not in remembered("I'm living with MS.")
    assert "home: i live with my parents in leeds" in remembered("I live with my parents in Leeds.")


def test_work_at_a_place_of_learning_is_work_and_a_class_taught_is_not() -> None:
    """The school names where the user works; "I teach maths at a high school" was filed as
    education, beside the user's studies."""
    for told in (
        "I teach maths at a high school.",
        "I work at a university.",
        "I am a teacher at a school.",
    ):
        assert slots_of(told) == {"work"}, told
    assert slots_of("I work on my thesis at uni.") == {"education"}
    said = remembered("I'm doing a part-time MBA.", "I lecture at the university.")
    assert "mba" in said
    assert "work: i lecture at the university" in said


@pytest.mark.parametrize(
    "told",
    [
        "I'm meeting a plumber tomorrow.",
        "I'm seeing the dentist tomorrow.",
        "Talked to my accountant.",
    ],
)
def test_a_trade_the_user_meets_or_calls_is_no_job_of_theirs(told: str) -> None:
    """ "I'm meeting a plumber tomorrow" was kept as the user's work."""
    assert "work" not in slots_of(told)
    assert "i'm a nurse" in remembered("I'm a nurse.", told)


def test_seeing_a_clinician_is_health_and_dating_is_a_relationship() -> None:
    assert slots_of("I'm seeing a therapist.") == {"health"}
    assert slots_of("I'm dating a guy called Tom.") == {"relationship"}
    assert slots_of("im dating this girl from work") == {"relationship"}
    assert slots_of("I work with a designer.") == {"work"}

"""A message that ends, changes or takes up one thing leaves every other fact alone.

Each pair was a loss once: the second message retired the first fact, which it does not
speak of."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("kept", "said"),
    [
        ("I play the guitar.", "I stopped playing tennis years ago."),  # "playing" ended
        ("I drink oat milk.", "I switched banks, I'm with Monzo now."),  # the newest fact
        ("I speak French.", "I'm learning Italian now."),  # one more language, not instead
        ("My dog is called Rex.", "My cat died last month."),  # the newest pet
        ("I'm a teacher.", "I no longer coach the football team."),  # the newest fact
        ("I love sushi.", "I'm learning Spanish now."),
        ("I live in Leeds.", "My brother just moved to Manchester."),
        ("I'm allergic to cats.", "My neighbour's cat keeps visiting."),
        ("My wife is a doctor.", "She's working nights this week."),
        ("I'm vegan.", "My wife isn't vegan anymore."),  # hers, not the user's
        ("I live in Toronto.", "The meeting moved to 3pm."),  # a time, not a home
        ("I work at Shopify.", "Left my old laptop at the office."),  # left behind, not left
        ("I have a beagle called Max.", "Max's vet appointment moved to Tuesday."),  # a day
        ("I live in Austin.", "We're in Denver for a week."),  # a stay with its end in sight
        ("I'm a PhD student.", "My supervisor left the university."),  # his, not the user's
        ("I use Linux.", "Switched my phone to dark mode."),  # of the phone, not the newest
        ("I'm training for a marathon.", "Quit my gym membership, running outside instead."),
        ("I'm 52.", "My car is 12 years old now."),  # the car's age, not the user's
        ("I work at Airbus.", "Our team moved to the new building."),  # the team moved
        ("I play in a band.", "Our drummer quit last week."),  # he quit, not the user
        ("I live in Leeds.", "Working from my parents' place in York for a bit."),  # a stay
        ("I have back problems.", "Not a problem!"),  # a reply, no self of the user's
        ("I live in Leeds.", "We sold the Golf."),  # "We" is no one named who went
        ("I'm a people person.", "Not a morning person."),  # "person" names nothing alone
    ],
)
def test_a_message_about_another_thing_leaves_the_fact(kept: str, said: str) -> None:
    assert kept.casefold().rstrip(".") in remembered(kept, said)


@pytest.mark.parametrize(
    ("old", "said", "gone"),
    [
        ("My bank is Barclays.", "I switched banks, I'm with Monzo now.", "barclays"),
        ("I play tennis.", "I stopped playing tennis years ago.", "i play tennis"),
        ("My cat is called Mog.", "My cat died last month.", "mog"),
        ("I coach the football team.", "I no longer coach the football team.", "i coach"),
    ],
)
def test_the_thing_it_does_speak_of_still_goes(old: str, said: str, gone: str) -> None:
    assert gone not in remembered(old, said)


@pytest.mark.parametrize(
    "said", ["Ugh, I'm so tired of this rain.", "We're out of milk.", "Ran out of coffee again."]
)
def test_a_moment_s_mood_or_a_thing_run_out_of_is_no_fact(said: str) -> None:
    assert "- " not in remembered(said)


def test_not_being_what_was_told_retires_it() -> None:
    assert "morning person" not in remembered("I'm a morning person.", "Not a morning person.")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Really into bouldering lately.", "bouldering"),  # "I'm" dropped before "into"
        ("Learning the drums at 40, wish me luck.", "drums"),  # an instrument learnt
    ],
)
def test_a_pastime_told_without_its_i_is_kept(said: str, kept: str) -> None:
    assert kept in remembered(said)


def test_what_we_sold_is_what_ends() -> None:
    block = remembered("I drive a diesel Golf.", "I'm a nurse.", "We sold the Golf.")
    assert "golf" not in block
    assert "nurse" in block

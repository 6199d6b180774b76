"""What the rules reader hears in passing: where the user lives or works, named inside a
question or a remark about someone else; a name given as "the name's …"; and a pet that is
someone else's."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("What's the best way to get from my flat in Shoreditch to Heathrow?", "shoreditch"),
        (
            "How should I prep for my shift at the fire station after a long weekend?",
            "fire station",
        ),
        ("My landlord in Bilbao won't fix the heating. What are my rights as a tenant?", "bilbao"),
        ("The name's Okonkwo, but Kwo is fine.", "okonkwo"),
    ],
)
def test_a_place_or_name_said_in_passing_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "My neighbour's dog barks all night, what can I do?",
        "Is my house in order?",
    ],
)
def test_someone_elses_pet_or_a_plain_question_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Someday I want to open a bookshop café.", "bookshop"),
        ("I'd love to retire in Portugal.", "portugal"),
    ],
)
def test_a_life_aim_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_want_about_a_file_is_no_aim() -> None:
    assert remembered("I want to open the file in vim.") == ""


def test_a_list_of_dropped_i_parts_is_each_kept() -> None:
    said = remembered("Vegan for 6 years, training for an Ironman, and working as a physio.")
    for word in ("vegan", "ironman", "physio"):
        assert word in said


@pytest.mark.parametrize(
    "message",
    [
        "Ugh, stuck in traffic again.",
        "Pretend you're my Italian grandmother and teach me to make pasta.",
        "My friend Sara lives in Dublin and works as a vet.",
    ],
)
def test_a_moment_a_role_or_a_friend_in_a_list_is_not_kept(message: str) -> None:
    assert remembered(message) == ""


def test_the_thing_the_user_says_they_use_is_kept() -> None:
    said = remembered(
        "Recommend a laptop bag that fits a 16-inch MacBook Pro, which is what I use."
    )
    assert "macbook pro" in said


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # One of the user's named in apposition, whatever its kind.
        ("How often should I brush my whippet, Socks, in winter?", "socks"),
        ("How often should I water my bonsai, Kenji?", "kenji"),
        # What the user is, said as what "you" stand in for.
        ("Which cereals work when you're coeliac like me?", "coeliac"),
        # Where the user has moved is where they live.
        ("How do I find a GP after moving to Inverness?", "inverness"),
    ],
)
def test_asked_in_passing_apposition_like_me_and_moved_to(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_named_one_of_someone_elses_is_not_the_users() -> None:
    assert "socks" not in remembered("Should my neighbour's whippet, Socks, wear a coat?")


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I'm vegan, what should I cook tonight?", "vegan"),
        ("Married with three kids — any tips for a cheap summer holiday?", "kids"),
        ("Work as a welder in Hull, what gloves would you pick?", "welder"),
    ],
)
def test_a_lead_before_a_question_is_told(message: str, word: str) -> None:
    assert word in remembered(message).casefold()


@pytest.mark.parametrize(
    "message",
    [
        "I have a question about taxes, do I need to file?",
        "I'm trying to figure out which laptop to buy, any advice?",
        "I'm writing an essay on climate, can you help?",
        "Il mio amico è vegano, cosa posso cucinare?",
    ],
)
def test_a_lead_that_only_sets_the_question_up_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


def test_an_in_law_moving_does_not_move_the_user() -> None:
    assert "home:" not in remembered("My sister-in-law just moved to Oslo.")


@pytest.mark.parametrize(
    ("message", "kept", "left"),
    [
        ("I'm coeliac, so please no recipes with barley.", "coeliac", "barley"),
        ("Bin Veganerin, also bitte keine Rezepte mit Honig.", "veganerin", "honig"),
    ],
)
def test_a_polite_request_after_a_reason_is_no_part_of_the_reason(
    message: str, kept: str, left: str
) -> None:
    said = remembered(message).casefold()
    assert kept in said
    assert left not in said


def test_the_du_of_a_german_request_asks_for_no_tone() -> None:
    assert remembered("Bin heute total platt, kannst du mir einen Witz erzählen?") == ""


@pytest.mark.parametrize(
    "message",
    [
        "Teachers get the whole summer off, don't they?",
        "Plumbers charge a fortune round here.",
        "Bakers start at 4am, right?",
    ],
)
def test_what_is_said_of_a_whole_trade_is_no_fact_of_the_users(message: str) -> None:
    assert remembered(message) == ""


def test_a_trade_introduced_as_here_is_a_job_not_a_name() -> None:
    said = remembered("I'm Priya.", "Electrician here, mostly rewiring old houses.")
    assert "priya" in said
    assert "electrician" in said


def test_a_pets_symptom_of_lately_is_no_fact_but_the_pet_is() -> None:
    said = remembered("My dog has been limping since the walk, should I see a vet?")
    assert "limping" not in said


@pytest.mark.parametrize(
    ("message", "kept", "left"),
    [
        ("Como soy celíaca, ¿qué cervezas puedo pedir?", "celíaca", "cerveza"),
        ("Comme je suis végane, tu peux me proposer un dessert ?", "végane", "dessert"),
        ("Da ich Diabetikerin bin, welche Snacks gehen?", "diabetikerin", "snacks"),
        ("Vivo en Cádiz, ¿algún sitio para cenar?", "cádiz", "cenar"),
    ],
)
def test_a_reason_or_lead_before_a_question_is_heard_in_the_other_languages(
    message: str, kept: str, left: str
) -> None:
    said = remembered(message)
    assert kept in said
    assert left not in said


@pytest.mark.parametrize(
    ("message", "kept", "left"),
    [
        ("dairy intolerant, so is this risotto ok?", "dairy", "risotto"),
        ("Rough week at the depot — I'm a bus driver — podcast recs?", "bus driver", "podcast"),
    ],
)
def test_a_lead_is_heard_before_a_joined_or_a_one_word_question(
    message: str, kept: str, left: str
) -> None:
    said = remembered(message)
    assert kept in said
    assert left not in said


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Cooking for one since the divorce, quick dinner ideas?", ["divorce"]),
        ("My brother lives in Turin, worth a visit?", ["turin"]),
    ],
)
def test_a_lead_before_a_short_question_is_kept_once(message: str, words: list[str]) -> None:
    lines = [line for line in remembered(message).splitlines() if line.startswith("- ")]
    assert len(lines) == 1
    assert all(word in lines[0] for word in words)


def test_a_german_question_opening_with_its_verb_follows_a_lead() -> None:
    said = remembered("Ich arbeite als Försterin im Harz, weißt du, wie man Pilze trocknet?")
    assert "försterin" in said
    assert "pilze" not in said


def test_a_home_named_in_passing_is_heard_in_a_long_turn() -> None:
    said = remembered(
        "So I've been thinking about getting back into shape, which is tricky because I work "
        "long shifts and by the time I get home to my flat in Croydon I'm wiped. Any workouts?"
    )
    assert "home: my flat in croydon\n" in said


@pytest.mark.parametrize(
    "message",
    [
        "the new flat in Leeds has a tiny kitchen, any storage tips?",
        "we just closed on a house in Leeds!! the movers come friday.",
    ],
)
def test_a_new_home_said_in_passing_replaces_the_old(message: str) -> None:
    block = remembered("I live in York.", message)
    assert "leeds" in block
    assert "york" not in block


def test_a_second_home_bought_is_not_where_the_user_lives() -> None:
    block = remembered("I live in York.", "We bought a house in Spain for the holidays.")
    assert "york" in block
    assert "spain" not in block


def test_what_took_the_place_of_an_ended_thing_is_kept() -> None:
    block = remembered(
        "I play violin in an orchestra.",
        "Gave up the orchestra, it was eating my time. Been bouldering three times a week instead.",
    )
    assert "bouldering" in block
    assert "orchestra" not in block


def test_a_question_after_an_end_is_not_kept() -> None:
    block = remembered(
        "I play violin in an orchestra.",
        "Gave up the orchestra. Been wondering what to do with my evenings?",
    )
    assert "wondering" not in block


def test_a_lead_before_a_request_for_tips_is_kept() -> None:
    block = remembered(
        "I work from the office in the city centre.",
        "my company went fully remote so i work from home now, desk setup tips for a small flat?",
    )
    assert "from home" in block
    assert "office" not in block


def test_a_lead_that_only_sets_up_a_request_for_tips_is_not_kept() -> None:
    said = "I have a big presentation tomorrow, calming tips for the nerves?"
    assert "- " not in remembered(said)


@pytest.mark.parametrize(
    "then",
    [
        "I'm just eating Mediterranean style now.",
        "Switched to low-carb a month ago.",
        "I'm on Atkins these days.",
    ],
)
def test_a_named_way_of_eating_is_the_diet(then: str) -> None:
    block = remembered("I'm vegan.", then)
    assert "diet:" in block
    assert "vegan" not in block


@pytest.mark.parametrize(
    ("message", "place"),
    [
        ("Any tips for Tromsø in winter? I moved here in March.", "tromsø"),
        ("What's worth seeing in Ghent? Moved here last year and still exploring.", "ghent"),
    ],
)
def test_moving_here_after_a_place_named_is_a_home_there(message: str, place: str) -> None:
    said = remembered(message)
    assert "- home:" in said
    assert place in said


def test_a_word_of_the_language_before_here_is_no_name() -> None:
    assert "name" not in slots_of("Moved here in March.")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I live in Leeds.", "now that I'm in Hull, where can I go running?", "hull", "leeds"),
        ("I'm based in Cork.", "Now that I've settled in Sligo, any surf spots?", "sligo", "cork"),
    ],
)
def test_a_home_said_as_the_reason_for_a_question_replaces_the_old_one(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    "said",
    [
        "I'm from Chile originally and miss the food, any easy empanada recipes?",
        "Born and raised in Cork, so go easy on the rain jokes.",
        "a gift from my grandma in my home country, Sweden.",
    ],
)
def test_where_the_user_comes_from_is_an_origin_not_a_home(said: str) -> None:
    assert slots_of(said) == {"origin"}


def test_a_home_told_after_an_origin_is_still_the_home() -> None:
    said = remembered("I live in Lyon.", "I'm originally from Dakar.")
    assert "lyon" in said
    assert "dakar" in said


def test_a_first_house_named_in_passing_is_the_new_home() -> None:
    said = remembered(
        "We rent a small flat in Exeter.",
        "Keys to our first house in Truro!! 🏡 what should we sort out first as homeowners?",
    )
    assert "truro" in said
    assert "exeter" not in said


def test_a_pet_brought_home_is_the_users_and_a_meal_is_not() -> None:
    said = remembered(
        "We just brought home a rescue whippet called Dash, any tips for the first week?"
    )
    assert "dash" in said
    assert remembered("We just brought home a takeaway curry.") == ""


def test_a_favourite_person_is_the_users_taste_initials_and_all() -> None:
    said = remembered("My favourite author is Iain M. Banks, can you recommend similar books?")
    assert "iain m. banks" in said
    assert remembered("My friend's favourite author is Zadie Smith.") == ""

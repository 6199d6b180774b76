"""How the rules reader hears plain statements it used to miss: an occasion that left a
lasting state, a name given as "This is …", the user's own context after a label, a message's
language told by its function words, and forgetting what was said of someone else."""

from __future__ import annotations

import pytest
from memorykit import learn, remembered, slots_of

from ctxchat.providers.memory.lexicon import language_of
from ctxchat.providers.memory.recall import render_recall
from ctxchat.providers.memory.statements import extract_rules


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Got diagnosed with coeliac disease in the spring.", "coeliac"),
        ("After years in sales I finally opened my own florist shop.", "florist"),
        ("Adopted a border collie from the shelter last year.", "collie"),
    ],
)
def test_an_occasion_that_left_a_lasting_state_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "We went to the beach last weekend and the kids loved it.",
        "I went to the gym yesterday.",
    ],
)
def test_an_outing_is_still_an_occasion(message: str) -> None:
    assert [op for op in extract_rules(message).ops if op.kind == "add"] == []


def test_a_name_given_as_this_is_is_kept_even_before_a_question() -> None:
    assert "ingrid" in remembered("This is Ingrid. Quick question about spreadsheets.")


def test_the_users_own_context_after_a_label_is_hers() -> None:
    assert "epilepsy" in remembered("Some context: I have epilepsy, so no flashing visuals.")


def test_a_brief_with_a_context_field_is_still_a_task() -> None:
    assert remembered("Context: a bakery selling gluten-free bread. Tone: warm.") == ""


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("Hi, Dr. Ana Ruiz here. I'll need help with grant applications.", "en"),
        ("Tengo diabetes tipo 2.", "es"),
        ("Borra lo de mi diabetes, por favor.", "es"),
        ("Sono Giulia, faccio la pasticcera a Verona.", "it"),
    ],
)
def test_a_message_shows_its_language_by_its_function_words(message: str, code: str) -> None:
    assert language_of(message) == code


def test_a_doctors_name_is_heard_when_a_request_follows() -> None:
    assert "ana" in remembered("Hi, Dr. Ana Ruiz here. I'll need help with grant applications.")


def test_leaving_a_field_retires_the_job_named_by_another_form_of_its_word() -> None:
    block = remembered("I work as a photographer.", "I quit photography and now drive a bus.")
    assert "photographer" not in block
    assert "bus" in block


def test_forgetting_what_was_said_of_a_child_keeps_the_users_own_name() -> None:
    facts = learn(
        "My name is Rosa.",
        "My son is called Teo.",
        "Please forget my son's name, delete it.",
    )
    values = " ".join(f.value for f in facts.active())
    assert "Rosa" in values
    assert "Teo" not in values


def test_whatever_the_verb_what_leaves_the_memory_is_forgotten() -> None:
    facts = learn("I live in Gdansk.", "strike where I live from your memory")
    assert [f.value for f in facts.active()] == []


@pytest.mark.parametrize(
    "message",
    ["Pull my address from your notes, please.", "Learned a lot from your notes."],
)
def test_fetching_from_the_memory_forgets_nothing(message: str) -> None:
    facts = learn("I live in Gdansk.", message)
    assert [f.value for f in facts.active()] == ["I live in Gdansk."]


def test_a_dated_end_is_kept_and_retires_what_it_ended() -> None:
    block = remembered("I'm a smoker.", "Quit smoking two years ago!")
    assert "quit smoking" in block
    assert "i'm a smoker" not in block


def test_what_holds_instead_after_a_change_is_kept() -> None:
    assert "nursing" in remembered("I left med school and I'm doing nursing instead.")


def test_a_request_after_a_remark_is_a_request_of_its_own() -> None:
    block = remembered("I prefer short answers.", "Changed my mind, give me detailed answers.")
    assert "detailed" in block
    assert "short" not in block


def test_a_standing_directive_opening_with_when_stays_one_directive() -> None:
    assert "source" in remembered("When you state a fact, cite a source with a link.")


def test_asking_not_to_have_remembered_something_forgets_it() -> None:
    facts = learn("My son Leo plays chess.", "I'd rather you didn't remember that about Leo.")
    assert [f.value for f in facts.active()] == []


def test_forgetting_what_one_earns_keeps_the_job() -> None:
    facts = learn(
        "I work as a radiographer.", "I earn about 48k a year.", "Please erase my salary."
    )
    assert [f.value for f in facts.active()] == ["I work as a radiographer."]


@pytest.mark.parametrize(
    "message",
    [
        "I'm diabetic and my doctor wants me to lose weight.",
        "I need to drop 5 kilos before summer.",
    ],
)
def test_getting_rid_of_something_in_life_forgets_nothing(message: str) -> None:
    facts = learn("I live in Gdansk.", message)
    assert "I live in Gdansk." in [f.value for f in facts.active()]
    assert not any("kilos" in f.value and f.slot == "units" for f in facts.active())


def test_a_doctors_word_on_the_users_health_is_the_users() -> None:
    assert "anaemic" in remembered("My GP says I'm borderline anaemic.")


def test_a_reason_given_before_a_question_is_kept() -> None:
    text = "Given that I'm a single dad with two boys, what's a realistic grocery budget?"
    assert "single dad" in remembered(text)


def test_a_pet_named_inside_a_question_is_kept() -> None:
    assert "ferrets" in remembered("Any tips for keeping my two ferrets entertained?")


def test_fiction_is_nobodys_fact() -> None:
    assert remembered("In my novel, the hero is a blind detective in Cairo.") == ""


def test_greetings_from_a_place_say_where_the_user_is() -> None:
    assert "bergen" in remembered("Greetings from rainy Bergen!")


def test_an_outing_in_the_neighbourhood_does_not_move_the_user() -> None:
    block = remembered(
        "I live in Malmo.",
        "I was out walking in my neighborhood when I came across a mural. So vibrant!",
    )
    assert "malmo" in block


def test_words_said_to_the_listener_by_name_are_no_fact() -> None:
    text = (
        "I'm always here for you, Mel! We had a blast last year at the fest. "
        "Those friends make everything worth it, honestly, every single time we go there."
    )
    assert remembered(text) == ""


def test_a_plan_for_next_month_is_passing_and_so_is_since_we_last_spoke() -> None:
    assert remembered("We're putting together a talent show for the kids next month.") == ""
    chat = (
        "Since we last spoke I am still working on the pottery project and things are "
        "looking up! It has been a slow few weeks, but we are getting there, bit by bit."
    )
    assert remembered(chat) == ""


def test_a_feeling_turned_around_retires_the_old_one_whatever_its_slot() -> None:
    block = remembered("I hate running.", "Weirdly, I've come to love running.")
    assert "love running" in block
    assert "hate running" not in block


def test_a_change_of_diet_said_without_an_i_supersedes_the_old_diet() -> None:
    block = remembered("I'm pescatarian.", "Went fully vegan this year.")
    assert "vegan" in block
    assert "pescatarian" not in block


def test_a_divorce_supersedes_the_marriage() -> None:
    block = remembered("I'm married to Sam.", "Sam and I divorced last year.")
    assert "divorced" in block
    assert "married to sam" not in block


def test_opposite_feelings_about_two_kinds_of_one_thing_both_hold() -> None:
    block = remembered("I like spicy food.", "I hate bland food.")
    assert "spicy" in block
    assert "bland" in block


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Diabetic, so no sugary desserts please.", "diabetic"),
        ("Home is a narrow boat moored near Oxford.", "oxford"),
        ("Born and raised in Hull, never left.", "hull"),
    ],
)
def test_self_descriptions_without_an_i(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_verdict_without_an_i_is_the_speakers_taste() -> None:
    assert "stilton" in remembered("honestly nothing beats a ripe Stilton")


def test_a_child_named_in_apposition_is_family_and_goes_with_the_family() -> None:
    facts = learn(
        "Mina, my nine-year-old, is obsessed with volcanoes.",
        "I'm a bus driver.",
        "Please keep my kid's details out of this.",
    )
    assert [f.value for f in facts.active()] == ["I'm a bus driver."]


def test_not_wanting_a_kind_of_thing_saved_forgets_it_and_keeps_nothing_new() -> None:
    facts = learn("I live in Calgary.", "Forget Calgary. I don't want location stuff saved.")
    assert [f.value for f in facts.active()] == []


def test_a_move_said_outright_leaves_the_users_name_alone() -> None:
    block = remembered("Astrid here.", "Moved to Leeds last month, so I'm on UK time now.")
    assert "astrid" in block
    assert "leeds" in block


def test_what_ended_is_the_object_of_its_verb_not_every_word_beside_it() -> None:
    facts = learn(
        "Lufthansa is my airline of choice.",
        "I'm a big fan of Rome.",
        "After the trip to Rome I'm done with Lufthansa.",
    )
    assert [f.value for f in facts.active()] == ["I'm a big fan of Rome."]


def test_leaving_a_job_for_another_keeps_the_new_one() -> None:
    block = remembered(
        "I work at the port authority.", "I've left the port job for one at the museum."
    )
    assert "museum" in block
    assert "port authority" not in block


def test_what_holds_beside_an_end_is_kept() -> None:
    block = remembered(
        "Our car is a Skoda Fabia.", "We sold the Fabia and our daily driver is a Nissan Leaf."
    )
    assert "leaf" in block
    assert "skoda" not in block


@pytest.mark.parametrize(
    "message",
    [
        "Thanks, Dana! I won't quit, even when it's hard. I'm gonna make it!",
        "Thanks! I'm gonna keep chasing after those dreams, no matter what.",
        "We've put our hearts into our dreams and I'm sure we'll make it.",
        "Just got back from the physio, my leg is so sore lol",
        "Here's my bio: 'Keen cyclist, based in Ghent.' Make it punchier.",
        "I'm so done with this bug, it's been four hours.",
    ],
)
def test_resolve_mottos_stories_and_pasted_bios_keep_nothing(message: str) -> None:
    assert remembered(message) == ""


def test_a_dream_with_a_goal_named_is_still_a_goal() -> None:
    assert "bakery" in remembered("My dream is to open a bakery by the sea.")


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I'll be 50 next month, scary!", "50"),
        ("I will always be a Celtic fan.", "celtic"),
        ("I'll always prefer trains over planes.", "trains"),
        ("I'd rather you didn't use exclamation marks, thanks.", "exclamation"),
        ("Here's my situation: I'm a single dad working nights.", "single dad"),
    ],
)
def test_what_is_said_ahead_or_politely_still_tells(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "My build fails on staging but passes locally.",
        "My phone keeps dropping the wifi, so annoying.",
        "I think the answer is 12 but I'm not sure.",
        "I read somewhere that sloths can hold their breath for 40 minutes.",
    ],
)
def test_the_moments_trouble_and_hearsay_are_no_facts(message: str) -> None:
    assert remembered(message) == ""


def test_a_thing_of_the_users_that_is_named_is_still_kept() -> None:
    assert "pickle" in remembered("My cat is called Pickle.")
    assert "boutique" in remembered("My preference is for boutique hotels over big chains.")


def test_a_relatives_move_supersedes_only_what_was_said_of_them() -> None:
    facts = learn(
        "My son is called Leo.",
        "I started a pottery class on Tuesdays.",
        "My sister moved to Lisbon last year.",
    )
    assert [f.value for f in facts.active()] == [
        "My son is called Leo.",
        "I started a pottery class on Tuesdays.",
        "My sister moved to Lisbon last year.",
    ]
    later = learn("My sister lives in Rome.", "My sister moved to Lisbon last year.")
    assert [f.value for f in later.active()] == ["My sister moved to Lisbon last year."]


@pytest.mark.parametrize("reply", ["Not anymore.", "Nope, not so much these days.", "Nicht mehr."])
def test_a_reply_that_only_says_it_no_longer_holds_retires_the_newest_fact(reply: str) -> None:
    facts = learn("I'm allergic to cats.", "I love running.", reply)
    assert [f.value for f in facts.active()] == ["I'm allergic to cats."]


def test_a_sentence_that_no_longer_holds_retires_even_beside_a_new_fact() -> None:
    said = remembered("Running is my thing.", "Not so much now. A knee injury made me a swimmer.")
    assert "swimmer" in said
    assert "running" not in said


def test_a_statement_of_how_things_are_now_replaces_the_newest_earlier_one() -> None:
    said = remembered("My work laptop is a ThinkPad.", "I'm on a Mac full-time now.")
    assert "mac" in said
    assert "thinkpad" not in said


def test_a_correction_in_a_list_takes_the_place_of_the_newest_item_of_its_kind() -> None:
    facts = learn(
        "I'm allergic to penicillin.",
        "I'm allergic to walnuts.",
        "Correction: it's pecans I'm allergic to.",
    )
    active = " ".join(f.value for f in facts.active()).casefold()
    assert "pecans" in active
    assert "penicillin" in active
    assert "walnuts" not in active
    apology = learn("I'm allergic to walnuts.", "Sorry, I'm also allergic to cats.")
    assert len(list(apology.active())) == 2


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Give me a workout I can do with my bad back.", "back"),
        ("Can you suggest a recipe that works with my gluten intolerance?", "gluten"),
        ("Find me a plumber here in Aberdeen, the boiler is leaking.", "aberdeen"),
    ],
)
def test_what_the_user_has_said_in_passing_inside_a_request_is_kept(
    message: str, word: str
) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "My coworker has celiac, what snacks can I bring?",
        "Is my diet balanced enough, do you think?",
    ],
)
def test_someone_elses_condition_or_a_bare_kind_is_not_the_users(message: str) -> None:
    assert remembered(message) == ""


def test_a_named_ones_death_or_parting_retires_what_was_said_of_them() -> None:
    assert remembered("I have a cat named Oreo.", "Sadly Oreo died last week.") == ""
    said = remembered("My partner is called Sam.", "I love hiking.", "Sam and I split up.")
    assert "hiking" in said
    assert "called sam" not in said


def test_a_feeling_turned_around_in_any_form_of_the_verb_replaces_the_old_one() -> None:
    said = remembered("I hate olives.", "Weirdly I've started liking olives.")
    assert "liking olives" in said
    assert "hate olives" not in said


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Any tips for a night-shift nurse like me to sleep during the day?", "nurse"),
        ("Can you find vegan restaurants near me in Utrecht?", "utrecht"),
        ("How often should I walk my corgi?", "corgi"),
    ],
)
def test_what_a_question_says_of_the_user_in_passing_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_correction_may_give_a_two_letter_name() -> None:
    said = remembered("I work in Python mostly.", "That was wrong, it's mostly Go.")
    assert "go" in said.split()
    assert "python" not in said


def test_a_lapse_before_a_comma_retires_the_newest_fact_and_the_rest_still_tells() -> None:
    said = remembered("I teach maths.", "Not anymore, I retired in June.")
    assert "retired" in said
    assert "maths" not in said


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("yeah i'm a night owl, rarely asleep before 2", "night owl"),
        ("i'm 17 and in my last year of high school", "17"),
        ("Just get to the point.", "point"),
        ("Skip the pleasantries.", "pleasantries"),
        ("Honestly, nothing beats a good thriller novel for me.", "thriller"),
    ],
)
def test_plain_statements_in_everyday_registers_are_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_hyphenated_left_ends_nothing() -> None:
    facts = learn("I play guitar.", "As a left-handed guitarist, which guitars should I buy?")
    active = " ".join(f.value for f in facts.active()).casefold()
    assert "i play guitar" in active
    assert "left-handed" in active
    assert "which guitars" not in active


@pytest.mark.parametrize(
    ("turns", "kept", "gone"),
    [
        (("Mi nombre es Lucía y vivo en Quito.", "Olvida dónde vivo."), "lucía", "quito"),
        (("Ich heiße Jonas und arbeite als Bäcker.", "Vergiss bitte meinen Beruf."), "jonas",
         "bäcker"),
        (("Je m'appelle Inès et j'ai un chat.", "Oublie mon chat."), "inès", "chat"),
        (("I live in Perth and work as a geologist.", "You can forget my job."), "perth",
         "geologist"),
    ],
)  # fmt: skip
def test_two_statements_joined_by_and_are_two_facts_in_every_language(
    turns: tuple[str, str], kept: str, gone: str
) -> None:
    said = remembered(*turns)
    assert kept in said
    assert gone not in said


def test_a_third_persons_second_verb_is_not_the_users() -> None:
    assert remembered("My friend Sara lives in Dublin and works as a vet.") == ""


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("My son Theo is 8.", "I misspoke, Theo is 9."), "9", "8"),
        (("I work at Deloite.", "*Deloitte, typo"), "deloitte", "deloite"),
        (("I'm in Vancouver.", "scratch that, Victoria, I always mix them up"), "victoria",
         "vancouver"),
    ],
)  # fmt: skip
def test_a_correction_replaces_the_value_it_names(
    turns: tuple[str, str], new: str, old: str
) -> None:
    said = remembered(*turns)
    assert new in said.split() or f"{new}." in said
    assert old not in said.replace(new, "")


def test_forgetting_a_liking_takes_what_narrows_it_too() -> None:
    assert remembered("I love K-pop, especially BTS.", "Erase the K-pop thing.") == ""


def test_a_change_of_mind_before_a_colon_is_a_new_directive() -> None:
    said = remembered("I prefer long, detailed answers.", "Changed my mind: keep them short.")
    assert "short" in said
    assert "detailed" not in said


def test_a_name_asked_for_with_would_rather_is_the_users_name() -> None:
    said = remembered("Call me Liz.", "Actually, I'd rather you call me Elizabeth.")
    assert "elizabeth" in said
    assert "liz." not in said


def test_a_pet_no_longer_with_us_is_retired() -> None:
    assert remembered("We have a hamster called Nibbles.", "Nibbles isn't with us anymore.") == ""


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("My dog is named Rolo.", "Oops, her name is Rola, not Rolo."), "rola", "rolo"),
        (("My favourite film is Alien.", "Hmm, it's actually Blade Runner, I think."),
         "blade runner", "alien"),
        (("My job is in sales.", "I'm now in customer success."), "customer success", "sales"),
    ],
)  # fmt: skip
def test_a_new_value_replaces_the_old_whatever_the_cue(
    turns: tuple[str, str], new: str, old: str
) -> None:
    said = remembered(*turns)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    "turns",
    [
        ("I'm gay and out to my family.", "Actually I'd prefer you didn't store that."),
        ("I play the drums in a band.", "Forget all of it, start fresh."),
        ("I'm on antidepressants.", "Please wipe anything health-related."),
    ],
)
def test_a_request_to_forget_in_plain_words_forgets(turns: tuple[str, str]) -> None:
    assert remembered(*turns) == ""


def test_a_style_verb_before_an_article_is_still_a_directive() -> None:
    said = remembered("Please use a friendly tone and avoid jargon from now on.")
    assert "jargon" in said


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "My sister and I are off to Portugal in the spring, she's the organised one. "
            "I'm more of a go-with-the-flow person. What cities would you recommend?",
            "go-with-the-flow",
        ),
        (
            "I'm the kind of person who reads the last page of a book first, terrible I "
            "know. Recommend me a mystery I can't spoil that way, something long please?",
            "last page",
        ),
        (
            "We just got back from the vet with our new puppy, a little beagle called "
            "Maggie! She's ten weeks old and chewing everything. How do I stop it?",
            "maggie",
        ),
    ],
)
def test_how_the_user_is_and_a_new_pet_are_heard_in_a_long_turn(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "My friend Jess keeps telling me she's moving to Melbourne, and she's vegan and a "
        "huge gamer, so I want to get her a going-away present. Ideas?",
        "I'm writing a short story about a lighthouse keeper who lives alone with his dog, "
        "Rusty, on an island off Maine. Can you help with the opening paragraph?",
    ],
)
def test_what_a_friend_tells_or_a_story_holds_is_not_the_users(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("When it comes to coffee, it's a flat white or nothing.", "flat white"),
        ("Aisle seat, every time.", "aisle seat"),
        ("Dark chocolate over milk chocolate any day.", "dark chocolate"),
    ],
)
def test_a_verdict_in_a_preference_frame_is_a_liking(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_sum_is_no_preference() -> None:
    assert remembered("The answer is 5 > 3.") == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I want to become a commercial pilot someday.", "pilot"),
        ("No emojis, ever.", "emoji"),
        ("Always show code examples in Go, not Python.", "examples in go"),
    ],
)
def test_a_goal_and_a_refused_or_standing_reply_feature_are_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Answer in one word: is Pluto a planet?",
        "My teacher said I should read more poetry.",
    ],
)
def test_a_request_for_one_task_and_anothers_advice_keep_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("I have three kids.", "Four, actually, I forgot to count the baby!"), "four", "three"),
        (("I'm based in Brighton.", "Hove, technically, but nobody says that."), "hove",
         "brighton"),
        (("I live in Ottawa.", "As of last week I'm a Montreal resident."), "montreal",
         "ottawa"),
        (("I eat meat.", "I've been plant-based since March."), "plant-based", "eat meat"),
    ],
)  # fmt: skip
def test_a_value_given_first_or_a_change_dated_replaces_the_old_one(
    turns: tuple[str, str], new: str, old: str
) -> None:
    said = remembered(*turns)
    assert new in said
    assert old not in said


def test_a_denied_statement_retires_what_it_denies() -> None:
    facts = learn(
        "I'm allergic to cats.",
        "I'm allergic to penicillin.",
        "Turns out I'm not allergic to cats after all, it was the dust.",
    )
    values = [f.value for f in facts.active()]
    assert "I'm allergic to cats." not in values
    assert "I'm allergic to penicillin." in values


def test_one_more_of_a_kind_said_lately_keeps_the_first() -> None:
    said = remembered("I'm a Python dev.", "Also I do a lot of Rust lately.")
    assert "python" in said
    assert "rust" in said


def test_forgetting_all_but_one_thing_keeps_it() -> None:
    said = remembered("I'm Lena.", "I live in Graz.", "Forget everything except my name.")
    assert "lena" in said
    assert "graz" not in said


def test_a_name_given_with_a_job_is_two_statements() -> None:
    said = remembered("I'm Priya and I'm a vet in Leicester.", "Forget my job.")
    assert "priya" in said
    assert "vet" not in said


def test_tired_of_a_kind_is_a_taste_and_tired_of_this_a_moment() -> None:
    assert "superhero" in remembered("Honestly I'm tired of superhero movies now.")
    assert remembered("So tired of this rain.") == ""


@pytest.mark.parametrize(
    "message",
    [
        "My gym locker code is 0093.",
        "my bike lock combination is 4417",
        "My storage unit code is 2231.",
    ],
)
def test_a_code_or_combination_given_as_digits_is_a_secret(message: str) -> None:
    extraction = extract_rules(message)
    assert [op for op in extraction.ops if op.kind == "add"] == []
    assert extraction.secret_dropped


def test_a_favourite_combination_and_an_error_code_are_no_secrets() -> None:
    assert "salt" in remembered("My favourite combination is salt and chocolate.")
    assert not extract_rules("The error code is 404, what does it mean?").secret_dropped


@pytest.mark.parametrize(
    "message", ["Put together a shopping list for tacos.", "Most cats hate water."]
)
def test_a_task_put_plainly_and_a_statement_of_a_kind_keep_nothing(message: str) -> None:
    assert remembered(message) == ""


def test_a_habit_said_of_most_days_is_still_the_users() -> None:
    assert "walk to work" in remembered("Most days I walk to work.")


@pytest.mark.parametrize(
    "message",
    [
        "The lift in our building is out of order again.",
        "Lunch was a sad sandwich at my desk.",
        "My eyes are tired from the screen.",
        "Pitch me three startup ideas about recycling.",
        "My aunt's neighbour breeds alpacas.",
        "Sounds good to me.",
    ],
)
def test_an_occasion_a_passing_trouble_a_task_or_anothers_fact_keeps_nothing(
    message: str,
) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I did a nursing degree in Manchester.", "nursing degree"),
        ("Get me a list of vegan cafes, since I am vegan.", "diet: i am vegan"),
        ("No me gusta el cilantro.", "cilantro"),
    ],
)
def test_a_degree_done_and_a_reason_inside_a_request_are_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_third_persons_verb_before_me_is_no_request() -> None:
    assert "performing" in remembered("Reminds me how much I love performing.")


@pytest.mark.parametrize(
    "message",
    [
        "Well, it's been a long week and I'm glad it's over. Anyway, take care, Maria.",
        "Honestly, after everything that happened this year, cherish those little moments!",
    ],
)
def test_a_word_inside_a_longer_one_names_no_kind(message: str) -> None:
    # "Maria" holds French "mari" (husband), "moments" holds "mom".
    assert remembered(message) == ""


def test_saying_one_was_kidding_retires_what_was_said() -> None:
    said = remembered("Celtic till I die.", "Kidding, kidding. I'm a Rangers man.")
    assert "rangers" in said
    assert "celtic" not in said


@pytest.mark.parametrize(
    "message",
    [
        "I feel great. It really helps me relax and feel more connected.",
        "Yup, we rock as a team! Glad to have you.",
        "Thanks! I see them at least once a week. It's a good way to disconnect.",
        "I got a surge of energy and purpose, and we were able to help a family.",
        "I haven't been able to volunteer much lately, but I definitely care about it.",
        "I set up a 5K charity run in our neighborhood. It was all for a good cause.",
        "You're right. It gives me a sense of purpose. I feel like this is my true calling.",
        "Wow! I see, so that's the key to making a difference.",
    ],
)
def test_talk_of_a_conversation_is_no_fact(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("We're a military family, stationed in Okinawa at the moment.", "okinawa"),
        ("We're out in the countryside near Bordeaux.", "bordeaux"),
        ("Next month I start my new job at Google.", "google"),
    ],
)
def test_what_the_household_is_and_a_dated_new_job_are_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "I hope so, Gina.",
        "Glad I have you in my corner!",
        "I'm determined to make it work.",
        "I'm not giving up.",
        "Running a business isn't easy, but here we are.",
        "The energy was really motivating, it gave me a boost.",
    ],
)
def test_a_word_to_the_listener_resolve_or_a_verdict_on_a_thing_is_no_fact(message: str) -> None:
    assert remembered(message) == ""


def test_a_place_after_a_place_is_no_name_called_out() -> None:
    assert "cardiff" in remembered("I'm in Cardiff, Wales.")


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Yeah, definitely! Drawing flowers is one of my faves. What about you?", "flowers"),
        ("Thanks - love the vase! Blue's my fave, it makes me feel relaxed.", "blue"),
        ("Last weekend I joined a mentorship program for LGBTQ youth.", "mentorship"),
        ("What made you paint it? I've been trying out abstract stuff recently.", "abstract"),
    ],
)
def test_a_taste_or_an_ongoing_pursuit_in_conversation_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Yeah, because I totally enjoy filling in tax forms.",
        "Thanks! They're my biggest support.",
        "I love how uncomplicated it is.",
        "I haven't done pottery yet.",
    ],
)
def test_sarcasm_and_what_points_back_keep_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ('I loved "Becoming Nicole" by Amy Ellis Nutt. A real inspiring story.', "becoming nicole"),
        ('Yeah totally! "Brave" by Sara Bareilles has a lot of significance for me.', "brave"),
        ("Family time means a lot to me.", "family time"),
    ],
)
def test_a_work_named_and_what_means_a_lot_are_tastes(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_quotation_with_a_speaker_in_it_is_still_someone_elses() -> None:
    assert remembered("'I am the walrus' - great song, right?") == ""


def test_now_opening_a_sentence_changes_nothing_else() -> None:
    facts = learn(
        "I'm thinking of working with trans people, supporting their mental health.",
        "Now I'm passionate about creating a safe place for people to grow.",
    )
    assert len(list(facts.active())) == 2


def test_a_group_the_user_belongs_to_is_kept() -> None:
    said = remembered("Our group, 'Connected Climbers', meets every week to plan trips.")
    assert "connected climbers" in said


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("29 years young, for the record.", "oops typo, 26"), "26", "29"),
        (("Our dog is Rocket.", "We renamed him! Rocket is now officially Sprout."), "sprout",
         "rocket"),
        (("We're in Halifax.", "We moved inland to Fredericton."), "fredericton", "halifax"),
        (("I love summer.", "This summer changed my mind. Autumn all the way."), "autumn",
         "love summer"),
    ],
)  # fmt: skip
def test_an_update_by_a_rename_a_number_first_a_move_or_a_verdict_replaces(
    turns: tuple[str, str], new: str, old: str
) -> None:
    said = remembered(*turns)
    assert new in said
    assert old not in said


def test_a_household_that_has_also_got_a_pet_keeps_it() -> None:
    assert "pretzel" in remembered("We've also got a goldendoodle called Pretzel.")


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("Taking atorvastatin since my heart scare.", "health"),
        ("Bin seit Jahren auf Levothyroxin.", "health"),
        ("I've got a Pollenallergie, as they call it in Vienna.", "allergy"),
        ("Soy celíaca desde niña.", "allergy"),
    ],
)
def test_a_medicine_or_an_allergy_is_heard_by_its_word_form(message: str, slot: str) -> None:
    assert slot in slots_of(message)


def test_a_month_or_a_semicolon_is_no_medicine() -> None:
    assert "health" not in slots_of("I'm off to Spain in April; can't wait.")


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("cant stand cilantro", "cilantro"),
        ("I can’t stand loud restaurants.", "restaurants"),
        ("dont like horror films", "horror"),
    ],
)
def test_a_contraction_typed_without_its_apostrophe_or_with_a_curly_one_is_heard(
    message: str, word: str
) -> None:
    assert word in remembered(message).casefold()


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Paramedic. Mostly night shifts out of Salford.", ("paramedic", "salford")),
        ("Software engineer. Remote, for a startup in Berlin.", ("engineer", "berlin")),
    ],
)
def test_what_one_message_says_of_one_thing_is_kept_whole(
    message: str, words: tuple[str, ...]
) -> None:
    said = remembered(message).casefold()
    assert all(word in said for word in words)


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Bin Tischlerin in einer kleinen Werkstatt.", "tischlerin"),
        ("Wohne mit meinem Hund am Stadtrand von Kiel.", "kiel"),
        ("Have coeliac disease, so bread is out.", "coeliac"),
        ("Suffer from hay fever every spring.", "hay fever"),
        ("Sprained my ankle badly last year and it still clicks.", "ankle"),
        ("Asthme depuis toujours, du coup pas de course à pied.", "asthme"),
        # an adverb of manner may stand before the verb
        ("Finally gave in and adopted a greyhound.", "greyhound"),
        ("Eventually settled in Tromsø after years of moving around.", "tromsø"),
    ],
)
def test_a_statement_with_its_i_dropped_is_the_users(message: str, word: str) -> None:
    assert word in remembered(message).casefold()


@pytest.mark.parametrize(
    "message",
    [
        "Hab keine Ahnung.",
        "Get a dog, it'll change your life.",
        "Have a look at this, please.",
        "Currently waiting at the gate in Lisbon.",
    ],
)
def test_a_dropped_i_of_no_lasting_kind_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Old tabby Marmalade turned fifteen this spring 🐱", ("marmalade",)),
        ("Three hens (all named after aunts) and a lazy spaniel.", ("hens", "spaniel")),
        ("egg-free and soy-free, sadly", ("egg-free", "soy-free")),
    ],
)
def test_a_fragment_is_heard_past_an_aside_a_time_named_or_a_free_of(
    message: str, words: tuple[str, ...]
) -> None:
    said = remembered(message).casefold()
    assert all(word in said for word in words)


def test_two_statements_of_one_thing_side_by_side_are_kept_as_written() -> None:
    said = remembered("egg-free, gluten-free, and not into spicy food")
    assert "egg-free, gluten-free" in said


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Barista at a little café in Leith.", "barista"),
        ("Backend dev for a logistics firm.", "dev"),
        ("Arbeite als Altenpflegerin in Bremen.", "altenpflegerin"),
        ("Soy cocinero en un hotel de Málaga.", "cocinero"),
    ],
)
def test_a_job_given_by_its_trade_alone_is_heard(message: str, word: str) -> None:
    facts = learn(message)
    assert [f.slot for f in facts.active()] == ["work"]
    assert word in remembered(message)


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Dodgy shoulder from years of rowing.", "shoulder"),
        ("On antibiotics for a month, any foods to skip?", "antibiotics"),
        ("Soy diabética desde los veinte.", "diab"),
        ("We moved out to a farmhouse near Cahors.", "cahors"),
    ],
)
def test_a_condition_a_medicine_by_its_kind_or_a_move_out_to_is_heard(
    message: str, word: str
) -> None:
    assert word in remembered(message).casefold()


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Simply cannot do olives. The texture.", "olives"),
        ("Ibuprofen makes me sick, paracetamol is fine.", "ibuprofen"),
    ],
)
def test_a_dislike_or_an_intolerance_beside_a_remark_is_heard(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_clause_with_its_i_dropped_after_a_comma_is_a_statement_of_its_own() -> None:
    facts = learn("Dad of two, work nights as a security guard.")
    assert sorted(str(f.slot) for f in facts.active()) == ["family", "work"]


@pytest.mark.parametrize("message", ["It's Tuesday.", "It's Christmas!", "this is March"])
def test_a_day_of_the_calendar_is_no_name(message: str) -> None:
    assert "name" not in slots_of(message)


def test_a_name_before_a_list_of_what_the_user_is_is_kept_as_the_name() -> None:
    facts = learn("I'm Tomás, 41, plumber, based in Leeds.", "Moved to York last month.")
    said = render_recall(facts.active()).casefold()
    assert "name: i'm tomás" in said
    assert "york" in said


@pytest.mark.parametrize("message", ["I'm Dutch.", "I'm Brazilian, living in Porto."])
def test_a_nationality_is_no_name(message: str) -> None:
    assert "name" not in slots_of(message)


@pytest.mark.parametrize(
    "message",
    ["Never been a fan of musicals.", "dont really like jazz", "I've never liked camping."],
)
def test_a_liking_denied_is_a_dislike(message: str) -> None:
    assert slots_of(message) == {"dislikes"}


def test_going_into_a_field_is_no_dislike() -> None:
    assert "dislikes" not in slots_of("I went into nursing after school.")


def test_what_one_could_not_live_without_is_liked_not_a_home() -> None:
    assert slots_of("Couldn't live without my morning espresso.") == {"likes"}


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I went into accounting straight after college.", "accounting"),
        ("Went into nursing at 40.", "nursing"),
    ],
)
def test_a_field_gone_into_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_going_into_a_place_is_an_occasion() -> None:
    assert remembered("I went into the building.") == ""


def test_a_passing_absence_beside_a_job_is_not_kept_with_it() -> None:
    said = remembered("I'm a paramedic, but I'm off sick this week.")
    assert "paramedic" in said
    assert "sick" not in said

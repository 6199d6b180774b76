"""A stem's forms (`ctxchat.ranking.inflections`), what search asks the index for: the
inflections the light stemmer undoes, and never a word of another stem."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxchat.ranking.inflections import forms
from ctxchat.ranking.message_rank import fold, query_plan
from ctxchat.ranking.terms import stem


@pytest.mark.parametrize(
    ("word", "others"),
    [
        ("painting", ["paint", "paints", "painted", "paintings"]),
        ("create", ["creates", "created", "creating"]),
        ("stopped", ["stop", "stops", "stopping"]),
        ("studies", ["study"]),
        ("watches", ["watch", "watched", "watching"]),
        ("agreeing", ["agree", "agreed", "agrees"]),
        ("glasses", ["glass"]),
    ],
)
def test_a_words_stem_stands_for_its_inflections(word: str, others: list[str]) -> None:
    assert {word, *others} <= set(forms(stem(word)))


def test_words_that_merely_begin_with_the_stem_are_not_its_forms() -> None:
    assert not {"painter", "paintbrush", "campaign"} & set(forms("paint") + forms("camp"))


endings = st.sampled_from(["", "s", "es", "ed", "ing", "ings", "e", "ies", "y", "ying"])


@given(st.text(alphabet="abcdefghilmnoprstuy", min_size=2, max_size=8), endings)
def test_every_form_goes_back_to_its_stem(base: str, ending: str) -> None:
    stemmed = stem(base + ending)
    found = forms(stemmed)

    assert all(stem(f) == stemmed for f in found)
    assert found == tuple(sorted(set(found)))


@given(st.text(alphabet="abcdefghilmnoprstuyéü", min_size=1, max_size=10), endings)
def test_a_query_word_always_matches_itself(base: str, ending: str) -> None:
    """Whatever its stem's forms (a word no English rule made may be missing from them)."""
    (term,) = query_plan([base + ending]) or [None]
    assert term is not None
    assert fold(base + ending) in term.forms
    assert base + ending in term.spellings

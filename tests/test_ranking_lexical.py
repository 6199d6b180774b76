"""Lexical ranking: identifier splitting, stems, quoted values, BM25 on small catalogues."""

from __future__ import annotations

import asyncio

import pytest

from ctxchat.ranking import LexicalIndex, ToolDoc, build_ranker, rank_turn, split_words
from ctxchat.ranking.terms import mask_quoted, query_terms, stem, terms
from ctxchat.ranking.tooltext import default_tool_text

CATALOGUE = [
    ToolDoc("get_weather", "Current weather and forecast for a city."),
    ToolDoc("sendEmail", "Send an email message to a recipient."),
    ToolDoc("cancel_booking", "Cancel a flight booking."),
    ToolDoc("cancel_order", "Cancel a stock order that has not been filled."),
    ToolDoc("book_flight", "Book a flight between two airports."),
    ToolDoc(
        "mv",
        "Move a file.",
        {
            "type": "object",
            "properties": {
                "source": {"type": "string", "description": "File to move."},
                "destination": {"type": "string", "description": "Target directory."},
            },
        },
    ),
]


def ranked(query: str, messages: list[tuple[str, str]] | None = None, recent: int = 2) -> list[str]:
    async def go() -> list[str]:
        ranker = await build_ranker("lexical", CATALOGUE)
        found = await rank_turn(ranker, messages or [], query, recent=recent)
        return [item.id for item in found]

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("get_user_id", ["get", "user", "id"]),
        ("fillFuelTank", ["fill", "fuel", "tank"]),
        ("HTMLParser2", ["html", "parser", "2"]),
        ("file_name1 base64", ["file", "name", "1", "base", "64"]),
        ("already lower", ["already", "lower"]),
    ],
)
def test_identifiers_split_into_words(text: str, words: list[str]) -> None:
    assert split_words(text) == words


def test_terms_drop_stop_words_and_stem() -> None:
    assert terms("What's the weather in the cities?") == ["weather", "city"]
    assert stem("bookings") == stem("booked") == stem("booking") == stem("book")
    assert stem("creating") == stem("created") == stem("create")
    assert stem("running") == "run"
    assert stem("status") == "status"  # -us is no plural
    assert terms("Bookings", stemming=False) == ["bookings"]


def test_quoted_values_weigh_less_unless_the_message_is_all_quote() -> None:
    weights = query_terms("please move 'weather_report.pdf' into the folder, the move folder")
    assert weights["move"] == 1  # once, however often it occurs
    assert weights["folder"] == 1
    assert weights["weather"] == pytest.approx(0.3)
    whole = query_terms('"what is the weather in Paris?"')
    assert whole["weather"] == 1
    assert mask_quoted("post a tweet saying 'the weather is lovely today'") == (
        "post a tweet saying '...'"
    )
    assert mask_quoted("'weather'") == "'weather'"


def test_the_right_tool_wins() -> None:
    assert ranked("what's the weather like in Paris tomorrow?")[0] == "get_weather"
    assert ranked("please email Bob the minutes")[0] == "sendEmail"  # camelCase name
    assert ranked("book me a flight to Rome")[0] == "book_flight"
    assert ranked("move report.txt to the destination directory")[0] == "mv"  # parameters


def test_a_quoted_value_does_not_outvote_the_request() -> None:
    assert ranked("send an email that says 'cancel my flight booking'")[0] == "sendEmail"


def test_the_recent_window_breaks_the_tie_of_an_ambiguous_turn() -> None:
    flight = [("user", "Book a flight from Paris to Rome"), ("assistant", "Booked.")]
    stock = [("user", "Buy 10 shares of ACME, place the stock order"), ("assistant", "Done.")]
    assert ranked("now cancel it", flight)[0] == "cancel_booking"
    assert ranked("now cancel it", stock)[0] == "cancel_order"
    # The window counts messages whatever their role: with recent=1 only the assistant's
    # "Booked." joins, which names neither, so the two cancel tools tie (name order).
    assert ranked("now cancel it", stock, recent=1)[:2] == ["cancel_booking", "cancel_order"]
    assert ranked("now cancel it", stock, recent=0)[:2] == ["cancel_booking", "cancel_order"]


def test_earlier_messages_do_not_drown_the_new_one() -> None:
    long_earlier = "Book a flight, book the flight to Rome, the flight booking for Rome flights"
    assert ranked("what's the weather in Rome", [("user", long_earlier)])[0] == "get_weather"


def test_index_is_generic_over_plain_documents() -> None:
    index = LexicalIndex(
        [("f1", "The user likes green tea"), ("f2", "The user's dog is called Rex")]
    )
    assert [doc_id for doc_id, _ in index.rank("what tea do I like?")] == ["f1"]
    assert index.rank("nothing matches zebra") == []
    assert len(index) == 2
    assert index.ids == ("f1", "f2")
    with pytest.raises(ValueError, match="two documents"):
        LexicalIndex([("a", "x"), ("a", "y")])
    assert LexicalIndex([]).rank("anything") == []


def test_ties_keep_build_order_and_k_cuts() -> None:
    index = LexicalIndex([("b", "same words"), ("a", "same words"), ("c", "other")])
    assert [doc_id for doc_id, _ in index.rank("same")] == ["b", "a"]
    assert [doc_id for doc_id, _ in index.rank("same", k=1)] == ["b"]


def test_default_tool_text_has_name_words_description_and_parameters() -> None:
    text = default_tool_text(CATALOGUE[-1])
    assert text.splitlines()[0] == "mv: Move a file."
    assert "source: File to move." in text
    assert "destination: Target directory." in text
    nested = ToolDoc(
        "getUser",
        "",
        {
            "properties": {
                "filter_opts": {
                    "type": "object",
                    "properties": {"max_age": {"description": "Oldest age."}},
                }
            }
        },
    )
    assert default_tool_text(nested).splitlines() == [
        "get user",
        "filter_opts (filter opts)",
        "max_age (max age): Oldest age.",
    ]
    assert default_tool_text(ToolDoc("x", "d", {"properties": "odd"})) == "x: d"


def test_tool_text_hook_replaces_the_default() -> None:
    async def go() -> list[str]:
        ranker = await build_ranker(
            "lexical", CATALOGUE, tool_text=lambda tool: "zebra" if tool.name == "mv" else ""
        )
        return [item.id for item in await rank_turn(ranker, [], "zebra")]

    assert asyncio.run(go()) == ["mv"]


def test_context_hook_replaces_the_default() -> None:
    seen: list[tuple[list[tuple[str, str]], str]] = []

    def only_first_user_message(window: object, new_input: str) -> str:
        seen.append((list(window), new_input))  # type: ignore[call-overload]
        return "weather"

    async def go() -> list[str]:
        ranker = await build_ranker("lexical", CATALOGUE)
        found = await rank_turn(
            ranker,
            [("user", "a"), ("assistant", "b"), ("user", "c")],
            "email",
            recent=2,
            context=only_first_user_message,
        )
        return [item.id for item in found]

    assert asyncio.run(go())[0] == "get_weather"
    assert seen == [([("assistant", "b"), ("user", "c")], "email")]

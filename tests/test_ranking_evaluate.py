"""The evaluation: metrics on a hand-computed example, input files, the ranked turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from toolkit import write_jsonl

from ctxchat.ranking import RankingDataError, build_ranker, load_cases, load_tools
from ctxchat.ranking.evaluate import evaluate, metrics, parse_ks


def test_metrics_on_a_hand_computed_example() -> None:
    rankings = [["a", "b", "c", "d"], ["x", "a", "y", "b"], ["c", "d", "e", "f"]]
    golds = [frozenset({"a"}), frozenset({"a", "b"}), frozenset({"z"})]
    result = metrics(rankings, golds, (1, 3))
    # recall@1: 1, 0, 0 -> 1/3; recall@3: 1, 1/2, 0 -> 1/2
    assert result.recall == pytest.approx({"1": 1 / 3, "3": 0.5})
    # all gold@3: yes, no (b is 4th), no
    assert result.all_gold == pytest.approx({"1": 1 / 3, "3": 1 / 3})
    # MRR: 1, 1/2 (a at 2), 0 -> 1/2
    assert result.mrr == pytest.approx(0.5)
    assert result.to_dict() == {
        "cases": 3,
        "recall": result.recall,
        "all_gold": result.all_gold,
        "mrr": result.mrr,
    }
    assert list(result.to_dict()["recall"]) == ["1", "3"]


TOOLS = [
    {"name": "get_weather", "description": "Weather forecast for a city."},
    {"name": "send_email", "description": "Send an email."},
    {"name": "cancel_booking", "description": "Cancel a flight booking."},
    {"name": "cancel_order", "description": "Cancel a stock order."},
]


def test_evaluate_ranks_each_turn_with_the_recent_window(tmp_path: Path) -> None:
    tools_path = write_jsonl(tmp_path / "tools.jsonl", TOOLS)
    cases_path = write_jsonl(
        tmp_path / "cases.jsonl",
        [
            {
                "id": "1",
                "messages": [{"role": "user", "content": "weather in Oslo"}],
                "gold": ["get_weather"],
            },
            {
                "id": "2",
                "messages": [
                    {"role": "user", "content": "sell my stock order now"},
                    {"role": "assistant", "content": "Which one?"},
                    {"role": "user", "content": "cancel it"},
                ],
                "gold": ["cancel_order"],
            },
        ],
    )
    tools = load_tools(tools_path)
    cases = load_cases(cases_path, [t.name for t in tools])
    progress: list[tuple[int, int]] = []

    async def go(recent: int) -> dict[str, object]:
        ranker = await build_ranker("lexical", tools)
        result = await evaluate(
            ranker, cases, ks=(1,), recent=recent, progress=lambda d, t: progress.append((d, t))
        )
        return result.to_dict()

    # recent=2 reaches the user's earlier message (the assistant's counts as one).
    assert asyncio.run(go(2)) == {
        "cases": 2,
        "recall": {"1": 1.0},
        "all_gold": {"1": 1.0},
        "mrr": 1.0,
    }
    assert progress == [(1, 2), (2, 2)]
    # recent=1 only sees "Which one?": the two cancel tools tie and name order puts
    # cancel_booking first.
    assert asyncio.run(go(1))["recall"] == {"1": 0.5}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"name": "a"}\nnot json\n', r"tools\.jsonl:2: not JSON"),
        ('["a"]\n', r"tools\.jsonl:1: expected a JSON object"),
        ('{"description": "x"}\n', r"tools\.jsonl:1: 'name' must be a non-empty string"),
        ('{"name": "a"}\n{"name": "a"}\n', r"tools\.jsonl:2: a second tool named 'a'"),
        ('{"name": "a", "parameters": [1]}\n', r"'parameters' must be a JSON object"),
        ("\n", r"tools\.jsonl: no tools in it"),
    ],
)
def test_bad_tools_files_raise_one_clear_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "tools.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RankingDataError, match=message) as caught:
        load_tools(path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"id": "1", "messages": [], "gold": ["a"]}, "'messages' must be a non-empty list"),
        ({"id": "1", "messages": [{"role": "user"}], "gold": ["a"]}, "string 'role' and"),
        ({"id": "1", "messages": [{"role": "user", "content": "x"}]}, "'gold' must be"),
        (
            {"id": "1", "messages": [{"role": "user", "content": "x"}], "gold": ["zz"]},
            "gold tool 'zz' is not in the tools",
        ),
    ],
)
def test_bad_cases_files_raise_one_clear_line(
    tmp_path: Path, record: dict[str, object], message: str
) -> None:
    path = write_jsonl(tmp_path / "cases.jsonl", [record])
    with pytest.raises(RankingDataError, match=message):
        load_cases(path, ["a"])


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(RankingDataError, match="cannot read it"):
        load_tools(tmp_path / "absent.jsonl")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RankingDataError, match="not UTF-8"):
        load_cases(binary)


def test_parse_ks() -> None:
    assert parse_ks("10,1, 5,5") == (1, 5, 10)
    for bad in ("", "0", "a,b", "-1"):
        with pytest.raises(RankingDataError):
            parse_ks(bad)

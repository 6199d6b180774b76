"""The evaluation harness on a tiny hand-made case file, its errors, and the dev script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ctxchat.providers.memory.evaluate import CaseFileError, evaluate_file, load_cases
from ctxchat.providers.memory.ops import Extraction, Op

BENCH = Path(__file__).resolve().parent.parent / "bench" / "memory_eval.py"

CASES = [
    {
        "id": "a",
        "turns": ["I live in Riga."],
        "present": ["Riga"],
        "absent": [],
        "tags": ["location"],
    },
    {
        "id": "b",
        "turns": ["I live in Riga.", "I moved to Tartu."],
        "present": ["tartu"],
        "absent": ["Riga"],
        "tags": ["location", "update"],
    },
    {
        "id": "c",
        "turns": ["What is Riga like?"],
        "present": [],
        "absent": ["Riga"],
        "tags": ["negative"],
    },
    {"id": "d", "turns": ["Blorp."], "present": ["blorp"], "absent": [], "tags": ["like"]},
]


def write(tmp_path: Path, rows: list[object], name: str = "cases.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    return path


def test_pass_rate_by_tag_and_failures(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    result = evaluate_file(write(tmp_path, CASES), progress=lambda d, n: seen.append((d, n)))
    assert result.to_dict() == {
        "pass_rate": 0.75,
        "by_tag": {"like": 0.0, "location": 1.0, "negative": 1.0, "update": 1.0},
        "failed": ["d"],
        "failures": [
            {"id": "d", "turns": ["Blorp."], "block": "", "missing": ["blorp"], "unwanted": []}
        ],
    }
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    [failed] = [r for r in result.results if not r.passed]
    assert failed.missing == ("blorp",)


def test_an_empty_present_list_passes_only_when_nothing_is_remembered(tmp_path: Path) -> None:
    rows = [{"id": "q", "turns": ["I live in Riga."], "present": [], "absent": ["Oslo"]}]
    [result] = evaluate_file(write(tmp_path, rows)).results
    assert not result.passed
    assert result.unwanted == ("- home: I live in Riga.",)


def test_only_allows_no_fact_beyond_the_present_words(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "turns": ["I live in Riga.", "I'm a baker."], "present": ["Riga"]},
        {
            "id": "b",
            "turns": ["I live in Riga.", "I'm a baker."],
            "present": ["Riga"],
            "only": True,
        },
        {"id": "c", "turns": ["I live in Riga."], "present": ["Riga"], "only": True},
    ]
    assert evaluate_file(write(tmp_path, rows)).failed == ["b"]


def test_each_case_starts_from_an_empty_memory(tmp_path: Path) -> None:
    rows = [
        {"id": "x", "turns": ["I live in Riga."], "present": ["Riga"], "absent": []},
        {"id": "y", "turns": ["Hello."], "present": [], "absent": ["Riga"]},
    ]
    assert evaluate_file(write(tmp_path, rows)).failed == []


def test_another_extractor_can_be_evaluated(tmp_path: Path) -> None:
    def always_blorp(message: str, known: object = ()) -> Extraction:
        return Extraction((Op("add", "likes", "blorp", message),))

    # "c" expects nothing remembered at all: the blorp fact fails it, though no absent
    # word is in the block.
    assert evaluate_file(write(tmp_path, CASES), extract=always_blorp).failed == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json}\n", "cases.jsonl:1: not valid JSON"),
        ('{"id": "a", "turns": []}\n', "has no turns"),
        ('{"id": "a", "turns": ["x"], "present": "Riga"}\n', "'present' must be a list"),
        ('["a"]\n', "must be a JSON object"),
        ('{"turns": ["x"]}\n', "'id' must be a non-empty string"),
        ('{"id": "a", "turns": ["x"]}\n{"id": "a", "turns": ["y"]}\n', "duplicate case id a"),
        ("\n\n", "no cases"),
    ],
)
def test_bad_case_files_raise_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CaseFileError, match=message) as caught:
        load_cases(path)
    assert "\n" not in str(caught.value)


def test_missing_file_is_a_case_file_error(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="cannot read"):
        load_cases(tmp_path / "nope.jsonl")


@pytest.mark.slow  # a benchmark, in a process of its own
def test_dev_script_prints_both_parts_and_speed(tmp_path: Path) -> None:
    path = write(tmp_path, CASES)
    done = subprocess.run(
        [sys.executable, str(BENCH), str(path), "--speed", "--facts", "500", "--turns", "5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "tuning part: pass rate" in done.stdout
    assert "one turn with 500 facts" in done.stdout

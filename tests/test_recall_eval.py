"""`ctxchat recall eval` end to end: a real `ctxchat` process stores conversations in a
throwaway home and asks their questions, on SQLite and PostgreSQL; and its parts in process
(the question in the user's own words, files it cannot read)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat
from fakeopenai import FakeOpenAI
from historykit import raw_query

from ctxchat.config.loading import load_config
from ctxchat.services.recall_eval import (
    evaluate,
    load_conversations,
    load_questions,
    pronoun_form,
)

pytest_plugins = ["sqlfixtures"]

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "recall"


def write_case(tmp_path: Path) -> tuple[Path, Path]:
    conversation = {
        "id": "c1",
        "user": "Ana",
        "assistant": "Ben",
        "sessions": [
            {
                "number": 1,
                "date": "1:56 pm on 8 May, 2023",
                "turns": [
                    {"id": "D1:1", "role": "assistant", "speaker": "Ben", "text": "Hi Ana!"},
                    {
                        "id": "D1:2",
                        "role": "user",
                        "speaker": "Ana",
                        "text": "I started a pottery class last week.",
                    },
                    {
                        "id": "D1:3",
                        "role": "assistant",
                        "speaker": "Ben",
                        "text": "Lovely, what do you make there?",
                    },
                ],
            },
            {
                "number": 2,
                "date": "10:00 am on 20 June, 2023",
                "turns": [
                    {
                        "id": "D2:1",
                        "role": "user",
                        "speaker": "Ana",
                        "text": "My sister lives in Lisbon.",
                    },
                    {
                        "id": "D2:2",
                        "role": "assistant",
                        "speaker": "Ben",
                        "text": "Lisbon is a lovely city.",
                    },
                    {"id": "D2:3", "role": "user", "speaker": "Ana", "text": "It really is."},
                ],
            },
        ],
    }
    questions = [
        {
            "conversation": "c1",
            "question": "When did Ana start pottery?",
            "category": "temporal",
            "evidence": ["D1:2"],
        },
        {
            "conversation": "c1",
            "question": "Where does Ana's sister live?",
            "category": "single-hop",
            "evidence": ["D2:1"],
        },
    ]
    conversations_file = tmp_path / "conversations.jsonl"
    questions_file = tmp_path / "questions.jsonl"
    conversations_file.write_text(json.dumps(conversation) + "\n")
    questions_file.write_text("".join(json.dumps(q) + "\n" for q in questions))
    return conversations_file, questions_file


def test_the_question_in_the_users_own_words() -> None:
    assert pronoun_form("Where did Ana's sister meet Ben?", "Ana", "Ben") == (
        "Where did my sister meet you?"
    )


def test_recall_eval_reports_search_and_injected_recall(
    sql_url: str, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    conversations, questions = write_case(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{sql_url}"\n')

    done = ctxchat(
        "--config",
        str(config),
        "recall",
        "eval",
        "--conversations",
        str(conversations),
        "--questions",
        str(questions),
        "--json",
        env=cli_env,
    )

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no bar on a pipe
    result = json.loads(done.stdout)
    assert result["questions"] == 2
    assert result["search"]["recall"] == {"1": 1.0, "5": 1.0, "10": 1.0}
    assert result["injected"] == {"recall": 1.0}
    assert set(result["by_category"]) == {"temporal", "single-hop"}
    assert result["by_category"]["temporal"]["search"]["recall"]["1"] == 1.0
    assert result["pronoun_form"]["questions"] == 2
    assert result["pronoun_form"]["search"]["recall"]["10"] == 1.0
    assert result["memory"] == {"recall": 1.0}  # the default pipeline's memory learnt too


def in_process_eval(tmp_path: Path, config_text: str) -> dict[str, object]:
    conversations, questions = write_case(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text(config_text)
    return asyncio.run(
        evaluate(load_config(config), load_conversations(conversations), load_questions(questions))
    )


def test_recall_eval_learns_the_user_turns_into_memory_and_forgets_them(
    sql_url: str, tmp_path: Path
) -> None:
    """Through the pipeline's own user memory: it learns from each user turn as a chat's
    learning stage does, and is asked each question as the next input; the evidence of
    both questions is a user turn it learnt a fact from. Its facts are gone afterwards."""
    result = in_process_eval(tmp_path, f'[storage]\nurl = "{sql_url}"\n')

    assert result["memory_facts"] == 2  # the pottery class, the sister in Lisbon
    assert result["memory"] == {"recall": 1.0}
    assert result["pronoun_form"]["memory"] == {"recall": 1.0}  # type: ignore[index]
    by_form = result["pronoun_form"]["by_category"]  # type: ignore[index]
    assert by_form["single-hop"]["search"]["recall"]["1"] == 1.0
    assert result["by_category"]["temporal"]["memory"] == {"recall": 1.0}  # type: ignore[index]
    assert raw_query(sql_url, "SELECT count(*) FROM ctxchat_memory") == [(0,)]
    assert raw_query(sql_url, "SELECT count(*) FROM ctxchat_history") == [(0,)]


def test_a_pipeline_without_memory_reports_no_memory_figure(sql_url: str, tmp_path: Path) -> None:
    config = f'[storage]\nurl = "{sql_url}"\n\n[[providers]]\ntype = "sql_history"\n'
    result = in_process_eval(tmp_path, config)

    assert result["memory"] is None
    assert result["memory_facts"] == 0
    assert result["search"]["recall"]["1"] == 1.0  # type: ignore[index]


def test_a_file_that_is_not_questions_is_one_line(tmp_path: Path, cli_env: dict[str, str]) -> None:
    conversations, _ = write_case(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"conversation": "c1"}\n')

    done = ctxchat(
        "recall",
        "eval",
        "--conversations",
        str(conversations),
        "--questions",
        str(bad),
        env=cli_env,
    )

    assert_clean_error(done, 2, f"{bad}:1: not a question")


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared recall data is not here")
def test_the_shared_dev_set_is_read(tmp_path: Path) -> None:
    from ctxchat.services.recall_eval import load_conversations, load_questions

    conversations = load_conversations(SHARED / "conversations-dev.jsonl")
    questions = load_questions(SHARED / "questions-dev.jsonl")

    assert {q.conversation for q in questions} <= {c.ident for c in conversations}


def test_recall_eval_hybrid_embeds_each_conversation(
    sql_url: str, tmp_path: Path, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    conversations, questions = write_case(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{sql_url}"\n\n[embeddings]\nmodel = "fake-embed"\n')

    done = ctxchat(
        "--config",
        str(config),
        "recall",
        "eval",
        "--conversations",
        str(conversations),
        "--questions",
        str(questions),
        "--ranker",
        "hybrid",
        "--json",
        env=cli_env,
    )

    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["search"]["recall"]["10"] == 1.0
    embedded = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert "I started a pottery class last week." in embedded  # the stored turns
    assert "When did Ana start pottery" in embedded  # and the question, as its words


def test_hybrid_without_embeddings_is_a_usage_error(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    conversations, questions = write_case(tmp_path)
    done = ctxchat(
        "recall",
        "eval",
        "--conversations",
        str(conversations),
        "--questions",
        str(questions),
        "--ranker",
        "hybrid",
        env=cli_env,
    )
    assert_clean_error(done, 2, "--ranker hybrid needs an [embeddings] table in the config")


def test_recall_index_embeds_old_history_after_showing_the_count(
    sql_url: str, tmp_path: Path, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text(f'[storage]\nurl = "{sql_url}"\n')
    assert ctxchat("--config", str(plain), "run", "my pottery class", env=cli_env).returncode == 0
    assert fake_openai.embedding_requests() == []  # no [embeddings]: nothing embedded
    config = tmp_path / "config.toml"
    config.write_text(plain.read_text() + '\n[embeddings]\nmodel = "fake-embed"\n')

    asked = ctxchat("--config", str(config), "recall", "index", env=cli_env)
    assert_clean_error(asked, 2, "embed 2 stored messages with fake-embed: not confirmed")
    assert fake_openai.embedding_requests() == []

    done = ctxchat("--config", str(config), "recall", "index", "--yes", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "embedded 2 messages\n"
    assert done.stderr == ""  # no bar on a pipe
    again = ctxchat("--config", str(config), "recall", "index", env=cli_env)
    assert again.stdout == "every stored message has a vector already\n"


def rows_left(url: str) -> dict[str, int]:
    """Every ctxchat table's rows, but the migrations' own bookkeeping."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        names = sa.inspect(engine).get_table_names()
        with engine.connect() as conn:
            counts = {
                name: int(conn.exec_driver_sql(f"SELECT count(*) FROM {name}").scalar() or 0)
                for name in names
                if name.startswith("ctxchat_")
                and name not in ("ctxchat_migrations",)
                and not name.startswith("ctxchat_history_fts_")  # FTS5's own shadow tables
            }
    finally:
        engine.dispose()
    return {name: n for name, n in counts.items() if n}


def test_nothing_of_an_eval_remains_not_even_a_retired_fact(sql_url: str, tmp_path: Path) -> None:
    """A fact the conversation itself retired (the sister moved) is the user's too: the
    eval's cleanup leaves no row of its users in any table of the shared database."""
    conversations, questions = write_case(tmp_path)
    conversation = json.loads(conversations.read_text())
    conversation["sessions"].append(
        {
            "number": 3,
            "date": "9:00 am on 2 July, 2023",
            "turns": [
                {
                    "id": "D3:1",
                    "role": "user",
                    "speaker": "Ana",
                    "text": "My sister moved to Porto.",
                },
                {"id": "D3:2", "role": "assistant", "speaker": "Ben", "text": "Porto, nice!"},
            ],
        }
    )
    conversations.write_text(json.dumps(conversation) + "\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{sql_url}"\n')

    result = asyncio.run(
        evaluate(load_config(config), load_conversations(conversations), load_questions(questions))
    )

    assert result["memory_facts"] >= 2  # type: ignore[operator]
    assert rows_left(sql_url) == {}

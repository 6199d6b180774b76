"""Who owns an open database: the pipeline that opened it (`ProviderEnv.databases`), which
closes its own engines and never another pipeline's; and a forked child, which forgets the
engines it inherited rather than closing the parent's connections."""

from __future__ import annotations

import os
from pathlib import Path

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import Agent
from ctxchat.core.handles import Handles
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.build import build_agent
from ctxchat.testing import ScriptedModel


def sql_history_of(url: str) -> tuple[Agent, SqlHistoryProvider]:
    document = {"storage": {"url": url}, "providers": [{"type": "sql_history"}]}
    config = config_from_dict(document, path=None, environ={}, model_overrides={})
    agent = build_agent(config, model=ScriptedModel())
    (history,) = [p for p in agent.providers if isinstance(p, SqlHistoryProvider)]
    return agent, history


def test_closing_one_pipeline_leaves_another_pipelines_database_open(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first_agent, first = sql_history_of(url)
    second_agent, second = sql_history_of(url)
    first_database, second_database = first.database(), second.database()
    assert first_database is not second_database  # each pipeline has its own engine

    first_agent.close()

    assert second.database() is second_database  # still open, its migrations still known
    assert first.database() is not first_database  # the closed one opens anew
    second_agent.close()


def test_the_providers_of_one_pipeline_share_one_engine_per_url(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    document = {
        "storage": {"url": url},
        "providers": [{"type": "sql_history"}, {"type": "audit"}],
    }
    config = config_from_dict(document, path=None, environ={}, model_overrides={})
    agent = build_agent(config, model=ScriptedModel())
    databases = {id(p.database()) for p in agent.providers if hasattr(p, "database")}
    assert len(databases) == 1
    agent.close()


class Handle:
    def __init__(self, key: str) -> None:
        self.key = key
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_a_forked_child_opens_its_own_handle_and_never_closes_the_parents() -> None:
    handles: Handles[Handle] = Handles()
    inherited = handles.get("db", Handle)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, then leave without running pytest's teardown
        try:
            own = handles.get("db", Handle)
            handles.close_all()
            report = f"{int(own is inherited)}{int(inherited.closed)}{int(own.closed)}"
            os.write(write_end, report.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        report = pipe.read().decode()
    os.waitpid(pid, 0)
    # Not the parent's handle; the inherited one left alone; its own closed by close_all.
    assert report == "001"
    assert handles.get("db", Handle) is inherited
    assert not inherited.closed

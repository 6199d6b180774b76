"""Which endpoint and model pairs take no tools is kept by an object the model client holds
(`ctxchat.services.tool_support.ToolSupport`), shared with the models derived from it and
with later processes through its file, and by no module global."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.core.messages import Message
from ctxchat.core.model_types import ModelRequest, ignore_events
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.services.tool_support import ToolSupport

REFUSAL = "registry.ollama.ai/library/gemma:2b does not support tools"


def test_a_refusal_is_kept_for_derived_models_and_in_the_file_only(
    fake_openai: FakeOpenAI, model_settings: ModelSettings, tmp_path: Path
) -> None:
    kept = tmp_path / "no-tools.json"
    model = OpenAIChatModel(model_settings, tool_support=ToolSupport(kept))
    fake_openai.enqueue(Error(400, REFUSAL), Text("without tools"), Text("again"))
    request = ModelRequest((Message.user("hi"),), (Tool("now", "the time", lambda: "noon"),))

    first = asyncio.run(model.complete(request, ignore_events))
    asyncio.run(model.with_model(model.name).complete(request, ignore_events))

    assert first.message.text == "without tools"
    assert [bool(r.tools) for r in fake_openai.chat_requests()] == [True, False, False]
    endpoint = model_settings.endpoint
    assert not ToolSupport(kept).takes_tools(endpoint, model.name)  # a later process
    assert ToolSupport(tmp_path / "elsewhere.json").takes_tools(endpoint, model.name)

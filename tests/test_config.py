"""Config loading: TOML errors with positions, semantic errors with key paths, precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxchat.config.loading import load_config
from ctxchat.core.errors import ConfigError
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.services.build import build_agent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def error_of(path: Path, **kwargs: object) -> str:
    with pytest.raises(ConfigError) as failure:
        build_agent(load_config(path, environ={}, **kwargs))  # type: ignore[arg-type]
    return str(failure.value)


def test_malformed_toml_names_path_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '[model]\nmodel = "x"\ntemperature = = 1\n')
    message = error_of(path)
    assert message.startswith(f"{path}:3:15: invalid TOML: ")
    assert "\n" not in message


def test_toml_error_at_end_of_document_still_has_a_position(tmp_path: Path) -> None:
    path = write(tmp_path, "[model]\nmodel = ")
    assert error_of(path).startswith(f"{path}:2:9: invalid TOML: Invalid value")


def test_unknown_provider_type_lists_known_and_suggests(tmp_path: Path) -> None:
    path = write(tmp_path, '[[providers]]\ntype = "in_memory_histroy"\n')
    message = error_of(path)
    assert "providers[0].type: unknown provider type 'in_memory_histroy'" in message
    assert "(did you mean 'in_memory_history'?)" in message
    assert "known types: " in message
    assert "in_memory_history" in message.split("known types: ")[1]


def test_unknown_option_suggests_the_nearest(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[providers]]\ntype = "in_memory_history"\n\n'
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "audit"\n'
        "load_messages = false\nmax_mesages = 5\n",
    )
    assert error_of(path).endswith(
        "providers[1].max_mesages: unknown option (did you mean 'max_messages'?)"
    )


def test_option_of_the_wrong_type_names_key_path(tmp_path: Path) -> None:
    path = write(tmp_path, '[[providers]]\ntype = "in_memory_history"\nmax_messages = "5"\n')
    assert error_of(path).endswith("providers[0].max_messages: expected an integer, got '5'")


def test_out_of_range_option(tmp_path: Path) -> None:
    path = write(tmp_path, '[[providers]]\ntype = "in_memory_history"\nmax_messages = -1\n')
    assert "providers[0].max_messages: must be 0 or more, got -1" in error_of(path)
    path = write(tmp_path, "[model]\ntemperature = 2.5\n")
    assert "model: temperature must be between 0 and 2" in error_of(path)


def test_model_table_errors(tmp_path: Path) -> None:
    assert "model.temprature: unknown option (did you mean 'temperature'?)" in error_of(
        write(tmp_path, "[model]\ntemprature = 0.2\n")
    )
    assert "model.timeout: expected a number, got 'soon'" in error_of(
        write(tmp_path, '[model]\ntimeout = "soon"\n')
    )
    assert "models: unknown setting (did you mean 'model'?)" in error_of(
        write(tmp_path, '[models]\nmodel = "x"\n')
    )


def test_duplicate_source_ids_from_config(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "h"\n'
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "h"\nload_messages = false\n',
    )
    assert "providers[0] and providers[1] share source_id 'h'" in error_of(path)


def test_two_loading_histories_from_config(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "a"\n'
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "b"\n',
    )
    assert "more than one history provider loads messages" in error_of(path)


def test_named_config_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(missing, environ={})
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(environ={"CTXCHAT_CONFIG": str(missing)})


def test_no_file_runs_the_default_pipeline(ctxchat_home: Path) -> None:
    config = load_config(environ={})
    assert config.path is None
    assert config.default_pipeline
    assert config.providers


def test_precedence_file_then_env_then_flags(tmp_path: Path) -> None:
    path = write(tmp_path, '[model]\nmodel = "from-file"\nbase_url = "http://file/v1"\n')
    config = load_config(path, environ={})
    assert (config.model.model, config.model.base_url) == ("from-file", "http://file/v1")
    env = {"CTXCHAT_MODEL": "from-env", "OPENAI_API_KEY": "sk-env"}
    config = load_config(path, environ=env)
    assert (config.model.model, config.model.api_key) == ("from-env", "sk-env")
    assert config.origins["model"] == "env CTXCHAT_MODEL"
    config = load_config(path, environ=env, model_overrides={"model": "from-flag"})
    assert config.model.model == "from-flag"
    assert config.origins["model"] == "flag"
    assert config.model.base_url == "http://file/v1"


def test_empty_provider_list_gets_fallback_history(tmp_path: Path) -> None:
    agent = build_agent(load_config(write(tmp_path, "providers = []\n"), environ={}))
    assert agent.providers == ()
    assert isinstance(agent.fallback_history, InMemoryHistoryProvider)


def test_api_key_is_not_in_repr(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[model]\napi_key = "sk-very-secret"\n'), environ={})
    assert "sk-very-secret" not in repr(config)


EXAMPLE = Path(__file__).resolve().parent.parent / "config.example.toml"


def test_example_config_loads_and_builds() -> None:
    config = load_config(EXAMPLE, environ={})
    agent = build_agent(config)
    assert [p.source_id for p in agent.providers] == [
        "history",
        "recall",
        "summary",
        "audit",
        "memory",
        "tools",
        "tool_selector",
    ]
    assert agent.history_provider is agent.providers[0]


def test_example_config_documents_every_option() -> None:
    import re

    from ctxchat.core.options import option_fields
    from ctxchat.core.registry import load_provider_class, provider_entry_points
    from ctxchat.core.settings import AgentSettings, AttachmentSettings, ModelSettings

    text = EXAMPLE.read_text()
    documented = set(re.findall(r"^#? ?([a-z_]+) = ", text, flags=re.MULTILINE))
    expected = {f.name for f, _ in option_fields(ModelSettings)}
    expected |= {f.name for f, _ in option_fields(AgentSettings)}
    expected |= {f.name for f, _ in option_fields(AttachmentSettings)}
    types = set(re.findall(r'^#? ?type = "([a-z_]+)"', text, flags=re.MULTILINE))
    assert set(provider_entry_points()) <= types  # every built-in provider has its table
    for type_name in types:
        expected |= {f.name for f, _ in option_fields(load_provider_class(type_name).Options)}
    assert expected - documented == set()


def test_example_config_documents_the_tools_tables() -> None:
    """The tables inside the tools provider's options: an MCP server's, a Python tool's."""
    import re

    from ctxchat.core.options import option_fields
    from ctxchat.providers.tools.mcp_config import McpServerOptions
    from ctxchat.providers.tools.provider import PythonToolOptions

    text = EXAMPLE.read_text()
    documented = set(re.findall(r"^#? ?([a-z_]+) = ", text, flags=re.MULTILINE))
    documented |= set(re.findall(r"\b([a-z_]+) = ", text))  # inline tables
    for options in (McpServerOptions, PythonToolOptions):
        assert {f.name for f, _ in option_fields(options)} - documented == set()

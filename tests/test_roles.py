"""Roles in process: `[roles.NAME]` parsed and checked, laid over a config, and a role's
prompt wrapping a message, through a real agent and `ScriptedModel`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ctxchat.config.loading import read_config
from ctxchat.config.roles import AppliedRole, apply_role
from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.core.session import Session
from ctxchat.core.template import render
from ctxchat.services.build import build_agent
from ctxchat.services.roles import RoleSwitch, role_option_problems
from ctxchat.testing import ScriptedModel

PIPELINE = """
[[providers]]
type = "in_memory_history"
source_id = "history"
[[providers]]
type = "tools"
source_id = "tools"
"""


def config_of(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> Any:
    path = tmp_path / "config.toml"
    path.write_text(text + PIPELINE)
    return read_config(path, environ=environ or {})


REVIEW = """
[model]
model = "base-model"
temperature = 0.1

[roles.review]
description = "review code"
instructions = "You review {{language}} code for {{team}}."
prompt = "Review this:\\n\\n{{input}}\\n\\nBe brief."
model = "review-model"
temperature = 0.7
defaults = { team = "us" }
[roles.review.providers.tools]
builtins = ["calculate"]
[roles.quiet]
memory = false
[roles.quiet.providers.tools]
enabled = false
"""


def test_a_role_lays_its_settings_over_the_config(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, REVIEW)
    assert problems == []
    assert sorted(config.roles) == ["quiet", "review"]
    applied, role = apply_role(config, "review", {"language": "Go"})
    assert applied.model.model == "review-model"
    assert applied.model.temperature == 0.7
    assert applied.agent.instructions == "You review Go code for us."
    tools = next(s for s in applied.providers if s.source_id == "tools")
    assert tools.options["builtins"] == ["calculate"]
    assert role.name == "review"
    assert role.memory
    # The config itself is untouched: another role, or none, starts from it again.
    assert config.model.model == "base-model"
    quiet, quiet_role = apply_role(config, "quiet")
    assert [s.source_id for s in quiet.providers] == ["history"]
    assert not quiet_role.memory


def test_a_flag_or_the_environment_wins_over_the_role(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, REVIEW, environ={"CTXCHAT_MODEL": "env-model"})
    assert problems == []
    applied, _ = apply_role(config, "review", {"language": "Go"})
    assert applied.model.model == "env-model"
    assert applied.model.temperature == 0.7  # the file's, so the role's wins


def test_arguments_are_checked_with_did_you_mean(tmp_path: Path) -> None:
    config, _ = config_of(tmp_path, REVIEW)
    with pytest.raises(UsageError, match=r"needs --arg language=VALUE"):
        apply_role(config, "review")
    with pytest.raises(UsageError, match=r"no argument 'langauge' \(did you mean 'language'\?\)"):
        apply_role(config, "review", {"langauge": "Go"})
    with pytest.raises(UsageError, match=r"unknown role 'reveiw' \(did you mean 'review'\?\)"):
        apply_role(config, "reveiw")


def test_bad_roles_are_every_one_reported_with_key_paths(tmp_path: Path) -> None:
    _, problems = config_of(
        tmp_path,
        """
[roles.a]
instrutions = "x"
[roles.b]
temperature = 5
[roles.c]
instructions = "{{input}}"
[roles.d.providers.tols]
x = 1
[roles.e]
prompt = "{{input}} in {{lang}}"
defaults = { lnag = "Go" }
[rolez]
""",
    )
    text = "\n".join(problems)
    assert "roles.a.instrutions: unknown option (did you mean 'instructions'?)" in text
    assert "roles.b: temperature must be between 0 and 2" in text
    assert "roles.c.instructions: {{input}} is the message" in text
    assert "roles.d.providers.tols: no provider has this source_id (did you mean 'tools'?)" in text
    assert "roles.e.defaults.lnag: no {{lnag}} in the role's texts (did you mean 'lang'?)" in text
    assert "rolez: unknown setting (did you mean 'roles'?)" in text


def test_a_role_cannot_point_the_model_elsewhere(tmp_path: Path) -> None:
    _, problems = config_of(tmp_path, '[roles.x]\nbase_url = "http://elsewhere.example/v1"\n')
    assert any("roles.x.base_url: unknown option" in p for p in problems)


def test_provider_options_of_a_role_are_checked_against_the_provider(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, "[roles.x.providers.tools]\nmax_rounds = 3\n")
    assert problems == []
    found = role_option_problems(config)
    assert len(found) == 1
    assert "roles.x.providers.tools.max_rounds: unknown option" in found[0]


def test_the_prompt_takes_the_message_once_never_reading_it_for_placeholders() -> None:
    role = AppliedRole("r", "Say {{a}}:\n\n{{input}}\n\nEnd.", {"a": "{{input}}"}, True)
    message = Message.user("use {{a}} and {{input}}", origin="stdin")
    wrapped = role.wrap(message)
    assert wrapped.text == "Say {{input}}:\n\nuse {{a}} and {{input}}\n\nEnd."
    # The role's own words are not the user's: memory reads only the user's.
    assert wrapped.text_from(frozenset({"stdin"})) == "use {{a}} and {{input}}"
    assert render("{{ x }}-{{x}}", {"x": "1"}) == "1-1"


def test_the_wrapped_message_is_what_the_model_receives(tmp_path: Path) -> None:
    config, _ = config_of(tmp_path, REVIEW)
    applied, role = apply_role(config, "review", {"language": "Go"})
    model = ScriptedModel("Looks fine.")
    agent = build_agent(applied, model=model)
    try:
        switch = RoleSwitch(config, role)
        inputs = switch.wrap([Message.user("x = 1", origin="stdin")])
        asyncio.run(agent.run(Session(), inputs))
    finally:
        agent.close()
    request = model.requests[0]
    assert request.messages[0].text.startswith("You review Go code for us.")
    assert request.messages[-1].text == "Review this:\n\nx = 1\n\nBe brief."

"""Names vulture cannot see used: called by a framework, found through an entry point, or
part of the provider-author API. Each line says which. Checked by .ci/run:
    vulture ctxchat providers .ci/vulture_whitelist.py --min-confidence 60
"""

# ruff: noqa: B018
from ctxchat import __init__ as package
from ctxchat.cli import config_cmd, help_words, memory_cmd, prompt, roles_cmd, sessions_cmd, tools_cmd
from ctxchat.core.context import RunContext
from ctxchat.ranking import cache, embedding, evaluate
from ctxchat.services import llama_server
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.providers.audit import provider as audit
from ctxchat.providers.history import in_memory as in_memory_history
from ctxchat.providers.history import sql as sql_history
from ctxchat.providers.memory import importing as _memory_import
from ctxchat.providers.memory import lexicon
from ctxchat.providers.recall import provider as recall
from ctxchat.providers.selection import provider as tool_selector
from ctxchat.storage.sql import engine as _sqlengine

# Module attribute hooks (PEP 562): the lazy public API.
package.__getattr__
package.__dir__

# Typer commands, registered by decorator; an enum's members are its choices.
config_cmd.show
config_cmd.validate
sessions_cmd.list_sessions
roles_cmd.list_roles
sessions_cmd.show
sessions_cmd.Format.jsonl
memory_cmd.list_facts
tools_cmd.RankerName.hybrid
memory_cmd.ExtractorName.rules
memory_cmd.ExtractorName.llm
memory_cmd.ExtractorName.both

# Click calls these to write a command's help (arguments as words, not type hints).
help_words.WordsCommand.collect_usage_pieces
help_words.WordsCommand.format_options

# prompt-toolkit calls these: a completer's method, key bindings, the continuation prompt's
# signature.
prompt.SlashCompleter.get_completions
_.complete_event
prompt._paste
prompt._submit
prompt._newline
_.line_number
_.wrap_count

# SQLAlchemy event listeners, and the DB-API attribute they set.
_sqlengine._configure
_sqlengine._begin
_.isolation_level

# Providers, found through the ctxchat.providers entry points.
tool_selector.ToolSelectorProvider
audit.AuditProvider
in_memory_history.InMemoryHistoryProvider
sql_history.SqlHistoryProvider
recall.RecallProvider

# Kept alive so the loop closes the client as it ends (see _close_with_loop).
OpenAIChatModel._closer

# The statement reader reads each language's word classes by field name (lexicon.compiled).
lexicon.Language.first_person_verbs
lexicon.Language.third_person
lexicon.Language.question_openers
lexicon.Language.hypothetical
lexicon.Language.request_openers
lexicon.Language.negation

# The local model server: the options travel to the child as JSON (dataclasses.asdict),
# and the child sets xllamacpp's CommonParams fields for llama.cpp to read.
llama_server.LlamaServerOptions.prompt_cache_mib
llama_server.LlamaServerOptions.reply_cap
llama_server.LlamaServerOptions.ignore_eos
_.model_alias
_.hostnames
_.n_ctx
_.n_threads
_.cache_ram_mib
_.endpoint_props
_.n_parallel
_.n_batch
_.n_ubatch
_.pooling_type

# What `ctxchat import` will call (issue 22): screened facts into a user's memory.
_memory_import.import_facts
_memory_import.Imported.added

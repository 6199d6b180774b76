"""The conversation histories: in the session file (`in_memory_history`) or in a SQL
database (`sql_history`), with its full-text search."""

"""The audit log of every turn (`audit`), in a SQL database."""

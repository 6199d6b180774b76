"""The SQL machinery the SQL-backed providers share: engines, stores and their migrations,
owned rows."""

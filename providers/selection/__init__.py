"""Choosing which tools a turn advertises (`tool_selector`)."""

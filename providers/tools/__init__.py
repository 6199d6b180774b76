"""Tools for the model (`tools`): built-in functions, Python references and MCP servers."""

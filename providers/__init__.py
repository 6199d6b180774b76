"""ctxchat's built-in context providers, installed as `ctxchat.providers`.

Each folder is one feature (history, audit, memory, summary, tools, selection, recall); the
SQL-backed ones build on `ctxchat.kit`, the kit a third party's provider gets. Each provider
is registered under the `ctxchat.providers` entry-point group the same way a third-party
package registers its own.
"""

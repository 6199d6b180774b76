"""ctxchat's built-in context providers, installed as `ctxchat.providers`.

Each module is one provider, registered under the `ctxchat.providers` entry-point group the
same way a third-party package registers its own.
"""

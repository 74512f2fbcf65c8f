"""The real-browser tests share the session fixtures of ``tests/conftest.py``."""

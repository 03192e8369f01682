"""Helpers without Django: text as people read it, finding names, row ids."""

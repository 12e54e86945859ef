"""The chat filter (docs/moderation.md, "Chat filter"): words of a list are
masked with asterisks in chat, for English, Arabic and Arabizi.

A word matches after :func:`normalise`: case folded; Arabic diacritics and
tatweel out; alef, yeh and teh marbuta forms made one; in Latin-letter words
the Arabizi digits read as letters (2 and 3 as ``a``, 5 as ``kh``, 7 as
``h``); then any letter repeated in a row counted once. An Arabic word also
matches behind the prefixes ``و``, ``ال``, ``وال`` and ``يا``.

>>> f = ChatFilter(["shit", "شرموطة", "3ars", "kos"])
>>> f.mask("oh SHIIIT, well played")
'oh ******, well played'
>>> f.mask("يا شَرْمـوطه")
'يا *********'
>>> f.mask("ya 3arssss! and ya ars")
'ya *******! and ya ***'
>>> f.mask("kosmos and kos")
'kosmos and ***'
>>> ChatFilter([]).mask("anything")
'anything'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Final

__all__ = ["DEFAULT_WORDS", "ChatFilter", "normalise", "read_words"]

DEFAULT_WORDS: Final = "chat_words.txt"
"""The shipped list, beside this module."""

_WORD: Final = re.compile(r"[\w\u0600-\u06ff]+")
_DIACRITICS: Final = re.compile("[\u064b-\u065f\u0670\u0640]")
_ARABIC_FORMS: Final = str.maketrans("أإآٱىةؤئ", "اااايهوي")
_ARABIZI: Final = {"2": "a", "3": "a", "5": "kh", "7": "h"}
_PREFIXES: Final = ("وال", "ال", "و", "يا")
_REPEATS: Final = re.compile(r"(.)\1+")


def normalise(word: str) -> str:
    """The form a word is compared in.

    >>> normalise("FUUUCK"), normalise("شَرْمـوطة"), normalise("7a2ir"), normalise("5ara")
    ('fuck', 'شرموطه', 'hair', 'khara')
    """
    w = _DIACRITICS.sub("", word.casefold()).translate(_ARABIC_FORMS)
    if re.search("[a-z]", w):
        w = "".join(_ARABIZI.get(c, c) for c in w)
    return _REPEATS.sub(r"\1", w)


def read_words(path: Path | None) -> list[str]:
    """The words of a list file (None: the shipped list)."""
    if path is None:
        text = resources.files(__package__).joinpath(DEFAULT_WORDS).read_text(encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


class ChatFilter:
    """Masks the words of a list (empty: masks nothing)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(normalise(w) for w in words if w.strip())

    @classmethod
    def from_option(cls, option: str) -> ChatFilter:
        """``default`` (the shipped list), ``off``, or a list file's path;
        ``OSError`` if the file cannot be read."""
        if option == "off":
            return cls([])
        return cls(read_words(None if option == "default" else Path(option)))

    def _matches(self, token: str) -> bool:
        n = normalise(token)
        if n in self.words:
            return True
        return any(n.startswith(p) and n[len(p) :] in self.words for p in _PREFIXES)

    def mask(self, text: str) -> str:
        """``text`` with each listed word in asterisks, one for each character."""
        if not self.words:
            return text
        return _WORD.sub(lambda m: "*" * len(m[0]) if self._matches(m[0]) else m[0], text)

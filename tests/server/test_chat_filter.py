"""The chat filter (issue 14, item 5): the normaliser and the masking in
English, Arabic and Arabizi, the word list files, and live: every reader
gets the masked line, only a reader who turned the filter off also gets it
as said, in new lines and in a snapshot's history."""

from __future__ import annotations

from pathlib import Path

import pytest
from fh_server_helpers import Player, Server

from fourhundred.server.chatfilter import ChatFilter, normalise, read_words

DEFAULT = ChatFilter.from_option("default")


@pytest.mark.parametrize(
    ("word", "form"),
    [
        ("FuCK", "fuck"),
        ("fuuuuck", "fuck"),
        ("شَرْمُوطَة", "شرموطه"),  # diacritics out, teh marbuta as heh
        ("شرمــــوطة", "شرموطه"),  # tatweel out
        ("أحمق", "احمق"),  # alef forms made one
        ("3ars", "ars"),  # Arabizi 3 (ain)
        ("7a2ir", "hair"),  # 7 (hah) and 2 (hamza)
        ("5ara", "khara"),  # 5 (khah)
        ("2021", "2021"),  # a number is a number
    ],
)
def test_normalise(word: str, form: str) -> None:
    assert normalise(word) == form


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("that was SHIIIT", ["SHIIIT"]),
        ("you f*ck", []),  # not a word of the list
        ("fucking hell", ["fucking"]),
        ("يا شرموطة", ["شرموطة"]),
        ("يا شَرْمـوطة!", ["شَرْمـوطة"]),  # diacritics and tatweel
        ("والشرموطة", ["والشرموطة"]),  # behind a prefix
        ("ya sharmoota", ["sharmoota"]),
        ("kossomak w 3ars", ["kossomak", "3ars"]),
        ("KHARAAA", ["KHARAAA"]),
        ("5ara 3alaik", ["5ara"]),
    ],
)
def test_masking_in_three_scripts(text: str, words: list[str]) -> None:
    masked = text
    for w in words:
        masked = masked.replace(w, "*" * len(w))
    assert DEFAULT.mask(text) == masked
    assert (masked == text) == (not words)


@pytest.mark.parametrize(
    "clean",
    [
        "well played partner",
        "class pass assist",
        "kosmos",
        "مرحبا يا شباب",
        "ya 3ammi yalla",
        "400!",
    ],
)
def test_ordinary_chat_is_untouched(clean: str) -> None:
    assert DEFAULT.mask(clean) == clean


def test_word_lists_from_a_file_or_off(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# mine\nbanana  # a comment\n\nموز\n", encoding="utf-8")
    assert read_words(path) == ["banana", "موز"]
    mine = ChatFilter.from_option(str(path))
    assert mine.mask("BANANAS? banana! الموز") == "BANANAS? ******! *****"
    assert mine.mask("shit") == "shit"  # the default list is replaced
    assert ChatFilter.from_option("off").mask("shit") == "shit"
    assert len(read_words(None)) >= 30
    with pytest.raises(OSError):
        ChatFilter.from_option(str(tmp_path / "missing.txt"))


def chat_texts(p: Player) -> list[tuple[str, str | None]]:
    return [(f["text"], f.get("raw")) for f in p.frames if f["type"] == "chat"]


async def test_masked_for_everyone_and_unmasked_only_for_who_asked(server: Server) -> None:
    host = await Player(server, "Host").guest()
    plain = await Player(server, "Plain").guest()
    opted = await Player(server, "Opted").guest()
    r = await host.http.post("/api/tables", json={"kind": "casual"})
    table = r.json()["table"]["id"]
    for p in (host, plain, opted):
        await p.connect()
    await opted.ok("chat_filter", off=True)
    for p in (host, plain, opted):
        await p.join(table=table)
    await host.ok("chat", text="what a shit hand, ya 3ars")
    await host.ok("chat", text="sorry")
    for p in (host, plain, opted):
        await p.wait(lambda p=p: any(t == "sorry" for t, _ in chat_texts(p)))
    masked = "what a **** hand, ya ****"
    said = "what a shit hand, ya 3ars"
    assert chat_texts(plain) == [(masked, None), ("sorry", None)]
    assert chat_texts(host) == [(masked, None), ("sorry", None)]
    assert chat_texts(opted) == [(masked, said), ("sorry", None)]
    # A snapshot's history: the same.
    late = await Player(server, "Late").guest()
    await late.connect()
    snap = await late.join(table=table)
    assert [(c["text"], c.get("raw")) for c in snap["chat"]] == [(masked, None), ("sorry", None)]
    await opted.ok("chat_filter", off=False)
    snap = await opted.join(table=table)
    assert [c.get("raw") for c in snap["chat"]] == [None, None]
    await late.ok("chat_filter", off=True)
    snap = await late.join(table=table)
    assert [c.get("raw") for c in snap["chat"]] == [said, None]
    assert (await late.cmd("chat_filter", off="yes"))["code"] == "bad_message"
    for p in (host, plain, opted, late):
        await p.aclose()

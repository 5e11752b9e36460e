"""The tab's chat (`boardweaver_web.chat`): lines kept by number, our pending lines heard back, what the server
would refuse, and the lines drawn as escaped text."""

from __future__ import annotations

from typing import Any

from boardweaver_web.chat import KEPT, MAX_TEXT, ChatLog, Line, new_chat_id, refusal, render_lines, spoken
from boardweaver_web.texts import Texts


def wire(number: int, seat: int, text: str, chat_id: str = "") -> dict[str, Any]:
    return {"n": number, "seat": seat, "text": text, "at": 1_700_000_000_000, "id": chat_id or f"id-{number}"}


def who(seat: int) -> str:
    return {0: "Ada:"}.get(seat, f"Player {seat + 1}:")


def test_a_line_is_drawn_as_escaped_text_with_its_speakers_name() -> None:
    lines = [Line(1, 0, "<b>x</b> & <script>", 0, "a"), Line(2, 1, 'say "hi"', 0, "b")]

    drawn = render_lines(lines, lambda seat: "<i>Eve</i>:" if seat == 1 else who(seat), 0, ["on its way"])

    assert "<b>" not in drawn and "<script>" not in drawn and "<i>" not in drawn
    assert "&lt;b&gt;x&lt;/b&gt; &amp; &lt;script&gt;" in drawn and "&lt;i&gt;Eve&lt;/i&gt;" in drawn
    assert drawn.count('class="chat-line own"') == 1 and 'class="chat-line own sending"' in drawn


def test_the_log_keeps_each_number_once_and_a_line_heard_back_is_no_longer_pending() -> None:
    log = ChatLog()
    log.pending["mine"] = "hello"

    first = log.add([wire(1, 0, "hello", "mine"), wire(2, 1, "hi")], seat=0)
    again = log.add([wire(2, 1, "hi"), {"n": "3"}, "junk"], seat=0)

    assert [line.number for line in first] == [1, 2] and again == []
    assert log.pending == {} and [line.text for line in log.ordered()] == ["hello", "hi"]


def test_a_snapshot_replaces_the_lines_and_the_log_keeps_the_last_hundred() -> None:
    log = ChatLog()
    log.add([wire(n, 1, f"line {n}") for n in range(1, 151)], seat=0)
    kept = [line.number for line in log.ordered()]

    log.take_snapshot([wire(7, 0, "after a reload")], seat=0)

    assert kept == list(range(51, 151)) and len(kept) == KEPT
    assert [line.text for line in log.ordered()] == ["after a reload"]


def test_what_the_server_would_refuse_is_told_before_sending() -> None:
    assert refusal("   ") == "chat.empty"
    assert refusal("x" * (MAX_TEXT + 1)) == "chat.too-long"
    assert refusal(" " + "👍" * MAX_TEXT + " ") is None  # code points, after stripping
    assert refusal("two\nlines") == refusal("bell\x07") == refusal("evil\u202e") == "chat.control"
    assert refusal("hello") is None and new_chat_id() != new_chat_id()


def test_the_live_region_says_the_others_new_lines_not_our_own() -> None:
    fresh = [Line(3, 0, "mine", 0, "a"), Line(4, 1, "theirs", 0, "b")]

    assert spoken(fresh, who, 0) == "Player 2: theirs"
    assert spoken(fresh, who, None) == "Ada: mine Player 2: theirs"  # a spectator hears everyone


def test_the_chats_texts_exist_in_english_and_french_with_plural_unread_counts() -> None:
    english, french = Texts("en"), Texts("fr")

    assert english.get("chat.unread", count=1) == "1 new" and english.get("chat.unread", count=3) == "3 new"
    assert french.get("chat.unread", count=1) == "1 nouveau" and french.get("chat.unread", count=2) == "2 nouveaux"
    assert french.get("chat.title") == "Discussion" and english.error("chat/too-long").startswith("Too long")
    assert english.get("chat.who", name="Ada") == "Ada:" and french.get("chat.who", name="Ada") == "Ada\u00a0:"

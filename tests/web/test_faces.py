"""A card's text face: its long words cut by soft hyphens, and the width of its widest part for the style to fit."""

from __future__ import annotations

from boardweaver_web.faces import SOFT_HYPHEN, face_markup, fitted, large_face, name_is_long


def test_a_long_word_is_cut_between_consonants_near_its_middle_and_never_inside_a_digraph() -> None:
    assert fitted("4 Handmaid")[0] == f"4 Hand{SOFT_HYPHEN}maid"
    assert fitted("7 Countess")[0] == f"7 Coun{SOFT_HYPHEN}tess"
    assert fitted("Leibwächterin")[0] == f"Leib{SOFT_HYPHEN}wäch{SOFT_HYPHEN}terin"
    assert fitted("Guard")[0] == "Guard"  # six letters or fewer stay whole
    assert fitted("10 ♥") == ("10 ♥", 0.0) and fitted("Q♣") == ("Q♣", 0.0)  # a corner: as it is, not fitted
    assert fitted("x-wing")[0] == "x-wing"  # not all letters: whole


def test_the_widest_part_counts_its_hyphen_and_a_cut_word_is_narrower_than_whole() -> None:
    handmaid, whole = fitted("Handmaid")[1], fitted("Guardsmn")[1]
    assert 3.0 < handmaid < 4.0  # "Hand-" with its hyphen
    assert fitted("8 Prin&cess")[0] == "8 Prin&amp;cess"  # escaped
    assert whole > handmaid or fitted("Guardsmn")[0] != "Guardsmn"


def test_a_text_face_carries_its_width_and_a_long_one_is_not_drawn_again_large_in_the_middle() -> None:
    markup = face_markup({}, "4 Handmaid", fanned=True)
    assert (
        markup
        == f'<span class="face text cut" style="--word:{fitted("4 Handmaid")[1]:.2f}">4 Hand{SOFT_HYPHEN}maid</span>'
    )  # `cut`: the seat's own row draws the word whole (boardweaver.css)
    assert 'class="face text"' in face_markup({}, "Guard")  # not cut
    assert large_face({}, "4 Handmaid") == "" and large_face({}, "A") == "A"
    assert face_markup({"symbol": "♥"}, "7", fanned=True) == (
        '<span class="face both" data-large="♥7" style="--ems:1.70"><span class="symbol">♥</span>'
        '<span class="text">7</span></span>'
    )
    assert face_markup({"symbol": "♥"}, None) == '<span class="face symbol">♥</span>'


# Widths in ems of bold words in DejaVu Sans Bold, Linux's `system-ui` and among the widest (Chromium, measured).
MEASURED = {
    "Priest": 3.32,
    "Guard": 3.42,
    "Garde": 3.38,
    "Prêtre": 3.55,
    "Baron": 3.33,
    "Prince": 3.55,
    "Maid": 2.73,
    "Fille": 2.39,
    "Roi": 1.80,
    "Pioche": 3.75,
    "MMMMMM": 5.97,
    "GUARD": 3.98,
}


def test_regression_a_short_word_counts_at_least_its_width_so_the_style_never_cuts_it_mid_word() -> None:
    """Another seat's small card on a phone read "Pries" "t", "Guar" "d" (a trial author's Love Letter): a word of six
    letters or fewer is never cut by a hyphen, and the style sizes it whole to the card by its counted width."""
    counted = {word: fitted(word) for word in MEASURED}

    assert all(shown == word for word, (shown, _) in counted.items())  # whole: no hyphen in a short word
    assert all(MEASURED[word] <= width <= MEASURED[word] * 1.2 for word, (_, width) in counted.items()), counted
    assert fitted("Roi")[1] > 0  # a word of three letters is fitted too ("Roi" alone on a 1.8rem card)


def test_a_seat_name_with_a_word_too_wide_for_a_phones_narrow_header_is_long() -> None:
    long = [
        name for name in ["Christopher", "Guillaume", "Bob", "Bot 3", "Player 2", "Ada Lovelace"] if name_is_long(name)
    ]

    assert long == ["Christopher", "Guillaume"]

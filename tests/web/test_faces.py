"""A card's text face: its long words cut by soft hyphens, and the width of its widest part for the style to fit."""

from __future__ import annotations

from boardweaver_web.faces import SOFT_HYPHEN, face_markup, fitted, large_face


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
        markup == f'<span class="face text" style="--word:{fitted("4 Handmaid")[1]:.2f}">4 Hand{SOFT_HYPHEN}maid</span>'
    )
    assert large_face({}, "4 Handmaid") == "" and large_face({}, "A") == "A"
    assert face_markup({"symbol": "♥"}, "7", fanned=True) == (
        '<span class="face both" data-large="♥7" style="--ems:1.70"><span class="symbol">♥</span>'
        '<span class="text">7</span></span>'
    )
    assert face_markup({"symbol": "♥"}, None) == '<span class="face symbol">♥</span>'

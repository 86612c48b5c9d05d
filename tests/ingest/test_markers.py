import pytest

from civicsetu.ingest.markers import Level, OpenLevel, classify, continues, is_roman, roman_value

L, R, N = Level.LETTER, Level.ROMAN, Level.NUMBER


@pytest.mark.parametrize(
    ("token", "open_levels", "previous", "expected"),
    [
        ("1", [], "", N),
        ("2A", [OpenLevel(N, "2")], "", N),
        ("a", [OpenLevel(N, "1")], "", L),
        ("zk", [], "", L),
        ("ii", [OpenLevel(L, "a"), OpenLevel(R, "i")], "", R),
        # (i) after (h) continues the letters ...
        ("i", [OpenLevel(L, "h")], "(h) the number of garages;", L),
        # ... unless (h) introduced a list
        ("i", [OpenLevel(L, "h")], "(h) a declaration stating:—", R),
        ("i", [OpenLevel(L, "c")], "(c) the following:", R),
        ("v", [OpenLevel(L, "u")], "", L),
        ("v", [OpenLevel(L, "u"), OpenLevel(R, "iv")], "", R),
        ("x", [OpenLevel(L, "w")], "", L),
        ("A", [OpenLevel(L, "l")], "", Level.UPPER_LETTER),
        ("II", [OpenLevel(Level.UPPER_ROMAN, "I")], "", Level.UPPER_ROMAN),
    ],
)
def test_classify(token: str, open_levels: list[OpenLevel], previous: str,
                  expected: Level) -> None:
    assert classify(token, open_levels, previous) == expected


@pytest.mark.parametrize(("token", "value"), [("i", 1), ("iv", 4), ("ix", 9), ("xiv", 14)])
def test_roman_value(token: str, value: int) -> None:
    assert is_roman(token)
    assert roman_value(token) == value


@pytest.mark.parametrize("token", ["a", "zk", "b", "ia"])
def test_not_roman(token: str) -> None:
    assert not is_roman(token)


@pytest.mark.parametrize(
    ("previous", "token", "expected"),
    [("h", "i", True), ("zd", "ze", True), ("z", "za", True), ("zz", "zza", True),
     ("a", "c", False), ("zd", "e", False), ("d", "ze", False), ("za", "zb", True)],
)
def test_a_letter_continues_the_one_before_it_inserted_clauses_too(
        previous: str, token: str, expected: bool) -> None:
    assert continues(previous, token, L) is expected

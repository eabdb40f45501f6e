"""The command in any locale: arguments that are UTF-8 (suit symbols) read as
UTF-8 whatever the locale says, and output that the locale's encoding cannot
hold written as letters or escapes, never a crash or a lost character."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

ROYAL = "A♠ K♠ Q♠ J♠ 10♠"
ROYAL_LINE = "As  Ks  Qs  Js  Ts  ->  As  Ks  Qs  Js  Ts  Royal Flush  (score 10, strength 7,462)\n"


def _environment(**settings: str) -> dict[str, str]:
    """This environment without its locale and encoding settings, then
    ``settings``."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING", "PYTHONCOERCECLOCALE"))
    }
    return {**kept, "NO_COLOR": "1", **settings}


def _fivecard(env: dict[str, str], *argv: str | bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "fivecard", *argv], env=env, capture_output=True, check=False)


def _encodings(env: dict[str, str]) -> list[str]:
    """The file system (argument) and standard output encodings a Python
    started with ``env`` has."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.getfilesystemencoding(), sys.stdout.encoding)"],
        env=env, capture_output=True, text=True, check=True,
    )
    return done.stdout.split()


@pytest.fixture(scope="module")
def c_locale() -> dict[str, str]:
    env = _environment(LC_ALL="C", PYTHONUTF8="0")
    assert _encodings(env) == ["ascii", "ascii"]  # else this test proves nothing
    return env


@pytest.fixture(scope="module")
def latin_1(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A Latin-1 locale of this test's own (made with localedef)."""
    if shutil.which("localedef") is None:
        pytest.skip("no localedef to make a Latin-1 locale with")
    folder = tmp_path_factory.mktemp("locales")
    made = subprocess.run(
        ["localedef", "-i", "en_US", "-f", "ISO-8859-1", str(folder / "en_US.ISO-8859-1")],
        capture_output=True, check=False,
    )
    if made.returncode not in (0, 1) or not (folder / "en_US.ISO-8859-1").exists():  # 1: made, with warnings
        pytest.skip(f"localedef cannot make a Latin-1 locale here: {made.stderr.decode(errors='replace')}")
    env = _environment(LOCPATH=str(folder), LC_ALL="en_US.ISO-8859-1", PYTHONUTF8="0")
    assert _encodings(env) == ["iso8859-1", "iso8859-1"]
    return env


def test_suit_symbols_in_arguments_under_the_c_locale(c_locale: dict[str, str]) -> None:
    done = _fivecard(c_locale, "classify", ROYAL)
    assert (done.returncode, done.stdout, done.stderr) == (0, ROYAL_LINE.encode(), b"")
    done = _fivecard(c_locale, "compare", "--board", "A♠ K♠ 7♦ 2♣ 9♥", "Q♠ J♠", "7♣ 7♥")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == b"Hand 2 wins: Three of a Kind beats High Card"
    done = _fivecard(c_locale, "classify", "--json", ROYAL)
    assert json.loads(done.stdout)[0]["input"] == ROYAL  # JSON escapes what ASCII cannot hold


def test_what_the_c_locale_cannot_show_is_escaped(c_locale: dict[str, str]) -> None:
    """Cards fall back to letters; any other character (the help's suit
    symbols, an error's quoted input) to a Python escape, never a '?'."""
    done = _fivecard(c_locale, "classify", "A♠ K♠")
    assert done.returncode == 2
    assert done.stderr == b"fivecard: error: hand 1: expected 5 cards, got 2 in 'A\\u2660 K\\u2660'\n"
    done = _fivecard(c_locale, "--help")
    assert done.returncode == 0 and b"\\u2663 \\u2666" in done.stdout and b"?" not in done.stdout.split(b"\n\n")[1]


def test_bytes_that_are_not_utf8_stay_an_error_of_their_card(c_locale: dict[str, str]) -> None:
    done = _fivecard(c_locale, "classify", b"AS KS QS JS T\xff")
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr
    assert b"U+DCFF" in done.stderr  # the byte, named


def test_suit_symbols_in_arguments_under_a_latin_1_locale(latin_1: dict[str, str]) -> None:
    done = _fivecard(latin_1, "classify", ROYAL)
    assert (done.returncode, done.stdout, done.stderr) == (0, ROYAL_LINE.encode(), b"")
    # a Latin-1 argument that is not UTF-8 is read as the locale says
    done = _fivecard(latin_1, "classify", "AS KS QS JS Té".encode("latin-1"))
    assert done.returncode == 2 and "'Té'".encode("latin-1") in done.stderr and done.stderr.count(b"\n") == 1


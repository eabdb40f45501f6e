"""The table cache: built tables kept in the user's cache directory, loaded
instead of built, and rebuilt whenever a file is missing, damaged, stale or
for other rules; a cache that cannot be written never makes evaluation fail.
Arrays kept to be mapped pass the same checks."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import fivecard.core.version
from fivecard import get_rules
from fivecard.core import lookup_cache as tablecache
from fivecard.core import lookup as tables
from fivecard.core.lookup import codes_for
from fivecard.core.lookup import lookup_index as _index
from fivecard.core.rules import RULE_SETS, RuleSet
from fivecard.core.lookup import Tables, build_tables

# The cached function behind tables_for's once-per-process memo: these tests
# must see the disk every time, and must not replace the tables other tests hold.
_load_or_build: Callable[[RuleSet], Tables] = tables.tables_for.__wrapped__

STANDARD = get_rules("standard")
_BUILD = tables._build  # before any test counts the builds


@functools.cache
def built(rules: RuleSet) -> Tables:
    """The tables built from scratch (not counted by ``builds``)."""
    return _BUILD(rules)[0]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(tablecache.ENVIRONMENT, str(folder))
    return folder


@functools.cache
def _made(rules: RuleSet) -> tuple[Tables, object]:
    """A build of these rules, made once for the tests that count builds
    (building is deterministic; what they check is when fivecard builds)."""
    return _BUILD(rules)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the rule sets built from scratch (not loaded) from now on."""
    built: list[str] = []

    def counting(rules: RuleSet) -> tuple[Tables, object]:
        built.append(rules.name)
        return _made(rules)

    monkeypatch.setattr(tables, "_build", counting)
    return built


def same(a: Tables, b: Tables) -> bool:
    return (
        a.lookup == b.lookup
        and a.substitutes == b.substitutes
        and a.records == b.records
        and list(a.classes()) == list(b.classes())
    )


def files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.slow
def test_loaded_tables_equal_built_ones(name: str, cache: Path, builds: list[str]) -> None:
    rules = get_rules(name)
    first = _load_or_build(rules)
    assert builds == [name]
    [stored] = files(cache)
    assert stored.name.startswith(f"{name}-") and stored.suffix == ".tables"
    second = _load_or_build(rules)
    assert builds == [name]  # read, not built
    assert same(first, second) and same(second, built(rules))


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.slow
def test_the_compact_classes_unpack_to_what_classify_gives(name: str) -> None:
    rules = get_rules(name)
    expected = tuple(tables._classes(tables._found(rules), rules))
    made = build_tables(rules)
    assert made.shapes == expected  # all at once
    for strength, (index, key, groups) in enumerate(expected, 1):  # one at a time
        hand_class = made.hand_class(strength)
        assert hand_class.category == rules.ladder[index]
        assert hand_class.key == key and hand_class.groups == groups
        assert hand_class.order == tuple(r for r, n in groups for _ in range(n))


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "flipped byte":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0x40]) + data[middle + 1 :])
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif how == "longer":
        path.write_bytes(data + b"\0" * 100)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "header only":
        path.write_bytes(data[:20])
    elif how == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif how == "directory":
        path.unlink()
        path.mkdir()
    else:  # pragma: no cover
        raise AssertionError(how)


@pytest.mark.parametrize(
    "how", ["flipped byte", "truncated", "longer", "empty", "header only", "garbage", "directory"]
)
def test_a_damaged_file_is_ignored_and_rebuilt(
    how: str, cache: Path, builds: list[str]
) -> None:
    _load_or_build(STANDARD)
    [path] = files(cache)
    damage(path, how)
    rebuilt = _load_or_build(STANDARD)
    assert builds == ["standard", "standard"]
    assert same(rebuilt, built(STANDARD))
    if how != "directory":  # replaced by a whole file again
        _load_or_build(STANDARD)
        assert builds == ["standard", "standard"]


def test_a_file_for_other_data_under_the_same_name_is_ignored(
    cache: Path, builds: list[str]
) -> None:
    # As if two keys shared a file name: the file repeats its key in full.
    key = tables.cache_key(STANDARD)
    other = ("something else", *key[1:])
    _, payload = tables._build(STANDARD)
    tablecache.store("standard", other, payload)
    [written] = files(cache)
    written.rename(tablecache.path("standard", key, str(cache)))
    _load_or_build(STANDARD)
    assert builds == ["standard", "standard"]


@pytest.mark.parametrize(
    "change",
    [
        "records cut",
        "strength past the classes",
        "index past the table",
        "rank 15",
        "ladder index past the ladder",
        "joker becomes rank 1",
        "not a tuple",
    ],
)
def test_a_whole_file_with_inconsistent_tables_is_rebuilt(
    change: str, cache: Path, builds: list[str]
) -> None:
    from array import array

    # The joker rule set only where the change needs jokers: it takes the
    # longest to build (twice here: once to damage, once to rebuild).
    rules = get_rules("joker" if change == "joker becomes rank 1" else "standard")
    key = tables.cache_key(rules)
    _, (records, indices, values, substitutes) = tables._build(rules)
    if change == "records cut":
        records = records[:-1]
    elif change == "strength past the classes":
        big = array("H", values)
        big[0] = len(records) // 6 + 1
        values = big.tobytes()
    elif change == "index past the table":
        far = array("I", indices)
        far[-1] = 2 * tables.KEY_SPACE
        indices = far.tobytes()
    elif change == "rank 15":
        records = records[:1] + bytes([15]) + records[2:]
    elif change == "ladder index past the ladder":
        records = bytes([len(rules.ladder)]) + records[1:]
    elif change == "joker becomes rank 1":
        substitutes = {**substitutes, next(iter(substitutes)): (1,)}
    payload: object = "tables" if change == "not a tuple" else (records, indices, values, substitutes)
    tablecache.store(rules.name, key, payload)
    loaded = _load_or_build(rules)
    assert builds == [rules.name, rules.name]
    assert same(loaded, built(rules))


@pytest.mark.slow
def test_changed_rules_get_their_own_tables(cache: Path, builds: list[str]) -> None:
    standard = _load_or_build(STANDARD)
    # Same name, different ladder: flushes above full houses.
    ladder = list(STANDARD.ladder)
    assert [c.name for c in ladder[5:7]] == ["flush", "full_house"]
    ladder[5], ladder[6] = ladder[6], ladder[5]
    changed = RuleSet(name="standard", summary="flushes above full houses", ladder=tuple(ladder))
    swapped = _load_or_build(changed)
    assert builds == ["standard", "standard"]
    assert len(files(cache)) == 2
    assert swapped.lookup != standard.lookup
    assert same(swapped, built(changed))
    # And the original still loads its own file.
    assert same(_load_or_build(STANDARD), standard)
    assert builds == ["standard", "standard"]


def test_no_wheel_is_a_change_too(cache: Path, builds: list[str]) -> None:
    _load_or_build(STANDARD)
    no_wheel = STANDARD.replace(wheel=False)
    assert same(_load_or_build(no_wheel), built(no_wheel))
    assert builds == ["standard", "standard"]


def test_another_version_of_fivecard_does_not_read_the_file(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _load_or_build(STANDARD)
    monkeypatch.setattr(fivecard.core.version, "__version__", "99.0")
    _load_or_build(STANDARD)
    assert builds == ["standard", "standard"]
    assert len(files(cache)) == 2


def test_changed_code_does_not_read_the_file(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _load_or_build(STANDARD)
    monkeypatch.setattr(tablecache, "_source_digest", tablecache._sources() ^ 1)
    _load_or_build(STANDARD)
    assert builds == ["standard", "standard"]


def test_a_cache_directory_that_is_a_file_only_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[str]
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("in the way")
    monkeypatch.setenv(tablecache.ENVIRONMENT, str(blocker / "fivecard"))
    assert same(_load_or_build(STANDARD), built(STANDARD))
    assert same(_load_or_build(STANDARD), built(STANDARD))
    assert builds == ["standard", "standard"]
    assert blocker.read_text() == "in the way"


def test_a_failed_write_leaves_no_file_behind(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a read-only directory or a full disk does to the rename.
    def refuse(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied", target)

    monkeypatch.setattr(os, "replace", refuse)
    assert same(_load_or_build(STANDARD), built(STANDARD))
    assert files(cache) == []  # the temporary file is gone too


def test_a_read_only_directory_only_means_no_cache(
    cache: Path, builds: list[str]
) -> None:
    cache.mkdir()
    cache.chmod(0o500)
    try:
        assert same(_load_or_build(STANDARD), built(STANDARD))
        writable = os.access(cache, os.W_OK)  # root may write anyway
        assert len(files(cache)) == (1 if writable else 0)
    finally:
        cache.chmod(0o700)


def test_an_unreadable_file_is_rebuilt(cache: Path, builds: list[str]) -> None:
    _load_or_build(STANDARD)
    [path] = files(cache)
    path.chmod(0)
    try:
        assert same(_load_or_build(STANDARD), built(STANDARD))
        readable = os.access(path, os.R_OK)  # root may read anyway
        assert builds == ["standard"] * (1 if readable else 2)
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize("value", ["", "off", "OFF", " off "])
def test_the_cache_can_be_turned_off(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[str]
) -> None:
    monkeypatch.setenv(tablecache.ENVIRONMENT, value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert tablecache.directory() is None
    _load_or_build(STANDARD)
    _load_or_build(STANDARD)
    assert builds == ["standard", "standard"]
    assert list(tmp_path.iterdir()) == []


def test_where_the_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tablecache.ENVIRONMENT, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tablecache.directory() == str(tmp_path / "xdg" / "fivecard")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ignored
    assert tablecache.directory() == str(tmp_path / "home" / ".cache" / "fivecard")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert tablecache.directory() == str(tmp_path / "home" / ".cache" / "fivecard")
    monkeypatch.setenv(tablecache.ENVIRONMENT, "~/elsewhere")
    assert tablecache.directory() == str(tmp_path / "home" / "elsewhere")


def test_file_names_are_safe_for_any_rule_set_name(tmp_path: Path) -> None:
    key = tables.cache_key(STANDARD)
    path = Path(tablecache.path("../../étrange/name", key, str(tmp_path)))
    assert path.parent == tmp_path
    assert path.name.startswith("_______trange_name-")  # ../../é/ replaced


def test_concurrent_writers_leave_one_whole_file(cache: Path, builds: list[str]) -> None:
    key = tables.cache_key(STANDARD)
    _, payload = tables._build(STANDARD)
    for _ in range(3):  # each write replaces the file whole
        tablecache.store("standard", key, payload)
    [path] = files(cache)
    assert not list(cache.glob("*.tmp"))
    assert same(_load_or_build(STANDARD), built(STANDARD))
    assert builds == ["standard"]


@pytest.mark.slow
def test_evaluation_agrees_through_a_loaded_joker_table(cache: Path) -> None:
    rules = get_rules("joker")
    fresh = built(rules)
    _load_or_build(rules)
    loaded = _load_or_build(rules)
    for text in ("AS KS QS JS TS", "JK JK AS KS QS", "2C 3D 4H 5S JK", "JK 2C 2D 2H 2S"):
        index = _index([codes_for(rules)[i] for i in fivecard.Hand.parse(text, rules=rules).indices])
        assert loaded.lookup[index] == fresh.lookup[index] > 0
        assert loaded.substitutes.get(index) == fresh.substitutes.get(index)


@pytest.mark.slow
def test_a_new_process_loads_the_tables_instead_of_building_them(cache: Path) -> None:
    script = "import fivecard; print(fivecard.evaluate('JK AS AH AD AC', rules='joker').strength)"
    env = {**os.environ, tablecache.ENVIRONMENT: str(cache)}

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout

    assert run() == "7475\n"
    [path] = files(cache)
    written = path.stat()
    assert run() == "7475\n"
    again = path.stat()  # a build would have replaced the file (a new inode)
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.slow
def test_descriptions_kept_beside_the_tables_are_each_class_described(
    name: str, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecard.core import evaluate

    rules = get_rules(name)
    monkeypatch.setattr(evaluate, "_DESCRIPTIONS", {})
    made = evaluate.class_descriptions(rules)  # described, and stored
    expected = ("", *(evaluate.describe(c) for c in tables.tables_for(rules).classes()))
    assert made == expected
    monkeypatch.setattr(evaluate, "_DESCRIPTIONS", {})
    monkeypatch.setattr(evaluate, "describe", None)  # a second process reads the file
    assert evaluate.class_descriptions(rules) == expected


@pytest.mark.slow
def test_descriptions_of_other_labels_or_a_damaged_file_are_made_again(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecard.core import evaluate

    monkeypatch.setattr(evaluate, "_DESCRIPTIONS", {})
    evaluate.class_descriptions(STANDARD)
    # The same ladder under other labels: the same tables, other descriptions.
    ladder = tuple(c.replace(label=c.label.upper()) for c in STANDARD.ladder)
    shouting = STANDARD.replace(ladder=ladder)
    assert tables.cache_key(shouting) == tables.cache_key(STANDARD)
    assert evaluate.class_descriptions(shouting)[1] == "HIGH CARD, 7-5-4-3-2"
    # A file that holds too few descriptions is not believed.
    key = (*tables.cache_key(STANDARD), "descriptions", tuple((c.label, c.detail) for c in STANDARD.ladder))
    tablecache.store("standard", key, ("", "High Card"))
    monkeypatch.setattr(evaluate, "_DESCRIPTIONS", {})
    assert evaluate.class_descriptions(STANDARD)[1] == "High Card, 7-5-4-3-2"


# ---------------------------------------------------------------- mapped arrays

ARRAYS_KEY = ("arrays for a test", 3)


def arrays() -> list[tuple[str, str, tuple[int, ...], bytes]]:
    """Three arrays of other sizes and types (the second not a multiple of
    the alignment), as store_arrays takes them."""
    from array import array

    return [
        ("offsets", "<i8", (4,), array("q", [0, 2, 5, 9]).tobytes()),
        ("levels", "<u2", (3, 3), array("H", range(9)).tobytes()),
        ("empty", "<u4", (0,), b""),
    ]


def test_arrays_kept_are_mapped_back_as_they_were(cache: Path) -> None:
    written = tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays())
    assert written is not None and Path(written).parent == cache
    mapped = tablecache.map_arrays("standard-x", ARRAYS_KEY)
    assert mapped is not None
    assert {name: (kind, shape, bytes(data)) for name, (kind, shape, data) in mapped.items()} == {
        name: (kind, shape, data) for name, kind, shape, data in arrays()
    }
    assert all(data.readonly for _, _, data in mapped.values())
    assert tablecache.map_arrays("standard-x", ("another key",)) is None


@pytest.mark.parametrize("how", ["flipped byte", "truncated", "longer", "empty", "header only", "garbage", "directory"])
def test_a_damaged_arrays_file_is_not_mapped(how: str, cache: Path) -> None:
    written = tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays())
    assert written is not None
    damage(Path(written), how)
    assert tablecache.map_arrays("standard-x", ARRAYS_KEY) is None


def test_a_byte_of_the_data_or_of_the_header_changed_is_seen(cache: Path) -> None:
    written = Path(str(tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays())))
    data = written.read_bytes()
    for at in (20, len(data) - 1):  # in the header, in the last array
        written.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :])
        assert tablecache.map_arrays("standard-x", ARRAYS_KEY) is None
    written.write_bytes(data)
    assert tablecache.map_arrays("standard-x", ARRAYS_KEY) is not None


def test_arrays_for_another_key_under_the_same_name_are_not_mapped(cache: Path) -> None:
    written = Path(str(tablecache.store_arrays("standard-x", ("other",), arrays())))
    written.rename(tablecache.path("standard-x", ARRAYS_KEY, str(cache), ".arrays"))
    assert tablecache.map_arrays("standard-x", ARRAYS_KEY) is None


def test_arrays_of_a_newer_key_replace_the_older_file_of_their_name(cache: Path) -> None:
    old = tablecache.store_arrays("standard-x", ("old",), arrays())
    other = tablecache.store_arrays("standard-xy", ("old",), arrays())  # another name: kept
    mapped = tablecache.map_arrays("standard-x", ("old",))  # a process that maps the old one meanwhile
    new = tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays())
    assert sorted(str(p) for p in files(cache)) == sorted([str(new), str(other)])
    assert old is not None and not Path(old).exists()
    assert mapped is not None and bytes(mapped["levels"][2]) == arrays()[1][3]  # still reads its pages


def test_arrays_go_to_a_folder_given_even_with_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tablecache.ENVIRONMENT, "off")
    assert tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays()) is None
    assert tablecache.map_arrays("standard-x", ARRAYS_KEY) is None
    folder = str(tmp_path / "given")
    assert tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays(), folder) is not None
    assert tablecache.map_arrays("standard-x", ARRAYS_KEY, folder) is not None


def test_arrays_that_cannot_be_written_leave_no_file(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(source: str, target: str) -> None:
        raise OSError(28, "No space left on device", target)

    monkeypatch.setattr(os, "replace", refuse)
    assert tablecache.store_arrays("standard-x", ARRAYS_KEY, arrays()) is None
    assert files(cache) == []

"""The base of the value classes every use of fivecard loads: a card, a rule
set and its categories, a hand, its class and evaluation, a phrase of an
error. Each sets its fields (its ``__slots__``) once, in ``__init__`` (with
``object.__setattr__``), and never again. Unless it says otherwise, it
compares, hashes and shows itself by its fields, in their order, as a frozen
dataclass would: equal to a value of its own class whose fields are equal,
hashed as the tuple of its fields, shown as ``Name(field=value, ...)``. A
class whose equality is narrower (a card by rank and suit, a hand under one
rule set) writes its own.

They are not dataclasses because a command that classifies one hand spent
about 14 ms of its start on them (a third of what it takes now): importing
:mod:`dataclasses` imports :mod:`inspect` (with ``ast``, ``dis`` and
``tokenize``), and making each dataclass compiles the source of its methods.

>>> from fivecard.core.cards import Card
>>> Card.parse('As').rank = None
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'rank'
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Self

__all__ = ["Frozen"]


class Frozen:
    """A value whose fields (its ``__slots__``) are set once: assigning or
    deleting one raises :class:`AttributeError`; copies and pickles are
    made from the fields alone."""

    __slots__ = ()
    #: The class's fields in order (its and its bases' ``__slots__``): set
    #: for each subclass, with a :meth:`_values` of its own.
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **options: object) -> None:
        super().__init_subclass__(**options)
        fields: list[str] = []
        for base in reversed(cls.__mro__):
            fields += [name for name in _slot_names(base) if name not in fields]
        cls._fields = tuple(fields)
        if "_values" not in cls.__dict__:
            # made as its source, as a frozen dataclass's methods are: each
            # field read by name is read fastest (hashing a value is a third
            # quicker than through operator.attrgetter)
            body = "".join(f"self.{name}, " for name in fields)
            space: dict[str, Callable[[Frozen], tuple[object, ...]]] = {}
            exec(f"def _values(self):\n    return ({body})\n", space)  # noqa: S102 - slot names, identifiers
            cls._values = space["_values"]  # type: ignore[method-assign, assignment]

    def _values(self) -> tuple[object, ...]:
        """The fields' values, in order."""
        return ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._values()))
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def replace(self, **changes: object) -> Self:
        """A new value with ``changes`` to the fields its ``__init__`` takes
        (as :func:`dataclasses.replace` makes one), checked as any new one is.

        >>> from fivecard.core.rules import STANDARD
        >>> STANDARD.replace(name='no-wheel', wheel=False).wheel_top is None
        True
        """
        code = type(self).__init__.__code__  # its parameters' names: those of fields
        names = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
        given = {name: changes.pop(name) if name in changes else getattr(self, name) for name in names}
        if changes:
            raise TypeError(f"{type(self).__name__} has no field {next(iter(changes))!r} to replace")
        return type(self)(**given)

    def __setstate__(self, state: tuple[None, dict[str, object]]) -> None:
        # (the state pickle and copy take: no __dict__, the slots' values)
        for name, value in state[1].items():
            object.__setattr__(self, name, value)


def _slot_names(cls: type) -> list[str]:
    """The attributes ``cls``'s own ``__slots__`` make, by the names Python
    gives them (``__x`` in class ``C`` is ``_C__x``; one string is one
    name), without ``__dict__`` and ``__weakref__``, which are no fields."""
    slots = cls.__dict__.get("__slots__", ())
    names = []
    for name in (slots,) if isinstance(slots, str) else slots:
        if name in ("__dict__", "__weakref__"):
            continue
        owner = cls.__name__.lstrip("_")
        if name.startswith("__") and not name.endswith("__") and owner:
            name = f"_{owner}{name}"
        names.append(name)
    return names

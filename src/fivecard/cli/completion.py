"""Shell completion scripts for bash, zsh and fish (``fivecard completion
SHELL``): the fixed parts of each are in ``shells/``, the rest is made from
the command's own argument parser, so they always offer what the command
takes: its subcommands, each one's options, the values of options with a
fixed set (``--format``, ``--color``, ``--rules``) and file names where a
path goes. Beyond argparse's ``choices``, an action may carry
``complete_words`` (values to offer that the parser does not restrict, such
as the rule sets' names and aliases) and ``complete_files`` (offer file
names): see :func:`fivecard.cli.registry.add_option`. Anything else (a hand,
a seed) completes to nothing.
"""

from __future__ import annotations

import argparse
import os
import re
from typing import NamedTuple

__all__ = ["SHELLS", "completion_script"]

#: The shells there is a script for.
SHELLS = ("bash", "zsh", "fish")


class _Value(NamedTuple):
    """What completes an option's value or an argument."""

    metavar: str
    words: tuple[str, ...]
    files: bool


class _Option(NamedTuple):
    flags: tuple[str, ...]  # "-o", "--output"
    help: str
    value: _Value | None  # None: a flag that takes no value


class _Command(NamedTuple):
    """A command (or the program itself) as completion sees it."""

    name: str
    help: str
    options: tuple[_Option, ...]
    arguments: tuple[tuple[_Value, bool], ...]  # each with whether it takes many values


def _short(text: str | None) -> str:
    """A help text cut to a completion menu's description: its first clause,
    without characters that mean something to a completion system (brackets,
    colons, backslashes, dollars)."""
    text = re.split(r": |; | \(|, e\.g\.", (text or "").replace("%%", "%"), maxsplit=1)[0]
    return re.sub(r"[^\w .,/+=<>|'-]", "", text).strip()


def _value(action: argparse.Action) -> _Value:
    words = tuple(str(c) for c in action.choices or ()) + tuple(getattr(action, "complete_words", ()))
    metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    return _Value(re.sub(r"[^\w|-]", "", metavar) or "VALUE", words, bool(getattr(action, "complete_files", False)))


def _command(name: str, help: str | None, parser: argparse.ArgumentParser) -> _Command:
    actions = [a for a in parser._actions if not isinstance(a, argparse._SubParsersAction)]
    options = [_Option(tuple(a.option_strings), _short(a.help), _value(a) if a.nargs != 0 else None)
               for a in actions if a.option_strings]  # fmt: skip
    arguments = [(_value(a), a.nargs in ("+", "*")) for a in actions if not a.option_strings]
    return _Command(name, _short(help), tuple(options), tuple(arguments))


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``parser`` for ``shell`` (bash, zsh or fish)."""
    if shell not in SHELLS:
        raise ValueError(f"no completion for the shell {shell!r}; choose one of: {', '.join(SHELLS)}")
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in commands._choices_actions}
    listed = [_command(name, helps.get(name), sub) for name, sub in commands.choices.items()]
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](_command("fivecard", parser.description, parser), listed)


def _script(shell: str, **parts: str) -> str:
    """The shell's script (``shells/fivecard.SHELL``) with its parts filled in
    (``@NAME@``)."""
    with open(os.path.join(os.path.dirname(__file__), "shells", f"fivecard.{shell}"), encoding="utf-8") as file:
        script = file.read()
    for name, part in parts.items():
        script = script.replace(f"@{name.upper()}@", part)
    return script


def _flags(command: _Command) -> str:
    return " ".join(flag for option in command.options for flag in option.flags)


# bash ------------------------------------------------------------------------


def _bash_reply(value: _Value) -> str:
    parts = [f'_fivecard_words "{" ".join(value.words)}"'] if value.words else []
    return "; ".join(parts + ["_fivecard_files"] * value.files) or ":"


def _bash_case(pattern: str, command: _Command, reply: str) -> str:
    values = [f"            {'|'.join(o.flags)}) {_bash_reply(o.value)}; return ;;" for o in command.options if o.value]
    body = "        case $prev in\n" + "\n".join(values) + "\n        esac\n" if values else ""
    return (f"    {pattern})\n{body}        case $cur in\n            -*) _fivecard_words \"{_flags(command)}\" ;;\n"
            f"            *) {reply} ;;\n        esac\n        ;;")  # fmt: skip


def _bash(program: _Command, commands: list[_Command]) -> str:
    cases = [_bash_case('""', program, _bash_reply(_Value("", tuple(c.name for c in commands), False)))]
    for command in commands:
        values = [value for value, _ in command.arguments]
        merged = _Value("", tuple(w for v in values for w in v.words), any(v.files for v in values))
        cases.append(_bash_case(command.name, command, _bash_reply(merged)))
    return _script("bash", cases="\n".join(cases))



# zsh -------------------------------------------------------------------------


def _zsh_quote(text: str) -> str:
    return text.replace("'", "'\\''")


def _zsh_action(value: _Value, helpers: list[str]) -> str:
    """The action part of an ``_arguments`` spec; words and files together
    need a helper function (``_alternative``)."""
    words = "(" + " ".join(value.words) + ")"
    if value.words and value.files:
        helpers.append(f"_fivecard_values_{len(helpers) + 1}() {{\n"
                       f"  _alternative 'values:{value.metavar}:{words}' 'files:file:_files'\n}}\n")  # fmt: skip
        return f"_fivecard_values_{len(helpers)}"
    return words if value.words else "_files" if value.files else " "  # " ": show what is wanted, offer nothing


def _zsh_specs(command: _Command, helpers: list[str]) -> list[str]:
    specs = []
    for option in command.options:
        exclusive = f"({' '.join(option.flags)})" if len(option.flags) > 1 else ""
        if option.flags[0] in ("-h", "--help") or option.flags == ("--version",):
            exclusive = "(- : *)"
        for flag in option.flags:
            described = f"'{exclusive}{flag}"
            if option.value is None:
                specs.append(f"{described}[{_zsh_quote(option.help)}]'")
            else:
                action = _zsh_action(option.value, helpers)
                joined = "=" if flag.startswith("--") else "+"
                specs.append(f"{described}{joined}[{_zsh_quote(option.help)}]:{option.value.metavar}:{action}'")
    for value, many in command.arguments:
        specs.append(f"'{'*' if many else ''}:{value.metavar}:{_zsh_action(value, helpers)}'")
    return specs


def _zsh(program: _Command, commands: list[_Command]) -> str:
    helpers: list[str] = []
    indent = " \\\n            "
    cases = [f"        ({c.name})\n          _arguments -s{indent}{indent.join(_zsh_specs(c, helpers))}"
             " && ret=0\n          ;;" for c in commands]  # fmt: skip
    top = " \\\n    ".join(_zsh_specs(program._replace(arguments=()), helpers))
    described = "\n".join(f"        '{c.name}:{_zsh_quote(c.help)}'" for c in commands)
    helped = "\n".join(helpers) + ("\n" if helpers else "")
    return _script("zsh", helpers=helped, top=top, commands=described, cases="\n".join(cases))



# fish ------------------------------------------------------------------------


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_option(option: _Option) -> str:
    parts = [f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}" for flag in option.flags]
    if option.value is not None:
        parts.append("-r -F" if option.value.files else "-x")
        parts += [f"-a {_fish_quote(' '.join(option.value.words))}"] if option.value.words else []
    return " ".join([*parts, f"-d {_fish_quote(option.help)}"])


def _fish(program: _Command, commands: list[_Command]) -> str:
    lines: list[str] = []
    lines += [f"complete -c fivecard -n __fish_use_subcommand {_fish_option(o)}" for o in program.options]
    lines += [f"complete -c fivecard -n __fish_use_subcommand -a {c.name} -d {_fish_quote(c.help)}" for c in commands]
    for command in commands:
        seen = "-n " + _fish_quote(f"__fish_seen_subcommand_from {command.name}")
        lines += [f"complete -c fivecard {seen} {_fish_option(option)}" for option in command.options]
        for value, _ in command.arguments:
            words = f" -a {_fish_quote(' '.join(value.words))}" if value.words else ""
            if value.words or value.files:
                lines.append(f"complete -c fivecard {seen}{' -F' if value.files else ''}{words}")
    return _script("fish", lines="\n".join(lines) + "\n")

"""Shell completion scripts for bash, zsh and fish, made from the command's
own argument parser (``fivecard completion SHELL``), so they always offer
what the command takes: its subcommands, each one's options, the values of
options with a fixed set (``--format``, ``--color``, ``--rules``) and file
names where a path goes.

Beyond argparse's ``choices``, an option or argument may carry two
attributes (set by the command, see :func:`fivecard.cli.registry.option`):
``complete_words`` (values to offer, e.g. the rule set names and aliases,
which the parser does not restrict) and ``complete_files`` (offer file
names). Anything else (a hand, a seed) completes to nothing.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SHELLS", "completion_script"]

#: The shells there is a script for.
SHELLS = ("bash", "zsh", "fish")

_PROGRAM = "fivecard"


@dataclass(frozen=True)
class _Value:
    """What completes an option's value or a positional argument."""

    metavar: str
    words: tuple[str, ...]
    files: bool


@dataclass(frozen=True)
class _Option:
    flags: tuple[str, ...]  # "-o", "--output"
    help: str
    value: _Value | None  # None: a flag that takes no value


@dataclass(frozen=True)
class _Positional:
    value: _Value
    many: bool  # nargs "+" or "*"


@dataclass(frozen=True)
class _Spec:
    """A command (or the program itself) as completion sees it."""

    name: str
    help: str
    options: tuple[_Option, ...]
    positionals: tuple[_Positional, ...]
    subcommands: tuple[_Spec, ...]


def _short(text: str | None) -> str:
    """A help text cut to a completion menu's description: its first clause,
    without characters that mean something to a completion system (brackets,
    colons, backslashes, dollars)."""
    text = (text or "").replace("%%", "%")
    text = re.split(r": |; | \(|, e\.g\.", text, maxsplit=1)[0]
    return re.sub(r"[^\w .,/+=<>|'-]", "", text).strip()


def _value(action: argparse.Action) -> _Value:
    words = tuple(str(c) for c in action.choices) if action.choices else ()
    words += tuple(getattr(action, "complete_words", ()))
    metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    return _Value(
        metavar=re.sub(r"[^\w|-]", "", metavar) or "VALUE",
        words=words,
        files=bool(getattr(action, "complete_files", False)),
    )


def _spec(name: str, help: str | None, parser: argparse.ArgumentParser) -> _Spec:
    options: list[_Option] = []
    positionals: list[_Positional] = []
    subcommands: list[_Spec] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for sub_name, sub in action.choices.items():
                subcommands.append(_spec(sub_name, helps.get(sub_name), sub))
        elif action.option_strings:
            takes_value = action.nargs != 0
            options.append(
                _Option(tuple(action.option_strings), _short(action.help), _value(action) if takes_value else None)
            )
        else:
            positionals.append(_Positional(_value(action), action.nargs in ("+", "*")))
    return _Spec(name, _short(help), tuple(options), tuple(positionals), tuple(subcommands))


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``parser`` for ``shell`` (bash, zsh or fish)."""
    spec = _spec(_PROGRAM, parser.description, parser)
    if shell == "bash":
        return _bash(spec)
    if shell == "zsh":
        return _zsh(spec)
    if shell == "fish":
        return _fish(spec)
    raise ValueError(f"no completion for the shell {shell!r}; choose one of: {', '.join(SHELLS)}")


def _flags(options: Sequence[_Option]) -> str:
    return " ".join(flag for option in options for flag in option.flags)


# bash ------------------------------------------------------------------------


def _bash_reply(value: _Value) -> str:
    parts = []
    if value.words:
        parts.append(f'_fivecard_words "{" ".join(value.words)}"')
    if value.files:
        parts.append("_fivecard_files")
    return "; ".join(parts) or ":"


def _bash(spec: _Spec) -> str:
    cases = []
    top = spec.subcommands
    cases.append(
        '    "")\n'
        "        case $cur in\n"
        f'            -*) _fivecard_words "{_flags(spec.options)}" ;;\n'
        f'            *) _fivecard_words "{" ".join(c.name for c in top)}" ;;\n'
        "        esac\n"
        "        ;;"
    )
    for command in top:
        values = []
        for option in command.options:
            if option.value is not None:
                values.append(f"            {'|'.join(option.flags)}) {_bash_reply(option.value)}; return ;;")
        positional = ":"
        if command.positionals:
            merged = _Value(
                "",
                tuple(w for p in command.positionals for w in p.value.words),
                any(p.value.files for p in command.positionals),
            )
            positional = _bash_reply(merged)
        body = ""
        if values:
            body += "        case $prev in\n" + "\n".join(values) + "\n        esac\n"
        body += (
            "        case $cur in\n"
            f'            -*) _fivecard_words "{_flags(command.options)}" ;;\n'
            f"            *) {positional} ;;\n"
            "        esac\n"
        )
        cases.append(f"    {command.name})\n{body}        ;;")
    return (
        f"# bash completion for {_PROGRAM}, made by '{_PROGRAM} completion bash'.\n"
        f"# Install: {_PROGRAM} completion bash > ~/.local/share/bash-completion/completions/{_PROGRAM}\n"
        f"# or add 'source <({_PROGRAM} completion bash)' to ~/.bashrc.\n"
        "\n"
        "_fivecard_words() {\n"
        '    local word\n'
        '    while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen -W "$1" -- "$cur")\n'
        "}\n"
        "\n"
        "_fivecard_files() {\n"
        "    local word\n"
        "    compopt -o filenames 2>/dev/null\n"
        '    while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen -f -- "$cur")\n'
        "}\n"
        "\n"
        "_fivecard() {\n"
        '    local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" i\n'
        "    COMPREPLY=()\n"
        '    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n'
        "    # --option=value: bash splits the word at '='\n"
        '    if [[ $cur == "=" ]]; then\n'
        '        cur=""\n'
        '    elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then\n'
        "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
        "    fi\n"
        "    # The command: the first word that is not an option (the program's own\n"
        "    # options take no value).\n"
        "    for (( i = 1; i < COMP_CWORD; i++ )); do\n"
        '        if [[ ${COMP_WORDS[i]} != -* ]]; then command=${COMP_WORDS[i]}; break; fi\n'
        "    done\n"
        '    case $command in\n' + "\n".join(cases) + "\n    esac\n"
        "}\n"
        "\n"
        f"complete -F _fivecard {_PROGRAM}\n"
    )


# zsh -------------------------------------------------------------------------


def _zsh_quote(text: str) -> str:
    return text.replace("'", "'\\''")


def _zsh_action(value: _Value, helpers: list[str]) -> str:
    """The action part of an ``_arguments`` spec; words and files together
    need a helper function (``_alternative``)."""
    words = "(" + " ".join(value.words) + ")"
    if value.words and value.files:
        name = f"_fivecard_values_{len(helpers) + 1}"
        helpers.append(
            f"{name}() {{\n"
            f"  _alternative 'values:{value.metavar}:{words}' 'files:file:_files'\n"
            "}\n"
        )
        return name
    if value.words:
        return words
    if value.files:
        return "_files"
    return " "  # a value nothing can guess: show what is wanted, offer nothing


def _zsh_specs(command: _Spec, helpers: list[str]) -> list[str]:
    specs = []
    for option in command.options:
        exclusive = f"({' '.join(option.flags)})" if len(option.flags) > 1 else ""
        if option.flags[0] in ("-h", "--help") or option.flags == ("--version",):
            exclusive = "(- : *)"
        for flag in option.flags:
            if option.value is None:
                specs.append(f"'{exclusive}{flag}[{_zsh_quote(option.help)}]'")
            else:
                joined = "=" if flag.startswith("--") else "+"
                action = _zsh_action(option.value, helpers)
                specs.append(
                    f"'{exclusive}{flag}{joined}[{_zsh_quote(option.help)}]:"
                    f"{option.value.metavar}:{action}'"
                )
    for positional in command.positionals:
        action = _zsh_action(positional.value, helpers)
        specs.append(f"'{'*' if positional.many else ''}:{positional.value.metavar}:{action}'")
    return specs


def _zsh(spec: _Spec) -> str:
    helpers: list[str] = []
    described = "\n".join(f"        '{c.name}:{_zsh_quote(c.help)}'" for c in spec.subcommands)
    cases = []
    for command in spec.subcommands:
        specs = " \\\n            ".join(_zsh_specs(command, helpers))
        cases.append(f"        ({command.name})\n          _arguments -s \\\n            {specs} && ret=0\n          ;;")
    top = " \\\n    ".join(_zsh_specs(_Spec(spec.name, "", spec.options, (), ()), helpers))
    return (
        f"#compdef {_PROGRAM}\n"
        f"# zsh completion for {_PROGRAM}, made by '{_PROGRAM} completion zsh'.\n"
        f"# Install: {_PROGRAM} completion zsh > ~/.zfunc/_{_PROGRAM}, with\n"
        "# 'fpath=(~/.zfunc $fpath)' before compinit in ~/.zshrc; or add\n"
        f"# 'source <({_PROGRAM} completion zsh)' to ~/.zshrc after compinit.\n"
        "\n"
        + "\n".join(helpers)
        + ("\n" if helpers else "")
        + "_fivecard() {\n"
        "  local curcontext=$curcontext state state_descr line ret=1\n"
        "  typeset -A opt_args\n"
        "  _arguments -C \\\n"
        f"    {top} \\\n"
        "    ': :->command' \\\n"
        "    '*:: :->argument' && ret=0\n"
        "  case $state in\n"
        "    (command)\n"
        "      local -a commands\n"
        "      commands=(\n"
        f"{described}\n"
        "      )\n"
        "      _describe -t commands 'fivecard command' commands && ret=0\n"
        "      ;;\n"
        "    (argument)\n"
        "      curcontext=${curcontext%:*:*}:fivecard-$words[1]:\n"
        "      case $words[1] in\n" + "\n".join(cases) + "\n      esac\n"
        "      ;;\n"
        "  esac\n"
        "  return ret\n"
        "}\n"
        "\n"
        '# Autoloaded from fpath, the file is the function; sourced, it registers it.\n'
        'if [[ $funcstack[1] == _fivecard ]]; then\n'
        '  _fivecard "$@"\n'
        "else\n"
        f"  compdef _fivecard {_PROGRAM}\n"
        "fi\n"
    )


# fish ------------------------------------------------------------------------


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_option(option: _Option) -> str:
    parts = []
    for flag in option.flags:
        parts.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
    if option.value is not None:
        parts.append("-r -F" if option.value.files else "-x")
        if option.value.words:
            parts.append(f"-a {_fish_quote(' '.join(option.value.words))}")
    parts.append(f"-d {_fish_quote(option.help)}")
    return " ".join(parts)


def _fish(spec: _Spec) -> str:
    lines = [
        f"# fish completion for {_PROGRAM}, made by '{_PROGRAM} completion fish'.",
        f"# Install: {_PROGRAM} completion fish > ~/.config/fish/completions/{_PROGRAM}.fish",
        "",
        f"complete -c {_PROGRAM} -f",
    ]
    for option in spec.options:
        lines.append(f"complete -c {_PROGRAM} -n __fish_use_subcommand {_fish_option(option)}")
    for command in spec.subcommands:
        lines.append(
            f"complete -c {_PROGRAM} -n __fish_use_subcommand -a {command.name} -d {_fish_quote(command.help)}"
        )
    for command in spec.subcommands:
        seen = _fish_quote(f"__fish_seen_subcommand_from {command.name}")
        for option in command.options:
            lines.append(f"complete -c {_PROGRAM} -n {seen} {_fish_option(option)}")
        for positional in command.positionals:
            value = positional.value
            if value.words or value.files:
                words = f" -a {_fish_quote(' '.join(value.words))}" if value.words else ""
                lines.append(f"complete -c {_PROGRAM} -n {seen}{' -F' if value.files else ''}{words}")
    return "\n".join(lines) + "\n"

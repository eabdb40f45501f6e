#compdef fivecard
# zsh completion for fivecard, made by 'fivecard completion zsh'.
# Install: mkdir -p ~/.zfunc && fivecard completion zsh > ~/.zfunc/_fivecard, with
# 'fpath=(~/.zfunc $fpath)' before compinit in ~/.zshrc; or add
# 'source <(fivecard completion zsh)' to ~/.zshrc after compinit.

@HELPERS@_fivecard() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  _arguments -C \
    @TOP@ \
    ': :->command' \
    '*:: :->argument' && ret=0
  case $state in
    (command)
      local -a commands
      commands=(
@COMMANDS@
      )
      _describe -t commands 'fivecard command' commands && ret=0
      ;;
    (argument)
      curcontext=${curcontext%:*:*}:fivecard-$words[1]:
      case $words[1] in
@CASES@
      esac
      ;;
  esac
  return ret
}

# Autoloaded from fpath, the file is the function; sourced, it registers it.
if [[ $funcstack[1] == _fivecard ]]; then
  _fivecard "$@"
else
  compdef _fivecard fivecard
fi

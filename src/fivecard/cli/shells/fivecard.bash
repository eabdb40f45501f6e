# bash completion for fivecard, made by 'fivecard completion bash'.
# Install: mkdir -p ~/.local/share/bash-completion/completions && fivecard completion bash > ~/.local/share/bash-completion/completions/fivecard
# or add 'source <(fivecard completion bash)' to ~/.bashrc.

_fivecard_words() {
    local word
    while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen -W "$1" -- "$cur")
}

_fivecard_files() {
    local word
    compopt -o filenames 2>/dev/null
    while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen -f -- "$cur")
}

_fivecard() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" i
    COMPREPLY=()
    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    # --option=value: bash splits the word at '='
    if [[ $cur == "=" ]]; then
        cur=""
    elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    # The command: the first word that is not an option (the program's own
    # options take no value).
    for (( i = 1; i < COMP_CWORD; i++ )); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then command=${COMP_WORDS[i]}; break; fi
    done
    case $command in
@CASES@
    esac
}

complete -F _fivecard fivecard

# fish completion for fivecard, made by 'fivecard completion fish'.
# Install: fivecard completion fish > ~/.config/fish/completions/fivecard.fish

complete -c fivecard -f
@LINES@
# fish completion for fivecard, made by 'fivecard completion fish'.
# Install: mkdir -p ~/.config/fish/completions && fivecard completion fish > ~/.config/fish/completions/fivecard.fish

complete -c fivecard -f
@LINES@
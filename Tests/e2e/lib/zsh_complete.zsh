# Prints the candidates zsh's own completion system offers for a command line, one per line:
#   zsh -f zsh_complete.zsh FPATH_DIR OUT_FILE 'makima-tui st'
# An interactive zsh runs in a pseudo-terminal (zsh/zpty), loads compinit with FPATH_DIR
# first, records every match compadd is given (into an array named unlike any of the
# completion functions' own locals, which it would otherwise shadow), and gets the line and a
# Tab. Each step writes a file when it has run and the next waits for it (keys sent while a
# command still runs can be lost); the line typed after the Tab runs only once the completion
# has finished (zle reads keys in order), so its file marks the end.
zmodload zsh/zpty
dir=$1 out=$2 line=$3
rm -f "$out" "$out.step1" "$out.step2" "$out.step3"
zpty comp zsh -f -i
step() {
  zpty -w comp "$2; print > $out.step$1"
  local _
  for _ in {1..300}; do [[ -e "$out.step$1" ]] && return 0; sleep 0.1; done
  print -u2 "zsh did not run step $1"
  zpty -d comp
  exit 1
}
step 1 "PS1=''; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D"
step 2 "compadd() { local -a __mk_matches; builtin compadd -O __mk_matches \"\$@\"; print -rl -- \$__mk_matches >> $out; builtin compadd \"\$@\"; }; zstyle ':completion:*' menu no"
zpty -w -n comp "$line"$'\t'
step 3 $'\C-u'"true"
zpty -d comp
[[ -e "$out" ]] && sort -u "$out"
exit 0

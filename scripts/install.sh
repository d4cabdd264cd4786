#!/usr/bin/env bash
# Installs a built makima-tui where a distribution's tools go, under DESTDIR/PREFIX:
#   bin/makima-tui, share/makima-tui/Themes/*.theme, share/man/man1/makima-tui.1.gz,
#   and the completions where each shell looks for them (bash-completion's, zsh's and fish's
#   vendor directories). The man page and the completions are written by the binary itself
#   (--print-manpage, --print-completion) from the tables its --help is made from.
# usage: scripts/install.sh BINARY DESTDIR PREFIX
set -euo pipefail
bin=$1 destdir=${2:-} prefix=${3:-/usr/local}
root="$destdir$prefix"
share="$root/share"
install -d "$root/bin" "$share/makima-tui/Themes" "$share/man/man1" \
  "$share/bash-completion/completions" "$share/zsh/vendor-completions" "$share/fish/vendor_completions.d"
install -m 0755 "$bin" "$root/bin/makima-tui"
install -m 0644 "$(dirname "$0")"/../Themes/*.theme "$share/makima-tui/Themes/"
"$bin" --print-manpage | gzip -9n > "$share/man/man1/makima-tui.1.gz"
chmod 0644 "$share/man/man1/makima-tui.1.gz"
"$bin" --print-completion bash > "$share/bash-completion/completions/makima-tui"
"$bin" --print-completion zsh > "$share/zsh/vendor-completions/_makima-tui"
"$bin" --print-completion fish > "$share/fish/vendor_completions.d/makima-tui.fish"
chmod 0644 "$share/bash-completion/completions/makima-tui" "$share/zsh/vendor-completions/_makima-tui" \
  "$share/fish/vendor_completions.d/makima-tui.fish"

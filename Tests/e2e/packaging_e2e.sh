#!/usr/bin/env bash
# The installed form, checked with the tools that read it: --version names the version and
# the commit; the man page renders with `man -l` without a warning (UTF-8 and C locales) and
# names every command, option, key context and exit code; bash, zsh and fish complete
# commands, options and values through their own completion systems; scripts/install.sh puts
# each file where its reader looks; the Debian package installs with dpkg -i and dpkg -r
# leaves nothing behind (in a root of its own, so the machine's packages are untouched).
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
BIN=${E2E_BIN:-.build/debug/makima-tui}
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/makima-packaging.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
t() { :; }
# shellcheck source=lib/checks.bash
source "Tests/e2e/lib/checks.bash"
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

# --- version ------------------------------------------------------------------------------------
version=$("$BIN" --version)
echo "# $version"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
check "--version names the version and the commit it was built from" \
  grep -qE "^makima-tui [0-9]+\.[0-9]+\.[0-9]+ \(commit $commit(-dirty)?\)$" <<<"$version"

# --- man page -----------------------------------------------------------------------------------
"$BIN" --print-manpage >"$SCRATCH/makima-tui.1"
for locale in C.UTF-8 C; do
  LC_ALL=$locale MANWIDTH=80 man --warnings -l "$SCRATCH/makima-tui.1" >"$SCRATCH/man-$locale.txt" 2>"$SCRATCH/warn.txt"
  check "man -l renders the page under LC_ALL=$locale without a warning" \
    test -s "$SCRATCH/man-$locale.txt" -a ! -s "$SCRATCH/warn.txt"
  [ -s "$SCRATCH/warn.txt" ] && sed 's/^/    /' "$SCRATCH/warn.txt" | head -5
done
man_txt="$SCRATCH/man-C.UTF-8.txt"
missing=""
for cmd in $("$BIN" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
  grep -qE "makima-tui +$cmd" "$man_txt" || missing="$missing command:$cmd"
done
for flag in $("$BIN" --help | grep -oE '^  (-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
  grep -q -- "$flag" "$man_txt" || missing="$missing $flag"
done
while read -r context; do
  grep -qF -- "$context" "$man_txt" || missing="$missing context:$context"
done < <("$BIN" --print-keymap | sed -n 's/^## //p' | grep -v 'COMMAND LINE\|MOUSE AND PASTE')
for code in $(seq 0 7); do grep -qE "^       $code  " "$man_txt" || missing="$missing exit:$code"; done
check "the man page names every command, option, key context and exit code of --help and docs/keys.md" \
  test -z "$missing"
[ -n "$missing" ] && echo "    missing:$missing"

# --- completions, by the shells themselves -------------------------------------------------------
comp="$SCRATCH/completions"
mkdir -p "$comp"
"$BIN" --print-completion bash >"$comp/makima-tui"
"$BIN" --print-completion zsh >"$comp/_makima-tui"
"$BIN" --print-completion fish >"$comp/makima-tui.fish"
bash_complete() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _makima_tui
    printf "%s\n" "${COMPREPLY[@]}" | sort -u' _ "$comp/makima-tui" "$@"
}
zsh_complete() { zsh -f Tests/e2e/lib/zsh_complete.zsh "$comp" "$SCRATCH/zsh.out" "$1"; }
fish_complete() { fish --no-config -c "source '$comp/makima-tui.fish'; complete -C '$1'" | cut -f1 | sort -u; }
has() { grep -qxF -- "$2" <<<"$1"; }
lacks() { ! grep -qxF -- "$2" <<<"$1"; }

out=$(bash_complete makima-tui st)
check "bash: 'makima-tui st<Tab>' offers status" has "$out" status
out=$(bash_complete makima-tui status --j)
check "bash: a command's own option (status --j → --json)" has "$out" --json
out=$(bash_complete makima-tui --color "")
check "bash: an option's values (--color → auto always never)" test "$out" = $'always\nauto\nnever'
out=$(bash_complete makima-tui --server status "")
check "bash: the value of --server is not taken for a command" has "$out" logs
out=$(bash_complete makima-tui help lo)
check "bash: help completes command names" test "$out" = $'login\nlogout\nlogs'

out=$(zsh_complete "makima-tui st")
check "zsh: 'makima-tui st<Tab>' offers status" has "$out" status
out=$(zsh_complete "makima-tui status --")
check "zsh: after a command, its options and the global ones" has "$out" --json
check "zsh: … the global ones too" has "$out" --server
out=$(zsh_complete "makima-tui --color ")
check "zsh: an option's values (--color)" test "$out" = $'always\nauto\nnever'
out=$(zsh_complete "makima-tui bench s")
check "zsh: bench completes its kinds" has "$out" scale

out=$(fish_complete "makima-tui st")
check "fish: 'makima-tui st<Tab>' offers status" has "$out" status
out=$(fish_complete "makima-tui logs --f")
check "fish: a command's own option (logs --f → --follow)" has "$out" --follow
out=$(fish_complete "makima-tui --color ")
check "fish: an option's values, and no file names (--color)" test "$out" = $'always\nauto\nnever'
out=$(fish_complete "makima-tui status ")
check "fish: no command offered after a command" lacks "$out" logs

# Profile names are asked of the binary when completing (they change after installing).
export MAKIMA_CONFIG_DIR="$SCRATCH/config" PATH="$(cd "$(dirname "$BIN")" && pwd):$PATH"
mkdir -p "$MAKIMA_CONFIG_DIR"
profile() { printf '{"id":"%s","label":"%s","base_url":"https://%s.example","credential_id":"%s"}' "$(cat /proc/sys/kernel/random/uuid)" "$1" "$1" "$(cat /proc/sys/kernel/random/uuid)"; }
printf '{"version":1,"profiles":[%s,%s]}' "$(profile staging)" "$(profile prod)" >"$MAKIMA_CONFIG_DIR/config.json"
out=$(bash_complete makima-tui --profile "")
check "bash: --profile completes the stored profiles' names" test "$out" = $'prod\nstaging'
out=$(zsh_complete "makima-tui --profile ")
check "zsh: --profile completes the stored profiles' names" test "$out" = $'prod\nstaging'
out=$(fish_complete "makima-tui logout --name ")
check "fish: logout --name completes the stored profiles' names" test "$out" = $'prod\nstaging'

# A name that breaks the rules is refused as the config is read (`profiles --names` prints
# nothing but the error), and whatever the binary prints, bash never expands it.
printf '{"version":1,"profiles":[{"id":"%s","label":"$(touch %s/pwned)","base_url":"https://prod.example","credential_id":"%s"}]}' \
  "$(cat /proc/sys/kernel/random/uuid)" "$SCRATCH" "$(cat /proc/sys/kernel/random/uuid)" >"$MAKIMA_CONFIG_DIR/config.json"
err=$("$BIN" profiles --names 2>&1 >/dev/null) && st=0 || st=$?
check "a label breaking the name rules is refused when config.json is read" test "$st" -ne 0
check "… with a message naming the profile and the rule" grep -q 'is named "$(touch.*: a profile name' <<<"$err"
out=$(bash_complete makima-tui --profile "")
check "bash: completing --profile over a hostile config runs nothing" test ! -e "$SCRATCH/pwned"
fake="$SCRATCH/fakebin"
mkdir -p "$fake"
printf '#!/bin/sh\nprintf "%%s\\n" %s "two words" plain\n' "'\$(touch $SCRATCH/pwned2)'" >"$fake/makima-tui"
chmod +x "$fake/makima-tui"
out=$(PATH="$fake:$PATH" bash_complete makima-tui --profile "")
check "bash: names are completed as the lines printed, never expanded" test ! -e "$SCRATCH/pwned2"
check "… each line one candidate, spaces and \$( kept as text" has "$out" "two words"
check "… the command substitution a literal word" has "$out" "\$(touch $SCRATCH/pwned2)"
out=$(PATH="$fake:$PATH" zsh_complete "makima-tui --profile ")
check "zsh: names are completed as the lines printed, never expanded" test ! -e "$SCRATCH/pwned2"
check "… each line one candidate (zsh)" has "$out" "two words"
check "… the command substitution a literal word (zsh)" has "$out" "\$(touch $SCRATCH/pwned2)"
out=$(PATH="$fake:$PATH" fish_complete "makima-tui --profile ")
check "fish: names are completed as the lines printed, never expanded" test ! -e "$SCRATCH/pwned2"
check "… each line one candidate (fish)" has "$out" "two words"
check "… the command substitution a literal word (fish)" has "$out" "\$(touch $SCRATCH/pwned2)"

# --- install layout ------------------------------------------------------------------------------
dest="$SCRATCH/dest"
scripts/install.sh "$BIN" "$dest" /usr/local >/dev/null
for f in bin/makima-tui share/man/man1/makima-tui.1.gz share/bash-completion/completions/makima-tui \
  share/zsh/vendor-completions/_makima-tui share/fish/vendor_completions.d/makima-tui.fish \
  share/makima-tui/Themes/makima.theme; do
  check "install puts $f under the prefix" test -s "$dest/usr/local/$f"
done
check "the installed man page is the one --print-manpage writes" \
  cmp -s <(gzip -dc "$dest/usr/local/share/man/man1/makima-tui.1.gz") "$SCRATCH/makima-tui.1"
out=$(MANPATH="$dest/usr/local/share/man" MANWIDTH=80 man makima-tui 2>&1 | head -3)
check "man finds the installed page by name" grep -q "MAKIMA-TUI(1)" <<<"$out"

# --- Debian package ------------------------------------------------------------------------------
deb=$(IGNORE_MISSING_INFO=1 scripts/make-deb.sh "$BIN" "$SCRATCH/deb")
check "make-deb builds a package" test -s "$deb"
info=$(dpkg-deb --field "$deb" Package Version Depends)
check "the package is makima-tui at the binary's version" grep -qx "Version: $(awk '{print $2}' <<<"$version")" <<<"$info"
check "its Depends name the Debian libraries it links (libncursesw6, libcurl4, libsqlite3-0, libwslay1)" \
  bash -c 'for p in libncursesw6 libcurl4 libsqlite3-0 libwslay1 libcmark-gfm; do grep -q "$p" <<<"$1" || exit 1; done' _ "$info"
root="$SCRATCH/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
# The libraries are installed on this machine, not in the empty root: --force-depends.
dpkg --root="$root" --force-depends -i "$deb" >"$SCRATCH/dpkg-i.txt" 2>&1
check "dpkg -i installs it" grep -q "^ii  makima-tui" <(dpkg --root="$root" -l makima-tui 2>/dev/null)
check "the installed binary runs" grep -q "^makima-tui " <("$root/usr/bin/makima-tui" --version)
check "… with its man page and completions in place" test -s "$root/usr/share/man/man1/makima-tui.1.gz" \
  -a -s "$root/usr/share/bash-completion/completions/makima-tui" -a -s "$root/usr/share/zsh/vendor-completions/_makima-tui"
dpkg --root="$root" -r makima-tui >"$SCRATCH/dpkg-r.txt" 2>&1
left=$(find "$root/usr" -type f 2>/dev/null | wc -l)
check "dpkg -r removes every file it installed" test "$left" -eq 0
check "… and dpkg no longer lists it as installed" bash -c '! dpkg --root="$1" -l makima-tui 2>/dev/null | grep -q "^ii"' _ "$root"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

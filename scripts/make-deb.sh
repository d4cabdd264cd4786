#!/usr/bin/env bash
# Builds a Debian package of a built makima-tui: the binary, the themes, the man page and the
# completions (scripts/install.sh under /usr), its Depends computed by dpkg-shlibdeps from the
# libraries the binary links. `make deb` packages the release binary (the Swift runtime linked
# in, so only Debian's libraries are needed); the tests package the debug binary, whose Swift
# libraries belong to no package (IGNORE_MISSING_INFO=1 lets dpkg-shlibdeps pass over them).
# usage: scripts/make-deb.sh BINARY OUTDIR  → prints the .deb's path
set -euo pipefail
bin=$(realpath "$1") outdir=$2
version=$("$bin" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/makima-tui_${version}_$arch"
"$(dirname "$0")/install.sh" "$bin" "$stage" /usr
mkdir -p "$work/debian" "$stage/DEBIAN"
printf 'Source: makima-tui\n\nPackage: makima-tui\nArchitecture: any\n' > "$work/debian/control"
missing=()
[ "${IGNORE_MISSING_INFO:-0}" = 1 ] && missing=(--ignore-missing-info)
depends=$(cd "$work" && dpkg-shlibdeps -O "${missing[@]}" -e "$stage/usr/bin/makima-tui" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
size=$(du -sk "$stage/usr" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: makima-tui
Version: $version
Architecture: $arch
Maintainer: Makima TUI developers <makima-tui@localhost>
Installed-Size: $size
Depends: $depends
Suggests: tmux, xdg-utils
Section: utils
Priority: optional
Homepage: https://makima.jp
Description: terminal dashboard for a Makima mesh
 A full-screen terminal dashboard for the operators of a Makima mesh: contracts,
 tasks with live output, daemons, directives with supervisor questions, listen
 transcripts. Keep it open in a tmux pane; drill with the keyboard from Home down
 to a task's live output.
CONTROL
mkdir -p "$outdir"
deb="$(realpath "$outdir")/makima-tui_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zgzip --build "$stage" "$deb" >/dev/null
echo "$deb"

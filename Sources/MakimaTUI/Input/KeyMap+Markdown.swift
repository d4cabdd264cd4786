extension KeyMap {
    /// docs/keys.md, generated from this table.
    public func markdown() -> String {
        var s = "# Keys\n\n"
        s += "Generated from `KeyMap.standard` (`makima-tui --print-keymap`); a test keeps this file in step.\n"
        s += "A pane looks a key up in its own contexts first (for example LISTS), then GLOBAL, so `g`\n"
        s += "moves to the top of a list but reveals the English glosses elsewhere.\n"
        for c in contexts {
            s += "\n## \(c.title)\n\n| Keys | Action |\n|---|---|\n"
            for b in bindings where b.context == c {
                s += "| `\(b.label.replacingOccurrences(of: "|", with: "\\|"))` | \(b.description) |\n"
            }
        }
        s +=
            "\n## COMMAND LINE\n\n`:` then a pane name (a unique prefix is enough, Tab completes it) or its number, then Enter;\n"
        s += "`:notifications` lists the recent notifications (Enter opens one), `:grep PATTERN` searches the\n"
        s += "cached output, titles and plans of every task (`n`/`N` step its hits; Enter on one opens the task\n"
        s += "at that line, then `n`/`N` as in the output's own search), `:profile NAME` moves the dashboard\n"
        s += "to another stored profile's mesh in place (Tab completes the names; `makima-tui profiles` lists them),\n"
        s += "`:open makima://KIND/ID` opens what a deep link names (as `o` on a notification does), `:q` quits:\n"
        s += CommandLineState.commands.map { "`" + $0 + "`" }.joined(separator: ", ") + ".\n"
        s += "\nIn the task output, `:open N` (or a click on the link) shows link N's URL and opens it with\n"
        s += "`xdg-open` when installed. Only `http` and `https` links are opened: any other scheme (`mailto:`,\n"
        s += "`file:`, `javascript:`, a custom one) is refused with a word naming it. xdg-open runs without a\n"
        s += "shell, with a clean environment (the locale, PATH, HOME, the display and desktop session; never\n"
        s += "a `MAKIMA_` variable) and no descriptor of the dashboard's, one at a time with the desktop\n"
        s += "notifications: the same link again while it opens is not opened twice, past 16 waiting more\n"
        s += "are dropped, and it is ended after 10 s (docs/security.md, \"Children and links\").\n"
        s += "\nIn the help overlay, j/k and PgUp/PgDn scroll; `?`, Esc or `q` close it.\n"
        s += "\n## MOUSE AND PASTE\n\n"
        s += "The dashboard asks the terminal for mouse reports (SGR, buttons and the wheel; in tmux with\n"
        s += "`set -g mouse on`). `--no-mouse`, or Settings › mouse (saved in the config), turns them off so the\n"
        s += "terminal's (or tmux's) own selection works; with reporting on, Shift-drag still selects text in\n"
        s += "most terminals (xterm, VTE, kitty, WezTerm, Alacritty; in tmux, Shift with the mouse option on).\n"
        s += "A paste (bracketed paste) is text for the field being typed in, cleaned as server text is and\n"
        s += "without newlines, never keys; outside a field it is ignored. A field holds at most 4,096 bytes.\n"
        s += "Sign-out, key rotation and quitting (Q, `:q`, the quit prompt's `y`) need a key typed on its\n"
        s += "own: alone in what the terminal delivered and not within 0.3 s of a paste, a burst of keys or\n"
        s += "a click; keys that came with those do not confirm or quit, and a toast says so.\n"
        return s
    }
}

/// The task output view's keys: the scroll keys are answered by `handle` (TaskOutputPane.swift),
/// the rest by `handleReading` (`+Reading`). SEARCH is looked up ahead of them while a query
/// is kept; the grep results (`GrepPane`) answer it too.
extension TaskOutputPane {
    static let keyBindings: [KeyBinding] =
        KeyBinding.scrolling(
            .output, down: "scroll down a line",
            up: "scroll up a line (stops following; above the oldest line held, fetches older output)",
            top: "the task's first line (older output is fetched)", bottom: "last line, and follow new output",
            alsoBottom: [.char("F")], bottomHint: "follow")
        + [
            KeyBinding(
                [.char("/")], .filter, "search the output (Enter keeps the matches for n/N, Esc clears them)",
                context: .output, footer: "search"),
            KeyBinding([.left], .scrollLeft, "scroll code and tables left", context: .output),
            KeyBinding([.right], .scrollRight, "scroll code and tables right", context: .output),
            KeyBinding(
                [.char("w")], .toggleWrap, "wrap prose on/off (off: prose scrolls sideways too)", context: .output),
            KeyBinding([.char("p")], .togglePlan, "show/hide the task's plan", context: .output, footer: "plan"),
            KeyBinding(
                [.char("y")], .copyVisible, "copy the output in view (OSC 52)", context: .output, footer: "copy"),
            KeyBinding([.char("Y")], .copyBlock, "copy the code block in view (OSC 52)", context: .output),
            KeyBinding([.escape], .dismiss, "clear the search; else back", context: .output),
            KeyBinding(
                [.char("n")], .searchNext, "next hit, its line marked, \(hitContext) lines kept in view around it",
                context: .search, footer: "next hit"),
            KeyBinding([.char("N")], .searchPrevious, "previous hit (both wrap around)", context: .search),
        ]
}

/// One line of code read left to right into tokens (`CodeHighlighter` keeps one per line).
/// Each step looks at the character under `i` and either takes a token from there (moving `i`
/// past it) or declines; text between tokens is plain.
struct CodeLineScanner {
    let syntax: LanguageSyntax
    let chars: [Character]
    /// The comment or string the line starts inside of; after `scan`, the one it ends inside of.
    private(set) var openUntil: (close: String, token: CodeToken)?
    private var i = 0
    /// Where the plain text before the next token starts.
    private var plainStart = 0
    private var out = StyledLine()

    init(_ line: String, syntax: LanguageSyntax, openUntil: (close: String, token: CodeToken)?) {
        self.syntax = syntax
        self.chars = Array(line)
        self.openUntil = openUntil
    }

    /// The line's tokens, styled.
    mutating func scan() -> StyledLine {
        guard finishCarriedOver() else { return out }
        plainStart = i
        while i < chars.count {
            if lineComment() { break }
            if blockComment() || multilineString() || quotedString() || variable() || number() || word() { continue }
            i += 1
        }
        emit(plainStart, chars.count, .plain)
        return out
    }

    // MARK: Steps

    /// The comment or string carried over from the line before, up to its close. False when it
    /// takes the whole line.
    private mutating func finishCarriedOver() -> Bool {
        guard let open = openUntil else { return true }
        guard let end = find(open.close, from: 0, escapes: open.token == .string) else {
            emit(0, chars.count, open.token)
            return false
        }
        emit(0, end, open.token)
        i = end
        openUntil = nil
        return true
    }

    /// A line comment: the rest of the line (`#` only at the start or after a space or tab).
    private mutating func lineComment() -> Bool {
        guard let marker = syntax.lineComments.first(where: { matches($0, at: i) }),
            marker != "#" || i == 0 || chars[i - 1] == " " || chars[i - 1] == "\t"
        else { return false }
        token(i, chars.count, .comment)
        return true
    }

    /// A block comment, to its close or the end of the line (then it carries over).
    private mutating func blockComment() -> Bool {
        guard let block = syntax.blockComment, matches(block.open, at: i) else { return false }
        take(until: block.close, from: i + block.open.count, escapes: false, as: .comment)
        return true
    }

    /// A string that may span lines (`"""`), to its close or the end of the line.
    private mutating func multilineString() -> Bool {
        guard let quote = syntax.multilineQuotes.first(where: { matches($0, at: i) }) else { return false }
        take(until: quote, from: i + quote.count, escapes: true, as: .string)
        return true
    }

    /// A string closed on the same line (a key, when a colon follows and the language has keys).
    /// Backslash escapes, except in a shell's single quotes.
    private mutating func quotedString() -> Bool {
        let c = chars[i]
        guard syntax.quotes.contains(c) else { return false }
        let end = find(String(c), from: i + 1, escapes: c != "'" || syntax.chip != "SHELL") ?? chars.count
        let isKey = syntax.keysBeforeColon && nextNonSpace(end) == ":"
        token(i, end, isKey ? .key : .string)
        return true
    }

    /// `$NAME` or `${NAME}` in a shell.
    private mutating func variable() -> Bool {
        guard syntax.dollarVariables && chars[i] == "$" && i + 1 < chars.count else { return false }
        var end = i + 1
        if chars[end] == "{" {
            end = (chars[end...].firstIndex(of: "}") ?? chars.count - 1) + 1
        } else {
            while end < chars.count && (chars[end].isLetter || chars[end].isNumber || chars[end] == "_") { end += 1 }
        }
        guard end > i + 1 else { return false }
        token(i, end, .variable)
        return true
    }

    /// A number starting a word, with its digits, letters (`0x1F`, `10u`) and decimal point.
    private mutating func number() -> Bool {
        guard chars[i].isNumber && (i == 0 || !isIdentifier(chars[i - 1])) else { return false }
        var end = i
        while end < chars.count && (isIdentifier(chars[end]) || chars[end] == ".") {
            if chars[end] == "." && (end + 1 >= chars.count || !chars[end + 1].isNumber) { break }
            end += 1
        }
        token(i, end, .number)
        return true
    }

    /// An identifier: a key, keyword, constant or type name, else plain text.
    private mutating func word() -> Bool {
        guard isIdentifier(chars[i]) && (i == 0 || !isIdentifier(chars[i - 1])) else { return false }
        var end = i
        while end < chars.count && (isIdentifier(chars[end]) || (syntax.keysBeforeColon && chars[end] == "-")) {
            end += 1
        }
        let t = wordToken(String(chars[i..<end]), end: end)
        if t == .plain { i = end } else { token(i, end, t) }
        return true
    }

    private func wordToken(_ word: String, end: Int) -> CodeToken {
        if syntax.keysBeforeColon && nextNonSpace(end) == ":" && isLineStartKey(i) { return .key }
        if syntax.keywords.contains(word) { return .keyword }
        if syntax.constants.contains(word) { return .number }
        if syntax.types.contains(word) || (syntax.capitalizedAreTypes && (word.first?.isUppercase ?? false)) {
            return .type
        }
        return .plain
    }

    // MARK: Helpers

    /// A token from `from` to `close` (after `start`), or to the end of the line, carried over.
    private mutating func take(until close: String, from start: Int, escapes: Bool, as t: CodeToken) {
        if let end = find(close, from: start, escapes: escapes) {
            token(i, end, t)
        } else {
            token(i, chars.count, t)
            openUntil = (close, t)
        }
    }

    private mutating func emit(_ from: Int, _ to: Int, _ token: CodeToken) {
        if to > from { out.append(String(chars[from..<to]), token.style) }
    }

    /// The plain text before `from`, then the token; scanning goes on after it.
    private mutating func token(_ from: Int, _ to: Int, _ t: CodeToken) {
        emit(plainStart, from, .plain)
        emit(from, to, t)
        plainStart = to
        i = to
    }

    private func matches(_ s: String, at index: Int) -> Bool {
        var j = index
        for c in s {
            guard j < chars.count, chars[j] == c else { return false }
            j += 1
        }
        return true
    }

    /// Index after `close` from `start`, or nil when the line ends first.
    private func find(_ close: String, from start: Int, escapes: Bool) -> Int? {
        var j = start
        while j < chars.count {
            if escapes && chars[j] == "\\" {
                j += 2
                continue
            }
            if matches(close, at: j) { return j + close.count }
            j += 1
        }
        return nil
    }

    private func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    private func nextNonSpace(_ from: Int) -> Character? {
        var j = from
        while j < chars.count && chars[j] == " " { j += 1 }
        return j < chars.count ? chars[j] : nil
    }

    /// A YAML key starts its line (after indentation and an optional `- `).
    private func isLineStartKey(_ at: Int) -> Bool { chars[..<at].allSatisfy { $0 == " " || $0 == "-" } }
}

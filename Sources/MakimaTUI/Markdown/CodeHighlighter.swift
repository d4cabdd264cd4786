/// A small lexical highlighter for fenced code in task output: keywords, strings, comments,
/// numbers and type names, in palette roles.
///
/// Written by hand because no packaged highlighter fits: Debian's (highlight, source-highlight,
/// tree-sitter grammars) are C++ or need grammar files at run time, none knows Swift well, and
/// a terminal only needs a handful of token classes. One lexer reads every language; what
/// differs per language is one `LanguageSyntax` entry in `LanguageSyntax.all`.
struct LanguageSyntax: Sendable {
    /// Fence info words that select this entry (`swift`, `py`, `sh`…), lowercased.
    var names: [String]
    /// The chip on the code frame.
    var chip: String
    var keywords: Set<String> = []
    /// Literals shown like numbers (`true`, `nil`, `None`).
    var constants: Set<String> = []
    var types: Set<String> = []
    /// An identifier starting with an uppercase letter is a type name (Swift, Rust, TS).
    var capitalizedAreTypes = false
    var lineComments: [String] = []
    var blockComment: (open: String, close: String)?
    /// String delimiters that end at the same quote on the same line.
    var quotes: [Character] = ["\""]
    /// Delimiters of strings that may span lines (`"""`, a JS template's backtick).
    var multilineQuotes: [String] = []
    /// `key:` before a value (YAML) or `"key":` (JSON) is drawn as a key.
    var keysBeforeColon = false
    /// Whole lines coloured by their first characters (diff), checked in order.
    var linePrefixes: [(prefix: String, role: ColorRole)] = []
    /// `$NAME` and `${NAME}` are variables (shell).
    var dollarVariables = false
}

/// A token class, and its style on the palette.
enum CodeToken: Sendable {
    case plain, keyword, string, comment, number, type, key, variable

    var style: CellStyle {
        switch self {
        case .plain: return CellStyle(fg: .body)
        case .keyword: return CellStyle(fg: .accent, attributes: .bold)
        case .string: return CellStyle(fg: .ok)
        case .comment: return CellStyle(fg: .foregroundMuted, attributes: .italic)
        case .number: return CellStyle(fg: .warn)
        case .type: return CellStyle(fg: .foreground, attributes: .bold)
        case .key: return CellStyle(fg: .accent)
        case .variable: return CellStyle(fg: .bodySoft, attributes: .bold)
        }
    }
}

extension LanguageSyntax {
    private static func words(_ s: String) -> Set<String> { Set(s.split(separator: " ").map(String.init)) }

    static let all: [LanguageSyntax] = [
        LanguageSyntax(
            names: ["swift"], chip: "SWIFT",
            keywords: words(
                "actor as associatedtype async await break case catch class continue default defer deinit do else enum extension fallthrough fileprivate final for func guard if import in init inout internal is lazy let mutating nonisolated open operator override private protocol public repeat rethrows return self Self some any static struct subscript super switch throw throws try typealias var weak where while consuming borrowing sending"
            ),
            constants: words("true false nil"),
            types: words("Int String Double Float Bool Character Array Dictionary Set Optional Void Never Duration"),
            capitalizedAreTypes: true, lineComments: ["//"], blockComment: ("/*", "*/"),
            multilineQuotes: ["\"\"\""]),
        LanguageSyntax(
            names: ["rust", "rs"], chip: "RUST",
            keywords: words(
                "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while"
            ),
            constants: words("true false None Some Ok Err"),
            types: words(
                "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box"
            ),
            capitalizedAreTypes: true, lineComments: ["//"], blockComment: ("/*", "*/")),
        LanguageSyntax(
            names: ["python", "py", "python3"], chip: "PYTHON",
            keywords: words(
                "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case"
            ),
            constants: words("True False None"),
            types: words("int str float bool bytes list dict set tuple object"),
            lineComments: ["#"], quotes: ["\"", "'"], multilineQuotes: ["\"\"\"", "'''"]),
        LanguageSyntax(
            names: ["typescript", "ts", "tsx", "javascript", "js", "jsx", "mjs"], chip: "TYPESCRIPT",
            keywords: words(
                "async await break case catch class const continue debugger default delete do else enum export extends finally for from function if implements import in instanceof interface let new of private protected public readonly return static super switch this throw try type typeof var void while yield"
            ),
            constants: words("true false null undefined NaN"),
            types: words("string number boolean any unknown never object Promise Array Record"),
            capitalizedAreTypes: true, lineComments: ["//"], blockComment: ("/*", "*/"), quotes: ["\"", "'"],
            multilineQuotes: ["`"]),
        LanguageSyntax(
            names: ["bash", "sh", "shell", "zsh", "console", "shellsession"], chip: "SHELL",
            keywords: words(
                "if then else elif fi for while until do done case esac in function return export local readonly set unset exit"
            ),
            lineComments: ["#"], quotes: ["\"", "'"], dollarVariables: true),
        LanguageSyntax(
            names: ["json", "jsonc"], chip: "JSON", constants: words("true false null"), quotes: ["\""],
            keysBeforeColon: true),
        LanguageSyntax(
            names: ["yaml", "yml"], chip: "YAML", constants: words("true false null yes no on off ~"),
            lineComments: ["#"], quotes: ["\"", "'"], keysBeforeColon: true),
        LanguageSyntax(
            names: ["diff", "patch"], chip: "DIFF",
            linePrefixes: [
                ("+++", .foreground), ("---", .foreground), ("@@", .accent), ("+", .ok), ("-", .danger),
                ("diff ", .foreground), ("index ", .foregroundMuted),
            ]),
    ]

    /// The entry for a fence's info string (its first word), if any.
    static func forInfo(_ info: String) -> LanguageSyntax? {
        let word = info.split(whereSeparator: { $0 == " " || $0 == "{" || $0 == "," }).first.map {
            $0.lowercased()
        }
        guard let word else { return nil }
        return all.first { $0.names.contains(word) }
    }

    /// The chip for a fence: the entry's, else the info word uppercased (bounded), else `CODE`.
    static func chip(forInfo info: String) -> String {
        if let entry = forInfo(info) { return entry.chip }
        let word = info.split(separator: " ").first.map { String($0.prefix(16)).uppercased() }
        return word.flatMap { $0.isEmpty ? nil : $0 } ?? "CODE"
    }
}

/// Highlights code a line at a time; comments and strings that span lines carry over.
struct CodeHighlighter: Sendable {
    let syntax: LanguageSyntax?
    /// The delimiter that closes the comment or string this line starts inside of.
    private var openUntil: (close: String, token: CodeToken)?

    init(syntax: LanguageSyntax?) { self.syntax = syntax }

    mutating func highlight(_ line: String) -> StyledLine {
        guard let syntax else { return StyledLine(line, CodeToken.plain.style) }
        for rule in syntax.linePrefixes where line.hasPrefix(rule.prefix) {
            return StyledLine(line, CellStyle(fg: rule.role))
        }
        if !syntax.linePrefixes.isEmpty { return StyledLine(line, CodeToken.plain.style) }
        var scanner = CodeLineScanner(line, syntax: syntax, openUntil: openUntil)
        let out = scanner.scan()
        openUntil = scanner.openUntil
        return out
    }
}

import Foundation
import Testing

/// The docs name source files as the code has them: every `path.swift` (and `.py`, `.sh`)
/// docs/architecture.md names in backticks exists in the repository, by its path (a path may
/// be given from any folder down, `Controller/Destinations.swift`) or, bare, by its name.
@Suite struct DocsPathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    static func repositoryFiles() -> [String] {
        var out: [String] = []
        for top in ["Sources", "Tests", "devserver", "scripts", "docs", "Themes"] {
            let base = root.appendingPathComponent(top)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let path = walk.nextObject() as? String { out.append(top + "/" + path) }
        }
        return out
    }

    @Test("every source path docs/architecture.md names exists")
    func namedPathsExist() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let files = Self.repositoryFiles()
        let names = Set(files.map { ($0 as NSString).lastPathComponent })
        let pattern = try NSRegularExpression(pattern: "`([A-Za-z0-9_./+-]+\\.(?:swift|py|sh))`")
        let range = NSRange(text.startIndex..., in: text)
        var named: [String] = []
        for match in pattern.matches(in: text, range: range) {
            if let r = Range(match.range(at: 1), in: text) { named.append(String(text[r])) }
        }
        #expect(named.count > 20)
        for path in named {
            let found =
                path.contains("/") ? files.contains { $0 == path || $0.hasSuffix("/" + path) } : names.contains(path)
            #expect(found, "docs/architecture.md names \(path), which is not in the repository")
        }
    }
}

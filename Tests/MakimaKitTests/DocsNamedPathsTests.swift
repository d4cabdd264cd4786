import Foundation
import Testing

/// The docs explain the code by naming its files: every source file a doc names in backquotes
/// (`Sync/TaskEventSequencer.swift`, `tmux_e2e.sh`, `scripts/test.sh`) must exist, so a rename
/// or a removal that leaves a doc behind fails here.
@Suite struct DocsNamedPathsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file of the repository under the folders code lives in, relative to the root.
    static func repositoryFiles() -> [String] {
        var out: [String] = []
        for folder in ["Sources", "Tests", "scripts", "devserver", "Themes", "docs", ".ci"] {
            let base = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let path = walk.nextObject() as? String { out.append(folder + "/" + path) }
        }
        return out + ["Makefile", "Package.swift", "README.md"]
    }

    /// The names in backquotes that end as a source file does.
    static func namedPaths(in text: String) -> Set<String> {
        let pattern = /`([A-Za-z0-9_\/+.\-]+\.(?:swift|py|sh))`/
        return Set(text.matches(of: pattern).map { String($0.output.1) })
    }

    @Test func everySourceFileTheDocsNameExists() throws {
        let docs =
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 } + ["README.md", "devserver/README.md"]
        let files = Self.repositoryFiles()
        var checked = 0
        for doc in docs {
            let text = try String(contentsOf: Self.root.appendingPathComponent(doc), encoding: .utf8)
            for named in Self.namedPaths(in: text) {
                checked += 1
                // A name is a path from the root, or the tail of one (`Cache/TaskLines.swift`).
                let found = files.contains { $0 == named || $0.hasSuffix("/" + named) }
                #expect(found, "\(doc) names \(named), which does not exist")
            }
        }
        #expect(checked > 20, "the docs name the files they explain")
    }
}

import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

@Suite("Markdown rendering of task output")
struct MarkdownRenderTests {
    @Test("dump") func dump() {
        for r in MarkdownFixture.rows(MarkdownFixture.sample, width: 50) { print("|" + r) }
    }
}

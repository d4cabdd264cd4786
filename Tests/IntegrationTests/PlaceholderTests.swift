import Testing
import MakimaKit

@Test func integrationModuleLinks() { #expect(!MakimaVersion.current.isEmpty) }

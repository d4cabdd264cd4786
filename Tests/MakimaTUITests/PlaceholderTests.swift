import Testing
@testable import MakimaTUI

@Test func tuiModuleLinks() { #expect(MakimaTUIInfo.name == "MakimaTUI") }

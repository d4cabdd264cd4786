import Testing

@testable import MakimaTUI

@Suite struct ColorRGBTests {
    @Test func parsesAndFormatsHex() {
        #expect(RGB(hex: "#0c1729") == RGB(r: 12, g: 23, b: 41))
        #expect(RGB(hex: "9BC3FF") == RGB(r: 155, g: 195, b: 255))
        #expect(RGB(r: 12, g: 23, b: 41).hex == "#0c1729")
        #expect(RGB(hex: 0x000000).hex == "#000000")
        #expect(RGB(hex: 0xFFFFFF).hex == "#ffffff")
    }

    @Test(arguments: ["", "#", "#12345", "#1234567", "#12345g", "0x123456", "#-12345", "#+12345", "# 12345"])
    func rejectsMalformedHex(_ text: String) {
        #expect(RGB(hex: text) == nil)
    }

    @Test func packsForDirectColour() {
        #expect(RGB(hex: 0x9BC3FF).packed == 0x9BC3FF)
        #expect(RGB(r: 1, g: 2, b: 3).packed == (1 << 16) | (2 << 8) | 3)
    }

    @Test func blendsPerChannelAndRounds() {
        let white = RGB(hex: 0xFFFFFF)
        let black = RGB(hex: 0x000000)
        #expect(white.blend(alpha: 0.5, over: black) == RGB(r: 128, g: 128, b: 128))  // 127.5 rounds up
        #expect(white.blend(alpha: 1, over: black) == white)
        #expect(white.blend(alpha: 0, over: black) == black)
        #expect(white.blend(alpha: 7, over: black) == white)  // clamped
        // accent @ 0.65 over background: 155*.65+12*.35 = 104.95, 195*.65+23*.35 = 134.8, 255*.65+41*.35 = 180.1
        #expect(RGB(hex: 0x9BC3FF).blend(alpha: 0.65, over: RGB(hex: 0x0C1729)) == RGB(r: 105, g: 135, b: 180))
    }
}

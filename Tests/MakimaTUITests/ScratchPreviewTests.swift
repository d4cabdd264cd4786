import Testing
@testable import MakimaTUI

@Test func scratchPreview() {
    for (w, h) in [(120, 40), (80, 24), (60, 16), (200, 50)] {
        var app = AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .offline(secondsToRetry: 12), clock: "14:05"))
        let b = app.render(width: w, height: h)
        print(b.lines.joined(separator: "\n"))
        print(String(repeating: "=", count: w))
    }
    var app = AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .online, clock: "14:05"))
    app.handle(.char("2"), now: 0)
    app.handle(.char("?"), now: 0)
    print(app.render(width: 80, height: 24).lines.joined(separator: "\n"))
}

import Foundation

/// A fresh directory under the system temp dir, removed when released.
final class TempDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "makima-test-" + UUID().uuidString.lowercased()
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func sub(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

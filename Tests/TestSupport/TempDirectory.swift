import Foundation

/// Helpers shared by every test target (the `TestSupport` target).

/// A fresh directory under the system temp dir, removed when released.
public final class TempDirectory {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "makima-test-" + UUID().uuidString.lowercased()
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func sub(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

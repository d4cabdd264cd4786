import Foundation

/// A stand-in for a program the client starts (`xdg-open`, by default), as a real executable
/// in a temp directory to put first on the child's PATH. Each run records its arguments, its
/// environment and its open descriptors, and notes when two runs overlap. With `holds`, a run
/// waits (30 s at most) until `release()`, so a test can send a flood while the first child runs.
public final class FakeOpener {
    public let dir = TempDirectory()
    public let name: String

    /// One run of the program, as it saw itself.
    public struct Run: Sendable {
        public var arguments: [String]
        public var environment: [String]
        /// The descriptors it had open, but the one `ls` opened to list them.
        public var descriptors: [Int]
    }

    public init(name: String = "xdg-open", holds: Bool = false) throws {
        self.name = name
        let d = dir.path
        let hold =
            holds ? "i=0; while [ ! -e '\(d)/release' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done\n" : ""
        let script = """
            #!/bin/sh
            mkdir "\(d)/lock" 2>/dev/null || echo overlap >> "\(d)/overlaps"
            env > "\(d)/env.$$"
            ls -l /proc/self/fd > "\(d)/fds.$$"
            \(hold)printf '%s\\n' "$@" > "\(d)/argv.$$.tmp"
            rmdir "\(d)/lock"
            mv "\(d)/argv.$$.tmp" "\(d)/argv.$$"

            """
        try script.write(toFile: dir.sub(name), atomically: true, encoding: .utf8)
        chmod(dir.sub(name), 0o755)
    }

    /// A PATH that finds this program first.
    public var path: String { dir.path + ":/usr/bin:/bin" }

    public func release() { _ = FileManager.default.createFile(atPath: dir.sub("release"), contents: nil) }

    public var overlapped: Bool { FileManager.default.fileExists(atPath: dir.sub("overlaps")) }

    /// The runs that have finished recording.
    public var runs: [Run] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix("argv.") && !$0.hasSuffix(".tmp") }.sorted().map { file in
            let pid = file.dropFirst("argv.".count)
            func lines(_ name: String) -> [String] {
                ((try? String(contentsOfFile: dir.sub(name), encoding: .utf8)) ?? "")
                    .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
            // `ls -l` lines: `lr-x------ 1 u g 64 Dec  1 12:00 3 -> /proc/123/fd`.
            let descriptors = lines("fds.\(pid)").compactMap { line -> Int? in
                guard let arrow = line.range(of: " -> "), !line[arrow.upperBound...].hasPrefix("/proc/") else {
                    return nil
                }
                return line[..<arrow.lowerBound].split(separator: " ").last.flatMap { Int($0) }
            }
            return Run(arguments: lines(file), environment: lines("env.\(pid)"), descriptors: descriptors)
        }
    }

    /// Waits (at most `seconds`) until `count` runs have recorded.
    @discardableResult
    public func waitForRuns(_ count: Int, seconds: Double = 120) -> [Run] {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = runs
        while seen.count < count && Date() < deadline {
            usleep(20_000)
            seen = runs
        }
        return seen
    }
}

/// A descriptor of the test process opened without close-on-exec: what a child must not get.
public func openInheritableDescriptor() -> Int32 { open("/dev/null", O_RDONLY) }

import Foundation

#if MAKIMA_LIBFUZZER
    // Built by `make fuzz` (scripts/fuzz.sh) with `-sanitize=fuzzer -D MAKIMA_LIBFUZZER`. SwiftPM
    // links an executable's entry point as `main`, so libFuzzer's own `main` is not used: ours
    // hands the command line to libFuzzer's driver. The target is chosen with
    // MAKIMA_FUZZ_TARGET, so one instrumented build serves every target.
    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["MAKIMA_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.named(name) else {
            let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("set MAKIMA_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let violation = selectedTarget.check(bytes) {
            fatalError("\(selectedTarget.name): invariant broken: \(violation)")
        }
        return 0
    }

    /// libFuzzer's documented entry for programs with their own `main` (pointer arguments and an
    /// int result, so Swift's and C's calling conventions agree).
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @main
    enum FuzzMain {
        static func main() {
            _ = selectedTarget
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        }
    }
#else
    /// The plain build: every target over its committed corpus, then over deterministic
    /// mutations of it. Quick enough for `make test`; it finds regressions of known inputs, the
    /// instrumented build finds new ones.
    @main
    enum FuzzReplay {
        static func main() {
            var arguments = Array(CommandLine.arguments.dropFirst())
            var mutations = 2_000
            var only: String?
            while let flag = arguments.first, flag.hasPrefix("--") {
                arguments.removeFirst()
                guard let value = arguments.first else { usage() }
                arguments.removeFirst()
                switch flag {
                case "--mutations": mutations = Int(value) ?? 0
                case "--target": only = value
                default: usage()
                }
            }
            guard arguments.count == 1 else { usage() }
            let root = URL(fileURLWithPath: arguments[0])
            var failed = false
            for target in FuzzTargets.all where only == nil || only == target.name {
                let started = Date()
                let seeds = corpus(root.appendingPathComponent(target.name))
                if seeds.isEmpty {
                    print("\(target.name): no corpus under \(root.path)/\(target.name)")
                    failed = true
                    continue
                }
                var runs = 0
                let count = min(mutations, target.replayMutations)
                var generator = SplitMix64(seed: UInt64(target.name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
                let inputs =
                    seeds.lazy.map(\.bytes)
                    + (0..<count).lazy.map { _ in Mutator.mutate(seeds, using: &generator) }
                var broken = false
                for input in inputs {
                    runs += 1
                    if let violation = target.check(input) {
                        print("\(target.name): invariant broken (input \(runs)): \(violation)")
                        print("  input (\(input.count) bytes): \(escaped(input))")
                        broken = true
                        break
                    }
                }
                failed = failed || broken
                let ms = Int(Date().timeIntervalSince(started) * 1000)
                if !broken {
                    print("\(target.name): \(seeds.count) corpus inputs + \(count) mutations checked, \(ms) ms")
                }
            }
            exit(failed ? 1 : 0)
        }

        static func usage() -> Never {
            print("usage: makima-fuzz [--mutations N] [--target NAME] CORPUS_ROOT")
            exit(2)
        }

        static func corpus(_ dir: URL) -> [Seed] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.sorted().compactMap { name in
                (try? Data(contentsOf: dir.appendingPathComponent(name))).map { Seed(bytes: Array($0)) }
            }
        }

        static func escaped(_ bytes: [UInt8]) -> String {
            bytes.prefix(400).map { b in
                (0x20..<0x7F).contains(b) && b != 0x5C ? String(UnicodeScalar(b)) : String(format: "\\x%02x", b)
            }.joined()
        }
    }
#endif

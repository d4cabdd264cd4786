// swift-tools-version:6.0
import PackageDescription

// Layers point one way: C shims -> MakimaKit -> MakimaTUI -> makima-tui.
// MakimaKit must never import CNcursesShim.
let package = Package(
    name: "makima-tui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MakimaKit", targets: ["MakimaKit"]),
        .library(name: "MakimaTUI", targets: ["MakimaTUI"]),
        .executable(name: "makima-tui", targets: ["makima-tui"]),
    ],
    targets: [
        .systemLibrary(name: "CNcursesShim", path: "Sources/CNcursesShim"),
        .systemLibrary(name: "CSQLiteShim", path: "Sources/CSQLiteShim"),
        .systemLibrary(name: "CWslayShim", path: "Sources/CWslayShim"),
        .systemLibrary(name: "CSHA1Shim", path: "Sources/CSHA1Shim"),
        // cmark-gfm (GitHub-flavoured CommonMark) with its table/strikethrough/tasklist/autolink extensions.
        .systemLibrary(name: "CCmarkShim", path: "Sources/CCmarkShim"),
        // Little CMS, for the CIEDE2000 colour difference.
        .systemLibrary(name: "CLcms2Shim", path: "Sources/CLcms2Shim"),
        // The commit `--version` names (a header `make` writes; see the shim).
        .systemLibrary(name: "CBuildInfoShim", path: "Sources/CBuildInfoShim"),
        // libcurl's setopt/getinfo are variadic: a small C target wraps them.
        .target(
            name: "CCurlShim", path: "Sources/CCurlShim",
            linkerSettings: [.linkedLibrary("curl"), .linkedLibrary("idn2")]),
        .target(
            name: "MakimaKit",
            dependencies: ["CCurlShim", "CSQLiteShim", "CWslayShim", "CSHA1Shim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "MakimaTUI",
            dependencies: ["MakimaKit", "CNcursesShim", "CCmarkShim", "CLcms2Shim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `makima-tui bench`: figures for `make bench`, kept out of the libraries the dashboard ships.
        .target(
            name: "MakimaBench",
            dependencies: ["MakimaKit", "MakimaTUI", "CNcursesShim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "makima-tui",
            dependencies: ["MakimaKit", "MakimaTUI", "MakimaBench", "CBuildInfoShim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The fuzz targets (Tests/Fuzz). A plain build replays their corpora (`make test`);
        // `make fuzz` builds them again with libFuzzer (-sanitize=fuzzer -D MAKIMA_LIBFUZZER).
        .executableTarget(
            name: "makima-fuzz", dependencies: ["MakimaKit", "MakimaTUI"], path: "Tests/Fuzz",
            exclude: ["Corpus"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Helpers every test target shares (temporary directories, ...).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "MakimaKitTests", dependencies: ["MakimaKit", "TestSupport"], swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            // Snapshots are screens the tests compare with (read by path), not sources or resources.
            name: "MakimaTUITests", dependencies: ["MakimaTUI", "MakimaKit", "TestSupport"], exclude: ["Snapshots"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Fixtures are scripts the tests run (e.g. a WebSocket peer), not sources or resources.
        .testTarget(
            name: "IntegrationTests", dependencies: ["MakimaKit", "MakimaTUI", "TestSupport"], exclude: ["Fixtures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

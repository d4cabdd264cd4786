import Foundation
import MakimaKit
import MakimaTUI

// Temporary entry point on the shell branch (the lead wires the real CLI): launches the
// dashboard, `--print-keymap` prints docs/keys.md, `bench` prints render figures.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--print-keymap" {
    print(DashboardApp.keyMapMarkdown(), terminator: "")
    exit(0)
}
if arguments.first == "bench" {
    for (name, value) in RenderBenchmark.run().sorted(by: { $0.key < $1.key }) {
        print("\(name) \(value)")
    }
    exit(0)
}
exit(DashboardApp.run(options: DashboardOptions()))

import Foundation
import MakimaKit
import MakimaTUI

StartupReport.markMain()

setlocale(LC_ALL, "")
HeapTrim.limitArenas()  // before any thread allocates
Curl.initializeOnce()  // before any thread touches curl
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
ProcessExit.exit(status)

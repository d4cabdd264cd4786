import Foundation

setlocale(LC_ALL, "")
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)

import MakimaKit
import MakimaTUI

print("makima-tui \(MakimaVersion.current)")

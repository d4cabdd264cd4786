import MakimaKit
import CNcursesShim

/// Placeholder until the terminal shell lands (issue 4).
public enum MakimaTUIInfo {
    public static let name = "MakimaTUI"
}

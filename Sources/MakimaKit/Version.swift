public enum MakimaVersion {
    public static let current = "0.1.0"
}

/// importer's version, as `importer --version` prints it and archive manifests record it.
public enum ToolVersion {
    public static let current = "0.5.0"
}

/// importer's version, as `importer --version` prints it and archive manifests record it.
package enum ToolVersion {
    package static let current = "0.5.0"
}

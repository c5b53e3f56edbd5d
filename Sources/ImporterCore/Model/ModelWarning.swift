/// Something a model file declares that the importer does not use, said instead of dropped
/// silently (docs/coredata.md): a transient attribute, a fetched property, a configuration.
public struct ModelWarning: Sendable, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int?
    public let message: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// A model as a store records it, to refuse a store that holds another one.
public struct ModelIdentity: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var version: Int
    /// `Model.checksum`: SHA-256 of the model's canonical description.
    public var checksum: String

    public init(name: String, version: Int, checksum: String) {
        self.name = name
        self.version = version
        self.checksum = checksum
    }

    public var description: String { "\(name) version \(version)" }

    /// Throws `StoreError.Kind.modelMismatch` unless this model, which the store at `location`
    /// recorded, is `model`: the same name and version and, with `checksum`, the same checksum
    /// (a released version edited since is refused: docs/migration.md#edited-model-files).
    /// The one check of every store and command.
    public func require(_ model: Model, at location: String, checksum: Bool = true) throws {
        let expected = model.identity
        let message: String
        if name != expected.name {
            message = "\(location): holds model '\(name)', not '\(expected.name)'"
        } else if version != expected.version {
            message = "\(location): holds \(name) version \(version), not version \(expected.version)"
        } else if checksum && self.checksum != expected.checksum {
            message =
                "\(model.file): model \(name) version \(version) differs from the version \(version) recorded in \(location) "
                + "(checksum \(self.checksum) vs \(expected.checksum)); a released model version must not change"
        } else {
            return
        }
        throw StoreError(.modelMismatch(recorded: self, expected: expected), message, operation: "open")
    }
}

extension Model {
    /// What a store records of this model.
    public var identity: ModelIdentity { ModelIdentity(name: name, version: version, checksum: checksum) }
}

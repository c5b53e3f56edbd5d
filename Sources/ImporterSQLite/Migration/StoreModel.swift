import ImporterCore

/// Which model version the store holds, and model files edited since it was recorded.
extension StoreConnection {
    /// The model version the store holds, from the versions of its model directory. A model
    /// file whose checksum differs from what the store recorded is refused unless
    /// `acceptModelChange`, which records the new checksum and says so in the history.
    func storedModel(in versions: VersionedModel, acceptModelChange: Bool) throws -> Model {
        let meta = try self.meta()
        guard let name = meta["model"], let version = meta["version"].flatMap(Int.init) else {
            throw ConfigurationError(file: path, "the store records no model; it was not made by importer run")
        }
        if name != versions.newest.name {  // any version of this model will do: it is looked up below
            try ModelIdentity(name: name, version: version, checksum: "").require(versions.newest, at: path)
        }
        guard let model = versions.version(version) else {
            throw ConfigurationError(
                file: path,
                "the store holds \(name) version \(version), which the model directory \(versions.newest.file) does not have (it has \(versions.versions.map { String($0.version) }.joined(separator: ", ")))"
            )
        }
        try checkChecksum(of: model, recorded: meta["checksum"] ?? "", accept: acceptModelChange)
        return model
    }

    /// Before a run: accepts an edited model file for the store's version (`--accept-model-change`).
    func acceptModelChangeIfNeeded(_ model: Model) throws {
        let meta = try self.meta()
        guard meta["model"] == model.name, meta["version"] == String(model.version), let recorded = meta["checksum"]
        else { return }
        try checkChecksum(of: model, recorded: recorded, accept: true)
    }

    /// Refuses a model whose checksum is not the one recorded, unless `accept` (then recorded).
    func checkChecksum(of model: Model, recorded: String, accept: Bool) throws {
        guard recorded != model.checksum else { return }
        guard accept else {
            try ModelIdentity(name: model.name, version: model.version, checksum: recorded).require(model, at: path)
            return
        }
        try acceptModelChange(model, previousChecksum: recorded)
    }
}

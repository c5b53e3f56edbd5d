/// Writes a model as YAML and as Core Data XML and reads both back: what `model convert`
/// promises (the same checksum), checked by the model fuzz targets on every model they load.
package enum ModelRoundTrip {
    /// The first format that does not give `model` back, or nil when both do.
    package static func mismatch(_ model: Model) -> String? {
        do {
            let yaml = try ModelLoader.parse(text: ModelYAMLWriter.text(of: model), file: "roundtrip.yaml")
            guard yaml.checksum == model.checksum else { return "YAML:\n\(ModelYAMLWriter.text(of: model))" }
            var reader = CoreDataModelReader(file: "roundtrip/contents")
            let xml = try reader.parse(
                Array(CoreDataModelWriter.contents(of: model).utf8), name: model.name, version: model.version)
            guard xml.checksum == model.checksum else { return "XML:\n\(CoreDataModelWriter.contents(of: model))" }
            return nil
        } catch {
            return "written model does not load: \(error)"
        }
    }

    /// Reads Core Data `contents` bytes as version 1 of model `Fuzz` (for the fuzz target).
    package static func coreDataModel(_ bytes: [UInt8]) throws -> Model {
        var reader = CoreDataModelReader(file: "fuzz/contents")
        return try reader.parse(bytes, name: "Fuzz", version: 1)
    }
}

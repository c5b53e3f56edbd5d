/// Writes the starter pipeline (docs/pipeline.md) for an inferred model: one source per file,
/// with the CSV dialect, null markers, renames, drops, computed keys, date format and
/// reference policies the model needs, so `importer run` loads the same files as written.
struct PipelineDocument {
    let model: InferredModel
    let modelPath: String
    let sourcePaths: [String]
    let name: String

    var text: String {
        var lines = [
            "# Starter pipeline written by `importer model infer`: it loads the files the model was inferred from.",
            "model: \(JSONText.quote(modelPath))",
            "sources:",
        ]
        for (entity, path) in zip(model.entities, sourcePaths) { lines += source(entity, path: path) }
        lines.append("destination: { type: sqlite, path: \(JSONText.quote(name + ".sqlite")) }")
        lines += errors()
        lines.append("report: { directory: \(JSONText.quote("reports/" + name)) }")
        return lines.joined(separator: "\n") + "\n"
    }

    private func source(_ entity: InferredEntity, path: String) -> [String] {
        var lines = [
            "  - entity: \(Identifiers.yaml(entity.name))", "    path: \(JSONText.quote(path))",
            "    format: \(entity.profile.format.rawValue)",
        ]
        if let encoding = entity.profile.encoding {
            lines.append(
                "    encoding: \(encoding.rawValue)   # guessed from the file's first bytes (docs/pipeline.md#encodings)"
            )
        }
        if let csv = entity.profile.csv {
            var options = [
                "delimiter: \(JSONText.quote(String(UnicodeScalar(csv.delimiter))))", "header: \(csv.header)",
            ]
            if let columns = entity.columns {
                options.append("columns: [\(columns.map(JSONText.quote).joined(separator: ", "))]")
            }
            options.append("nullValues: [\(entity.nullValues.map(JSONText.quote).joined(separator: ", "))]")
            lines.append("    csv: { \(options.joined(separator: ", ")) }")
        }
        let map = self.map(entity)
        if !map.isEmpty { lines += ["    map:"] + map.map { "      " + $0 } }
        let kept = entity.relationships.filter { $0.found < $0.values }
        if !kept.isEmpty {
            let policies = kept.map { "\(Identifiers.yaml($0.name)): keep" }.joined(separator: ", ")
            lines.append(
                "    references: { \(policies) }   # values that name no item are stored and counted in the report")
        }
        return lines
    }

    private func map(_ entity: InferredEntity) -> [String] {
        var lines: [String] = []
        let renames = entity.renames
        if !renames.isEmpty {
            lines.append(
                "rename: { \(renames.map { "\(JSONText.quote($0.field)): \(Identifiers.yaml($0.attribute))" }.joined(separator: ", ")) }"
            )
        }
        if !entity.dropped.isEmpty {
            lines.append("drop: [\(entity.dropped.map { JSONText.quote($0.field) }.joined(separator: ", "))]")
        }
        if case .computed(let index, let fields, let separator, _, _) = entity.key {
            let template = fields.map { "{\($0)}" }.joined(separator: separator)
            lines.append("compute: { \(Identifiers.yaml(entity.attributes[index].name)): \(JSONText.quote(template)) }")
        }
        if let format = entity.dateFormat { lines.append("dateFormat: \(JSONText.quote(format))") }
        return lines
    }

    /// The default error limits, raised when the model's comments expect more rejections.
    private func errors() -> [String] {
        let expected = model.entities.reduce(0) { $0 + $1.expectedRejections }
        let records = model.entities.reduce(0) { $0 + $1.profile.records + $1.profile.failures }
        guard expected > 0 else { return [] }
        let ratio = Double(expected) / Double(max(1, records))
        var lines = ["# \(expected) record(s) are expected to be rejected; the model's comments say why."]
        // The defaults (1000, 5% once 1000 records were read) would abort the run: raise them.
        if expected >= 1000 || (ratio >= 0.05 && records >= 1000) {
            let percent = min(100, Int((ratio * 100).rounded(.up)) + 5)
            lines.append("errors: { maxErrors: \(expected + 1000), maxErrorRatio: \(Double(percent) / 100) }")
        }
        return lines
    }
}

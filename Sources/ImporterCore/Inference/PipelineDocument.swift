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
        let roots = model.entities.indices.filter { model.entities[$0].nesting == nil }
        for (root, path) in zip(roots, sourcePaths) { lines += source(root, path: path) }
        lines.append("destination: { type: sqlite, path: \(JSONText.quote(name + ".sqlite")) }")
        lines += errors()
        lines.append("report: { directory: \(JSONText.quote("reports/" + name)) }")
        return lines.joined(separator: "\n") + "\n"
    }

    private func source(_ index: Int, path: String) -> [String] {
        let entity = model.entities[index]
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
        lines += children(of: index, indent: "    ")
        // A document's sources-level reference policies hold for its children too.
        let family = [index] + descendants(of: index)
        var kept: [InferredRelationship] = []
        for relationship in family.flatMap({ model.entities[$0].relationships })
        where relationship.found < relationship.values && !kept.contains(where: { $0.name == relationship.name }) {
            kept.append(relationship)
        }
        if !kept.isEmpty {
            let policies = kept.map { "\(Identifiers.yaml($0.name)): keep" }.joined(separator: ", ")
            lines.append(
                "    references: { \(policies) }   # values that name no item are stored and counted in the report")
        }
        return lines
    }

    /// The `children:` of the entity at `index`: one per array of its records, nested.
    private func children(of index: Int, indent: String) -> [String] {
        let children = model.entities.indices.filter { model.entities[$0].nesting?.parent == index }
        guard !children.isEmpty else { return [] }
        var lines = [indent + "children:"]
        for child in children {
            let entity = model.entities[child], nesting = entity.nesting!
            let inner = indent + "    "
            lines.append(indent + "  \(Self.plainOrQuoted(nesting.arrayPath.joined(separator: "."))):")
            lines.append(inner + "entity: \(Identifiers.yaml(entity.name))")
            lines.append(inner + "parent: \(Identifiers.yaml(nesting.relationship))")
            if let position = nesting.position { lines.append(inner + "position: \(Identifiers.yaml(position))") }
            let map = self.map(entity)
            if !map.isEmpty { lines += [inner + "map:"] + map.map { inner + "  " + $0 } }
            lines += self.children(of: child, indent: inner)
        }
        return lines
    }

    /// A path of names as a plain YAML key, else quoted.
    private static func plainOrQuoted(_ path: String) -> String {
        let plain = path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
            ModelChecks.isValidName(String($0))
        }
        return plain && Identifiers.yaml(path) == path ? path : JSONText.quote(path)
    }

    private func descendants(of index: Int) -> [Int] {
        model.entities.indices.filter { model.entities[$0].nesting?.parent == index }.flatMap {
            [$0] + descendants(of: $0)
        }
    }

    private func map(_ entity: InferredEntity) -> [String] {
        var lines: [String] = []
        // A dotted field is a path into nested objects: `map.fields`.
        let renames = entity.renames.filter { !entity.profile.isPath($0.field) }
        let paths = entity.renames.filter { entity.profile.isPath($0.field) }
        if !renames.isEmpty {
            lines.append(
                "rename: { \(renames.map { "\(JSONText.quote($0.field)): \(Identifiers.yaml($0.attribute))" }.joined(separator: ", ")) }"
            )
        }
        if !paths.isEmpty {
            lines.append(
                "fields: { \(paths.map { "\(Identifiers.yaml($0.attribute)): \(JSONText.quote($0.field))" }.joined(separator: ", ")) }"
            )
        }
        // An object no attribute reads a path of is dropped whole.
        let unread = entity.profile.objectFields.filter { object in
            !entity.attributes.contains { $0.field?.hasPrefix(object + ".") ?? false }
        }
        let dropped = entity.dropped.map(\.field).filter { !entity.profile.isPath($0) }
        if !(dropped + unread).isEmpty {
            lines.append("drop: [\((dropped + unread).map { JSONText.quote($0) }.joined(separator: ", "))]")
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

extension MigrationStep {
    /// The step as `importer model diff` prints it: per entity and attribute, what is carried,
    /// renamed, widened, added, converted or removed, then what is refused.
    package var description: String {
        var text = "\(to.name) \(from.version) → \(to.version) (\(from.file) → \(to.file))\n"
        for mapping in entities {
            let entity = mapping.entity
            guard let source = mapping.source else {
                text += "  \(entity.name): added (table \(entity.table), empty)\n"
                continue
            }
            var title = "  \(entity.name)"
            if source.name != entity.name { title += ": renamed from \(source.name)" }
            if source.table != entity.table {
                title += "\(source.name != entity.name ? "," : ":") table \(source.table) → \(entity.table)"
            }
            text += title + (mapping.isUnchanged ? " (unchanged)\n" : "\n")
            if mapping.isUnchanged { continue }
            var unchanged: [String] = []
            for attribute in mapping.attributes {
                let new = attribute.attribute
                var line: String
                switch attribute.origin {
                case .carried(let index, let widenedFrom):
                    let old = source.attributes[index]
                    var changes: [String] = []
                    if old.name != new.name { changes.append("renamed from \(old.name)") }
                    if let widenedFrom { changes.append("widened \(widenedFrom.rawValue) → \(new.type.rawValue)") }
                    if new.required && !old.required {
                        changes.append("now required, nulls take the default \(new.defaultValue?.description ?? "")")
                    } else if attribute.needsCheck {
                        changes.append("stricter: stored values are checked")
                    }
                    if changes.isEmpty {
                        unchanged.append(new.name)
                        continue
                    }
                    line = changes.joined(separator: "; ")
                case .added:
                    line = "added" + (new.defaultValue.map { " (default \($0))" } ?? " (null)")
                case .converted(let conversion, _):
                    line = "converted: \(conversion)"
                }
                text +=
                    "    \(new.name.padding(toLength: max(14, new.name.count), withPad: " ", startingAt: 0)) \(line)\n"
            }
            for old in mapping.removed {
                text +=
                    "    \(old.name.padding(toLength: max(14, old.name.count), withPad: " ", startingAt: 0)) removed (its values are dropped)\n"
            }
            if !unchanged.isEmpty { text += "    unchanged: \(unchanged.joined(separator: ", "))\n" }
        }
        for entity in removedEntities {
            text += "  \(entity.name): removed (table \(entity.table) and its items are dropped)\n"
        }
        if !refusals.isEmpty {
            text += "  refused:\n"
            for refusal in refusals { text += "    \(refusal)\n" }
        }
        return text
    }
}

/// What a source does with a to-one reference that names no item (docs/pipeline.md#references).
package enum ReferencePolicy: String, Sendable, CaseIterable {
    /// The record is rejected (reason `reference`).
    case reject
    /// The relationship's key attributes are stored as null.
    case nullify
    /// The record is stored as it is, dangling.
    case keep
}

/// A source's reference policies: one for every to-one relationship, or one per relationship.
package struct ReferencePolicies: Sendable, Equatable {
    package var all: ReferencePolicy = .reject
    /// Relationship name → policy, over `all`.
    package var byRelationship: [String: ReferencePolicy] = [:]
    /// The line of `references:` in the pipeline file.
    package var line: Int?

    package init(all: ReferencePolicy = .reject, byRelationship: [String: ReferencePolicy] = [:], line: Int? = nil) {
        self.all = all
        self.byRelationship = byRelationship
        self.line = line
    }

    package func policy(for relationship: String) -> ReferencePolicy { byRelationship[relationship] ?? all }

    /// Refuses what cannot work for `entity` (exit 2): an unknown or to-many relationship, and
    /// `nullify` on a key attribute that is required, is the entity's key, or is another
    /// relationship's key too.
    func check(for entity: Entity, file: String, sourceLine: Int?) throws {
        let error = { (message: String) in
            ConfigurationError(file: file, line: line ?? sourceLine, key: "references", message)
        }
        for name in byRelationship.keys.sorted() {
            guard let relationship = entity.relationships.first(where: { $0.name == name }) else {
                throw error(
                    "'\(name)' is not a relationship of \(entity.name); it has \(entity.toOneRelationships.map(\.name).joined(separator: ", "))"
                )
            }
            guard relationship.isToOne else {
                throw error("'\(name)' is a to-many relationship; policies are for to-one relationships")
            }
        }
        for relationship in entity.toOneRelationships where policy(for: relationship.name) == .nullify {
            for key in relationship.keys {
                if entity.attribute(named: key)?.required == true {
                    throw error(
                        "nullify on '\(relationship.name)' would store null in '\(key)', which is required; use reject or keep"
                    )
                }
                if entity.keyAttributes.contains(key) {
                    throw error(
                        "nullify on '\(relationship.name)' would clear '\(key)', the key of \(entity.name); use reject or keep"
                    )
                }
                if let other = entity.toOneRelationships.first(where: {
                    $0.name != relationship.name && $0.keys.contains(key)
                }) {
                    throw error(
                        "nullify on '\(relationship.name)' would clear '\(key)', which is also the key of '\(other.name)'; use reject or keep"
                    )
                }
            }
        }
    }
}

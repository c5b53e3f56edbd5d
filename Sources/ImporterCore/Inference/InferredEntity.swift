/// An attribute inference proposes, from a column or made by the pipeline.
struct InferredAttribute {
    var name: String
    /// The source field it comes from (nil for `rowKey` and the version attribute).
    var field: String?
    /// Its column in the file's profile.
    var column: Int?
    var type: InferredType
    var required: Bool
    /// Comments written after it in the model.
    var notes: [String] = []
}

/// How an entity's records are identified.
enum InferredKey {
    /// One column, unique and never null: the hash key.
    case single(attribute: Int)
    /// Two columns, unique together and never null: hash key and range key.
    case pair(hash: Int, range: Int)
    /// No column or pair is a key: `rowKey`, computed by the pipeline from `fields` joined by
    /// `separator`. `duplicates` records repeat an earlier record's rowKey; `nulls` have a null
    /// in one of the fields (both are rejected by `importer run`, and reported).
    case computed(attribute: Int, fields: [String], separator: String, duplicates: Int, nulls: Int)
}

/// A to-one relationship suggested from a column's values and another entity's keys, or one of
/// the pair a document's nesting makes (a child's to-one to its parent, and the parent's
/// to-many to its children).
struct InferredRelationship {
    var name: String
    var destination: String
    /// The attribute holding the destination's hash key (unused by a to-many).
    var attribute: Int
    /// Non-null values of the attribute, and how many of them are destination keys.
    var values: Int
    var found: Int
    /// The attribute holding the destination's range key, when it has one (nesting only).
    var rangeAttribute: Int?
    /// Set for the relationships of a document's nesting: the other side's name.
    var inverse: String?
    var toMany = false

    var share: Double { values == 0 ? 0 : Double(found) / Double(values) }
}

/// Where a child entity's records are: the elements of an array in its parent's records
/// (docs/infer.md#documents).
struct Nesting {
    /// The parent entity's index in the model.
    var parent: Int
    /// The array's path in the parent's records.
    var arrayPath: [String]
    /// The child's to-one relationship to the parent.
    var relationship: String
    /// The attribute given the element's index, when the child is keyed by it.
    var position: String?
}

/// One entity (one input file): the model's part and the pipeline source's.
struct InferredEntity {
    var name: String
    var profile: FileProfile
    var attributes: [InferredAttribute] = []
    var key: InferredKey?
    var versionAttribute = "version"
    var relationships: [InferredRelationship] = []
    /// Source fields no attribute type holds (`map.drop`), with why.
    var dropped: [(field: String, reason: String)] = []
    /// The source's `map.dateFormat` (nil: iso8601, the default, or no dates).
    var dateFormat: String?
    /// The source's `csv.nullValues`.
    var nullValues: [String] = []
    /// `csv.columns` in place of a header whose names repeat or are empty.
    var columns: [String]?
    /// Comments written before the entity in the model.
    var notes: [String] = []
    /// Set for the elements of a document's array (nil: a file's records).
    var nesting: Nesting?

    /// Field → attribute, where a field's name is not the attribute's (`map.rename`).
    var renames: [(field: String, attribute: String)] {
        attributes.compactMap { attribute in
            guard let field = attribute.field, field != attribute.name, columns == nil else { return nil }
            return (field, attribute.name)
        }
    }

    /// The attribute names of the hash and range keys.
    var keyAttributes: (hash: String, range: String?)? {
        switch key {
        case .single(let index): return (attributes[index].name, nil)
        case .pair(let hash, let range): return (attributes[hash].name, attributes[range].name)
        case .computed(let index, _, _, _, _): return (attributes[index].name, nil)
        case nil: return nil
        }
    }

    /// Records `importer run` is expected to reject: unreadable, and rowKey duplicates or nulls.
    var expectedRejections: Int {
        var count = profile.failures
        if case .computed(_, _, _, let duplicates, let nulls) = key { count += duplicates + nulls }
        return count
    }

    func attribute(named name: String) -> InferredAttribute? { attributes.first { $0.name == name } }
}

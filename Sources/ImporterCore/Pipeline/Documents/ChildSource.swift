/// An array of objects inside a JSON source's documents that loads into a child entity, one
/// record per element (docs/documents.md).
package struct ChildSource: Sendable {
    /// The field holding the array, as its dotted path in the parent element (`lines`,
    /// `shipment.parcels`).
    package var path: [String]
    package var entity: String
    /// The child entity's to-one relationship to the parent, whose key attributes are filled
    /// from the parent's key; nil: the child entity's only to-one relationship to the parent's.
    package var parent: String?
    /// The attribute given the element's 0-based index in its array: with the parent's key,
    /// the key of elements without ids of their own.
    package var position: String?
    package var map: MapConfig
    /// Whether re-loading a document deletes the children of its parent that it no longer holds.
    package var replace = true
    /// What a document without the array's key at all means for the stored children.
    package var missing = MissingArray.empty
    package var children: [ChildSource] = []
    /// The child's line in the pipeline file.
    package var line: Int?

    package init(path: [String], entity: String, map: MapConfig = MapConfig(), line: Int? = nil) {
        self.path = path
        self.entity = entity
        self.map = map
        self.line = line
    }

    /// The path as the pipeline writes it.
    package var pathText: String { path.joined(separator: ".") }

    /// Whether this child or one under it loads `entity`.
    package func names(_ entity: String) -> Bool {
        self.entity == entity || children.contains { $0.names(entity) }
    }
}

/// What a document whose array key is absent means for its parent's stored children, when they
/// are replaced (docs/documents.md#missing-arrays).
package enum MissingArray: String, Sendable {
    /// No children: the stored ones are deleted, as for `[]`.
    case empty
    /// Nothing is said of them: the stored children stay as they are (a projection).
    case keep
}

/// What a document with an invalid element loses (docs/documents.md#rejections).
package enum DocumentPolicy: String, Sendable {
    /// The whole document: every record of it is rejected.
    case whole
    /// The invalid element and its descendants only.
    case partial
}

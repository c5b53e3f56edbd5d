/// The pipeline stage at which a record was rejected.
public enum Stage: String, Sendable, Codable {
    case read, map, validate, write
    /// Migrating an item or a record of an older model version to a newer one.
    case migrate
}

/// Why a record was rejected; reports group rejections by reason.
public enum RejectReason: String, Sendable, Codable, CaseIterable {
    /// The reader could not make a record of the text (CSV field count, quotes; invalid JSON).
    case malformed
    /// The record's text is not valid UTF-8.
    case encoding
    /// A field the model does not know, not dropped by the map stage.
    case unknownField
    /// A value that is not of its attribute's type.
    case type
    /// A null in a required attribute without default.
    case required
    /// A value outside its type's or attribute's range.
    case range
    case maxLength
    case pattern
    /// A value outside the attribute's `values` enumeration.
    case values
    /// A hash key already seen in this run (or already stored, in `insert` mode).
    case duplicate
    /// A to-one key that names no item of the destination entity.
    case reference
    /// The incoming version differs from the stored one (docs/writes.md).
    case conflict
    /// A migration's conversion failed (an unmapped value, text that is not a date, ...).
    case conversion
    /// The store refused the write.
    case constraint
    /// The record is larger than its source's `maxRecordBytes` (read), or the item larger than
    /// the store allows (write; DynamoDB: 400 KB).
    case size
}

/// A record's rejection: stage, reason and a message that says what is wrong.
package struct Rejection: Error, Sendable {
    package let stage: Stage
    package let reason: RejectReason
    /// The field or attribute at fault, when there is one.
    package let field: String?
    /// A `reference` rejection: the entity the reference names no item of.
    package let target: String?
    /// What is wrong, quoting the offending value cut at `valueLimit` characters (the record's
    /// raw text in rejects.ndjson keeps it whole).
    package let message: String

    /// A document's rejection: each problem found in it, where (docs/documents.md#rejections).
    package var problems: [DocumentProblem] = []
    /// For a record rejected with its document: where the document starts in its input, so
    /// that the report's examples come from different documents.
    package var documentOffset: Int64?

    /// The characters of a quoted value a message keeps.
    package static let valueLimit = 200

    package init(stage: Stage, reason: RejectReason, field: String? = nil, target: String? = nil, _ message: String) {
        self.stage = stage
        self.reason = reason
        self.field = field
        self.target = target
        self.message = message.utf8.count > Self.valueLimit ? Self.cuttingQuotedValues(message) : message
    }

    /// `message` with every stretch between two `'` longer than `valueLimit` characters cut.
    static func cuttingQuotedValues(_ message: String) -> String {
        message.split(separator: "'", omittingEmptySubsequences: false).map { part in
            part.count > valueLimit ? part.prefix(valueLimit) + "… (\(part.count) characters)" : part
        }.joined(separator: "'")
    }
}

extension Rejection {
    /// A record of `size` bytes, over its source's `maxRecordBytes` (`limit`): skipped unread.
    package static func oversized(size: Int64, limit: Int) -> Rejection {
        Rejection(
            stage: .read, reason: .size,
            "the record is \(size) bytes, more than the source's maxRecordBytes (\(limit)); it was skipped unread and its raw text holds its first \(SourceRecord.excerptBytes) bytes. Raise maxRecordBytes if such records are expected"
        )
    }
}

/// One problem of a rejected document: the JSON pointer of the element or field at fault
/// (`/districts/3/towns/17/latitude`) and the rejection found there.
package struct DocumentProblem: Sendable {
    package let pointer: String
    package let rejection: Rejection

    package init(pointer: String, rejection: Rejection) {
        self.pointer = pointer
        self.rejection = rejection
    }
}

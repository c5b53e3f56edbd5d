/// The keys of one document under the key checks (docs/documents.md): noted while its records
/// are checked, and recorded in the run's ledger only once the whole document has passed, so
/// that a rejected document leaves no key behind.
final class DocumentKeys {
    /// A reference that named no parent but did not reject its record (`nullify`, `keep`):
    /// counted once its document passed.
    struct MissingReference {
        let input: Int
        let relationship: String
        let target: String
        let action: ReferencePolicy
        let line: Int
        let key: Value
        let message: String
    }

    /// The document's keys so far, in order, with where each was read.
    private(set) var noted: [(fingerprint: UInt64, location: RecordLocation)] = []
    /// `noted` by fingerprint, once a document holds more keys than are worth comparing one by one.
    private var index: [UInt64: RecordLocation] = [:]
    private static let indexedFrom = 32
    var missing: [MissingReference] = []

    /// Whether the document holds the key with `fingerprint`.
    func contains(_ fingerprint: UInt64) -> Bool { location(of: fingerprint) != nil }

    /// Notes the key with `fingerprint`; where the document held it before, if it did.
    func note(_ fingerprint: UInt64, at location: RecordLocation) -> RecordLocation? {
        if let first = self.location(of: fingerprint) { return first }
        noted.append((fingerprint, location))
        if noted.count > Self.indexedFrom {
            if index.isEmpty { for (fingerprint, location) in noted { index[fingerprint] = location } }
            index[fingerprint] = location
        }
        return nil
    }

    /// Forgets everything, for the next document.
    func removeAll() {
        noted.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
        missing.removeAll(keepingCapacity: true)
    }

    private func location(of fingerprint: UInt64) -> RecordLocation? {
        if noted.count > Self.indexedFrom { return index[fingerprint] }
        return noted.first { $0.fingerprint == fingerprint }?.location
    }
}

/// The keys of one document under the key checks (docs/documents.md): kept while its records
/// are checked, and recorded in the run's ledger only once the whole document has passed, so
/// that a rejected document leaves no key behind. They are kept in the ledger itself, pending
/// (`KeyLedger.recordPending`), when it can hold them all in memory; else noted here.
final class DocumentKeys {
    /// A reference that named no parent but did not reject its record (`nullify`, `keep`):
    /// counted once its document passed.
    struct MissingReference {
        let input: Int
        let reference: KeyStage.Reference
        let line: Int
        /// The key of the record holding the reference.
        let key: Value
        /// The key it names, of no parent.
        let named: Value

        var message: String { reference.message(naming: named) }
    }

    /// Whether the document's keys are pending in the ledger, not noted here.
    var inLedger = false
    /// The document's keys so far, in order, with where each was read.
    var noted: [(fingerprint: UInt64, location: RecordLocation)] { table.noted }
    @exclusivity(unchecked) var missing: [MissingReference] = []
    /// The keys, in one property. Unchecked, as `missing`: the key stage's thread alone uses
    /// them, and no call reenters.
    @exclusivity(unchecked) private var table = Table()

    /// Whether the document holds the key with `fingerprint`.
    func contains(_ fingerprint: UInt64) -> Bool { table.location(of: fingerprint) != nil }

    /// Notes the key with `fingerprint`; where the document held it before, if it did.
    func note(_ fingerprint: UInt64, at location: RecordLocation) -> RecordLocation? {
        table.note(fingerprint, at: location)
    }

    /// The slots its table holds (16 bytes each).
    var slotCount: Int { table.slots.count }

    /// Forgets everything, for the next document.
    func removeAll() {
        missing.removeAll(keepingCapacity: true)
        table.removeAll()
    }

    private struct Table {
        var noted: [(fingerprint: UInt64, location: RecordLocation)] = []
        /// `noted` by fingerprint, once a document holds more keys than are worth comparing
        /// one by one: open addressing on the fingerprint itself (a uniform hash already), each
        /// slot stamped with the document it belongs to, so that forgetting a document clears
        /// nothing.
        var slots: [Slot] = []
        var document: UInt32 = 1
        static let indexedFrom = 32
        /// The most slots kept for the next document (1 MiB): a large document's table, and its
        /// list of keys, are freed with it, not held for the rest of the run.
        static let keptSlots = 1 << 16

        mutating func note(_ fingerprint: UInt64, at location: RecordLocation) -> RecordLocation? {
            if let first = self.location(of: fingerprint) { return first }
            noted.append((fingerprint, location))
            if noted.count > Self.indexedFrom {
                if noted.count * 2 > slots.count {
                    rebuild()
                } else if noted.count == Self.indexedFrom + 1 {
                    for position in noted.indices { index(position) }
                } else {
                    index(noted.count - 1)
                }
            }
            return nil
        }

        mutating func removeAll() {
            if slots.count > Self.keptSlots {
                (noted, slots, document) = ([], [], 1)
                return
            }
            noted.removeAll(keepingCapacity: true)
            if document == .max {
                slots = Array(repeating: Slot(), count: slots.count)
                document = 0
            }
            document += 1
        }

        func location(of fingerprint: UInt64) -> RecordLocation? {
            guard noted.count > Self.indexedFrom else {
                return noted.first { $0.fingerprint == fingerprint }?.location
            }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: fingerprint) & mask
            while slots[slot].document == document {
                if slots[slot].fingerprint == fingerprint { return noted[Int(slots[slot].noted)].location }
                slot = (slot + 1) & mask
            }
            return nil
        }

        /// Slots for twice the keys noted (at most half of them taken until the next rebuild:
        /// a large document's table is not four times its keys), and every key in its slot.
        private mutating func rebuild() {
            var size = 64
            while size < noted.count * 2 { size <<= 1 }
            slots = Array(repeating: Slot(), count: size)
            for position in noted.indices { index(position) }
        }

        private mutating func index(_ position: Int) {
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: noted[position].fingerprint) & mask
            while slots[slot].document == document { slot = (slot + 1) & mask }
            slots[slot] = Slot(fingerprint: noted[position].fingerprint, noted: Int32(position), document: document)
        }
    }

    private struct Slot {
        var fingerprint: UInt64 = 0
        /// Its key's index in `noted`.
        var noted: Int32 = 0
        /// The slot is empty unless this is the current `document`.
        var document: UInt32 = 0
    }
}

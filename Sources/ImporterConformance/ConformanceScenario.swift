import ImporterCore

/// One row of the store conformance table: a stored state, incoming records and write settings,
/// and what every store must end with. The same table runs against every `Store`.
package struct ConformanceScenario: Sendable {
    /// What one incoming record must lead to.
    package enum Outcome: Equatable, Sendable, CustomStringConvertible {
        case inserted, updated, unchanged, rolledBack
        case rejected(RejectReason)

        package var description: String {
            switch self {
            case .inserted: return "inserted"
            case .updated: return "updated"
            case .unchanged: return "unchanged"
            case .rolledBack: return "rolledBack"
            case .rejected(let reason): return "rejected(\(reason.rawValue))"
            }
        }
    }

    /// An incoming record and its expected outcome (and whether it is a version conflict).
    package struct Incoming: Sendable {
        package let entity: String
        package let item: Item
        package let outcome: Outcome
        package let conflict: Bool
    }

    /// A short name, unique in the table, that a test method is named after: each store's
    /// tests run the scenario `InsertCheckError` in `testInsertCheckError`.
    package let id: String
    package let name: String
    package let write: WriteConfig
    /// Items stored before the run (versions included), per entity.
    package let stored: [String: [Item]]
    /// Records written in this order, entities parents-first.
    package let incoming: [Incoming]
    /// `mode: sync` deletes from these entities what `incoming` lacks.
    package let synced: [String]
    /// The whole store afterwards, per entity (entities not named must be empty).
    package let expected: [String: [Item]]
    /// Sync: keys expected deleted (`Entity/key`), and whether the delete phase is refused.
    package let expectedDeleted: Set<String>
    package let expectedDenied: Set<String>
    package let expectDeletesRefused: Bool

    package init(
        id: String, name: String, write: WriteConfig, stored: [String: [Item]], incoming: [Incoming],
        synced: [String] = [],
        expected: [String: [Item]], expectedDeleted: Set<String> = [], expectedDenied: Set<String> = [],
        expectDeletesRefused: Bool = false
    ) {
        self.id = id
        self.name = name
        self.write = write
        self.stored = stored
        self.incoming = incoming
        self.synced = synced
        self.expected = expected
        self.expectedDeleted = expectedDeleted
        self.expectedDenied = expectedDenied
        self.expectDeletesRefused = expectDeletesRefused
    }
}

/// The model every conformance scenario uses.
package enum ConformanceModel {
    package static let yaml = """
        model: Conformance
        version: 1
        entities:
          Item:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              name:    { type: string }
              note:    { type: string }
              qty:     { type: int32 }
              version: { type: int64 }
          Owner:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              name:    { type: string }
              version: { type: int64 }
            relationships:
              pets:   { destination: Pet, toMany: true, inverse: owner, deleteRule: cascade }
              toys:   { destination: Toy, toMany: true, inverse: owner, deleteRule: nullify }
              cars:   { destination: Car, toMany: true, inverse: owner, deleteRule: deny }
              badges: { destination: Badge, toMany: true, inverse: owner, deleteRule: nullify }
          Pet:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              ownerId: { type: string, required: true }
              version: { type: int64 }
            relationships:
              owner: { destination: Owner, key: ownerId, inverse: pets }
          Toy:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              ownerId: { type: string }
              version: { type: int64 }
            relationships:
              owner: { destination: Owner, key: ownerId, inverse: toys }
          Car:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              ownerId: { type: string }
              version: { type: int64 }
            relationships:
              owner: { destination: Owner, key: ownerId, inverse: cars }
          Badge:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              ownerId: { type: string, required: true }
              version: { type: int64 }
            relationships:
              owner: { destination: Owner, key: ownerId, inverse: badges }
        """

    package static func load() throws -> Model {
        try ModelLoader.parse(text: yaml, file: "conformance.yaml")
    }

    /// The model of the scenarios on a (hash, range) key (`VersionScenarios.onCompositeKeys`):
    /// one entity, so that each scenario creates one table.
    package static let pairs = """
        model: ConformancePairs
        version: 1
        entities:
          Pair:
            hashKey: id
            rangeKey: part
            versionAttribute: version
            attributes:
              id:      { type: string }
              part:    { type: string }
              name:    { type: string }
              note:    { type: string }
              qty:     { type: int32 }
              version: { type: int64 }
        """

    package static func loadPairs() throws -> Model {
        try ModelLoader.parse(text: pairs, file: "conformance-pairs.yaml")
    }
}

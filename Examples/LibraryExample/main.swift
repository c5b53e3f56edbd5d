import Foundation
import ImporterCore
import ImporterSQLite

// Open (or create) a store for the newest version of a model.
let storePath = CommandLine.arguments.dropFirst().first ?? "out/library-example.sqlite"
let model = try ModelLoader.load(path: "SampleData/Locations/Model").newest
let store = try await ItemStore.open(store: SQLiteStore(path: storePath), model: model)
defer { store.close() }
try await tour(store)

// The calls are async; an async function (not top-level code, where Swift would pick their
// synchronous forms) awaits them.
func tour(_ store: ItemStore) async throws {
    let locations = try store.items("Location")
    let checkins = try store.items("Checkin")

    // Insert: the store gives version 1. Values are checked against the model.
    var cafe = try await locations.insert(
        Item([
            "locationId": .string("loc-cafe"), "displayName": .string("Café Zoë"),
            "createdAt": .date(1_709_288_130_000), "rating": .decimal("4.50"),
        ]))
    try await checkins.insert(
        Item([
            "checkinId": .string("chk-1"), "locationId": .string("loc-cafe"), "checkinTime": .date(1_709_300_000_000),
        ]))
    print("inserted at version", cafe["version"])

    // Update what you fetched: version + 1. A change based on an older version is refused.
    var stale = cafe
    cafe["displayName"] = .string("Café Zoë & Co")
    let renamed = try await locations.update(cafe)
    print("renamed at version", renamed["version"])
    stale["rating"] = .decimal("3.90")
    do {
        try await locations.update(stale)  // still based on version 1
    } catch ItemError.conflict(_, _, let stored, let incoming) {
        print("conflict: stored version \(stored), yours \(incoming)")
    }

    // A failed save is an error, never silent, and a call is all or nothing: the second check-in
    // names no stored location, so neither is written. `ItemError` says what the model refused;
    // any other error (`StoreError`: the disk, the network) means the store could not be written.
    do {
        try await checkins.insert([
            Item([
                "checkinId": .string("chk-2"), "locationId": .string("loc-cafe"),
                "checkinTime": .date(1_709_400_000_000),
            ]),
            Item([
                "checkinId": .string("chk-3"), "locationId": .string("loc-nowhere"),
                "checkinTime": .date(1_709_400_000_000),
            ]),
        ])
    } catch let error as ItemError {
        print("refused: \(error)")
    }
    print("check-ins stored:", try await checkins.count())

    // Several calls as one transaction: a new location and its first check-in, stored together or
    // not at all. The calls go through `tx`, and see the transaction's own writes.
    func addPier(to store: ItemStore) async throws {
        try await store.transaction { tx in
            try await tx.items("Location").insert(
                Item([
                    "locationId": .string("loc-pier"), "displayName": .string("Pier"),
                    "createdAt": .date(1_709_288_130_000),
                ]))
            try await tx.items("Checkin").insert(
                Item([
                    "checkinId": .string("chk-pier"), "locationId": .string("loc-pier"),
                    "checkinTime": .date(1_709_500_000_000),
                ]))
        }
    }
    try await addPier(to: store)
    print("after the transaction:", try await locations.count(), "locations,", try await checkins.count(), "check-ins")

    // Queries are values: filters, order and a limit; and a relationship followed from its parent.
    try await locations.insert(
        Item([
            "locationId": .string("loc-park"), "displayName": .string("Park"), "createdAt": .date(1_709_288_130_000),
            "rating": .decimal("4.8"),
        ]))
    let rated = try await locations.fetch(
        ItemQuery(.atLeast("rating", .integer(4)), sort: [.descending("rating")], limit: 10))
    print("rated 4 or more:", rated.map { "\($0["locationId"])" }.joined(separator: ", "))
    print("the café's check-ins:", try await checkins.fetch(relatedTo: .string("loc-cafe"), through: "location").count)

    // Or as a Codable type of your own: its properties are checked against the entity when the
    // typed store is opened (a property with no attribute, or of a type that cannot hold it, is
    // an ItemError.mapping naming both sides).
    struct Visit: Codable {
        var checkinId: String
        var locationId: String
        var checkinTime: Date
        var comment: String?
        var version: Int64?
    }
    let visits = try store.items(Visit.self, entity: "Checkin")
    let visit = try await visits.insert(
        Visit(checkinId: "chk-4", locationId: "loc-park", checkinTime: Date(), comment: "typed", version: nil))
    print("typed insert at version", visit.version ?? 0, "of", try await visits.count(), "check-ins")

    // A storage limit: at most 2 check-ins; an insert past it removes the oldest by time.
    let recent = try store.items(Visit.self, entity: "Checkin", limit: 2, by: \.checkinTime)
    try await recent.insert(
        Visit(checkinId: "chk-5", locationId: "loc-cafe", checkinTime: Date(), comment: nil, version: nil))
    print("kept:", try await recent.fetchAll().map(\.checkinId).sorted().joined(separator: ", "))

    // Every call is async (a synchronous form waits for it, outside async code), and a store is
    // Sendable: many tasks may share it.
    async let locationCount = locations.count()
    async let checkinCount = checkins.count()
    print("items, counted by two tasks:", try await locationCount + checkinCount)

    // Delete applies the delete rules: the café's check-ins go with it (cascade).
    try await locations.delete(renamed)
    print("left:", try await locations.count(), "locations,", try await checkins.count(), "check-ins")
}

import ImporterCore

/// The typed library API (`ItemStore.items(_:entity:)`) on a store, through the conformance
/// model: Codable values in and out at their versions, conflicts, delete rules, a storage
/// limit, and a type that does not fit refused when opened. Run by every store's tests.
package enum TypedItemsScenario {
    struct Thing: Codable, Equatable {
        var id: String
        var name: String?
        var note: String?
        var qty: Int32?
        var version: Int64?
    }

    struct Owner: Codable, Equatable {
        var id: String
        var name: String?
        var version: Int64?
    }

    struct Pet: Codable, Equatable {
        var id: String
        var ownerId: String
        var version: Int64?
    }

    /// Not a fit for `Item`: its `qty` is an int32.
    struct Misfit: Codable {
        var id: String
        var qty: String?
    }

    /// Runs the scenario on `store` (new and empty) and returns what went wrong; empty when it conforms.
    package static func run(on store: any Store & ItemAccess) throws -> [String] {
        let items = try ItemStore(store: store, model: try ConformanceModel.load())
        var problems: [String] = []
        func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { problems.append(problem()) }
        }

        let things = try items.items(Thing.self, entity: "Item")
        let first = try things.insert(Thing(id: "a", name: "Alpha", note: nil, qty: 3, version: nil))
        expect(first == Thing(id: "a", name: "Alpha", note: nil, qty: 3, version: 1), "insert returned \(first)")
        expect(try things.fetch(.string("a")) == first, "fetch did not return the inserted value")
        var changed = first
        changed.qty = 4
        expect(try things.update(changed).version == 2, "update did not give version 2")
        do {
            try things.update(first)
            problems.append("an update based on version 1 of a version 2 item was accepted")
        } catch ItemError.conflict(_, _, let stored, let incoming) {
            expect(stored == 2 && incoming == 1, "conflict named versions \(stored) and \(incoming)")
        }
        try things.upsert(Thing(id: "b", name: nil, note: "new", qty: nil, version: nil))
        expect(Set(try things.fetchAll().map(\.id)) == ["a", "b"], "fetchAll did not give a and b")
        try things.delete(try things.fetch(.string("a"))!)
        let left = try things.count()
        expect(left == 1, "delete left \(left) items")

        let owners = try items.items(Owner.self), pets = try items.items(Pet.self)
        try owners.insert(Owner(id: "o", name: "Olga", version: nil))
        try pets.insert(Pet(id: "p", ownerId: "o", version: nil))
        let owned = try pets.fetch(relatedTo: .string("o"), through: "owner").map(\.id)
        expect(owned == ["p"], "the owner's pets were \(owned)")
        try owners.delete(.string("o"))
        expect(try pets.count() == 0, "the cascade rule left the pet")

        // At most 2 items, the oldest by id removed ("b" is stored); one older than every kept one goes at once.
        let limited = try items.items(Thing.self, entity: "Item", limit: 2, by: \.id)
        for id in ["c", "d", "a0"] { try limited.insert(Thing(id: id, name: nil, note: nil, qty: nil, version: nil)) }
        let kept = Set(try limited.fetchAll().map(\.id))
        expect(kept == ["c", "d"], "a limit of 2 by id kept \(kept.sorted())")

        do {
            _ = try items.items(Misfit.self, entity: "Item")
            problems.append("a String property for an int32 attribute was accepted")
        } catch ItemError.mapping(_, let entity, let message) {
            expect(
                entity == "Item" && message.contains("qty") && message.contains("int32"), "mismatch said: \(message)")
        }
        return problems
    }
}

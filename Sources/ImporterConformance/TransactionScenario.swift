import ImporterCore

/// The library's transaction (`ItemStore.transaction(_:)`) on a store, through the conformance
/// model: calls of several entities applied together, none of them when the body throws or a
/// call fails, reads that see the transaction's writes, and the async form. Run by every
/// store's tests.
package enum TransactionScenario {
    /// Runs the scenario on `store` (new and empty) and returns what went wrong; empty when it conforms.
    package static func run(on store: any Store & ItemAccess) throws -> [String] {
        let items = try ItemStore(store: store, model: try ConformanceModel.load())
        var problems: [String] = []
        func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { problems.append(problem()) }
        }
        let owners = try items.items("Owner"), pets = try items.items("Pet")

        // A parent and its child, in one transaction: the child's reference sees the new parent.
        let seen = try items.transaction { tx -> Int in
            try tx.items("Owner").insert(Item(["id": .string("o1"), "name": .string("Ada")]))
            try tx.items("Pet").insert(Item(["id": .string("p1"), "ownerId": .string("o1")]))
            return try tx.items("Pet").count()
        }
        expect(seen == 1, "the transaction read \(seen) pets of its own, not 1")
        let stored = (try owners.count(), try pets.count())
        expect(stored == (1, 1), "a committed transaction stored \(stored.0) owners and \(stored.1) pets, not 1 and 1")

        // The body throws after two writes: neither is stored.
        do {
            try items.transaction { tx in
                try tx.items("Owner").insert(Item(["id": .string("o2")]))
                try tx.items("Pet").update(
                    Item(["id": .string("p1"), "ownerId": .string("o2"), "version": .integer(1)]))
                throw CancellationError()  // the body gives up
            }
            problems.append("a transaction whose body threw did not throw")
        } catch is CancellationError {}
        expect(try owners.fetch(.string("o2")) == nil, "an owner of a transaction whose body threw was stored")
        expect(
            try pets.fetch(.string("p1"))?["ownerId"] == .string("o1"),
            "a pet of a transaction whose body threw was changed")

        // A call that fails (a conflict) undoes the calls before it.
        do {
            try items.transaction { tx in
                try tx.items("Owner").insert(Item(["id": .string("o3")]))
                try tx.items("Pet").update(
                    Item(["id": .string("p1"), "ownerId": .string("o3"), "version": .integer(7)]))
            }
            problems.append("a transaction with a conflicting update did not throw")
        } catch let error as ItemError {
            expect(
                error == .conflict(entity: "Pet", key: .string("p1"), stored: 1, incoming: 7),
                "the conflict was \(error)")
        }
        expect(try owners.fetch(.string("o3")) == nil, "an owner of a failed transaction was stored")

        // A delete with its rule (cascade) and an insert, together.
        try items.transaction { tx in
            try tx.items("Owner").delete(.string("o1"))
            try tx.items("Owner").insert(Item(["id": .string("o4")]))
        }
        let left = try pets.count()
        expect(left == 0, "the cascade of a delete in a transaction left \(left) pets")
        expect(try owners.fetch(.string("o4"))?["version"] == .integer(1), "the insert beside a delete was not stored")
        return problems
    }

    /// The async forms: a transaction awaited from a task stores its writes together, sees
    /// them, and stores none of them when its body throws; awaited writes keep the version
    /// rules, and an awaited delete applies the delete rules.
    package static func runAsync(on store: any Store & ItemAccess) async throws -> [String] {
        var problems: [String] = []
        func expect(_ condition: Bool, _ problem: String) { if !condition { problems.append(problem) } }
        let items = try await ItemStore.open(store: store, model: try ConformanceModel.load())
        let seen = try await items.transaction { tx in
            try await tx.items("Owner").insert(Item(["id": .string("a1")]))
            try await tx.items("Pet").insert(Item(["id": .string("a2"), "ownerId": .string("a1")]))
            return try await tx.items("Pet").count()
        }
        expect(seen == 1, "an awaited transaction saw \(seen) pets of its own, not 1")
        let pets = try items.items("Pet"), owners = try items.items("Owner")
        let stored = try await pets.count()
        expect(stored == 1, "an awaited transaction stored \(stored) pets, not 1")
        do {
            try await items.transaction { tx in
                try await tx.items("Owner").insert(Item(["id": .string("a3")]))
                throw ItemError.unknownEntity("thrown by the body")
            }
            expect(false, "a transaction whose body threw did not rethrow")
        } catch ItemError.unknownEntity {}
        expect(try await owners.fetch(.string("a3")) == nil, "a transaction whose body threw stored its insert")
        let first = try await owners.fetch(.string("a1"))!
        var renamed = first
        renamed["name"] = .string("Ada")
        expect(try await owners.update(renamed)["version"] == .integer(2), "an awaited update did not give version 2")
        do {
            try await owners.update(first)  // still based on version 1
            expect(false, "an awaited update based on an older version was stored")
        } catch ItemError.conflict {}
        let toys = try items.items("Toy")
        try await toys.insert(Item(["id": .string("a4"), "ownerId": .string("a1")]))
        try await owners.delete(.string("a1"))
        let left = try await pets.count()
        expect(left == 0, "an awaited delete of an owner left \(left) pets (cascade)")
        let toy = try await toys.fetch(.string("a4"))
        expect(
            toy?["ownerId"] == .null && toy?["version"] == .integer(2),
            "an awaited delete of an owner left its toy as \(String(describing: toy)) (nullify: no owner, version 2)")
        return problems
    }
}

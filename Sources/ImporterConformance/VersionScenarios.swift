import ImporterCore

/// The version rules (docs/writes.md) as a table: every combination of mode × versions × mergePolicy, each meeting the
/// same stored items with the same incoming records (a new key, a new key that claims a
/// version, identical content, a replay, a blind update, a matching version, a conflicting
/// version). The expected outcomes below are written from those rules, case by case; they do not
/// call `VersionRules`.
package enum VersionScenarios {
    package static var all: [ConformanceScenario] {
        var scenarios: [ConformanceScenario] = []
        for mode in [WriteConfig.Mode.insert, .upsert, .replace, .sync] {
            for versions in [WriteConfig.Versions.check, .preserve, .ignore] {
                for policy in [WriteConfig.MergePolicy.error, .storeTrump, .objectTrump, .overwrite, .rollback] {
                    scenarios.append(scenario(mode, versions, policy))
                }
            }
        }
        return scenarios
    }

    /// The same table on an entity keyed by (id, part): every item shares one hash key, and the
    /// range key tells them apart, so a store that keyed by the hash key alone would fail it.
    package static var onCompositeKeys: [ConformanceScenario] {
        func pair(_ item: Item) -> Item {
            var pair = item
            pair["id"] = .string("k")
            pair["part"] = item["id"]
            return pair
        }
        return all.map { scenario in
            ConformanceScenario(
                id: scenario.id + "OnCompositeKey", name: scenario.name + ", on a (hash, range) key",
                write: scenario.write,
                stored: ["Pair": (scenario.stored["Item"] ?? []).map(pair)],
                incoming: scenario.incoming.map {
                    .init(entity: "Pair", item: pair($0.item), outcome: $0.outcome, conflict: $0.conflict)
                },
                synced: scenario.synced.isEmpty ? [] : ["Pair"],
                expected: ["Pair": (scenario.expected["Item"] ?? []).map(pair)],
                expectedDeleted: Set(
                    scenario.expectedDeleted.map {
                        "Pair/" + Value.pair(.string("k"), .string(String($0.dropFirst("Item/".count)))).description
                    }))
        }
    }

    static func item(_ id: String, _ name: String?, _ note: String?, _ qty: Int64?, version: Int64?) -> Item {
        var item = Item(["id": .string(id)])
        if let name { item["name"] = .string(name) }
        if let note { item["note"] = .string(note) }
        if let qty { item["qty"] = .integer(qty) }
        if let version { item["version"] = .integer(version) }
        return item
    }

    static let stored: [Item] = [
        item("same", "S", "n", 1, version: 3),
        item("replay", "R", "n", 1, version: 3),
        item("blind", "B", "n", 1, version: 3),
        item("match", "M", "n", 1, version: 3),
        item("conf", "C", nil, 5, version: 3),
        item("gone", "G", "n", 1, version: 3),
    ]

    static func scenario(
        _ mode: WriteConfig.Mode, _ versions: WriteConfig.Versions, _ configuredPolicy: WriteConfig.MergePolicy
    ) -> ConformanceScenario {
        var write = WriteConfig()
        write.mode = mode
        write.versions = versions
        write.mergePolicy = configuredPolicy
        write.maxDeletes = .count(100)
        // `replace` is upsert with mergePolicy overwrite, whatever the pipeline says.
        var expected = Expectations(
            versions: versions, policy: mode == .replace ? .overwrite : configuredPolicy,
            existing: mode == .insert,
            after: Dictionary(uniqueKeysWithValues: stored.map { ($0["id"].description, $0) }))
        expected.newKeys()
        expected.storedKeys()
        // `gone` is not in the input: only sync deletes it.
        if mode == .sync { expected.after["gone"] = nil }

        return ConformanceScenario(
            id: [mode.rawValue, versions.rawValue, configuredPolicy.rawValue].map {
                $0.prefix(1).uppercased() + $0.dropFirst()
            }.joined(),
            name: "mode \(mode.rawValue), versions \(versions.rawValue), mergePolicy \(configuredPolicy.rawValue)",
            write: write, stored: ["Item": stored], incoming: expected.incoming, synced: mode == .sync ? ["Item"] : [],
            expected: ["Item": Array(expected.after.values)], expectedDeleted: mode == .sync ? ["Item/gone"] : [])
    }
}

/// The incoming records of one scenario, with the outcome each must have and what the store
/// must hold after them.
private struct Expectations {
    let versions: WriteConfig.Versions
    let policy: WriteConfig.MergePolicy
    /// Insert mode: every stored key is a duplicate.
    let existing: Bool
    var after: [String: Item]
    var incoming: [ConformanceScenario.Incoming] = []

    init(versions: WriteConfig.Versions, policy: WriteConfig.MergePolicy, existing: Bool, after: [String: Item]) {
        self.versions = versions
        self.policy = policy
        self.existing = existing
        self.after = after
    }

    mutating func expect(
        _ record: Item, _ outcome: ConformanceScenario.Outcome, conflict: Bool = false, stores: Item? = nil
    ) {
        incoming.append(.init(entity: "Item", item: record, outcome: outcome, conflict: conflict))
        if let stores { after[record["id"].description] = stores }
    }

    /// Keys the store does not hold.
    mutating func newKeys() {
        // A new key: inserted at version 1 in every mode.
        expect(item("new", "N", nil, 1, version: nil), .inserted, stores: item("new", "N", nil, 1, version: 1))

        // A new key whose record claims version 4: a conflict under check.
        let newv = item("newv", "NV", nil, 1, version: 4)
        switch (versions, policy) {
        case (.preserve, _): expect(newv, .inserted, stores: item("newv", "NV", nil, 1, version: 4))
        case (.ignore, _): expect(newv, .inserted, stores: item("newv", "NV", nil, 1, version: 1))
        case (.check, .error): expect(newv, .rejected(.conflict), conflict: true)
        case (.check, .rollback): expect(newv, .rolledBack, conflict: true)
        case (.check, _): expect(newv, .inserted, conflict: true, stores: item("newv", "NV", nil, 1, version: 1))
        }
    }

    /// Keys the store holds: duplicates in insert mode, else the version rules decide.
    mutating func storedKeys() {
        let same = item("same", "S", "n", 1, version: nil)
        let replay = item("replay", "R", "n", 1, version: 2)
        let blind = item("blind", "B2", "n", 1, version: nil)
        let match = item("match", "M2", "n", 1, version: 3)
        let conf = item("conf", "C2", "new", nil, version: 2)
        guard !existing else {
            for record in [same, replay, blind, match, conf] { expect(record, .rejected(.duplicate)) }
            return
        }
        // Identical content, no version: nothing to write.
        expect(same, .unchanged)
        // A replay of an applied write (stored version = incoming + 1, same content).
        if versions == .preserve {
            expect(replay, .updated, stores: item("replay", "R", "n", 1, version: 2))
        } else {
            expect(replay, .unchanged)
        }
        // A blind write (no version): version + 1.
        expect(blind, .updated, stores: item("blind", "B2", "n", 1, version: 4))
        // Based on the stored version: version + 1 (preserve keeps the incoming version).
        expect(match, .updated, stores: item("match", "M2", "n", 1, version: versions == .preserve ? 3 : 4))
        // Based on version 2 while version 3 is stored: the merge policy decides.
        switch (versions, policy) {
        case (.preserve, _): expect(conf, .updated, stores: item("conf", "C2", "new", nil, version: 2))
        case (.ignore, _): expect(conf, .updated, stores: item("conf", "C2", "new", nil, version: 4))
        case (.check, .error): expect(conf, .rejected(.conflict), conflict: true)
        case (.check, .rollback): expect(conf, .rolledBack, conflict: true)
        case (.check, .overwrite):
            expect(conf, .updated, conflict: true, stores: item("conf", "C2", "new", nil, version: 4))
        case (.check, .objectTrump):
            expect(conf, .updated, conflict: true, stores: item("conf", "C2", "new", 5, version: 4))
        case (.check, .storeTrump):
            expect(conf, .updated, conflict: true, stores: item("conf", "C", "new", 5, version: 4))
        }
    }

    private func item(_ id: String, _ name: String, _ note: String?, _ count: Int64?, version: Int64?) -> Item {
        VersionScenarios.item(id, name, note, count, version: version)
    }
}

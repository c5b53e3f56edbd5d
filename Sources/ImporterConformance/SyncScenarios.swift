import ImporterCore

/// `mode: sync` deletes: vanished items, each delete rule, dependants in the input, and
/// `maxDeletes` refusing before anything is deleted.
package enum SyncScenarios {
    static func owner(_ id: String, version: Int64 = 1) -> Item {
        Item(["id": .string(id), "name": .string(id.uppercased()), "version": .integer(version)])
    }

    static func child(_ id: String, _ ownerId: String?, version: Int64 = 1) -> Item {
        var item = Item(["id": .string(id), "version": .integer(version)])
        if let ownerId { item["ownerId"] = .string(ownerId) }
        return item
    }

    static func unchanged(_ entity: String, _ item: Item) -> ConformanceScenario.Incoming {
        var record = item
        record["version"] = .null
        return .init(entity: entity, item: record, outcome: .unchanged, conflict: false)
    }

    static func write(maxDeletes: WriteConfig.DeleteLimit = .count(100)) -> WriteConfig {
        var write = WriteConfig()
        write.mode = .sync
        write.maxDeletes = maxDeletes
        return write
    }

    package static var all: [ConformanceScenario] { deleteRules + limits }

    /// Vanished items and each delete rule.
    static var deleteRules: [ConformanceScenario] {
        let items = (1...5).map { VersionScenarios.item("i\($0)", "I\($0)", nil, Int64($0), version: 2) }
        return [
            ConformanceScenario(
                id: "SyncDeletesMissingItems",
                name: "sync deletes the items missing from the input and keeps the rest",
                write: write(), stored: ["Item": items],
                incoming: [
                    unchanged("Item", items[0]),
                    .init(
                        entity: "Item", item: VersionScenarios.item("i2", "changed", nil, 2, version: nil),
                        outcome: .updated, conflict: false),
                    .init(
                        entity: "Item", item: VersionScenarios.item("i9", "new", nil, 9, version: nil),
                        outcome: .inserted, conflict: false),
                ],
                synced: ["Item"],
                expected: [
                    "Item": [
                        items[0], VersionScenarios.item("i2", "changed", nil, 2, version: 3),
                        VersionScenarios.item("i9", "new", nil, 9, version: 1),
                    ]
                ],
                expectedDeleted: ["Item/i3", "Item/i4", "Item/i5"]),
            ConformanceScenario(
                id: "CascadeDeletesDependants",
                name: "cascade deletes the dependants of a deleted item",
                write: write(),
                stored: [
                    "Owner": [owner("o1"), owner("o2")],
                    "Pet": [child("p1", "o1"), child("p2", "o1"), child("p3", "o2")],
                ],
                incoming: [unchanged("Owner", owner("o2"))], synced: ["Owner"],
                expected: ["Owner": [owner("o2")], "Pet": [child("p3", "o2")]],
                expectedDeleted: ["Owner/o1", "Pet/p1", "Pet/p2"]),
            ConformanceScenario(
                id: "NullifyClearsDependantsKeys",
                name: "nullify clears the key of the dependants, at version + 1",
                write: write(),
                stored: [
                    "Owner": [owner("o1"), owner("o2")], "Toy": [child("t1", "o1", version: 4), child("t2", "o2")],
                ],
                incoming: [unchanged("Owner", owner("o2"))], synced: ["Owner"],
                expected: ["Owner": [owner("o2")], "Toy": [child("t1", nil, version: 5), child("t2", "o2")]],
                expectedDeleted: ["Owner/o1"]),
            ConformanceScenario(
                id: "DenyKeepsAnItemWithDependants",
                name: "deny keeps an item that still has dependants, and reports it",
                write: write(),
                stored: ["Owner": [owner("o1"), owner("o2"), owner("o3")], "Car": [child("c1", "o1")]],
                incoming: [unchanged("Owner", owner("o3"))], synced: ["Owner"],
                expected: ["Owner": [owner("o1"), owner("o3")], "Car": [child("c1", "o1")]],
                expectedDeleted: ["Owner/o2"], expectedDenied: ["Owner/o1"]),
            ConformanceScenario(
                id: "NullifyOfARequiredKeyIsDenied",
                name: "nullify of a required key is refused like deny, and nothing of that item's cascade is deleted",
                write: write(),
                stored: [
                    "Owner": [owner("o1"), owner("o2")], "Badge": [child("b1", "o1")], "Pet": [child("p1", "o1")],
                ],
                incoming: [unchanged("Owner", owner("o2"))], synced: ["Owner"],
                expected: [
                    "Owner": [owner("o1"), owner("o2")], "Badge": [child("b1", "o1")], "Pet": [child("p1", "o1")],
                ],
                expectedDenied: ["Owner/o1"]),
            ConformanceScenario(
                id: "CascadeSparesDependantsInTheInput",
                name: "a cascade never deletes a dependant that is in the input",
                write: write(),
                stored: ["Owner": [owner("o1"), owner("o2")], "Pet": [child("p1", "o1"), child("p2", "o2")]],
                incoming: [
                    unchanged("Owner", owner("o2")), unchanged("Pet", child("p1", "o1")),
                    unchanged("Pet", child("p2", "o2")),
                ],
                synced: ["Owner", "Pet"],
                expected: ["Owner": [owner("o1"), owner("o2")], "Pet": [child("p1", "o1"), child("p2", "o2")]],
                expectedDenied: ["Owner/o1"]),
        ]
    }

    /// `maxDeletes` refusing before anything is deleted, or allowing up to the limit.
    static var limits: [ConformanceScenario] {
        let items = (1...5).map { VersionScenarios.item("i\($0)", "I\($0)", nil, Int64($0), version: 2) }
        return [
            ConformanceScenario(
                id: "MaxDeletesCountRefuses",
                name: "maxDeletes as a count refuses the delete phase before anything is deleted",
                write: write(maxDeletes: .count(2)), stored: ["Item": items],
                incoming: [unchanged("Item", items[0]), unchanged("Item", items[1])], synced: ["Item"],
                expected: ["Item": items], expectDeletesRefused: true),
            ConformanceScenario(
                id: "MaxDeletesPercentCountsCascades",
                name: "maxDeletes as a percentage counts cascaded deletes too",
                write: write(maxDeletes: .percent(50)),
                stored: [
                    "Owner": [owner("o1"), owner("o2")],
                    "Pet": [child("p1", "o1"), child("p2", "o1"), child("p3", "o1"), child("p4", "o2")],
                ],
                incoming: [unchanged("Owner", owner("o2"))], synced: ["Owner"],
                expected: [
                    "Owner": [owner("o1"), owner("o2")],
                    "Pet": [child("p1", "o1"), child("p2", "o1"), child("p3", "o1"), child("p4", "o2")],
                ],
                expectDeletesRefused: true),
            ConformanceScenario(
                id: "MaxDeletesPercentAllowsUpToTheLimit",
                name: "maxDeletes as a percentage allows deletes up to the limit",
                write: write(maxDeletes: .percent(60)), stored: ["Item": items],
                incoming: [unchanged("Item", items[0]), unchanged("Item", items[1])], synced: ["Item"],
                expected: ["Item": [items[0], items[1]]],
                expectedDeleted: ["Item/i3", "Item/i4", "Item/i5"]),
        ]
    }
}

import ImporterCore

/// Runs conformance scenarios against a store, through the same calls `importer run` makes:
/// `write` with `VersionRules`, `commit`, and `SyncDeletes` for sync.
package struct ConformanceRunner {
    package let model: Model
    /// The model of the scenarios on a (hash, range) key.
    package let pairModel: Model

    package init() throws {
        model = try ConformanceModel.load()
        pairModel = try ConformanceModel.loadPairs()
    }

    /// Every scenario of the table.
    package static var scenarios: [ConformanceScenario] {
        VersionScenarios.all + VersionScenarios.onCompositeKeys + SyncScenarios.all
    }

    /// Runs `scenario` on `store` (new and empty) and returns what differs from the table; an
    /// empty list means the store conforms.
    package func run(_ scenario: ConformanceScenario, on store: Store) throws -> [String] {
        let model =
            scenario.stored["Pair"] != nil || scenario.incoming.contains { $0.entity == "Pair" }
            ? pairModel : self.model
        try store.prepare(for: model)
        var preserve = WriteConfig()
        preserve.versions = .preserve
        for entityName in model.parentsFirstOrder {
            guard let items = scenario.stored[entityName] else { continue }
            let entity = model.entity(named: entityName)!
            _ = try store.write(
                try items.map { try record($0, entity) }, of: entity,
                rules: VersionRules(entity: entity, write: preserve))
        }
        try store.commit()

        var problems: [String] = []
        for entityName in model.parentsFirstOrder {
            let entity = model.entity(named: entityName)!
            let incoming = scenario.incoming.filter { $0.entity == entityName }
            guard !incoming.isEmpty else { continue }
            let outcomes = try store.write(
                try incoming.map { try record($0.item, entity) }, of: entity,
                rules: VersionRules(entity: entity, write: scenario.write))
            for (expected, actual) in zip(incoming, outcomes) {
                let got = outcome(actual.result)
                if got != expected.outcome || actual.conflict != expected.conflict {
                    problems.append(
                        "\(entityName) '\(expected.item["id"])': expected \(expected.outcome)\(expected.conflict ? " (conflict)" : ""), got \(got)\(actual.conflict ? " (conflict)" : "")"
                    )
                }
            }
        }
        try store.commit()

        if !scenario.synced.isEmpty {
            let inputKeys = Set(
                try scenario.incoming.map { incoming in
                    let entity = model.entity(named: incoming.entity)!
                    return "\(entity.name)/\(entity.key(of: try record(incoming.item, entity).values))"
                })
            let sync = SyncDeletes(model: model, store: store, limit: scenario.write.maxDeletes)
            let result = try sync.run(entities: scenario.synced.map { model.entity(named: $0)! }) { entity, key in
                inputKeys.contains("\(entity.name)/\(key)")
            }
            if (result.refused != nil) != scenario.expectDeletesRefused {
                problems.append(
                    "delete phase refused: expected \(scenario.expectDeletesRefused), got \(result.refused ?? "not refused")"
                )
            }
            let deleted = Set(result.deleted.map { "\($0.entity)/\($0.key)" })
            if deleted != scenario.expectedDeleted {
                problems.append("deleted: expected \(scenario.expectedDeleted.sorted()), got \(deleted.sorted())")
            }
            let denied = Set(result.denied.map { "\($0.entity)/\($0.key)" })
            if denied != scenario.expectedDenied {
                problems.append("denied: expected \(scenario.expectedDenied.sorted()), got \(denied.sorted())")
            }
        }

        for entity in model.entities {
            var actual: [String] = []
            try store.scan(entity) { values in actual.append(describe(values, entity)) }
            let expected = try (scenario.expected[entity.name] ?? []).map {
                describe(try record($0, entity).values, entity)
            }
            if actual.sorted() != expected.sorted() {
                problems.append(
                    "\(entity.name) stored:\n    expected \(expected.sorted())\n    got      \(actual.sorted())")
            }
        }
        return problems
    }

    private func record(_ item: Item, _ entity: Entity) throws -> PreparedRecord {
        for name in item.values.keys where entity.attributeIndex[name] == nil {
            throw ItemError.unknownAttribute(entity: entity.name, attribute: name)
        }
        return PreparedRecord(
            inputIndex: 0, line: 0, byteOffset: 0, raw: [], values: entity.attributes.map { item[$0.name] })
    }

    private func describe(_ values: [Value], _ entity: Entity) -> String {
        zip(entity.attributes, values).map { "\($0.name)=\($1)" }.joined(separator: " ")
    }

    private func outcome(_ result: WriteOutcome.Result) -> ConformanceScenario.Outcome {
        switch result {
        case .inserted: return .inserted
        case .updated: return .updated
        case .unchanged: return .unchanged
        case .rolledBack: return .rolledBack
        case .rejected(let rejection): return .rejected(rejection.reason)
        }
    }
}

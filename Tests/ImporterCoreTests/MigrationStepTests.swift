import XCTest
@testable import ImporterCore

/// The inferred steps, the explicit conversions and the refusals of docs/migration.md, on small models.
final class MigrationStepTests: XCTestCase {
    /// Version 1 of a model with one entity; `attributes` are YAML lines of `Item`.
    static func model(
        version: Int, entity: String = "Item", table: String? = nil, renamedFrom: String? = nil,
        _ attributes: [String]
    ) throws -> Model {
        var text = "model: M\nversion: \(version)\nentities:\n  \(entity):\n"
        if let table { text += "    table: \(table)\n" }
        if let renamedFrom { text += "    renamedFrom: \(renamedFrom)\n" }
        text += "    hashKey: id\n    versionAttribute: version\n    attributes:\n"
        text += (["id: { type: string }"] + attributes + ["version: { type: int64 }"]).map { "      \($0)\n" }.joined()
        return try ModelLoader.parse(text: text, file: "v\(version).yaml")
    }

    /// Migrates one item (values by name, the rest null) from `old` to `new`.
    func migrate(_ item: [String: Value], from old: Model, to new: Model, entity: String = "Item") throws -> Result<
        [String: Value], Rejection
    > {
        let plan = MigrationPlan(steps: [MigrationStep(from: old, to: new)], from: old, to: new)
        XCTAssertEqual(plan.refusals.map(\.description), [])
        let source = try XCTUnwrap(old.entity(named: entity))
        var values = source.attributes.map { item[$0.name] ?? .null }
        values[source.hashKeyIndex] = .string("k1")
        values[source.versionIndex] = .integer(7)
        let migrator = try XCTUnwrap(RecordMigrator(plan: plan, entity: entity))
        let target = try XCTUnwrap(new.entities.first)
        return migrator.migrate(values).map { Dictionary(uniqueKeysWithValues: zip(target.attributes.map(\.name), $0)) }
    }

    func refusals(from old: Model, to new: Model) -> [String] {
        MigrationStep(from: old, to: new).refusals.map(\.description)
    }

    // MARK: Inferred steps

    func testAddedAttributesAreNullOrTheirDefault() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }"])
        let v2 = try Self.model(
            version: 2,
            [
                "name: { type: string }", "note: { type: string }",
                "category: { type: string, required: true, default: misc }",
            ])
        let item = try migrate(["name": .string("a")], from: v1, to: v2).get()
        XCTAssertEqual(item["note"], .null)
        XCTAssertEqual(item["category"], .string("misc"))
        XCTAssertEqual(item["version"], .integer(7), "a migration keeps every item's version")
    }

    func testRemovedAttributesAreDropped() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }", "debug: { type: string }"])
        let v2 = try Self.model(version: 2, ["name: { type: string }"])
        XCTAssertEqual(MigrationStep(from: v1, to: v2).entities[0].removed.map(\.name), ["debug"])
        XCTAssertEqual(
            try migrate(["name": .string("a"), "debug": .string("x")], from: v1, to: v2).get().keys.sorted(),
            ["id", "name", "version"])
    }

    func testRenamedFromCarriesTheValue() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }"])
        let v2 = try Self.model(version: 2, ["title: { type: string, renamedFrom: name }"])
        XCTAssertEqual(try migrate(["name": .string("Café")], from: v1, to: v2).get()["title"], .string("Café"))
    }

    func testRenamesChainAcrossVersions() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }"])
        let v2 = try Self.model(version: 2, ["title: { type: string, renamedFrom: name }"])
        // Version 3 still says renamedFrom: name (copied from v2): the same name in v2 wins.
        let v3 = try Self.model(
            version: 3, ["title: { type: string, renamedFrom: name }", "label: { type: string, renamedFrom: title }"])
        XCTAssertFalse(MigrationStep(from: v2, to: v3).refusals.isEmpty, "title cannot be carried twice")
        let v3b = try Self.model(version: 3, ["label: { type: string, renamedFrom: title }"])
        let plan = try MigrationPlan(VersionedModel(versions: [v1, v2, v3b]), from: 1, to: 3)
        XCTAssertEqual(plan.steps.count, 2)
        let migrator = try XCTUnwrap(RecordMigrator(plan: plan, entity: "Item"))
        XCTAssertEqual(
            try migrator.migrate([.string("k"), .string("Café"), .integer(1)]).get(),
            [.string("k"), .string("Café"), .integer(1)])
        XCTAssertEqual(plan.to.entities[0].attributes.map(\.name), ["id", "label", "version"])
    }

    func testOptionalBecomesRequiredOnlyWithADefault() throws {
        let v1 = try Self.model(version: 1, ["size: { type: string }"])
        let withDefault = try Self.model(version: 2, ["size: { type: string, required: true, default: M }"])
        XCTAssertEqual(try migrate([:], from: v1, to: withDefault).get()["size"], .string("M"))
        XCTAssertEqual(try migrate(["size": .string("L")], from: v1, to: withDefault).get()["size"], .string("L"))
        let without = try Self.model(version: 2, ["size: { type: string, required: true }"])
        XCTAssertEqual(refusals(from: v1, to: without).count, 1)
        XCTAssertTrue(
            refusals(from: v1, to: without)[0].contains("v2.yaml:9: 'Item.size': becomes required without a default"),
            refusals(from: v1, to: without)[0])
    }

    /// A range key added, removed or replaced changes every item's identity: refused (docs/model.md#composite-keys).
    func testAChangeOfKeyIsRefused() throws {
        func keyed(_ version: Int, rangeKey: String?) throws -> Model {
            let text =
                "model: M\nversion: \(version)\nentities:\n  Item:\n    hashKey: id\n"
                + (rangeKey.map { "    rangeKey: \($0)\n" } ?? "")
                + "    versionAttribute: version\n    attributes:\n      id: { type: string }\n      day: { type: date }\n      seq: { type: int32 }\n      version: { type: int64 }\n"
            return try ModelLoader.parse(text: text, file: "v\(version).yaml")
        }
        let plain = try keyed(1, rangeKey: nil), byDay = try keyed(2, rangeKey: "day"),
            bySeq = try keyed(3, rangeKey: "seq")
        XCTAssertEqual(refusals(from: byDay, to: try keyed(3, rangeKey: "day")), [], "the same range key migrates")
        XCTAssertTrue(
            refusals(from: plain, to: byDay).first?.contains("a range key cannot be added") == true,
            "\(refusals(from: plain, to: byDay))")
        XCTAssertTrue(
            refusals(from: byDay, to: try keyed(3, rangeKey: nil)).first?.contains(
                "the range key day cannot be removed") == true)
        XCTAssertTrue(
            refusals(from: byDay, to: bySeq).first?.contains(
                "the range key must be the previous version's range key day") == true)
    }

    func testWideningTypeChanges() throws {
        let v1 = try Self.model(
            version: 1,
            [
                "a: { type: int16 }", "b: { type: int32 }", "c: { type: int64 }", "d: { type: float }",
                "e: { type: date }", "f: { type: boolean }", "g: { type: double }",
            ])
        let v2 = try Self.model(
            version: 2,
            [
                "a: { type: int32 }", "b: { type: int64 }", "c: { type: decimal }", "d: { type: double }",
                "e: { type: string }", "f: { type: string }", "g: { type: string }",
            ])
        let item = try migrate(
            [
                "a": .integer(-3), "b": .integer(70_000), "c": .integer(9_007_199_254_740_993), "d": .double(0.5),
                "e": .date(1_709_288_130_000), "f": .boolean(true), "g": .double(1.25),
            ], from: v1, to: v2
        ).get()
        XCTAssertEqual(item["a"], .integer(-3))
        XCTAssertEqual(item["b"], .integer(70_000))
        XCTAssertEqual(item["c"], .decimal("9007199254740993"), "exact, never through a double")
        XCTAssertEqual(item["d"], .double(0.5))
        XCTAssertEqual(item["e"], .string("2024-03-01T10:15:30.000Z"))
        XCTAssertEqual(item["f"], .string("true"))
        XCTAssertEqual(item["g"], .string("1.25"))
    }

    func testEntityAndTableRenames() throws {
        let v1 = try Self.model(version: 1, entity: "Place", table: "Places", ["name: { type: string }"])
        let v2 = try Self.model(
            version: 2, entity: "Venue", table: "Venues", renamedFrom: "Place", ["name: { type: string }"])
        let step = MigrationStep(from: v1, to: v2)
        XCTAssertEqual(step.refusals.map(\.description), [])
        XCTAssertEqual(step.entities[0].source?.name, "Place")
        XCTAssertEqual(step.removedEntities.map(\.name), [])
        XCTAssertTrue(step.description.contains("Venue: renamed from Place, table Places → Venues"), step.description)
        let plan = MigrationPlan(steps: [step], from: v1, to: v2)
        XCTAssertEqual(plan.currentName(ofEntity: "Place"), "Venue")
        XCTAssertEqual(plan.originalName(ofEntity: "Venue"), "Place")
    }

    func testStricterConstraintsAreCheckedPerItem() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }"])
        let v2 = try Self.model(version: 2, ["name: { type: string, maxLength: 3 }"])
        XCTAssertTrue(MigrationStep(from: v1, to: v2).entities[0].attributes[1].needsCheck)
        XCTAssertEqual(try migrate(["name": .string("abc")], from: v1, to: v2).get()["name"], .string("abc"))
        guard case .failure(let rejection) = try migrate(["name": .string("abcd")], from: v1, to: v2) else {
            return XCTFail("not checked")
        }
        XCTAssertEqual(rejection.stage, .migrate)
        XCTAssertEqual(rejection.reason, .maxLength)
        XCTAssertTrue(rejection.message.contains("migrating to version 2"), rejection.message)
    }

    // MARK: Explicit conversions

    func testConversions() throws {
        let v1 = try Self.model(
            version: 1,
            [
                "rating: { type: int16 }", "day: { type: string }", "first: { type: string }",
                "last: { type: string }", "full: { type: string }", "code: { type: string }",
            ])
        let v2 = try Self.model(
            version: 2,
            [
                #"mood: { type: string, convert: { from: rating, map: { "1": bad, "5": good }, otherwise: ok } }"#,
                #"stars: { type: string, values: [low, high], convert: { from: rating, map: { "1": low, "5": high } } }"#,
                #"visited: { type: date, convert: { from: day, datePattern: "dd/MM/yyyy" } }"#,
                #"name: { type: string, convert: { join: [first, last], separator: " " } }"#,
                #"surname: { type: string, convert: { from: full, split: " ", index: 1 } }"#,
                #"number: { type: int32, convert: { copy: code } }"#,
                #"source: { type: string, convert: { constant: legacy } }"#,
            ])
        XCTAssertEqual(refusals(from: v1, to: v2), [])
        let item = try migrate(
            [
                "rating": .integer(5), "day": .string("29/02/2024"), "first": .string("Ada"),
                "last": .string("Lovelace"),
                "full": .string("Grace Hopper"), "code": .string("0042"),
            ], from: v1, to: v2
        ).get()
        XCTAssertEqual(item["mood"], .string("good"))
        XCTAssertEqual(item["stars"], .string("high"))
        XCTAssertEqual(item["visited"], .date(1_709_164_800_000))
        XCTAssertEqual(item["name"], .string("Ada Lovelace"))
        XCTAssertEqual(item["surname"], .string("Hopper"))
        XCTAssertEqual(item["number"], .integer(42))
        XCTAssertEqual(item["source"], .string("legacy"))

        let sparse = try migrate(["rating": .integer(3), "first": .string("Ada")], from: v1, to: v2)
        guard case .failure(let unmapped) = sparse else { return XCTFail("rating 3 has no stars") }
        XCTAssertEqual(unmapped.reason, .conversion)
        XCTAssertEqual(unmapped.field, "stars")
        XCTAssertTrue(unmapped.message.contains("rating '3' has no entry in convert.map"), unmapped.message)

        let partial = try migrate(["first": .string("Ada"), "full": .string("Cher")], from: v1, to: v2).get()
        XCTAssertEqual(partial["mood"], .null, "a null maps to null")
        XCTAssertEqual(partial["name"], .string("Ada"), "nulls are left out of a join")
        XCTAssertEqual(partial["surname"], .null, "a missing part is null")

        guard case .failure(let badDate) = try migrate(["day": .string("2024-02-29")], from: v1, to: v2) else {
            return XCTFail("not a date")
        }
        XCTAssertEqual(badDate.field, "visited")
        guard case .failure(let badNumber) = try migrate(["code": .string("A7")], from: v1, to: v2) else {
            return XCTFail("not a number")
        }
        XCTAssertEqual(badNumber.field, "number")
    }

    func testAConversionKeptInTheNextVersionIsNotAppliedAgain() throws {
        let v1 = try Self.model(version: 1, ["rating: { type: int16 }"])
        let converted = #"mood: { type: string, convert: { from: rating, map: { "1": bad }, otherwise: ok } }"#
        let v2 = try Self.model(version: 2, ["rating: { type: int16 }", converted])
        let v3 = try Self.model(version: 3, ["rating: { type: int16 }", converted])
        guard case .converted = MigrationStep(from: v1, to: v2).entities[0].attributes[2].origin else {
            return XCTFail("not converted")
        }
        guard case .carried = MigrationStep(from: v2, to: v3).entities[0].attributes[2].origin else {
            return XCTFail("converted again")
        }
        XCTAssertTrue(MigrationStep(from: v2, to: v3).entities[0].isUnchanged)
    }

    // MARK: Refusals

    func testRefusalsNameFileLineAndAttribute() throws {
        let v1 = try Self.model(
            version: 1, ["count: { type: int64 }", "label: { type: string }", "size: { type: double }"])
        let v2 = try Self.model(
            version: 2,
            [
                "count: { type: int32 }",  // narrowing
                "label: { type: int64 }",  // not a widening
                "size: { type: double }",
                "extra: { type: string, required: true }",  // new, required, no default
                "other: { type: string, renamedFrom: nothing }",  // unknown rename
                "copied: { type: string, convert: { copy: missing } }",  // unknown input
            ])
        let found = refusals(from: v1, to: v2)
        XCTAssertEqual(found.count, 5, found.joined(separator: "\n"))
        XCTAssertTrue(found[0].hasPrefix("v2.yaml:9: 'Item.count': changes type from int64 to int32"), found[0])
        XCTAssertTrue(found[1].hasPrefix("v2.yaml:10: 'Item.label': changes type from string to int64"), found[1])
        XCTAssertTrue(found[2].hasPrefix("v2.yaml:12: 'Item.extra': is new and required without a default"), found[2])
        XCTAssertTrue(found[3].hasPrefix("v2.yaml:13: 'Item.other': renamedFrom 'nothing'"), found[3])
        XCTAssertTrue(found[4].hasPrefix("v2.yaml:14: 'Item.copied': convert reads 'missing'"), found[4])
        XCTAssertThrowsError(try MigrationPlan(VersionedModel(versions: [v1, v2]), from: 1, to: 2)) { error in
            XCTAssertTrue("\(error)".contains("cannot migrate version 1 to 2"), "\(error)")
        }
    }

    func testAChangedHashKeyIsRefused() throws {
        let v1 = try Self.model(version: 1, ["other: { type: string }"])
        let v2 = try ModelLoader.parse(
            text: """
                model: M
                version: 2
                entities:
                  Item:
                    hashKey: other
                    versionAttribute: version
                    attributes:
                      id: { type: string }
                      other: { type: string }
                      version: { type: int64 }
                """, file: "v2.yaml")
        XCTAssertTrue(
            refusals(from: v1, to: v2).contains {
                $0.contains("'Item.other': the hash key must be the previous version's hash key id")
            },
            refusals(from: v1, to: v2).joined(separator: "\n"))
    }

    func testBackwardMigrationsAreRefused() throws {
        let v1 = try Self.model(version: 1, ["name: { type: string }"])
        let v2 = try Self.model(version: 2, ["name: { type: string }", "note: { type: string }"])
        XCTAssertThrowsError(try MigrationPlan(VersionedModel(versions: [v1, v2]), from: 2, to: 1)) { error in
            XCTAssertTrue("\(error)".contains("migrations go forward only"), "\(error)")
        }
    }
}

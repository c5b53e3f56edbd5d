import XCTest
@testable import ImporterCore

/// Core Data models (docs/coredata.md): the Shop fixture is written the way Xcode writes `contents`
/// (an abstract parent entity, userInfo keys, a uniqueness constraint, a fetched property, a
/// Transformable and a transient attribute, a configuration, three versions of which the
/// second is current, and a renaming identifier).
final class CoreDataModelTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shop = root.appendingPathComponent("Tests/Fixtures/CoreData/Shop.xcdatamodeld").path

    func testEveryMappingOfTheShopModel() throws {
        let versions = try ModelLoader.load(path: Self.shop)
        XCTAssertEqual(versions.versions.map(\.version), [1, 2], "version 3 is newer than .xccurrentversion's")
        let model = try XCTUnwrap(versions.version(1))
        XCTAssertEqual(model.name, "Shop")
        XCTAssertEqual(model.entities.map(\.name), ["Product", "Store", "Supplier"], "Record is abstract")

        let store = try XCTUnwrap(model.entity(named: "Store"))
        XCTAssertEqual(store.table, "Stores")
        XCTAssertEqual(store.hashKey, "storeId")
        XCTAssertEqual(store.versionAttribute, "version", "inherited from Record's userInfo")
        XCTAssertEqual(
            store.attributes.prefix(3).map(\.name), ["createdAt", "note", "version"], "the parent's attributes first")
        XCTAssertEqual(store.attribute(named: "createdAt")?.required, true, "no optional=\"YES\": required")
        XCTAssertEqual(store.attribute(named: "note")?.required, false)
        XCTAssertEqual(store.attribute(named: "active")?.defaultValue, .boolean(true))
        XCTAssertEqual(
            store.attribute(named: "opened")?.defaultValue, .date(1_672_531_200_000),
            "694224000 s after 2001 is 2023-01-01")
        XCTAssertEqual(store.attribute(named: "rating")?.type, .decimal)
        XCTAssertEqual(store.attribute(named: "name")?.maxLength, 80, "a string's maxValueString is a length")
        XCTAssertEqual(store.attribute(named: "code")?.maxLength, 3)
        let products = try XCTUnwrap(store.relationships.first)
        XCTAssertEqual([products.name, products.destination, products.inverse], ["products", "Product", "store"])
        XCTAssertTrue(products.toMany)
        XCTAssertEqual(products.deleteRule, .cascade)

        let product = try XCTUnwrap(model.entity(named: "Product"))
        XCTAssertEqual(product.table, "Product")
        XCTAssertNil(product.attribute(named: "thumbnail"), "Transformable is left out with a warning")
        XCTAssertNil(product.attribute(named: "cachedLabel"), "transient is left out with a warning")
        XCTAssertEqual(product.attribute(named: "price")?.minimum, 0)
        XCTAssertEqual(product.attribute(named: "price")?.defaultValue, .double(0))
        XCTAssertEqual(product.attribute(named: "qty")?.type, .int32)
        XCTAssertEqual(product.attribute(named: "sku")?.pattern, "[A-Z]{2}-[0-9]+")
        XCTAssertEqual(product.relationships.map(\.name), ["store", "supplier"])
        XCTAssertEqual(product.relationships[0].keys, ["storeId"], "from the userInfo entry key")
        XCTAssertEqual(product.relationships[1].keys, ["supplierId"], "from the attribute named supplierId")
        XCTAssertNil(product.relationships[1].inverse)

        let supplier = try XCTUnwrap(model.entity(named: "Supplier"))
        XCTAssertEqual(supplier.hashKey, "supplierId", "from the uniqueness constraint")
        XCTAssertEqual(supplier.versionAttribute, "revision")
        XCTAssertEqual(supplier.attributes.map(\.type), [.uri, .binary, .int64, .uuid])
    }

    func testWhatIsNotUsedIsNamedInWarningsOnce() throws {
        let warnings = try ModelLoader.load(path: Self.shop).warnings.map(\.description)
        for expected in [
            "Shop 3.xcdatamodel: version 3 is newer than the current version 2",
            "contents:4: Product.cachedLabel is not imported: it is transient",
            "contents:10: Product.thumbnail is not imported: Transformable",
            "the minimum length 3 of Store.code is not checked",
            "fetched property Store.cheapProducts is not imported",
            "configuration 'Cloud' is not used",
        ] {
            XCTAssertEqual(warnings.filter { $0.contains(expected) }.count, 1, "\(expected) in \(warnings)")
        }
        XCTAssertEqual(warnings.count, 6, "\(warnings)")
    }

    func testRenamingIdentifiersBecomeRenamesOfTheMigration() throws {
        let versions = try ModelLoader.load(path: Self.shop)
        let v2 = try XCTUnwrap(versions.version(2))
        XCTAssertEqual(v2.entity(named: "Store")?.attribute(named: "title")?.renamedFrom, "name")
        let step = try XCTUnwrap(versions.steps(from: 1, to: 2).first)
        XCTAssertTrue(step.refusals.isEmpty, "\(step.refusals)")
        XCTAssertTrue(
            step.description.contains("name → title") || step.description.contains("renamed"), step.description)
        XCTAssertTrue(step.description.contains("qty"), step.description)
    }

    func testOneVersionPackageLoadsWithTheModelNameOfItsFolder() throws {
        let model = try ModelLoader.loadFile(Self.shop + "/Shop 2.xcdatamodel")
        XCTAssertEqual(model.name, "Shop")
        XCTAssertEqual(model.version, 2)
        XCTAssertEqual(model.checksum, try ModelLoader.load(path: Self.shop).version(2)?.checksum)
        XCTAssertEqual(CoreDataPackage.numbered("Locations 12.xcdatamodel").version, 12)
        XCTAssertEqual(CoreDataPackage.numbered("Locations.xcdatamodel").version, 1)
    }

    func testConvertingThereAndBackKeepsEveryChecksum() throws {
        let directory = NSTemporaryDirectory() + "coredata-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Core Data → YAML → Core Data.
        let shop = try ModelLoader.load(path: Self.shop)
        for version in shop.versions {
            let yaml = try ModelLoader.parse(text: ModelYAMLWriter.text(of: version), file: "shop.yaml")
            XCTAssertEqual(yaml.checksum, version.checksum)
        }
        try CoreDataPackageWriter.write(shop, to: directory + "/Shop.xcdatamodeld")
        XCTAssertEqual(
            try ModelLoader.load(path: directory + "/Shop.xcdatamodeld").versions.map(\.checksum),
            shop.versions.map(\.checksum))
        // YAML (the sample, with conversions, enumerations and a range-free model) → Core Data → YAML.
        let sample = try ModelLoader.load(path: Self.root.appendingPathComponent("SampleData/Locations/Model").path)
        try CoreDataPackageWriter.write(sample, to: directory + "/Locations.xcdatamodeld")
        let back = try ModelLoader.load(path: directory + "/Locations.xcdatamodeld")
        XCTAssertEqual(back.versions.map(\.checksum), sample.versions.map(\.checksum))
        XCTAssertEqual(
            try String(contentsOfFile: directory + "/Locations.xcdatamodeld/.xccurrentversion", encoding: .utf8)
                .contains("<string>Locations 3.xcdatamodel</string>"), true)
        XCTAssertThrowsError(try CoreDataPackageWriter.write(sample, to: directory + "/Other.xcdatamodeld"))
    }

    func testCompositeKeysAndTextThatNeedsEscapingSurviveTheRoundTrip() throws {
        let yaml = """
            model: Weather
            version: 1
            entities:
              Reading:
                table: "weird & <table>"
                hashKey: stationId
                rangeKey: hour
                versionAttribute: version
                attributes:
                  stationId: { type: string }
                  hour: { type: date }
                  note: { type: string, pattern: "^a\\"b<c>&\\\\d$", default: "line one\\nline\\ttwo", values: ["x, y", "line one\\nline\\ttwo"] }
                  version: { type: int64 }
              Alert:
                hashKey: alertId
                versionAttribute: version
                attributes:
                  alertId: { type: string }
                  stationId: { type: string }
                  hour: { type: date }
                  version: { type: int64 }
                relationships:
                  reading: { destination: Reading, key: [stationId, hour] }
            """
        let model = try ModelLoader.parse(text: yaml, file: "weather.yaml")
        let directory = NSTemporaryDirectory() + "coredata-\(UUID().uuidString)/Weather.xcdatamodeld"
        defer { try? FileManager.default.removeItem(atPath: FilePaths.directory(of: directory)) }
        try CoreDataPackageWriter.write(VersionedModel(versions: [model]), to: directory)
        let back = try ModelLoader.load(path: directory).newest
        XCTAssertEqual(back.checksum, model.checksum)
        XCTAssertEqual(back.entity(named: "Alert")?.relationships.first?.keys, ["stationId", "hour"])
        XCTAssertEqual(
            back.entity(named: "Reading")?.attribute(named: "note")?.defaultValue, .string("line one\nline\ttwo"))
        // Characters YAML does not allow unescaped, or would fold, written as escapes.
        let awkward = "a\u{7F}b\u{85}c\u{2028}d\u{9F}e\r"
        XCTAssertEqual(ModelText.quoted(awkward), #""a\u007Fb\u0085c\u2028d\u009Fe\u000D""#)
        let node = try YAMLNode.load(text: "x: " + ModelText.quoted(awkward), file: "t.yaml")
        XCTAssertEqual(try node.fields(allowed: ["x"])["x"]?.string(), awkward)
    }
}

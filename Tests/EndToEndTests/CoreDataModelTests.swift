import Foundation
import TestSupport
import XCTest

/// The sample through its Core Data model (SampleData/Locations/Locations.xcdatamodeld): the
/// same store as through the YAML model, migrations, archives and `model convert`.
final class CoreDataModelEndToEndTests: XCTestCase {
    static let sample = ImporterProcess.root.appendingPathComponent("SampleData/Locations").path
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Every row of every table, meta included (the model's checksum is in it).
    private func dump(_ store: String) throws -> String {
        try [#""AWS-Locations""#, "Checkin", "_importer_meta"].map {
            try ImporterProcess.sqlite(store, "SELECT * FROM \($0) ORDER BY 1")
        }.joined(separator: "\n")
    }

    func testTheSampleThroughTheXcdatamodeldWritesTheSameStoreAsThroughYAML() throws {
        for pipeline in ["Pipelines/locations.yaml", "Pipelines/locations-coredata.yaml"] {
            let run = try ImporterProcess.run(["run", pipeline, "--quiet"], environment: ["OUT_DIR": directory])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertFalse(run.stderr.contains("warning"), run.stderr)
        }
        let yaml = try dump(directory + "/locations.sqlite"),
            coreData = try dump(directory + "/locations-coredata.sqlite")
        XCTAssertTrue(yaml.contains("loc-00001|"), yaml)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                directory + "/locations-coredata.sqlite",
                #"SELECT (SELECT count(*) FROM "AWS-Locations"), (SELECT count(*) FROM Checkin)"#), "500|4000")
        XCTAssertEqual(coreData, yaml)
    }

    func testMigrateDiffAndArchivesWorkWithTheXcdatamodeld() throws {
        let model = Self.sample + "/Locations.xcdatamodeld"
        let pipeline = directory + "/migrate.yaml"
        try """
        name: coredata-migrate
        model: \(model)
        sources:
          - { entity: Location, path: \(Self.sample)/locations.csv, modelVersion: 1 }
        destination: { type: sqlite, path: \(directory)/store.sqlite }
        report: { directory: \(directory)/reports }
        """.write(toFile: pipeline, atomically: false, encoding: .utf8)
        XCTAssertEqual(
            try ImporterProcess.run(
                ["run", "Pipelines/locations-coredata.yaml", "--quiet"], environment: ["OUT_DIR": directory]
            ).status, 0)
        try FileManager.default.moveItem(
            atPath: directory + "/locations-coredata.sqlite", toPath: directory + "/store.sqlite")

        let diff = try ImporterProcess.run([
            "model", "diff", model + "/Locations.xcdatamodel", model + "/Locations 3.xcdatamodel",
        ])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("title          renamed from name"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("displayName    renamed from title"), diff.stdout)

        let migrate = try ImporterProcess.run(["migrate", pipeline, "--quiet"])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        let store = directory + "/store.sqlite"
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT from_version, to_version, items FROM _importer_migrations ORDER BY id"),
            "1|2|4500\n2|3|4500")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, #"SELECT displayName FROM "AWS-Locations" WHERE locationId = 'loc-00001'"#), "Café Zoë ☕")

        // An archive of a store with a Core Data model carries the model as YAML, same checksum.
        let archive = directory + "/backup.tar.zst"
        let export = try ImporterProcess.run(["export", pipeline, "--out", archive])
        XCTAssertEqual(export.status, 0, export.stderr)
        let unpacked = try CommandLineTools.unpack(archive, into: directory + "/unpacked")
        let modelYAML = try String(contentsOfFile: unpacked + "/model.yaml", encoding: .utf8)
        XCTAssertTrue(modelYAML.hasPrefix("model: Locations\nversion: 3\n"), modelYAML)
        try FileManager.default.removeItem(atPath: store)
        let restore = try ImporterProcess.run(["restore", archive, pipeline, "--quiet"])
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, #"SELECT count(*), min(displayName) FROM "AWS-Locations""#).prefix(4),
            "500|")
    }

    func testModelConvertWritesBothWaysAndRefusesAMisnamedPackage() throws {
        let yaml = try ImporterProcess.run([
            "model", "convert", Self.sample + "/Locations.xcdatamodeld", "--to", "yaml", "--out", directory + "/yaml",
        ])
        XCTAssertEqual(yaml.status, 0, yaml.stderr)
        XCTAssertTrue(yaml.stdout.contains("3 version(s), checksums unchanged"), yaml.stdout)
        for version in 1...3 {
            XCTAssertEqual(
                try ModelChecksum.of(directory + "/yaml/v\(version).yaml"),
                try ModelChecksum.of(Self.sample + "/Model/v\(version).yaml"))
        }
        let one = try ImporterProcess.run([
            "model", "convert", Self.sample + "/Model/v2.yaml", "--to", "xcdatamodeld", "--out", directory,
        ])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: directory + "/Locations.xcdatamodeld/Locations 2.xcdatamodel/contents"))
        let check = try ImporterProcess.run(["model", "check", directory + "/Locations.xcdatamodeld"])
        XCTAssertTrue(check.stdout.contains("Locations version 2: 2 entities"), check.stdout)

        let misnamed = try ImporterProcess.run([
            "model", "convert", Self.sample + "/Model", "--to", "xcdatamodeld", "--out",
            directory + "/Shop.xcdatamodeld",
        ])
        XCTAssertEqual(misnamed.status, 2)
        XCTAssertTrue(
            misnamed.stderr.contains("a Core Data model is named after its folder; write it to Locations.xcdatamodeld"),
            misnamed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/Shop.xcdatamodeld"))
    }
}

/// A model version's checksum as `importer model check` prints it.
enum ModelChecksum {
    static func of(_ path: String) throws -> String {
        let check = try ImporterProcess.run(["model", "check", path])
        guard let range = check.stdout.range(of: "checksum ") else { return "none: \(check.stderr)" }
        return String(check.stdout[range.upperBound...].prefix(64))
    }
}

import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// `SQLiteStore(configuration:dryRun:)` and its forms for each command: the store a pipeline's
/// `destination:` names (docs/pipeline.md), with the same checks for the CLI and a program.
final class SQLiteStoreConfigurationTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "store-config-\(UUID().uuidString)"
    var path: String { directory + "/store.sqlite" }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func pipeline() throws -> (PipelineConfig, Model) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try SkuModel.text.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try "sku\na\n".write(toFile: directory + "/products.csv", atomically: false, encoding: .utf8)
        let text = """
            model: \(directory)/model.yaml
            sources:
              - entity: Product
                path: \(directory)/products.csv
            destination: { path: \(path) }
            """
        return (
            try PipelineLoader().parse(text: text, file: directory + "/pipeline.yaml"),
            try ModelLoader.loadFile(directory + "/model.yaml")
        )
    }

    func testADryRunGetsNoStoreWhereThereIsNoneAndCreatesNothing() throws {
        let (config, model) = try pipeline()
        XCTAssertNil(try SQLiteStore.forRun(config, model: model, dryRun: true, acceptModelChange: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testARunCreatesAndPreparesTheStoreThatExportAndInspectThenOpen() throws {
        let (config, model) = try pipeline()
        let store = try XCTUnwrap(try SQLiteStore.forRun(config, model: model, dryRun: false, acceptModelChange: false))
        XCTAssertEqual(store.path, path)
        XCTAssertEqual(try store.recordedModel()?.version, 1)
        store.close()
        let reader = try SQLiteStore.forReading(config, model: model)
        XCTAssertEqual(try reader.count(of: model.entities[0]), 0)
        reader.close()
        let (inspected, recorded) = try SQLiteStore.forInspection(config)
        XCTAssertEqual(recorded.name, "Shop")
        inspected.close()
    }

    func testReadingOrMigratingAStoreThatDoesNotExistSaysWhatToDo() throws {
        let (config, model) = try pipeline()
        XCTAssertThrowsError(try SQLiteStore.forReading(config, model: model)) { error in
            XCTAssertEqual((error as? ConfigurationError)?.file, path)
            XCTAssertTrue("\(error)".contains("run the pipeline first"), "\(error)")
        }
        XCTAssertThrowsError(try SQLiteStore.forMigration(config)) { error in
            XCTAssertTrue("\(error)".contains("nothing to migrate"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testAFileThatIsNotAStoreIsAConfigurationError() throws {
        let (config, model) = try pipeline()
        try String(repeating: "not a database ", count: 100).write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try SQLiteStore.forRun(config, model: model, dryRun: false, acceptModelChange: false)) {
            XCTAssertEqual(($0 as? ConfigurationError)?.file, self.path, "\($0)")
        }
        XCTAssertThrowsError(try SQLiteStore.forInspection(config)) {
            XCTAssertTrue("\($0)".contains("not a store the importer can read"), "\($0)")
        }
    }
}

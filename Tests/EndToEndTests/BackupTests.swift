import Foundation
import TestSupport
import XCTest

/// `importer export` and `importer restore` through the command line (docs/archives.md): round trips
/// in every format and archive type, archives read by outside tools, and tampered or crafted
/// archives refused with exit 4 before anything is written.
final class BackupTests: XCTestCase {
    nonisolated(unsafe) static var fixture: BackupFixture!
    var fixture: BackupFixture { Self.fixture }
    var directory: String { fixture.directory }

    override class func setUp() {
        fixture = try! BackupFixture()
        try! fixture.fill()
    }

    override class func tearDown() { fixture.remove() }

    static let formats = ["ndjson": "ndjson", "csv": "csv", "dynamodb-json": "json"]
    static let archiveTypes = ["tar.gz", "tgz", "tar.zst", "tar.xz", "zip", "tar"]

    /// Exports the fixture's store; returns the archive's path.
    func export(format: String, type: String) throws -> String {
        let archive = directory + "/backup-\(format).\(type)"
        let pipeline = try fixture.writePipeline("export", store: fixture.store)
        let result = try ImporterProcess.run(["export", pipeline, "--out", archive, "--format", format])
        XCTAssertEqual(result.status, 0, result.stderr)
        return archive
    }

    /// Restores `archive` into a new store; returns the result and the store's path.
    func restore(_ archive: String) throws -> (ImporterProcess.Result, String) {
        let store = directory + "/restored-\(UUID().uuidString).sqlite"
        let pipeline = try fixture.writePipeline("restore", store: store)
        return (try ImporterProcess.run(["restore", archive, pipeline, "--quiet"]), store)
    }

    func testEveryFormatAndArchiveTypeRestoresTheStoreRowByRow() throws {
        let things = try fixture.rows(fixture.store, "Thing")
        let parts = try fixture.rows(fixture.store, "Part")
        XCTAssertEqual(
            try ImporterProcess.sqlite(fixture.store, "SELECT DISTINCT version FROM Thing ORDER BY 1"), "1\n2\n3")
        let nulls = try ImporterProcess.sqlite(
            fixture.store,
            "SELECT count(*) FROM Thing WHERE label IS NULL AND amount IS NULL AND at IS NULL AND flag IS NULL")
        XCTAssertGreaterThan(Int(nulls) ?? 0, 0, "the store holds nulls")
        for (format, ext) in Self.formats.sorted(by: { $0.key < $1.key }) {
            for type in Self.archiveTypes {
                let archive = try export(format: format, type: type)
                let (result, store) = try restore(archive)
                XCTAssertEqual(result.status, 0, "\(format) \(type): \(result.stderr)")
                XCTAssertEqual(try fixture.rows(store, "Thing"), things, "\(format) \(type)")
                XCTAssertEqual(try fixture.rows(store, "Part"), parts, "\(format) \(type)")
                let listing = try tool(
                    type == "zip" ? "/usr/bin/unzip" : "/usr/bin/tar",
                    type == "zip" ? ["-Z1", archive] : ["-tf", archive])
                XCTAssertEqual(
                    listing, ["manifest.json", "model.yaml", "data/Thing.\(ext)", "data/Part.\(ext)"],
                    "\(format) \(type)")
            }
        }
    }

    func testManifestCountsSizesAndChecksumsMatchTheDataAsTarExtractsIt() throws {
        let archive = try export(format: "ndjson", type: "tar.zst")
        let extracted = directory + "/extracted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        _ = try tool("/usr/bin/tar", ["-xf", archive, "-C", extracted])
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: extracted + "/manifest.json")))
            as! [String: Any]
        XCTAssertEqual(manifest.int("formatVersion"), 1)
        XCTAssertEqual(manifest.object("model").string("name"), "Everything")
        XCTAssertEqual(manifest.object("model").int("version"), 1)
        for entity in manifest.objects("entities") {
            let file = extracted + "/" + entity.string("file")!
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertEqual(entity.int("bytes"), data.count)
            XCTAssertEqual(
                entity.string("sha256"),
                try tool("/usr/bin/sha256sum", [file]).first?.split(separator: " ").first.map(String.init))
            let table = entity.string("entity")!
            XCTAssertEqual(
                String(entity.int("items")), try ImporterProcess.sqlite(fixture.store, "SELECT count(*) FROM \(table)"))
        }
        XCTAssertEqual(try String(contentsOfFile: extracted + "/model.yaml", encoding: .utf8), BackupFixture.model)
    }

    func testCSVDataIsReadBySQLiteImport() throws {
        let archive = try export(format: "csv", type: "tar.gz")
        let extracted = directory + "/csv-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        _ = try tool("/usr/bin/tar", ["-xzf", archive, "-C", extracted, "data/Thing.csv"])
        let imported = extracted + "/imported.sqlite"
        _ = try tool("/usr/bin/sqlite3", [imported, ".import --csv \(extracted)/data/Thing.csv Thing"])
        // sqlite3 .import reads every cell as text; a null comes back as ''.
        let query =
            "SELECT json_group_array(json_array(CAST(id AS INTEGER), coalesce(label, ''), coalesce(amount, ''), CAST(version AS INTEGER))) FROM (SELECT * FROM Thing ORDER BY CAST(id AS INTEGER))"
        XCTAssertEqual(try ImporterProcess.sqlite(imported, query), try ImporterProcess.sqlite(fixture.store, query))
        XCTAssertEqual(try ImporterProcess.sqlite(imported, "SELECT count(*) FROM Thing"), "300")
    }

    func testDynamoDBJSONLinesAreReadByBoto3TypeDeserializer() throws {
        let archive = try export(format: "dynamodb-json", type: "tar.gz")
        let extracted = directory + "/ddb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        _ = try tool("/usr/bin/tar", ["-xzf", archive, "-C", extracted, "data/Thing.json"])
        let script = """
            import json, sys
            from boto3.dynamodb.types import TypeDeserializer
            d = TypeDeserializer()
            def value(typed):
                try:
                    return d.deserialize(typed)
                except Exception:
                    # Beyond DynamoDB's number range (1e-130 .. 1e126), which doubles exceed: boto3
                    # refuses it as DynamoDB would; the exact text is still there.
                    number = float(typed["N"])
                    assert abs(number) >= 1e126 or abs(number) < 1e-130, typed
                    return number
            rows = []
            for line in open(sys.argv[1], encoding="utf-8"):
                item = {k: value(v) for k, v in json.loads(line)["Item"].items()}
                rows.append([int(item["id"]), item.get("label"), str(item["amount"]) if "amount" in item else None,
                             item.get("flag"), int(item["version"]), item.get("at"), repr(float(item["ratio"]))])
            rows.sort(key=lambda row: row[0])
            print(json.dumps(rows, ensure_ascii=False))
            """
        let read = try tool("/usr/bin/env", ["python3", "-c", script, extracted + "/data/Thing.json"]).joined()
        let stored = try ImporterProcess.sqlite(
            fixture.store,
            """
            SELECT json_group_array(json_array(id, label, amount, CASE flag WHEN 1 THEN json('true') WHEN 0 THEN json('false') END,
                                               version, at, quote(ratio)))
            FROM (SELECT * FROM Thing ORDER BY id)
            """)
        let fromBoto3 = try JSONSerialization.jsonObject(with: Data(read.utf8)) as! [[Any]]
        let fromStore = try JSONSerialization.jsonObject(with: Data(stored.utf8)) as! [[Any]]
        XCTAssertEqual(fromBoto3.count, 300)
        for (outside, inside) in zip(fromBoto3, fromStore) {
            XCTAssertEqual(Array(outside.prefix(6)) as NSArray, Array(inside.prefix(6)) as NSArray)
            XCTAssertEqual(Double(outside[6] as! String), Double(inside[6] as! String), "\(outside)")
        }
    }

    func testTamperedArchivesAreRefusedWithNothingWritten() throws {
        let archive = try export(format: "ndjson", type: "tar.gz")
        let cases: [(mode: String, argument: String, message: String)] = [
            ("flip", "data/Part.ndjson", "SHA-256"),
            ("count", "Thing", "items, but the manifest says"),
            ("add", "data/Extra.ndjson", "not listed in the manifest"),
            ("drop", "data/Part.ndjson", "missing from the archive"),
            ("path", "../escape-\(UUID().uuidString)", "unsafe path"),
            ("path", "/tmp/importer-absolute-\(UUID().uuidString)", "unsafe path"),
            ("path", "data/../../escape-\(UUID().uuidString)", "unsafe path"),
            ("symlink", "data/Thing.ndjson", "is a link to '/etc/passwd'"),
        ]
        for (index, item) in cases.enumerated() {
            let crafted = directory + "/crafted-\(index).tar.gz"
            _ = try tool(
                "/usr/bin/env", ["python3", "-c", Self.craftScript, item.mode, archive, crafted, item.argument])
            let (result, store) = try restore(crafted)
            XCTAssertEqual(result.status, 4, "\(item.mode) \(item.argument): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(item.message), "\(item.mode): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("nothing was written"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: store), "\(item.mode): no store is created")
            if item.mode == "path" {
                let name = (item.argument as NSString).lastPathComponent
                for parent in [directory + "/..", ImporterProcess.root.path + "/..", "/tmp"] {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: parent + "/" + name), "nothing lands outside")
                }
            }
        }
        // A zip with a path escaping upwards, and the intact archive restores.
        let zip = directory + "/crafted.zip"
        _ = try tool(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sys, tarfile, zipfile
                with tarfile.open(sys.argv[1]) as t, zipfile.ZipFile(sys.argv[2], "w") as z:
                    for m in t.getmembers():
                        z.writestr(m.name, t.extractfile(m).read())
                    z.writestr("../zip-escape", b"x")
                """, archive, zip,
            ])
        let (refused, _) = try restore(zip)
        XCTAssertEqual(refused.status, 4, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("'../zip-escape' has an unsafe path"), refused.stderr)
        let (intact, store) = try restore(archive)
        XCTAssertEqual(intact.status, 0, intact.stderr)
        XCTAssertEqual(try fixture.rows(store, "Part"), try fixture.rows(fixture.store, "Part"))
    }

    /// An archive of version 1 restores into version 2 only through version 1 as the archive
    /// has it: a model directory without it, or with an edited version 1, is refused.
    func testAnArchiveWhoseVersionTheModelDirectoryLacksOrChangedIsRefused() throws {
        let archive = try export(format: "ndjson", type: "tar.gz")
        let otherModel = directory + "/model-v2"
        try FileManager.default.createDirectory(atPath: otherModel, withIntermediateDirectories: true)
        try BackupFixture.model.replacingOccurrences(of: "version: 1", with: "version: 2")
            .write(toFile: otherModel + "/v2.yaml", atomically: false, encoding: .utf8)
        let store = directory + "/other.sqlite"
        let pipeline = directory + "/other.yaml"
        try
            "model: \(otherModel)\nsources: [{ entity: Thing, path: absent.ndjson }]\ndestination: { path: \"\(store)\" }\n"
            .write(toFile: pipeline, atomically: false, encoding: .utf8)
        let missing = try ImporterProcess.run(["restore", archive, pipeline])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(
            missing.stderr.contains("the archive holds Everything version 1, which \(otherModel) does not have"),
            missing.stderr)

        try BackupFixture.model.replacingOccurrences(
            of: "note:    { type: string }", with: "note:    { type: string, maxLength: 9 }"
        )
        .write(toFile: otherModel + "/v1.yaml", atomically: false, encoding: .utf8)
        let edited = try ImporterProcess.run(["restore", archive, pipeline])
        XCTAssertEqual(edited.status, 2, edited.stderr)
        XCTAssertTrue(edited.stderr.contains("the model file was edited after the export"), edited.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))
    }

    func testExportOfAStoreThatDoesNotExistIsAConfigurationError() throws {
        let pipeline = try fixture.writePipeline("missing", store: directory + "/never.sqlite")
        let result = try ImporterProcess.run(["export", pipeline, "--out", directory + "/never.tar.gz"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("the store does not exist yet"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/never.tar.gz"))
    }

    /// Rewrites an archive (`mode`: flip a byte of an entry, raise a manifest count, add, drop,
    /// add an entry with a crafted path, or replace an entry with a symlink).
    static let craftScript = """
        import io, json, sys, tarfile
        mode, source, target, argument = sys.argv[1:5]
        with tarfile.open(source) as archive:
            members = [(m.name, archive.extractfile(m).read()) for m in archive.getmembers()]
        out = tarfile.open(target, "w:gz")
        def add(name, data):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            out.addfile(info, io.BytesIO(data))
        for name, data in members:
            if mode == "flip" and name == argument:
                data = bytearray(data)
                data[len(data) // 2] ^= 1
                data = bytes(data)
            if mode == "count" and name == "manifest.json":
                manifest = json.loads(data)
                next(e for e in manifest["entities"] if e["entity"] == argument)["items"] += 1
                data = json.dumps(manifest).encode()
            if mode == "drop" and name == argument:
                continue
            if mode == "symlink" and name == argument:
                info = tarfile.TarInfo(name)
                info.type = tarfile.SYMTYPE
                info.linkname = "/etc/passwd"
                out.addfile(info)
                continue
            add(name, data)
        if mode in ("add", "path"):
            add(argument, b'{"id": 1}\\n')
        out.close()
        """

    /// Runs a tool; its output lines. Fails the test on a non-zero exit.
    func tool(_ path: String, _ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(path) \(arguments): \(errorText)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

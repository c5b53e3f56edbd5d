import XCTest
@testable import ImporterCore

final class PipelineLoaderTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "pipeline-\(UUID().uuidString)"

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        for name in ["a.csv", "b.csv", "c.ndjson.gz"] {
            FileManager.default.createFile(atPath: directory + "/data/" + name, contents: Data())
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func write(_ text: String) -> String {
        let file = directory + "/p.yaml"
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func testVariablesDefaultsOverridesRelativePathsAndGlobs() throws {
        let file = write(
            """
            name: ${NAME:-nightly}
            model: ../models/${MODEL}
            sources:
              - entity: Location
                path: data/*.csv
              - entity: Checkin
                path: ./data/c.ndjson.gz
                map: { rename: { time: checkinTime }, drop: [debug], defaults: { comment: "" }, dateFormat: epochMillis }
            destination: { type: sqlite, path: "${OUT:-out}/store.sqlite" }
            write: { mode: sync, batchSize: 1000, maxDeletes: 5%, maxWCU: 250.5 }
            retry: { mode: standard }
            errors: { maxErrors: 10, maxErrorRatio: 0.5 }
            """)
        let loader = PipelineLoader(
            variables: ["OUT": "/tmp/x"], environment: ["MODEL": "Locations", "OUT": "ignored"])
        let config = try loader.load(path: file)
        XCTAssertEqual(config.name, "nightly")
        XCTAssertEqual(config.modelPath, (directory as NSString).deletingLastPathComponent + "/models/Locations")
        XCTAssertEqual(config.sources[0].paths, [directory + "/data/a.csv", directory + "/data/b.csv"])
        XCTAssertEqual(config.sources[1].paths, [directory + "/data/c.ndjson.gz"])
        XCTAssertEqual(config.sources[1].map.rename, ["time": "checkinTime"])
        XCTAssertEqual(config.sources[1].map.dateFormat, .epochMillis)
        XCTAssertEqual(config.destination.path, "/tmp/x/store.sqlite")
        XCTAssertEqual(config.write.mode, .sync)
        XCTAssertEqual(config.write.maxDeletes, .percent(5))
        XCTAssertEqual(config.write.maxWCU, 250.5)
        XCTAssertEqual(config.retry.mode, .standard)
        XCTAssertEqual(config.errors.maxErrors, 10)
    }

    func testUnknownKeysAndUnsetVariablesNameFileAndLine() {
        let cases: [(String, Int, String)] = [
            ("model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    formt: csv\n", 5, "unknown key"),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\nwrite: { mode: merge }\n", 5,
                "unknown mode 'merge'"
            ),
            ("model: ${MISSING}\nsources:\n  - entity: A\n    path: data/a.csv\n", 1, "variable 'MISSING' is not set"),
            ("model: m\nsources:\n  - entity: A\n    path: data/none.csv\n", 4, "does not exist"),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    csv: { delimiter: \";;\" }\n", 5,
                "single ASCII character"
            ),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\nerrors: { maxErrorRatio: 2 }\n", 5,
                "between 0 and 1"
            ),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\nwrite:\n  maxWCU: 0\n", 6,
                "maxWCU must be a positive number"
            ),
            ("model: m\nsources:\n  - entity: A\n    path: data/a.csv\nwrite: { maxWCU: -5 }\n", 5, "found '-5'"),
            ("model: m\nsources:\n  - entity: A\n    path: data/a.csv\nwrite: { maxWCU: lots }\n", 5, "found 'lots'"),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\nretry: { mode: legacy }\n", 5,
                "unknown retry mode 'legacy'"
            ),
            ("model: m\nsources: [\n", 3, "not valid YAML"),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    map:\n      compute:\n        id: \"{store\"\n",
                7,
                "map.compute 'id': a '{' has no closing '}'"
            ),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    map:\n      compute: { id: \"fixed\" }\n",
                6,
                "it uses no source field"
            ),
            (
                "model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    encoding: ebcdic\n", 5,
                "unknown encoding 'ebcdic'; use utf-8 (the default), utf-16le, utf-16be, utf-16 (with a byte order mark), windows-1252 (cp1252) or iso-8859-1 (latin1)"
            ),
        ]
        for (text, line, message) in cases {
            let file = write(text)
            XCTAssertThrowsError(try PipelineLoader(environment: [:]).load(path: file)) { error in
                let description = "\(error)"
                XCTAssertTrue(description.hasPrefix("\(file):\(line)"), description)
                XCTAssertTrue(description.contains(message), description)
            }
        }
    }

    func testEncodingNamesAreCaseInsensitiveWithAliases() throws {
        let cases: [(String, TextEncoding?)] = [
            ("", nil), ("encoding: UTF-8", .utf8), ("encoding: utf-16LE", .utf16LE), ("encoding: UTF-16BE", .utf16BE),
            ("encoding: utf-16", .utf16), ("encoding: CP1252", .windows1252), ("encoding: Windows-1252", .windows1252),
            ("encoding: latin1", .iso88591), ("encoding: ISO-8859-1", .iso88591),
        ]
        for (line, expected) in cases {
            let file = write("model: m\nsources:\n  - entity: A\n    path: data/a.csv\n    \(line)\n")
            XCTAssertEqual(try PipelineLoader(environment: [:]).load(path: file).sources[0].encoding, expected, line)
        }
    }
}

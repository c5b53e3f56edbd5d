import ImporterCore
import Foundation

/// Pipeline files and dumps for the DynamoDB tests: the sample Locations and generated Checkins.
enum TestPipelines {
    static let sample = ImporterBinary.root.appendingPathComponent("SampleData/Locations")

    /// `count` Checkins as NDJSON, at the sample's Locations; `comment(i)` gives each one's
    /// comment and `version(i)` the version it is based on (nil: none).
    static func checkins(
        _ count: Int, comment: (Int) -> String = { "visit \($0)" },
        version: (Int) -> Int? = { _ in nil }
    ) -> String {
        var text = ""
        let dates = ISO8601DateFormatter()
        for i in 1...count {
            let time = dates.string(from: Date(timeIntervalSince1970: 1_704_067_200 + Double(i)))
            var line =
                #"{"checkinId":"chk-\#(String(format: "%06d", i))","locationId":"loc-\#(String(format: "%05d", i % 500 + 1))","checkinTime":"\#(time)","comment":"\#(comment(i))","rating":\#(i % 5 + 1)"#
            if let version = version(i) { line += #","version":\#(version)"# }
            text += line + "}\n"
        }
        return text
    }

    /// Writes a pipeline importing the sample Locations and `checkins` (a file path) into tables
    /// with `prefix`; `write` and `retry` are YAML flow mappings. Returns its path.
    static func write(
        in directory: String, name: String = "pipeline", checkins: String, prefix: String,
        write: String = "{ mode: upsert, transactional: false, concurrency: 4 }",
        retry: String = "{ maxAttempts: 8, baseDelay: 0.01, maxDelay: 0.2 }",
        errors: String = "{ maxErrors: 100000, maxErrorRatio: 1.0 }"
    ) throws -> String {
        let yaml = """
            name: \(name)
            model: \(sample.path)/Model/v1.yaml
            sources:
              - { entity: Location, path: \(sample.path)/locations.csv, format: csv }
              - { entity: Checkin, path: \(checkins), format: ndjson }
            destination: { type: dynamodb, tablePrefix: "\(prefix)", createTables: true }
            write: \(write)
            retry: \(retry)
            errors: \(errors)
            report: { directory: \(directory)/reports-\(name) }
            """
        let path = directory + "/\(name).yaml"
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }
}

/// The sample Locations model, loaded from SampleData.
enum SampleModel {
    static func model() throws -> Model {
        try ModelLoader.loadFile(TestPipelines.sample.appendingPathComponent("Model/v1.yaml").path)
    }

    static func checkin() throws -> Entity { try model().entity(named: "Checkin")! }
}

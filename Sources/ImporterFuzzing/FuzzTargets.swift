import Foundation
import ImporterArchive
import ImporterCore
import ImporterFormats

/// What each fuzz target does with one input (Fuzz/README.md): hostile bytes must give records,
/// rejections or a clear error — never a crash, a hang or a broken account. The libFuzzer
/// executables (Fuzz/, `scripts/fuzz`) and the corpus replay test (`FuzzCorpusTests`) both call
/// these, so every input kept in Fuzz/Corpus is a regression test.
///
/// A broken invariant throws `FuzzViolation`; the fuzzer turns it into a crash it keeps.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case csv, ndjson, jsonArray = "json-array", dynamodbJSON = "dynamodb-json",
        dynamodbExportManifest = "dynamodb-export-manifest", model, coreDataModel = "coredata-model", pipeline, restore,
        decoding

    /// Runs the target on `bytes`.
    public func run(_ bytes: [UInt8]) throws {
        switch self {
        case .csv:
            try ReaderInvariants.check(bytes) {
                CSVReader(source: BytesSource(bytes), name: "fuzz.csv", options: CSVOptions())
            }
            try CellInvariants.check(bytes)
        case .ndjson:
            try ReaderInvariants.check(bytes) { NDJSONReader(source: BytesSource(bytes)) }
            try DocumentInvariants.check(bytes)
        case .dynamodbJSON:
            try ReaderInvariants.check(bytes) { NDJSONReader(source: BytesSource(bytes), layout: .dynamoDBItem) }
        case .dynamodbExportManifest: try ExportManifestInvariants.check(bytes)
        case .jsonArray: try ReaderInvariants.check(bytes) { JSONArrayReader(source: BytesSource(bytes)) }
        case .model:
            guard let model = try? ModelLoader.parse(text: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml")
            else { return }
            try checkRoundTrip(model)
        case .coreDataModel:
            guard let model = try? ModelRoundTrip.coreDataModel(bytes) else { return }
            try checkRoundTrip(model)
        case .pipeline:
            _ = try? PipelineLoader(variables: [:], environment: [:]).parse(
                text: String(decoding: bytes, as: UTF8.self), file: "/nonexistent/fuzz.yaml")
        case .restore: try RestoreInvariants.check(bytes)
        case .decoding: try DecodingInvariants.check(bytes)
        }
    }
}

/// A model that loads is written as YAML and as Core Data XML, and each reads back the same.
private func checkRoundTrip(_ model: Model) throws {
    if let mismatch = ModelRoundTrip.mismatch(model) {
        throw FuzzViolation(description: "the model does not survive conversion: \(mismatch)")
    }
}

/// A broken invariant: what was expected, and what the input gave.
public struct FuzzViolation: Error, CustomStringConvertible {
    public let description: String
}

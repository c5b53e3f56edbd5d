import ImporterCore

/// One data file as manifest-files.json lists it (one JSON object a line, AWS's layout):
/// `{"itemCount":8,"md5Checksum":"…","etag":"…","dataFileS3Key":"prefix/AWSDynamoDB/<id>/data/….json.gz"}`.
package struct ExportDataFile: Sendable, Equatable {
    /// `dataFileS3Key` as written: the object's key from the bucket root.
    package let key: String
    /// The key's part after `AWSDynamoDB/<export id>/` (`data/….json.gz`): where the file is
    /// relative to the export folder.
    package let relativePath: String
    package let itemCount: Int
    /// Base64 of the MD5 of the file's bytes as stored (the .json.gz, compressed).
    package let md5Checksum: String
    /// The line of manifest-files.json that lists the file.
    package let manifestLine: Int
}

/// A DynamoDB "export to S3" folder's manifests (docs/pipeline.md#dynamodb-exports): the data files, and the item count
/// manifest-summary.json records. Both are read strictly (`StrictJSONParser`).
package struct ExportManifest: Sendable {
    package static let summaryName = "manifest-summary.json"
    package static let filesName = "manifest-files.json"

    package let files: [ExportDataFile]
    /// The summary's `itemCount`, which the files' counts must add up to.
    package let itemCount: Int

    /// Parses the two manifests of the export at `export` (named in messages). A manifest that
    /// cannot be read is an `ExportIntegrityError`; an export of another kind (ION, incremental)
    /// a `ConfigurationError`.
    package init(summary: [UInt8], files: [UInt8], export: String) throws {
        let summaryName = FilePaths.join(export, Self.summaryName), filesName = FilePaths.join(export, Self.filesName)
        var parser = StrictJSONParser()
        let summaryFields = try Self.object(summary, &parser) {
            ExportIntegrityError(export: export, file: summaryName, $0)
        }
        func field(_ name: String) -> FieldValue? {
            summaryFields.names.firstIndex(of: name).map { summaryFields.values[$0] }
        }
        if case .text(let format)? = field("outputFormat"), format != "DYNAMODB_JSON" {
            throw ConfigurationError(
                file: summaryName, key: "outputFormat",
                "the export is \(format); format dynamodb-export reads DYNAMODB_JSON exports only (export the table again with ExportFormat DYNAMODB_JSON)"
            )
        }
        if case .text(let type)? = field("exportType"), type != "FULL_EXPORT" {
            throw ConfigurationError(
                file: summaryName, key: "exportType",
                "the export is \(type); format dynamodb-export reads full exports only (an incremental export holds changes, not items)"
            )
        }
        guard case .number(let total)? = field("itemCount"), let itemCount = Int(total), itemCount >= 0 else {
            throw ExportIntegrityError(export: export, file: summaryName, "there is no whole-number \"itemCount\"")
        }
        self.itemCount = itemCount
        self.files = try Self.dataFiles(files, &parser, export: export, manifest: filesName)
        let listed = self.files.reduce(0) { $0 + $1.itemCount }
        guard listed == itemCount else {
            throw ExportIntegrityError(
                export: export, file: filesName,
                "the files it lists hold \(listed) items, but \(Self.summaryName) says \(itemCount)")
        }
    }

    private static func dataFiles(_ text: [UInt8], _ parser: inout StrictJSONParser, export: String, manifest: String)
        throws -> [ExportDataFile]
    {
        var files: [ExportDataFile] = []
        var keys: Set<String> = []
        for (index, line) in text.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(isJSONSpace) else { continue }
            let at = { (message: String) in
                ExportIntegrityError(export: export, file: "\(manifest):\(index + 1)", message)
            }
            let fields = try object(Array(line), &parser, error: at)
            func value(_ name: String) -> FieldValue? { fields.names.firstIndex(of: name).map { fields.values[$0] } }
            guard case .text(let key)? = value("dataFileS3Key") else {
                throw at("there is no \"dataFileS3Key\" string")
            }
            guard case .number(let countText)? = value("itemCount"), let count = Int(countText), count >= 0 else {
                throw at("there is no whole-number \"itemCount\"")
            }
            guard case .text(let md5)? = value("md5Checksum"), Base64.decode(md5)?.count == 16 else {
                throw at("there is no \"md5Checksum\" holding the base64 of an MD5 digest (16 bytes)")
            }
            guard let relative = ExportPaths.relativePath(ofKey: key) else {
                throw at(
                    "dataFileS3Key '\(key)' is not a file under an AWSDynamoDB/<export id>/ folder (or has an empty, '.' or '..' part)"
                )
            }
            guard keys.insert(relative).inserted else { throw at("the file \(relative) is listed twice") }
            files.append(
                ExportDataFile(
                    key: key, relativePath: relative, itemCount: count, md5Checksum: md5, manifestLine: index + 1))
        }
        return files
    }

    /// The fields of the JSON object that is the whole of `text`.
    private static func object(
        _ text: [UInt8], _ parser: inout StrictJSONParser,
        error: (String) -> ExportIntegrityError
    ) throws -> (names: [String], values: [FieldValue]) {
        let parsed = text.withUnsafeBufferPointer { parser.objectFields($0) }
        switch parsed {
        case .success(let fields): return fields
        case .failure(let problem):
            throw error("not a valid JSON object (byte \(problem.offset + 1): \(problem.message))")
        }
    }
}

/// Where an export's files are: keys relative to the export folder, and names for messages.
enum ExportPaths {
    static let marker = "AWSDynamoDB"

    /// `prefix/AWSDynamoDB/<id>/data/x.json.gz` (or without the prefix) → `data/x.json.gz`; nil
    /// when the key is not under `AWSDynamoDB/<id>/`, or has an empty, `.` or `..` part.
    static func relativePath(ofKey key: String) -> String? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard let marker = parts.lastIndex(of: Substring(marker)), parts.count > marker + 2 else { return nil }
        let rest = parts[(marker + 2)...]
        guard !parts[marker + 1].isEmpty, rest.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            return nil
        }
        return rest.joined(separator: "/")
    }
}

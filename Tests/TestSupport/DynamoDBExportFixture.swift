import Foundation

/// A DynamoDB "export to S3" written exactly in AWS's layout (docs/pipeline.md#dynamodb-exports), by outside tools:
/// `<prefix>/AWSDynamoDB/<export id>/manifest-summary.json`, `manifest-files.json` (one
/// `{"itemCount","md5Checksum","etag","dataFileS3Key"}` object a line, the key from the bucket
/// root, the checksum base64 of the MD5 of the .json.gz), their `.checksum` files, `_started`
/// and `data/<name>.json.gz` compressed by gzip(1), MD5 by md5sum(1).
public struct DynamoDBExportFixture {
    public var prefix = "exports/2026-Nov"
    public var exportId = "01763942400000-a1b2c3d4"
    /// Each data file's name (without `.json.gz`) and its item lines, `{"Item":{…}}`.
    public var dataFiles: [(name: String, lines: [String])]

    /// One line of manifest-files.json, to be changed by a test before the export is written.
    public struct ManifestLine {
        public var itemCount: Int
        public var md5Checksum: String
        public var etag: String
        public var dataFileS3Key: String
    }

    public init(dataFiles: [(name: String, lines: [String])]) {
        self.dataFiles = dataFiles
    }

    /// `<prefix>/AWSDynamoDB/<export id>/`: the export folder's key.
    public var folderKey: String { "\(prefix)/AWSDynamoDB/\(exportId)/" }

    /// Every object of the export by key from the bucket root; `edit` changes manifest lines
    /// (by data file index) before the manifests are made.
    public func objects(edit: (Int, inout ManifestLine) -> Void = { _, _ in }) throws -> [String: [UInt8]] {
        var objects: [String: [UInt8]] = [folderKey + "_started": []]
        var lines: [String] = []
        var total = 0
        for (index, file) in dataFiles.enumerated() {
            let key = folderKey + "data/\(file.name).json.gz"
            let text = file.lines.isEmpty ? "" : file.lines.joined(separator: "\n") + "\n"
            let bytes = try Self.gzip(Array(text.utf8))
            objects[key] = bytes
            let md5 = try Self.md5(bytes)
            var line = ManifestLine(
                itemCount: file.lines.count, md5Checksum: Self.base64(hex: md5), etag: md5, dataFileS3Key: key)
            edit(index, &line)
            total += line.itemCount
            lines.append(
                #"{"itemCount":\#(line.itemCount),"md5Checksum":"\#(line.md5Checksum)","etag":"\#(line.etag)","dataFileS3Key":"\#(line.dataFileS3Key)"}"#
            )
        }
        let files = Array((lines.joined(separator: "\n") + "\n").utf8)
        let summary = Array(
            """
            {"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders/export/\(exportId)","startTime":"2026-11-24T00:00:00.000Z","endTime":"2026-11-24T00:05:00.000Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportTime":"2026-11-24T00:00:00.000Z","s3Bucket":"exports","s3Prefix":"\(prefix)","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"\(folderKey)manifest-files.json","billedSizeBytes":0,"itemCount":\(total),"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}
            """.utf8)
        objects[folderKey + "manifest-files.json"] = files
        objects[folderKey + "manifest-files.checksum"] = Array(try Self.md5(files).utf8)
        objects[folderKey + "manifest-summary.json"] = summary
        objects[folderKey + "manifest-summary.checksum"] = Array(try Self.md5(summary).utf8)
        return objects
    }

    /// Writes the export under `directory` as `aws s3 sync` would; returns the export folder.
    public func writeFolder(in directory: String, edit: (Int, inout ManifestLine) -> Void = { _, _ in }) throws
        -> String
    {
        for (key, bytes) in try objects(edit: edit) {
            let path = directory + "/" + key
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        return directory + "/" + String(folderKey.dropLast())
    }

    /// `bytes` compressed by gzip(1).
    public static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        try filter("gzip", ["-c", "-n"], bytes)
    }

    /// The lowercase hex MD5 of `bytes`, by md5sum(1).
    public static func md5(_ bytes: [UInt8]) throws -> String {
        String(String(decoding: try filter("md5sum", [], bytes), as: UTF8.self).prefix(32))
    }

    /// Hex digits as base64 (AWS's md5Checksum).
    public static func base64(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    /// What `tool` prints for `input` on its standard input.
    private static func filter(_ tool: String, _ arguments: [String], _ input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        let output = try process.runToEnd {
            let writer = Thread {
                stdin.fileHandleForWriting.write(Data(input)); try? stdin.fileHandleForWriting.close()
            }
            writer.start()
            return stdout.fileHandleForReading.readDataToEndOfFile()
        }
        guard process.terminationStatus == 0 else {
            throw CommandLineTools.Failure(command: tool, status: process.terminationStatus)
        }
        return Array(output)
    }
}

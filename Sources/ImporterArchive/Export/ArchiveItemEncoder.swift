import ImporterCore

/// Turns stored items into the bytes of one of an archive's data files (CSV, NDJSON,
/// DynamoDB JSON).
protocol ArchiveItemEncoder {
    /// What the file starts with (a CSV header row); empty for line formats.
    var header: [UInt8] { get }
    /// Appends one item, line end included.
    func append(_ row: any StoredRow, to bytes: inout [UInt8])
}

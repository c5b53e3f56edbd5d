/// What one streaming pass learns about a column: the types that hold its values, how many
/// nulls (and null markers) it has, and one 64-bit hash per record for key and relationship
/// detection. Everything but the hashes is a few counters.
struct ColumnProfile {
    /// The field's name in the file (a header, a JSON key, or `columnN` without a header).
    let name: String
    var types = TypeCandidates()
    /// JSON nulls and missing fields.
    var nulls = 0
    /// Cells holding each of `NullMarkers.all` (CSV only; quoted cells are values).
    var markerCounts = [0, 0, 0, 0]
    /// One per record: `KeyHash` of the value, a marker placeholder, or `KeyHash.null`.
    var hashes: [UInt64] = []
    /// Some value holds a `|`.
    var hasPipe = false
    /// Bytes of text seen, for the average width of a key candidate.
    var textBytes = 0
    /// The first value of a type no attribute holds (a JSON object, say), for the comment.
    var example: String?
    /// Some value is a JSON object or array's text.
    var holdsComposite = false

    init(name: String, missingRecords: Int = 0) {
        self.name = name
        nulls = missingRecords
        hashes = [UInt64](repeating: KeyHash.null, count: missingRecords)
    }

    /// Records the value of this column in the next record. `markers`: a CSV cell's text may
    /// be a null marker (it was not quoted).
    mutating func observe(_ field: FieldValue, markers: Bool) {
        if case .text(let text) = field, markers, let marker = NullMarkers.index(of: text) {
            markerCounts[marker] += 1
            hashes.append(NullMarkers.placeholder(marker))
            return
        }
        if case .null = field {
            nulls += 1
            hashes.append(KeyHash.null)
            return
        }
        if case .composite = field { holdsComposite = true }
        let reading = KeyHash.of(field)
        let hadType = !types.isEmpty
        types.observe(field, form: reading.form)
        if hadType, types.isEmpty { example = Self.excerpt(field) }
        hashes.append(reading.hash)
        if reading.pipe { hasPipe = true }
        if case .text(let text) = field { textBytes += text.utf8.count }
    }

    /// Records the value of this column in the next record, given as the UTF-8 bytes of a CSV
    /// cell's text (its value is made only if a type candidate needs it); as `observe(.text)`.
    mutating func observe(bytes: UnsafeBufferPointer<UInt8>, markers: Bool) {
        if markers, let marker = NullMarkers.index(of: bytes) {
            markerCounts[marker] += 1
            hashes.append(NullMarkers.placeholder(marker))
            return
        }
        let reading = KeyHash.of(bytes: bytes)
        types.observe(bytes: bytes, form: reading.form)
        hashes.append(reading.hash)
        if reading.pipe { hasPipe = true }
        textBytes += bytes.count
    }

    /// Records a missing field (JSON), or a null.
    mutating func observeNull() {
        nulls += 1
        hashes.append(KeyHash.null)
    }

    private static func excerpt(_ field: FieldValue) -> String {
        switch field {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .text(let text), .number(let text), .composite(let text), .collection(_, let text):
            return String(text.prefix(40))
        }
    }

    /// Null cells once the file's markers are chosen (`chosen[i]`: marker i is null).
    func nullCount(markers chosen: [Bool]) -> Int {
        nulls + markerCounts.indices.reduce(0) { $0 + (chosen[$1] ? markerCounts[$1] : 0) }
    }

    /// Replaces the placeholders of markers that are values (not chosen) by their text's hash,
    /// and those of null markers by `KeyHash.null`.
    mutating func settleMarkers(_ chosen: [Bool]) {
        guard markerCounts.contains(where: { $0 > 0 }) else { return }
        let replacements = NullMarkers.all.indices.map {
            chosen[$0] ? KeyHash.null : KeyHash.of(NullMarkers.all[$0]).hash
        }
        for index in hashes.indices where hashes[index] != KeyHash.null && hashes[index] < KeyHash.reserved {
            hashes[index] = replacements[Int(hashes[index]) - 1]
        }
    }

    /// The text of marker values that are not null makes the column a string.
    func holdsMarkerText(_ chosen: [Bool]) -> Bool {
        markerCounts.indices.contains { !chosen[$0] && markerCounts[$0] > 0 }
    }
}

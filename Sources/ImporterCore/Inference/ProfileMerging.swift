/// Profiles of consecutive parts of a file joined into one, as if one pass had read them all
/// (`PartProfiler` profiles parts on several threads).
extension FileProfile {
    /// Adds the records of `next`, which follow this profile's records in the file.
    package mutating func append(_ next: FileProfile) {
        for column in next.columns where !columns.contains(where: { $0.name == column.name }) {
            var added = ColumnProfile(name: column.name, missingRecords: records)
            added.hashes.reserveCapacity(expectedRecords + expectedRecords / 16)
            addColumn(added)
        }
        for index in columns.indices {
            if let other = next.columns.first(where: { $0.name == columns[index].name }) {
                columns[index].append(other)
            } else {
                columns[index].appendNulls(next.records)
            }
        }
        addCounts(of: next)
    }
}

extension ColumnProfile {
    /// Adds the values of the same column in the records that follow.
    mutating func append(_ next: ColumnProfile) {
        types.append(next.types)
        nulls += next.nulls
        for index in markerCounts.indices { markerCounts[index] += next.markerCounts[index] }
        hashes += next.hashes
        hasPipe = hasPipe || next.hasPipe
        textBytes += next.textBytes
        if example == nil { example = next.example }
    }

    /// `count` records that lack the column.
    mutating func appendNulls(_ count: Int) {
        nulls += count
        hashes += repeatElement(KeyHash.null, count: count)
    }
}

extension TypeCandidates {
    /// The candidates that hold the values of both.
    mutating func append(_ next: TypeCandidates) {
        boolean = boolean && next.boolean
        integer = integer && next.integer
        double = double && next.double
        uuid = uuid && next.uuid
        string = string && next.string
        dates &= next.dates
        minimum = min(minimum, next.minimum)
        maximum = max(maximum, next.maximum)
        booleanWord = booleanWord || next.booleanWord
        count += next.count
    }
}

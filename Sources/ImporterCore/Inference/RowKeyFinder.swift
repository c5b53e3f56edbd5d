/// The key of an entity without one: a `rowKey` attribute that the pipeline computes
/// (`map.compute`) from the fields that are never null, joined by `|` (or, when a value holds a
/// `|`, the unit separator U+001F). When those fields are unique together, a field is left out
/// only when another kept field implies it (each value of that one goes with one value of it)
/// and the rest stay unique; a field constant in the sample (the year of a one-year dump) and a
/// never-null date are always kept, so the next dump's records get keys of their own
/// (docs/infer.md). When they are not unique, the records that repeat one are counted:
/// `importer run` rejects them as `duplicate` and the report lists them. With no never-null
/// field, the field with the fewest nulls is used and its null records are counted (rejected
/// as `required`).
struct RowKeyFinder {
    /// Fields a template can name (no braces), at most this many tried for leaving out.
    static let maximumFields = 32
    /// Records a check reads first, before it reads them all.
    static let sampleSize = 16_384

    let entity: InferredEntity

    /// The fields, separator, duplicates and nulls, and the fields left out with the kept field
    /// that implies each; nil when no field can be used.
    func find() -> (
        fields: [Int], separator: String, duplicates: Int, nulls: Int, leftOut: [(field: Int, impliedBy: Int)]
    )? {
        let columns = entity.profile.columns
        let usable = entity.attributes.indices.filter { index in
            guard let column = entity.attributes[index].column else { return false }
            return !columns[column].name.contains("{") && !columns[column].name.contains("}")
        }
        var fields = usable.filter { entity.attributes[$0].required }
        var nulls = 0
        if fields.isEmpty {
            let counts = usable.map { index in
                columns[entity.attributes[index].column!].hashes.filter { $0 == KeyHash.null }.count
            }
            guard let best = counts.indices.min(by: { counts[$0] < counts[$1] }) else { return nil }
            fields = [usable[best]]
            nulls = counts[best]
        }
        let records = entity.profile.records
        var duplicates = records - nulls - distinct(fields)
        var leftOut: [(field: Int, impliedBy: Int)] = []
        if duplicates == 0 {
            (fields, leftOut) = smallest(fields)
        } else {
            duplicates = max(0, duplicates)
        }
        let pipe = fields.contains { columns[entity.attributes[$0].column!].hasPipe }
        return (fields, pipe ? "\u{1F}" : "|", duplicates, nulls, leftOut)
    }

    /// Distinct combinations of `fields` among records where none is null.
    private func distinct(_ fields: [Int]) -> Int {
        // The fields a row key is made of are unique together, usually.
        HashSet64.distinctCount(combined(fields).filter { $0 != KeyHash.null }, expectingUnique: true)
    }

    /// The records' hashes of `fields` together (`KeyHash.null` where one is null); of the
    /// records at `rows` only, when given.
    private func combined(_ fields: [Int], rows: [Int]? = nil) -> [UInt64] {
        let columns = entity.profile.columns
        let first = columns[entity.attributes[fields[0]].column!].hashes
        var result = rows.map { $0.map { first[$0] } } ?? first
        for field in fields.dropFirst() {
            let hashes = columns[entity.attributes[field].column!].hashes
            result.withUnsafeMutableBufferPointer { result in
                hashes.withUnsafeBufferPointer { hashes in
                    for index in result.indices {
                        let hash = hashes[rows.map { $0[index] } ?? index]
                        result[index] =
                            result[index] == KeyHash.null || hash == KeyHash.null
                            ? KeyHash.null : KeyHash.combine(result[index], hash)
                    }
                }
            }
        }
        return result
    }

    /// `fields` without those another kept field implies: numbers with a fraction and booleans
    /// tried first (seldom part of an identity), then the widest. A constant field and a
    /// never-null date are kept. The rest stay unique together: two records the same in every
    /// kept field are the same in the implier, hence in the field it implies.
    ///
    /// Each implication is checked first on every n-th record (at most `sampleSize`): a value
    /// that goes with two there does in the whole, so most candidates are turned down without
    /// reading every record; each check stops at the first value that goes with two.
    private func smallest(_ fields: [Int]) -> (kept: [Int], leftOut: [(field: Int, impliedBy: Int)]) {
        var kept = fields
        var leftOut: [(field: Int, impliedBy: Int)] = []
        let records = entity.profile.records
        let stride = max(1, records / Self.sampleSize)
        let sample = Array(Swift.stride(from: 0, to: records, by: stride))
        var sampled: [Int: [UInt64]] = [:]
        func sampledHashes(_ field: Int) -> [UInt64] {
            if let hashes = sampled[field] { return hashes }
            let hashes = combined([field], rows: sample)
            sampled[field] = hashes
            return hashes
        }
        // Each value of `implier` goes with one value of `field` in the data (a carrier code
        // and its name, a timestamp and its month): `field` adds nothing to a key with `implier`.
        let implies = { (implier: Int, field: Int) in
            Self.determines(sampledHashes(implier), sampledHashes(field))
                && Self.determines(hashes(implier), hashes(field))
        }
        let candidates = fields.prefix(Self.maximumFields).filter {
            entity.attributes[$0].type != .date && !isConstant($0)
        }
        for field in candidates.sorted(by: { (weak($0), width($0)) > (weak($1), width($1)) }) where kept.count > 1 {
            let without = kept.filter { $0 != field }
            guard let implier = without.first(where: { implies($0, field) }) else { continue }
            kept = without
            leftOut.append((field, implier))
        }
        return (kept, leftOut)
    }

    /// The hashes of `field`'s values, one per record.
    private func hashes(_ field: Int) -> [UInt64] {
        entity.profile.columns[entity.attributes[field].column!].hashes
    }

    /// Whether each value of `implier` goes with one value of `field` (hashes of records
    /// without nulls); stops at the first that goes with two.
    private static func determines(_ implier: [UInt64], _ field: [UInt64]) -> Bool {
        ImplicationCheck.holds(implier, field)
    }

    /// Whether every record holds the same value of `field`.
    private func isConstant(_ field: Int) -> Bool {
        let values = hashes(field)
        return values.allSatisfy { $0 == values.first }
    }

    private func weak(_ attribute: Int) -> Int {
        [.double, .boolean].contains(entity.attributes[attribute].type) ? 1 : 0
    }

    private func width(_ attribute: Int) -> Int {
        let column = entity.profile.columns[entity.attributes[attribute].column!]
        return column.textBytes / max(1, column.types.count)
    }
}

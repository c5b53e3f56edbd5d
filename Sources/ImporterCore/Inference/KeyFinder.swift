/// Finds an entity's key from its columns' hashes: a column that is unique and never null
/// (the hash key), else the narrowest such pair (hash key and range key), else a `rowKey`
/// computed from the columns that are never null (`RowKeyFinder`).
///
/// Bounds: single columns are tried in order, each stopping at its first repeated value; pairs
/// only among the first `maximumPairColumns` never-null columns of a key type, pairs whose
/// distinct counts cannot multiply to the record count skipped, at most `maximumPairs` pairs
/// tried (narrowest first). Memory: one hash set of the records at a time.
struct KeyFinder {
    static let maximumPairColumns = 24
    static let maximumPairs = 64

    let entity: InferredEntity
    private var columns: [ColumnProfile] { entity.profile.columns }
    private var records: Int { entity.profile.records }

    init(_ entity: InferredEntity) { self.entity = entity }

    /// The key, and notes on how it was found.
    func find() -> (InferredKey?, [String]) {
        let scope = entity.profile.sampled ? "in the first \(records) records" : "in all \(records) records"
        let never = entity.attributes.indices.filter {
            entity.attributes[$0].required && entity.attributes[$0].column != nil
        }
        let singles = never.filter { [.string, .uuid, .int16, .int32, .int64].contains(entity.attributes[$0].type) }
            .sorted {
                (Self.looksLikeID(entity.attributes[$0].name) ? 0 : 1, $0) < (
                    Self.looksLikeID(entity.attributes[$1].name) ? 0 : 1, $1
                )
            }
        for index in singles where HashSet64.allDistinct(hashes(index), count: records) {
            return (
                .single(attribute: index), ["key: \(entity.attributes[index].name), unique and never null \(scope)"]
            )
        }
        if let (hash, range) = pair(among: never) {
            let names = "\(entity.attributes[hash].name) + \(entity.attributes[range].name)"
            return (
                .pair(hash: hash, range: range),
                ["key: \(names), unique together and never null \(scope); no single column is"]
            )
        }
        return (nil, ["no column or pair of columns is unique and never null \(scope)"])
    }

    private func hashes(_ attribute: Int) -> [UInt64] { columns[entity.attributes[attribute].column!].hashes }

    /// `id`, `…Id`, `…_id`, `key`, `…Key`, `uuid`, `code`, `sku`: names keys usually have.
    static func looksLikeID(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["id", "key", "uuid", "guid", "code", "sku"].contains(lower)
            || name.hasSuffix("Id") || name.hasSuffix("ID") || lower.hasSuffix("_id") || name.hasSuffix("Key")
            || lower.hasSuffix("_key")
            || name.hasSuffix("Uuid") || name.hasSuffix("UUID")
    }

    /// The narrowest unique pair: a hash key (string, uuid or integer) and a range key (those
    /// or a date).
    private func pair(among never: [Int]) -> (Int, Int)? {
        let keyTypes: [InferredType] = [.string, .uuid, .int16, .int32, .int64, .date]
        let candidates = Array(
            never.filter { keyTypes.contains(entity.attributes[$0].type) }.prefix(Self.maximumPairColumns))
        guard candidates.count >= 2 else { return nil }
        let distinct = candidates.map { HashSet64.distinctCount(hashes($0)) }
        var pairs: [(width: Int, a: Int, b: Int)] = []
        for i in candidates.indices {
            for j in candidates.indices where j > i {
                guard Double(distinct[i]) * Double(distinct[j]) >= Double(records) else { continue }
                if entity.attributes[candidates[i]].type == .date && entity.attributes[candidates[j]].type == .date {
                    continue
                }
                pairs.append((width(candidates[i]) + width(candidates[j]), i, j))
            }
        }
        pairs.sort { ($0.width, $0.a, $0.b) < ($1.width, $1.a, $1.b) }
        for candidate in pairs.prefix(Self.maximumPairs) {
            let a = hashes(candidates[candidate.a]), b = hashes(candidates[candidate.b])
            guard HashSet64.allDistinct(zip(a, b).lazy.map { KeyHash.combine($0, $1) }, count: records) else {
                continue
            }
            return roles(candidates[candidate.a], distinct[candidate.a], candidates[candidate.b], distinct[candidate.b])
        }
        return nil
    }

    /// Which of a pair is the hash key: not a date; else the one with more distinct values
    /// (a partition key spreads items), the earlier column on a tie.
    private func roles(_ a: Int, _ distinctA: Int, _ b: Int, _ distinctB: Int) -> (Int, Int) {
        if entity.attributes[a].type == .date { return (b, a) }
        if entity.attributes[b].type == .date { return (a, b) }
        return distinctB > distinctA ? (b, a) : (a, b)
    }

    /// Bytes a value of the attribute takes, about.
    private func width(_ attribute: Int) -> Int {
        switch entity.attributes[attribute].type {
        case .uuid: return 16
        case .string:
            let column = columns[entity.attributes[attribute].column!]
            return max(1, column.textBytes / max(1, column.types.count))
        default: return 8
        }
    }
}

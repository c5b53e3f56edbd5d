/// Turns one file's profile into an entity: null markers, one date format, each column's type
/// and `required`, attribute names. Keys and relationships come after (`KeyFinder`,
/// `RelationshipSuggester`).
struct EntityBuilder {
    var profile: FileProfile
    /// Markers found to be null in another file of the same dump (`NullMarkers.choose`).
    var sharedMarkers = [false, false, false, false]

    /// The entity named `name`, its attributes in column order.
    mutating func build(name: String) -> InferredEntity {
        let isCSV = profile.csv != nil
        let chosen =
            isCSV
            ? zip(NullMarkers.choose(profile.columns), sharedMarkers).map { $0 || $1 } : [false, false, false, false]
        for index in profile.columns.indices { profile.columns[index].settleMarkers(chosen) }
        var entity = InferredEntity(name: name, profile: profile)
        if isCSV { entity.nullValues = NullMarkers.all.indices.filter { chosen[$0] }.map { NullMarkers.all[$0] } }
        entity.columns = profile.csv?.columns
        let dates = dateChoice(chosen)
        if case .format(let index) = dates, index != 0 { entity.dateFormat = DateCandidates.name(index) }
        var taken = Set<String>()
        for (position, column) in profile.columns.enumerated() {
            guard var attribute = attribute(for: column, position: position, chosen: chosen, dates: dates) else {
                entity.dropped.append((column.name, Self.dropReason(column)))
                continue
            }
            let base =
                entity.columns != nil
                ? column.name
                : profile.isPath(column.name)
                    ? Identifiers.attributeName(forPath: column.name, position: position)
                    : Identifiers.attributeName(forField: column.name, position: position)
            attribute.name = Identifiers.unique(base, in: taken)
            taken.insert(attribute.name.lowercased())
            entity.attributes.append(attribute)
        }
        if profile.failures > 0 {
            entity.notes.append(
                "\(profile.failures) record(s) could not be read and are rejected by importer run (first: \(profile.firstFailure ?? "?"))"
            )
        }
        return entity
    }

    /// The source's date format: the one most date columns agree on.
    private func dateChoice(_ chosen: [Bool]) -> DateCandidates.Choice? {
        let masks = profile.columns.map { column -> UInt32 in
            guard !column.holdsMarkerText(chosen), column.types.narrowest == .date else { return 0 }
            return column.types.dates
        }
        return DateCandidates.choose(masks)
    }

    /// The attribute of a column; nil when no type holds its values.
    private func attribute(
        for column: ColumnProfile, position: Int, chosen: [Bool],
        dates: DateCandidates.Choice?
    ) -> InferredAttribute? {
        let nulls = column.nullCount(markers: chosen)
        var attribute = InferredAttribute(
            name: column.name, field: column.name, column: position, type: .string, required: nulls == 0)
        if column.holdsMarkerText(chosen) {
            guard column.types.string else { return nil }
            let texts = NullMarkers.all.indices.filter { !chosen[$0] && column.markerCounts[$0] > 0 }.map {
                "'\(NullMarkers.all[$0])'"
            }
            attribute.notes.append(
                "holds \(texts.joined(separator: ", ")) as text, which is no null marker in this file")
            return attribute
        }
        var format: Int?
        if case .format(let index) = dates { format = index }
        guard let type = column.types.narrowest(dateFormat: format) else { return nil }
        attribute.type = type
        attribute.notes += Self.typeNotes(column, type: type, dates: dates)
        if column.types.count == 0 { attribute.notes.append("always null in the data: typed string") }
        return attribute
    }

    private static func typeNotes(_ column: ColumnProfile, type: InferredType, dates: DateCandidates.Choice?)
        -> [String]
    {
        if type == .boolean && !column.types.booleanWord {
            return ["only 0 and 1 seen: read as boolean; make it int16 if it counts something"]
        }
        guard column.types.narrowest == .date, type != .date else { return [] }
        let own = (0..<DateCandidates.formats.count).first { column.types.dates & (1 << UInt32($0)) != 0 } ?? 0
        if case .ambiguous(let a, let b) = dates {
            return [
                "dates read as \(DateCandidates.name(a)) or \(DateCandidates.name(b)) alike: kept as string; set type: date and map.dateFormat to the right one"
            ]
        }
        return [
            "dates written as \(DateCandidates.name(own)), but the source's one dateFormat reads another column's: kept as string"
        ]
    }

    private static func dropReason(_ column: ColumnProfile) -> String {
        "no attribute type holds all its values (e.g. \(column.example ?? "?")); map.drop ignores it"
    }
}

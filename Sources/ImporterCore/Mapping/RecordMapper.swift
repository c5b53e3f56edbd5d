/// The map stage of one source: places each field of a record on its entity attribute, after
/// `rename` and `drop`, fills `computed` attributes and `defaults`, and rejects unknown fields
/// unless told to ignore them.
package final class RecordMapper {
    private enum Target { case attribute(Int), dropped, unknown }

    /// An attribute made from a template over source fields (`map.compute`).
    private struct Computed {
        let index: Int
        let template: FieldTemplate
    }

    private let entity: Entity
    private let map: MapConfig
    /// Per attribute, the pipeline's default as a field, applied before the model's default.
    private let defaults: [FieldValue?]
    private let computed: [Computed]
    /// `map.fields`: a dotted path (a field the document reader adds) → the attribute it fills.
    private let pathTargets: [String: Int]
    /// The objects read through the map's paths that no attribute takes whole: not fields of
    /// their own (`pathRootsDropped`).
    private let droppedPathRoots: Set<String>
    /// The resolution of the last `names` array seen; the records of one part of a file share theirs.
    private var cachedNames: [String] = []
    private var cachedTargets: [Target] = []
    /// Per computed attribute, the place in those names of each field its template names.
    private var cachedSources: [[Int?]] = []
    /// Per attribute, the place in those names of the field that fills it (-1: none); nil when
    /// two fields fill one attribute, and the record's order decides field by field.
    private var cachedPlaces: [Int]?
    /// The place in those names of the first unknown field.
    private var cachedUnknown: Int?

    /// Checks the map against the entity; errors name the pipeline file and the source's line.
    package init(entity: Entity, map: MapConfig, file: String, line: Int? = nil) throws {
        self.entity = entity
        self.map = map
        var defaults = [FieldValue?](repeating: nil, count: entity.attributes.count)
        for (name, text) in map.defaults {
            guard let index = entity.attributeIndex[name] else {
                throw ConfigurationError(
                    file: file, line: line, key: name,
                    "map.defaults names '\(name)', which is not an attribute of \(entity.name)")
            }
            defaults[index] = .text(text)
        }
        for (from, to) in map.rename where entity.attributeIndex[to] == nil {
            throw ConfigurationError(
                file: file, line: line, key: from,
                "map.rename sends '\(from)' to '\(to)', which is not an attribute of \(entity.name)")
        }
        var computed: [Computed] = []
        for (name, template) in map.compute.sorted(by: { $0.key < $1.key }) {
            guard let index = entity.attributeIndex[name] else {
                throw ConfigurationError(
                    file: file, line: line, key: name,
                    "map.compute names '\(name)', which is not an attribute of \(entity.name)")
            }
            computed.append(Computed(index: index, template: template))
        }
        var pathTargets: [String: Int] = [:]
        for (name, path) in map.fields.sorted(by: { $0.key < $1.key }) {
            guard let index = entity.attributeIndex[name] else {
                throw ConfigurationError(
                    file: file, line: line, key: name,
                    "map.fields names '\(name)', which is not an attribute of \(entity.name)")
            }
            pathTargets[path] = index
        }
        self.defaults = defaults
        self.computed = computed
        self.pathTargets = pathTargets
        droppedPathRoots = Self.pathRootsDropped(by: map, on: entity)
        cachedSources = Self.sources(of: computed, in: [])
    }

    private init(
        entity: Entity, map: MapConfig, defaults: [FieldValue?], computed: [Computed], pathTargets: [String: Int],
        droppedPathRoots: Set<String>
    ) {
        self.entity = entity
        self.map = map
        self.defaults = defaults
        self.computed = computed
        self.pathTargets = pathTargets
        self.droppedPathRoots = droppedPathRoots
        cachedSources = Self.sources(of: computed, in: [])
    }

    /// Per computed attribute, the place in `names` of each field its template names.
    private static func sources(of computed: [Computed], in names: [String]) -> [[Int?]] {
        computed.map { $0.template.fields.map { names.firstIndex(of: $0) } }
    }

    /// A mapper with the same map for another thread, on `entity` (an equal one) and with arrays of
    /// its own (see `Entity.withOwnAttributes`).
    package func copy(for entity: Entity) -> RecordMapper {
        RecordMapper(
            entity: entity, map: map, defaults: defaults.map { $0 }, computed: computed.map { $0 },
            pathTargets: pathTargets, droppedPathRoots: droppedPathRoots)
    }

    /// The record's fields by attribute position, or the rejection of an unknown field.
    package func map(_ record: SourceRecord) -> Result<[FieldValue], Rejection> {
        var fields: [FieldValue] = []
        if let rejection = map(record, into: &fields) { return .failure(rejection) }
        return .success(fields)
    }

    /// Sets `fields` to the record's fields by attribute position, in the storage it has (a
    /// buffer kept for every record); returns the rejection of an unknown field, else nil.
    package func map(_ record: SourceRecord, into fields: inout [FieldValue]) -> Rejection? {
        // The same array first (each part of a file has a copy of its header's): names are
        // compared once per array, not per record.
        if !Self.sameArray(record.names, cachedNames) {
            if record.names != cachedNames {
                cachedTargets = record.names.map(target)
                cachedSources = Self.sources(of: computed, in: record.names)
                cachedUnknown = cachedTargets.firstIndex { if case .unknown = $0 { true } else { false } }
                cachedPlaces = Self.places(of: cachedTargets, attributes: defaults.count)
            }
            cachedNames = record.names
        }
        if let unknown = cachedUnknown {
            let name = record.names[unknown]
            return Rejection(
                stage: .map, reason: .unknownField, field: name,
                "field '\(name)' is not an attribute of \(entity.name); add it to the model, or to map.drop, or set map.ignoreUnknown: true"
            )
        }
        if fields.count != defaults.count { fields = defaults.map { $0 ?? .null } }
        if let places = cachedPlaces {
            // Each attribute written once: its field's value, else its default.
            let values = record.values
            fields.withUnsafeMutableBufferPointer { fields in
                for index in fields.indices {
                    let place = places[index]
                    if place >= 0, !values[place].isNull {
                        fields[index] = values[place]
                    } else {
                        fields[index] = defaults[index] ?? .null
                    }
                }
            }
        } else {
            for index in defaults.indices { fields[index] = defaults[index] ?? .null }
            for (position, value) in record.values.enumerated() {
                guard case .attribute(let index) = cachedTargets[position], !value.isNull else { continue }
                fields[index] = value
            }
        }
        for (number, attribute) in computed.enumerated() {
            let sources = cachedSources[number]
            let text = attribute.template.render { field in sources[field].map { record.values[$0] } }
            fields[attribute.index] = text.map(FieldValue.text) ?? defaults[attribute.index] ?? .null
        }
        return nil
    }

    /// How `map` fills a record's attributes from the fields `names` name, for a preparer that
    /// reads them straight from a row's cells (`CellPlan`); nil when a field is unknown or two
    /// fields fill one attribute (then records go through `map`).
    package func layout(for names: [String]) -> MapLayout? {
        let targets = names.map(target)
        guard !targets.contains(where: { if case .unknown = $0 { true } else { false } }),
            let places = Self.places(of: targets, attributes: defaults.count)
        else { return nil }
        let sources = Self.sources(of: computed, in: names)
        return MapLayout(
            places: places,
            computed: computed.indices.map { (computed[$0].index, computed[$0].template, sources[$0]) },
            defaults: defaults)
    }

    /// Whether two arrays are one (a part's names, shared by its records): a test of a few
    /// instructions, where comparing them is one of every name.
    static func sameArray(_ first: [String], _ second: [String]) -> Bool {
        first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { first.baseAddress == $0.baseAddress && first.count == $0.count }
        }
    }

    /// Per attribute, the place of the one field whose target it is (-1: none); nil when two
    /// fields have the same one.
    private static func places(of targets: [Target], attributes: Int) -> [Int]? {
        var places = [Int](repeating: -1, count: attributes)
        for (position, target) in targets.enumerated() {
            guard case .attribute(let index) = target else { continue }
            guard places[index] < 0 else { return nil }
            places[index] = position
        }
        return places
    }

    /// The objects `map` reads through paths that no attribute of `entity` takes whole (`geo` of
    /// `geo.lat`, when the entity has no `geo`): the mapper drops them, so a reader need not
    /// make their values.
    package static func pathRootsDropped(by map: MapConfig, on entity: Entity) -> Set<String> {
        map.pathRoots.filter { entity.attributeIndex[map.rename[$0] ?? $0] == nil }
    }

    private func target(_ name: String) -> Target {
        if let index = pathTargets[name] { return .attribute(index) }
        if map.drop.contains(name) { return .dropped }
        // An object read through paths (`currency` of `currency.code`).
        if droppedPathRoots.contains(name) { return .dropped }
        // A field that only feeds computed attributes is not unknown.
        if entity.attributeIndex[map.rename[name] ?? name] == nil,
            computed.contains(where: { $0.template.fields.contains(name) })
        {
            return .dropped
        }
        if let index = entity.attributeIndex[map.rename[name] ?? name] { return .attribute(index) }
        return map.ignoreUnknown ? .dropped : .unknown
    }
}

import Foundation
import ImporterCore

/// Writes a store's items back as the documents a pipeline source read them from
/// (docs/documents.md#export): each item of the root entity a document, the children of each
/// node nested under their array's path in position order (else key order), with the names the
/// source had (`rename` undone, `map.fields` paths nested again). A child's parent-key and
/// position attributes and every version attribute are left out: loading the file again fills
/// them, so import → export → import gives an identical store.
package struct DocumentExporter {
    /// How documents are laid out in the file.
    package enum Layout: Sendable {
        /// One JSON array of documents.
        case json
        /// One document per line.
        case ndjson
    }

    private struct Node {
        let entity: Entity
        let map: MapConfig
        let path: [String]
        let role: DocumentInput?
        var children: [Int] = []
    }

    private let store: any StoreReading
    private var nodes: [Node] = []

    /// The exporter of the documents of `root`, whose shape is the first source loading it with
    /// children. Throws `ConfigurationError` when no source does.
    package init(store: any StoreReading, model: Model, config: PipelineConfig, root: String) throws {
        self.store = store
        guard let source = config.sources.first(where: { $0.entity == root && !$0.children.isEmpty }),
            let entity = model.entity(named: root)
        else {
            let roots = config.sources.filter { !$0.children.isEmpty }.map(\.entity)
            throw ConfigurationError(
                file: config.file, key: "sources",
                "--documents \(root): no source of the pipeline loads \(root) with children; \(roots.isEmpty ? "documents are exported for a source with children: (docs/documents.md)" : "use one of: \(roots.joined(separator: ", "))")"
            )
        }
        nodes = [Node(entity: entity, map: source.map, path: [], role: nil)]
        let shape = DocumentShape(source)
        for child in try DocumentInput.children(of: source, entity: entity, config: config, model: model) {
            let node = child.role.node
            nodes.append(
                Node(entity: child.entity, map: child.source.map, path: shape.nodes[node].arrayPath, role: child.role))
            nodes[shape.nodes[node].parent!].children.append(node)
        }
    }

    /// Writes every document to `path` (replaced whole once written) and returns how many.
    package func export(to path: String, layout: Layout) throws -> Int {
        let temporary = OutputFile.temporaryPath(for: path)
        let handle = FileHandle(fileDescriptor: try OutputFile.create(temporary), closeOnDealloc: true)
        var documents = 0
        do {
            let groups = try nodes.indices.map { try childrenByParent(of: $0) }
            var buffer: [UInt8] = layout == .json ? Array("[\n".utf8) : []
            try store.readingSnapshot {
                try store.scan(nodes[0].entity) { item in
                    if layout == .json && documents > 0 { buffer.append(contentsOf: ",\n".utf8) }
                    append(item, node: 0, groups: groups, to: &buffer)
                    if layout == .ndjson { buffer.append(10) }
                    documents += 1
                    if buffer.count > 1 << 20 {
                        try handle.write(contentsOf: buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
            }
            if layout == .json { buffer.append(contentsOf: (documents > 0 ? "\n]\n" : "]\n").utf8) }
            try handle.write(contentsOf: buffer)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw error
        }
        try OutputFile.moveIntoPlace(temporary, path)
        return documents
    }

    /// Per node (but the root), its stored items by their parent's key text, in array order.
    private func childrenByParent(of index: Int) throws -> [String: [[Value]]] {
        guard let role = nodes[index].role else { return [:] }
        let entity = nodes[index].entity
        var groups: [String: [[Value]]] = [:]
        try store.scan(entity) { item in
            groups[Value.key(item, at: role.parentKeyAttributes).description, default: []].append(item)
        }
        let order = role.positionAttribute.map { [$0] } ?? entity.keyIndices
        for (parent, items) in groups {
            groups[parent] = items.sorted { left, right in
                for index in order where left[index] != right[index] {
                    return ValueOrder.precedes(left[index], right[index])
                }
                return false
            }
        }
        return groups
    }

    /// Appends the document of `item`, a record of `node`, with its children.
    private func append(_ item: [Value], node index: Int, groups: [[String: [[Value]]]], to json: inout [UInt8]) {
        let node = nodes[index]
        var object = JSONObjectBuilder()
        let skipped = Set((node.role?.parentKeyAttributes ?? []) + (node.role?.positionAttribute.map { [$0] } ?? []))
        let fieldNames = Dictionary(node.map.rename.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for (position, attribute) in node.entity.attributes.enumerated()
        where !skipped.contains(position) && attribute.name != node.entity.versionAttribute {
            let path =
                node.map.fields[attribute.name].map { $0.split(separator: ".").map(String.init) }
                ?? [fieldNames[attribute.name] ?? attribute.name]
            if item[position].isNull && path.count > 1 { continue }
            object.set(path, .value(item[position]))
        }
        let parentKey = node.entity.key(of: item).description
        for child in node.children {
            var elements: [[UInt8]] = []
            for childItem in groups[child][parentKey] ?? [] {
                var element: [UInt8] = []
                append(childItem, node: child, groups: groups, to: &element)
                elements.append(element)
            }
            object.set(nodes[child].path, .array(elements))
        }
        object.write(to: &json)
    }
}

/// A JSON object built by paths, written with its members in the order they were first set.
private struct JSONObjectBuilder {
    enum Member {
        case value(Value)
        /// Elements already written as JSON.
        case array([[UInt8]])
        case object(JSONObjectBuilder)
    }

    private var keys: [String] = []
    private var members: [String: Member] = [:]

    mutating func set(_ path: [String], _ member: Member) {
        let key = path[0]
        if !keys.contains(key) { keys.append(key) }
        guard path.count > 1 else {
            members[key] = member
            return
        }
        var nested: JSONObjectBuilder
        if case .object(let existing)? = members[key] { nested = existing } else { nested = JSONObjectBuilder() }
        nested.set(Array(path.dropFirst()), member)
        members[key] = .object(nested)
    }

    func write(to json: inout [UInt8]) {
        json.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(key, to: &json)
            json.append(UInt8(ascii: ":"))
            switch members[key]! {
            case .value(let value): Self.append(value, to: &json)
            case .object(let object): object.write(to: &json)
            case .array(let elements):
                json.append(UInt8(ascii: "["))
                for (position, element) in elements.enumerated() {
                    if position > 0 { json.append(UInt8(ascii: ",")) }
                    json.append(contentsOf: element)
                }
                json.append(UInt8(ascii: "]"))
            }
        }
        json.append(UInt8(ascii: "}"))
    }

    /// A stored value as JSON: numbers and booleans as literals (a decimal exactly), the rest as text.
    static func append(_ value: Value, to json: inout [UInt8]) {
        switch value {
        case .null: json.append(contentsOf: "null".utf8)
        case .integer(let number): json.append(contentsOf: String(number).utf8)
        case .decimal(let text): json.append(contentsOf: text.utf8)
        case .double(let number):
            if number.isFinite {
                json.append(contentsOf: "\(number)".utf8)
            } else {
                json.append(contentsOf: "null".utf8)
            }
        case .boolean(let flag): json.append(contentsOf: (flag ? "true" : "false").utf8)
        default: JSONText.appendQuoted(value.description, to: &json)
        }
    }
}

/// The tree a document source reads from each document (docs/documents.md): the root record,
/// and under it the arrays of objects that hold child records, each with the dotted paths its
/// map reads. Nodes are in depth-first order; node 0 is the root.
package struct DocumentShape: Sendable {
    package struct Node: Sendable {
        /// The node whose elements hold this node's array; nil for the root.
        package let parent: Int?
        /// Where the array is in a parent element (empty for the root).
        package let arrayPath: [String]
        /// The dotted paths (`currency.code`) whose values become fields of the node's records.
        package let valuePaths: [String]
        /// The objects read only through paths whose own value the map drops (`geo` of
        /// `geo.lat`, in `map.drop`): not fields of the node's records, so their text is never made.
        package let droppedRoots: Set<String>
        /// The child nodes, in the pipeline's order.
        package var children: [Int] = []

        init(parent: Int?, arrayPath: [String], map: MapConfig) {
            (self.parent, self.arrayPath) = (parent, arrayPath)
            let paths = map.paths
            valuePaths = paths.sorted()
            // A root that is a path of its own, or that a template reads whole, is a field.
            droppedRoots = map.pathRoots.intersection(map.drop).subtracting(paths)
                .subtracting(map.compute.values.flatMap(\.fields))
        }
    }

    package private(set) var nodes: [Node]

    package init(_ source: SourceConfig) {
        nodes = [Node(parent: nil, arrayPath: [], map: source.map)]
        add(source.children, under: 0)
    }

    private mutating func add(_ children: [ChildSource], under parent: Int) {
        for child in children {
            nodes.append(Node(parent: parent, arrayPath: child.path, map: child.map))
            let index = nodes.count - 1
            nodes[parent].children.append(index)
            add(child.children, under: index)
        }
    }
}

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
        /// The child nodes, in the pipeline's order.
        package var children: [Int] = []
    }

    package private(set) var nodes: [Node]

    package init(_ source: SourceConfig) {
        nodes = [Node(parent: nil, arrayPath: [], valuePaths: source.map.paths.sorted())]
        add(source.children, under: 0)
    }

    private mutating func add(_ children: [ChildSource], under parent: Int) {
        for child in children {
            nodes.append(Node(parent: parent, arrayPath: child.path, valuePaths: child.map.paths.sorted()))
            let index = nodes.count - 1
            nodes[parent].children.append(index)
            add(child.children, under: index)
        }
    }
}

/// An element of a small XML document (a Core Data `contents` file, a property list, an S3
/// response), read with `XMLEventReader`: its attributes, children and text, and its line.
package struct XMLElementNode: Sendable {
    package let name: String
    package let attributes: [String: String]
    package let line: Int
    package internal(set) var children: [XMLElementNode] = []
    package internal(set) var text = ""

    /// The root element of `bytes`; errors name `file` and the line.
    package static func parse(_ bytes: [UInt8], file: String) throws -> XMLElementNode {
        do {
            var reader = try XMLEventReader(bytes: bytes)
            var stack: [XMLElementNode] = []
            var root: XMLElementNode?
            while let event = try reader.next() {
                switch event {
                case .start(let name, let attributes, let line):
                    stack.append(XMLElementNode(name: name, attributes: attributes, line: line))
                case .end:
                    let done = stack.removeLast()
                    guard !stack.isEmpty else { root = done; continue }
                    stack[stack.count - 1].children.append(done)
                case .text(let text, _):
                    stack[stack.count - 1].text += text
                }
            }
            guard let root else { throw XMLSyntaxError(line: 1, message: "the document has no root element") }
            return root
        } catch let error as XMLSyntaxError {
            throw ConfigurationError(file: file, line: error.line, "not well-formed XML: \(error.message)")
        }
    }

    package func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The text of the first child named `name` (`<Key>a.csv</Key>` → `a.csv`).
    package func childText(_ name: String) -> String? { children.first { $0.name == name }?.text }
}

/// An element of a small XML document (a Core Data `contents` file, a property list, an S3
/// response), read with `XMLEventReader`: its attributes, children and text, and its line.
public struct XMLElementNode: Sendable {
    public let name: String
    public let attributes: [String: String]
    public let line: Int
    public internal(set) var children: [XMLElementNode] = []
    public internal(set) var text = ""

    /// The root element of `bytes`; errors name `file` and the line.
    public static func parse(_ bytes: [UInt8], file: String) throws -> XMLElementNode {
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

    public func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The text of the first child named `name` (`<Key>a.csv</Key>` → `a.csv`).
    public func childText(_ name: String) -> String? { children.first { $0.name == name }?.text }
}

import CYaml

/// Refuses a YAML document whose aliases would make it explode ("billion laughs"): before the
/// document is composed, libyaml's events are counted, each alias counting as many nodes as
/// the node its anchor names. Yams would otherwise build, and hash as mapping keys, every copy:
/// nine levels of nine aliases each hung the pipeline loader (found by fuzzing).
enum YAMLAliasCheck {
    /// Far more nodes than any model or pipeline has.
    static let maximumNodes = 100_000

    /// The line of the alias that takes the document past `maximumNodes`, or nil. Syntax errors
    /// are left to the composer, which reports them with their line.
    static func explodingAliasLine(in text: String) -> Int? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return scan(&parser)
        }
    }

    private static func scan(_ parser: inout yaml_parser_t) -> Int? {
        var weights: [String: Int] = [:]
        // Per open collection: its anchor and the nodes in it so far.
        var open: [(anchor: String?, nodes: Int)] = [(nil, 0)]
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) != 0 {
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                if let anchor = event.data.scalar.anchor { weights[String(cString: anchor)] = 1 }
                open[open.count - 1].nodes += 1
            case YAML_SEQUENCE_START_EVENT:
                open.append((event.data.sequence_start.anchor.map { String(cString: $0) }, 1))
            case YAML_MAPPING_START_EVENT:
                open.append((event.data.mapping_start.anchor.map { String(cString: $0) }, 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard open.count > 1 else { return nil }
                let closed = open.removeLast()
                if let anchor = closed.anchor { weights[anchor] = closed.nodes }
                open[open.count - 1].nodes += closed.nodes
            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                open[open.count - 1].nodes += weights[name] ?? 1
            case YAML_STREAM_END_EVENT:
                return nil
            default:
                break
            }
            if open.reduce(0, { $0 + $1.nodes }) > maximumNodes { return line }
        }
        return nil
    }
}

import Foundation

/// Reads a pipeline file: `${VAR}` substitution, unknown keys refused, paths resolved against
/// the file's directory, globs expanded.
package struct PipelineLoader {
    /// `--var KEY=VALUE` overrides; they win over the environment.
    package var variables: [String: String]
    package var environment: [String: String]
    /// Refuse sources whose files do not exist. Off for commands that never read the inputs
    /// (export, restore, inspect): a backup restores on a machine without the dumps.
    package var requireInputs = true

    package init(variables: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment)
    {
        self.variables = variables
        self.environment = environment
    }

    package func load(path: String) throws -> PipelineConfig {
        try parse(text: YAMLNode.readText(path, what: "pipeline file"), file: path)
    }

    package func parse(text: String, file: String) throws -> PipelineConfig {
        let directory = FilePaths.directory(of: file)
        let root = try YAMLNode.load(text: text, file: file)
        let top = try root.fields(allowed: [
            "name", "model", "modelVersion", "sources", "destination", "write", "retry", "errors", "report", "s3",
        ])
        guard let modelNode = top["model"] else { throw root.error("missing 'model:', the model file or directory") }
        guard let sourcesNode = top["sources"] else { throw root.error("missing 'sources:', the list of inputs") }

        let sources = try sourcesNode.sequence().map { try parseSource($0, directory: directory) }
        guard !sources.isEmpty else { throw sourcesNode.error("the pipeline has no sources") }

        let destination =
            try top["destination"].map { try parseDestination($0, directory: directory) } ?? DestinationConfig()
        var config = PipelineConfig(
            name: try top["name"].map(scalar) ?? FilePaths.deletingExtension(FilePaths.lastComponent(file)),
            file: file,
            modelPath: resolve(try scalar(modelNode), against: directory),
            modelVersion: try top["modelVersion"].map { try int(scalar($0), $0) },
            sources: sources,
            destination: destination,
            write: try top["write"].map(parseWrite) ?? WriteConfig(),
            retry: try top["retry"].map(parseRetry) ?? RetryConfig(),
            errors: try top["errors"].map(parseErrors) ?? ErrorLimits(),
            reportDirectory: resolve("reports", against: directory))
        if let report = top["report"] {
            let fields = try report.fields(allowed: ["directory", "metrics"])
            if let directoryNode = fields["directory"] {
                config.reportDirectory = resolve(try scalar(directoryNode), against: directory)
            }
            if let metricsNode = fields["metrics"] {
                let word = try scalar(metricsNode)
                guard let format = ReportMetrics(rawValue: word) else {
                    throw metricsNode.error("unknown metrics format '\(word)'; use prometheus")
                }
                config.reportMetrics = format
            }
        }
        if let s3 = top["s3"] {
            let fields = try s3.fields(allowed: ["endpoint", "region"])
            config.s3.endpoint = try fields["endpoint"].map(scalar)
            config.s3.region = try fields["region"].map(scalar)
        }
        if config.destination.kind == .sqlite && config.destination.path == nil {
            config.destination.path = resolve("\(config.name).sqlite", against: directory)
        }
        config.textDigest = textDigest(text, file: file)
        return config
    }

    // MARK: Sections

    private func parseSource(_ node: YAMLNode, directory: String) throws -> SourceConfig {
        let fields = try node.fields(allowed: [
            "entity", "path", "format", "csv", "modelVersion", "map", "references", "maxRecordBytes", "encoding",
            "children", "documents",
        ])
        guard let entityNode = fields["entity"] else { throw node.error("a source needs 'entity: NAME'") }
        guard let pathNode = fields["path"] else { throw node.error("a source needs 'path: FILE' (globs allowed)") }
        let pattern = try scalar(pathNode)
        var format: InputFormat?
        if let formatNode = fields["format"] {
            let name = try scalar(formatNode)
            guard let parsed = InputFormat(rawValue: name) else {
                throw formatNode.error(
                    "unknown format '\(name)'; use csv, tsv, ndjson, json, dynamodb-json or dynamodb-export")
            }
            format = parsed
        }
        // `s3://bucket/keys`: listed by the command that reads them (it has the S3 client). A
        // DynamoDB export is a folder, whose data files the command finds in its manifest.
        let paths =
            pattern.hasPrefix("s3://")
            ? [try objectPattern(pattern, at: pathNode)]
            : format == .dynamodbExport
                ? try exportFolder(resolve(pattern, against: directory), at: pathNode)
                : try expand(resolve(pattern, against: directory), at: pathNode)
        if format == nil {
            for path in paths where InputFormat(path: path) == nil {
                throw pathNode.error(
                    "cannot tell the format of '\(path)' from its name; add 'format: csv|tsv|ndjson|json'")
            }
        }
        var csv = CSVOptions()
        if format == .tsv || (format == nil && paths.first.flatMap(InputFormat.init(path:)) == .tsv) {
            csv.delimiter = UInt8(ascii: "\t")
        }
        if let csvNode = fields["csv"] { csv = try parseCSV(csvNode, defaults: csv) }
        var source = SourceConfig(
            entity: try scalar(entityNode), pattern: pattern, paths: paths, format: format, csv: csv,
            modelVersion: try fields["modelVersion"].map { try int(scalar($0), $0) },
            map: try fields["map"].map(parseMap) ?? MapConfig(),
            references: try fields["references"].map(parseReferences) ?? ReferencePolicies(), line: node.line)
        if let limitNode = fields["maxRecordBytes"] { source.maxRecordBytes = try byteCount(limitNode) }
        if let encodingNode = fields["encoding"] { source.encoding = try encoding(encodingNode, format: format) }
        if let childrenNode = fields["children"] { source.children = try parseChildren(childrenNode) }
        if let documentsNode = fields["documents"] {
            let word = try scalar(documentsNode)
            guard let policy = DocumentPolicy(rawValue: word) else {
                throw documentsNode.error("unknown documents policy '\(word)'; use whole or partial")
            }
            source.documents = policy
        }
        if source.readsDocuments,
            let path = paths.first(where: { ![.json, .ndjson].contains(format ?? InputFormat(path: $0)) })
        {
            throw node.error(
                "children and map.fields read JSON documents, and '\(path)' is not JSON or NDJSON; give such a source a .json or .ndjson file, or 'format: json|ndjson'"
            )
        }
        return source
    }

    /// `children: { lines: { entity: Line, parent: order, position: lineNumber, map: …, children: … } }`
    /// (docs/documents.md).
    private func parseChildren(_ node: YAMLNode) throws -> [ChildSource] {
        try node.mapping().map { path, childNode in
            let fields = try childNode.fields(allowed: [
                "entity", "parent", "position", "map", "replace", "missing", "children",
            ])
            let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !components.contains("") else {
                throw childNode.error(
                    "'\(path)' is not a field path; write the field, or dotted names (shipment.parcels)")
            }
            guard let entityNode = fields["entity"] else {
                throw childNode.error("a child needs 'entity: NAME', the entity of the array's elements")
            }
            var child = ChildSource(
                path: components, entity: try scalar(entityNode), map: try fields["map"].map(parseMap) ?? MapConfig(),
                line: childNode.line)
            child.parent = try fields["parent"].map(scalar)
            child.position = try fields["position"].map(scalar)
            if let replaceNode = fields["replace"] { child.replace = try replaceNode.bool() }
            if let missingNode = fields["missing"] {
                guard let missing = MissingArray(rawValue: try scalar(missingNode)) else {
                    throw missingNode.error(
                        "missing must be empty (a document without the array has no children: its stored ones are deleted) or keep (they stay)"
                    )
                }
                child.missing = missing
            }
            if let grandchildren = fields["children"] { child.children = try parseChildren(grandchildren) }
            return child
        }
    }

    /// `encoding: windows-1252` and the other names of `TextEncoding` (docs/pipeline.md#encodings).
    /// A DynamoDB export is UTF-8 by definition.
    private func encoding(_ node: YAMLNode, format: InputFormat?) throws -> TextEncoding {
        let name = try scalar(node)
        guard let encoding = TextEncoding(name: name) else {
            throw node.error("unknown encoding '\(name)'; use \(TextEncoding.accepted)")
        }
        if format == .dynamodbExport && encoding != .utf8 {
            throw node.error("a DynamoDB export is UTF-8 text; remove 'encoding: \(name)'")
        }
        return encoding
    }

    /// `maxRecordBytes: 1048576`, `512KiB`, `64MiB` or `1GiB`, within `SourceConfig.maxRecordBytesRange`.
    private func byteCount(_ node: YAMLNode) throws -> Int {
        let text = try scalar(node)
        let units = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("", 1)]
        let unit = units.first { text.hasSuffix($0.0) }!
        let range = SourceConfig.maxRecordBytesRange
        guard let count = Int(text.dropLast(unit.0.count)),
            case let (bytes, overflow) = count.multipliedReportingOverflow(by: unit.1),
            !overflow, range.contains(bytes)
        else {
            throw node.error(
                "maxRecordBytes must be a size from 1 byte to 1GiB (a number of bytes, or with KiB, MiB or GiB), found '\(text)'"
            )
        }
        return bytes
    }

    /// `references: nullify`, or `references: { product: nullify, reading: keep }`.
    private func parseReferences(_ node: YAMLNode) throws -> ReferencePolicies {
        func policy(_ node: YAMLNode) throws -> ReferencePolicy {
            let word = try scalar(node)
            guard let policy = ReferencePolicy(rawValue: word) else {
                throw node.error("unknown reference policy '\(word)'; use reject, nullify or keep")
            }
            return policy
        }
        guard (try? node.mapping()) != nil else { return ReferencePolicies(all: try policy(node), line: node.line) }
        var policies = ReferencePolicies(line: node.line)
        for (name, value) in try node.mapping() { policies.byRelationship[name] = try policy(value) }
        return policies
    }

    private func parseCSV(_ node: YAMLNode, defaults: CSVOptions) throws -> CSVOptions {
        let fields = try node.fields(allowed: ["delimiter", "quote", "header", "columns", "nullValues"])
        var options = defaults
        func singleByte(_ key: String) throws -> UInt8? {
            guard let valueNode = fields[key] else { return nil }
            var value = try scalar(valueNode)
            if value == "\\t" { value = "\t" }
            guard value.utf8.count == 1, let byte = value.utf8.first, byte != 10, byte != 13 else {
                throw valueNode.error("'\(key)' must be a single ASCII character (\\t for tab)")
            }
            return byte
        }
        options.delimiter = try singleByte("delimiter") ?? options.delimiter
        options.quote = try singleByte("quote") ?? options.quote
        if options.delimiter == options.quote { throw node.error("delimiter and quote must differ") }
        if let headerNode = fields["header"] { options.header = try headerNode.bool() }
        if let columnsNode = fields["columns"] { options.columns = try columnsNode.sequence().map(scalar) }
        if let nullNode = fields["nullValues"] { options.nullValues = try nullNode.sequence().map(scalar) }
        if !options.header && options.columns == nil {
            throw node.error("'header: false' needs 'columns: [names…]' to name the fields")
        }
        return options
    }

    private func parseMap(_ node: YAMLNode) throws -> MapConfig {
        let fields = try node.fields(allowed: [
            "rename", "drop", "defaults", "compute", "ignoreUnknown", "dateFormat", "fields",
        ])
        var map = MapConfig()
        if let fieldsNode = fields["fields"] {
            for (name, value) in try fieldsNode.mapping() {
                let path = try scalar(value)
                guard !path.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
                    throw value.error(
                        "map.fields '\(name)': '\(path)' is not a path; write dotted field names (currency.code)")
                }
                map.fields[name] = path
            }
        }
        if let renameNode = fields["rename"] {
            for (from, to) in try renameNode.mapping() { map.rename[from] = try scalar(to) }
        }
        if let dropNode = fields["drop"] { map.drop = Set(try dropNode.sequence().map(scalar)) }
        if let defaultsNode = fields["defaults"] {
            for (name, value) in try defaultsNode.mapping() { map.defaults[name] = try scalar(value) }
        }
        if let computeNode = fields["compute"] {
            for (name, value) in try computeNode.mapping() {
                do {
                    map.compute[name] = try FieldTemplate(parsing: try scalar(value))
                } catch let error as TemplateError {
                    throw value.error("map.compute '\(name)': \(error)")
                }
            }
        }
        if let ignoreNode = fields["ignoreUnknown"] { map.ignoreUnknown = try ignoreNode.bool() }
        if let formatNode = fields["dateFormat"] {
            let name = try scalar(formatNode)
            guard let format = DateFormat(configuration: name) else {
                throw formatNode.error(
                    "unknown dateFormat '\(name)'; use iso8601, epochSeconds, epochMillis or a pattern with yyyy, MM and dd"
                )
            }
            map.dateFormat = format
        }
        return map
    }

    private func parseDestination(_ node: YAMLNode, directory: String) throws -> DestinationConfig {
        let fields = try node.fields(allowed: [
            "type", "path", "region", "endpoint", "tablePrefix", "createTables", "dateEncoding",
        ])
        var destination = DestinationConfig()
        if let typeNode = fields["type"] {
            let name = try scalar(typeNode)
            guard let kind = DestinationConfig.Kind(rawValue: name) else {
                throw typeNode.error("unknown destination type '\(name)'; use sqlite or dynamodb")
            }
            destination.kind = kind
        }
        destination.path = try fields["path"].map { resolve(try scalar($0), against: directory) }
        destination.region = try fields["region"].map(scalar)
        destination.endpoint = try fields["endpoint"].map(scalar)
        destination.tablePrefix = try fields["tablePrefix"].map(scalar) ?? ""
        destination.createTables = try fields["createTables"]?.bool() ?? false
        if let node = fields["dateEncoding"] {
            let encoding = try scalar(node)
            guard encoding == "iso8601" || encoding == "epochSeconds" else {
                throw node.error("unknown dateEncoding '\(encoding)'; use iso8601 or epochSeconds")
            }
            destination.dateEncoding = encoding
        }
        return destination
    }

    private func parseWrite(_ node: YAMLNode) throws -> WriteConfig {
        let fields = try node.fields(allowed: [
            "mode", "versions", "mergePolicy", "batchSize", "transactional", "concurrency", "atomic", "bulk",
            "maxDeletes", "maxWCU",
        ])
        var write = WriteConfig()
        func choice<T: RawRepresentable>(_ key: String, _ type: T.Type, _ options: String) throws -> T?
        where T.RawValue == String {
            guard let valueNode = fields[key] else { return nil }
            let name = try scalar(valueNode)
            guard let value = T(rawValue: name) else {
                throw valueNode.error("unknown \(key) '\(name)'; use \(options)")
            }
            return value
        }
        write.mode = try choice("mode", WriteConfig.Mode.self, "insert, upsert, replace or sync") ?? write.mode
        write.versions =
            try choice("versions", WriteConfig.Versions.self, "check, preserve or ignore") ?? write.versions
        write.mergePolicy =
            try choice(
                "mergePolicy", WriteConfig.MergePolicy.self,
                "error, storeTrump, objectTrump, overwrite or rollback") ?? write.mergePolicy
        if let batchNode = fields["batchSize"] {
            let size = try int(scalar(batchNode), batchNode)
            guard size >= 1 else { throw batchNode.error("batchSize must be at least 1") }
            write.batchSize = size
        }
        if let concurrencyNode = fields["concurrency"] {
            write.concurrency = try int(scalar(concurrencyNode), concurrencyNode)
            guard write.concurrency >= 1 else { throw concurrencyNode.error("concurrency must be at least 1") }
        }
        if let capacityNode = fields["maxWCU"] {
            let text = try scalar(capacityNode)
            guard let units = Double(text), units.isFinite, units > 0 else {
                throw capacityNode.error(
                    "maxWCU must be a positive number of write capacity units a second, found '\(text)'")
            }
            write.maxWCU = units
        }
        write.transactional = try fields["transactional"]?.bool() ?? write.transactional
        write.atomic = try fields["atomic"]?.bool() ?? write.atomic
        write.bulk = try fields["bulk"]?.bool() ?? write.bulk
        if let limitNode = fields["maxDeletes"] {
            let value = try scalar(limitNode)
            if value.hasSuffix("%"), let percent = Double(value.dropLast()), (0...100).contains(percent) {
                write.maxDeletes = .percent(percent)
            } else if let count = Int(value), count >= 0 {
                write.maxDeletes = .count(count)
            } else {
                throw limitNode.error("maxDeletes must be a count (500) or a percentage (10%)")
            }
        }
        return write
    }

    private func parseRetry(_ node: YAMLNode) throws -> RetryConfig {
        let fields = try node.fields(allowed: ["mode", "maxAttempts", "baseDelay", "maxDelay"])
        var retry = RetryConfig()
        if let n = fields["mode"] {
            let name = try scalar(n)
            guard let mode = RetryConfig.Mode(rawValue: name) else {
                throw n.error("unknown retry mode '\(name)'; use adaptive or standard")
            }
            retry.mode = mode
        }
        if let n = fields["maxAttempts"] { retry.maxAttempts = try int(scalar(n), n) }
        if let n = fields["baseDelay"] { retry.baseDelay = try number(scalar(n), n) }
        if let n = fields["maxDelay"] { retry.maxDelay = try number(scalar(n), n) }
        return retry
    }

    private func parseErrors(_ node: YAMLNode) throws -> ErrorLimits {
        let fields = try node.fields(allowed: ["maxErrors", "maxErrorRatio", "minRecords"])
        var limits = ErrorLimits()
        if let n = fields["maxErrors"] {
            limits.maxErrors = try int(scalar(n), n)
            guard limits.maxErrors >= 0 else { throw n.error("maxErrors cannot be negative") }
        }
        if let n = fields["maxErrorRatio"] {
            limits.maxErrorRatio = try number(scalar(n), n)
            guard (0...1).contains(limits.maxErrorRatio) else {
                throw n.error("maxErrorRatio is a fraction between 0 and 1")
            }
        }
        if let n = fields["minRecords"] {
            limits.minRecords = try int(scalar(n), n)
            guard limits.minRecords >= 0 else { throw n.error("minRecords cannot be negative") }
        }
        return limits
    }

    // MARK: Scalars, variables, paths

    /// SHA-256 of the file's path and text and of the value of every `${VAR}` the text names.
    private func textDigest(_ text: String, file: String) -> String {
        var hash = SHA256Digest()
        hash.update(Array("\(URL(fileURLWithPath: file).standardizedFileURL.path)\n\(text)\n".utf8))
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            rest = rest[start.upperBound...]
            // The name as `scalar` reads it: up to `}`, or to `:-` before a default.
            let expression = rest.prefix { $0 != "}" }
            let name = expression.range(of: ":-").map { expression[..<$0.lowerBound] } ?? expression
            let value = variables[String(name)] ?? environment[String(name)]
            hash.update(Array("\(name)=\(value.map { "\($0.utf8.count):\($0)" } ?? "unset")\n".utf8))
        }
        return hash.hexDigest()
    }

    /// A scalar with `${VAR}` and `${VAR:-default}` substituted.
    private func scalar(_ node: YAMLNode) throws -> String {
        let raw = try node.string()
        guard raw.contains("${") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw node.error("'${' without a closing '}'")
            }
            let expression = rest[start.upperBound..<end]
            let (name, fallback): (Substring, Substring?) =
                expression.range(of: ":-").map {
                    (expression[..<$0.lowerBound], expression[$0.upperBound...])
                } ?? (expression, nil)
            if let value = variables[String(name)] ?? environment[String(name)], !(value.isEmpty && fallback != nil) {
                result += value
            } else if let fallback {
                result += fallback
            } else {
                throw node.error("variable '\(name)' is not set; export it or pass --var \(name)=VALUE")
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    private func int(_ text: String, _ node: YAMLNode) throws -> Int {
        guard let value = Int(text) else { throw node.error("expected a whole number, found '\(text)'") }
        return value
    }

    private func number(_ text: String, _ node: YAMLNode) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw node.error("expected a number, found '\(text)'") }
        return value
    }

    private func resolve(_ path: String, against directory: String) -> String {
        let expanded = FilePaths.expandingTilde(path, home: FileManager.default.homeDirectoryForCurrentUser.path)
        if expanded.hasPrefix("/") { return normalized(expanded) }
        return normalized(FilePaths.join(directory.isEmpty ? "." : directory, expanded))
    }

    /// `a/./b/../c` → `a/c`, keeping leading `..` of relative paths.
    private func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private func objectPattern(_ pattern: String, at node: YAMLNode) throws -> String {
        let rest = pattern.dropFirst("s3://".count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex
        else {
            throw node.error("'\(pattern)' is not an S3 path; write s3://BUCKET/KEY (globs allowed in the key)")
        }
        return pattern
    }

    /// A local DynamoDB export folder (no globs: the manifest lists its files).
    private func exportFolder(_ path: String, at node: YAMLNode) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if !requireInputs { return [] }
            throw node.error(
                "DynamoDB export folder '\(path)' does not exist; give the folder that holds manifest-summary.json")
        }
        guard isDirectory.boolValue else {
            throw node.error(
                "'\(path)' is a file; format dynamodb-export reads an export folder, the one that holds manifest-summary.json"
            )
        }
        return [path]
    }

    /// What a path that exists is when it is not a regular file (after links): a directory, a
    /// pipe, a device. Inputs are read whole, hashed and read again on `--resume`: files only.
    private static func notARegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a pipe"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private func expand(_ pattern: String, at node: YAMLNode) throws -> [String] {
        guard pattern.contains(where: { "*?[".contains($0) }) else {
            guard FileManager.default.fileExists(atPath: pattern) else {
                if !requireInputs { return [] }
                throw node.error("input file '\(pattern)' does not exist")
            }
            if requireInputs, let kind = Self.notARegularFile(pattern) {
                let fix =
                    kind == "a directory"
                    ? "name a file, or its files with a glob such as '\(pattern)/*.csv'"
                    : "save it to a file and name that"
                throw node.error(
                    "input '\(pattern)' is \(kind), not a file (inputs are read whole and again on --resume); \(fix)")
            }
            return [pattern]
        }
        let matches = Glob.expand(pattern)
        guard !matches.isEmpty || !requireInputs else { throw node.error("no file matches '\(pattern)'") }
        return matches
    }
}

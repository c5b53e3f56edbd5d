import Foundation
import ImporterCore
import TestSupport
import XCTest

/// The repository's documentation contract (docs/): the JSON Schemas accept every sample file and
/// refuse unknown keys as the loaders do, the YAML examples in docs/*.md are valid (and load), the
/// documented defaults are the code's, and README and docs link only inside the repository.
///
/// Validation uses Python's `jsonschema` and PyYAML (installed by scripts/setup).
final class DocumentationTests: XCTestCase {
    static let root = ImporterProcess.root
    static let pipelineSchema = root.appendingPathComponent("docs/schemas/pipeline.schema.json").path
    static let modelSchema = root.appendingPathComponent("docs/schemas/model.schema.json").path
    /// Where doc examples and test pipelines are loaded from: `../SampleData/…` resolves as in Pipelines/.
    static let pipelineDirectory = root.appendingPathComponent("Pipelines").path

    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    // MARK: (a) the sample files

    func testEveryPipelineAndSampleModelValidatesAgainstItsSchema() throws {
        let pipelines = try files(in: "Pipelines", suffixes: [".yaml", ".yml"])
        let models = try files(in: "SampleData", suffixes: [".yaml", ".yml"])
        XCTAssertGreaterThanOrEqual(pipelines.count, 5, "Pipelines/ should hold the sample pipelines")
        XCTAssertGreaterThanOrEqual(models.count, 3, "SampleData/ should hold the Locations model versions")
        let results = try validate(pipelines.map { (Self.pipelineSchema, $0) } + models.map { (Self.modelSchema, $0) })
        XCTAssertEqual(results.count, pipelines.count + models.count)
        for (file, errors) in results {
            XCTAssertEqual(errors, [], "\(file) does not validate against its schema")
        }
        // And the loaders accept them, so the schemas are checked against files that work.
        for file in pipelines {
            XCTAssertNoThrow(try loadAndCheck(String(contentsOfFile: file, encoding: .utf8), requireInputs: true), file)
        }
        for file in models {
            XCTAssertNoThrow(try ModelLoader.loadFile(file), file)
        }
    }

    // MARK: (b) unknown keys

    /// A pipeline with every section, in block style so a key can be added at any level.
    static let basePipeline = """
        name: unknown-keys
        model: ../SampleData/Locations/Model
        modelVersion: 1
        sources:
          - entity: Location
            path: ../SampleData/Locations/locations.csv
            format: csv
            csv:
              delimiter: ","
              header: true
            map:
              drop: [debugInfo]
              dateFormat: iso8601
        destination:
          type: sqlite
          path: "${OUT_DIR:-../out}/unknown-keys.sqlite"
        write:
          mode: upsert
          batchSize: "${BATCH:-500}"
        retry:
          maxAttempts: 3
        errors:
          maxErrors: 10
          maxErrorRatio: 0.5
        report:
          directory: ../out/reports/unknown-keys

        """

    static let baseModel = """
        model: Shop
        version: 1
        entities:
          Customer:
            table: Customers
            hashKey: customerId
            versionAttribute: version
            attributes:
              customerId:
                type: string
              name:
                type: string
                maxLength: 100
              code:
                type: string
                convert:
                  constant: none
              version:
                type: int64
            relationships:
              orders:
                destination: Order
                toMany: true
                inverse: customer
                deleteRule: cascade
          Order:
            hashKey: orderId
            versionAttribute: version
            attributes:
              orderId:
                type: int64
              customerId:
                type: string
                required: true
              version:
                type: int64
            relationships:
              customer:
                destination: Customer
                key: customerId
                inverse: orders

        """

    func testUnknownKeysAreRefusedByTheSchemasAsByTheLoaders() throws {
        // Each case: a line of the base after which an unknown key is added, at that level.
        let pipelineCases: [(after: String, added: String)] = [
            ("name: unknown-keys", "colour: red"),
            ("    path: ../SampleData/Locations/locations.csv", "    compression: gzip"),
            ("      header: true", "      separator: \";\""),
            ("      dateFormat: iso8601", "      renames: { a: b }"),
            ("  type: sqlite", "  file: x.sqlite"),
            ("  mode: upsert", "  batchsize: 10"),
            ("  maxAttempts: 3", "  jitter: true"),
            ("  maxErrorRatio: 0.5", "  maxWarnings: 100"),
            ("  directory: ../out/reports/unknown-keys", "  format: json"),
        ]
        let modelCases: [(after: String, added: String)] = [
            ("version: 1", "description: shop"),
            ("    table: Customers", "    sortKey: name"),
            ("        maxLength: 100", "        minLength: 1"),
            ("          constant: none", "          fallback: x"),
            ("        deleteRule: cascade", "        ordered: true"),
        ]

        var jobs: [(String, String)] = []
        let basePipelineFile = try write(Self.basePipeline, as: "base-pipeline.yaml")
        let baseModelFile = try write(Self.baseModel, as: "base-model.yaml")
        jobs += [(Self.pipelineSchema, basePipelineFile), (Self.modelSchema, baseModelFile)]
        var mutated: [(file: String, text: String, isPipeline: Bool, key: String)] = []
        for (index, change) in pipelineCases.enumerated() {
            let text = try inserting(change.added, after: change.after, in: Self.basePipeline)
            let file = try write(text, as: "pipeline-\(index).yaml")
            mutated.append((file, text, true, change.added))
            jobs.append((Self.pipelineSchema, file))
        }
        for (index, change) in modelCases.enumerated() {
            let text = try inserting(change.added, after: change.after, in: Self.baseModel)
            let file = try write(text, as: "model-\(index).yaml")
            mutated.append((file, text, false, change.added))
            jobs.append((Self.modelSchema, file))
        }

        let results = Dictionary(try validate(jobs), uniquingKeysWith: { a, _ in a })
        // The bases are valid for the schemas and for the loaders, so each refusal below is the added key's.
        XCTAssertEqual(results[basePipelineFile], [], "the base pipeline should validate")
        XCTAssertEqual(results[baseModelFile], [], "the base model should validate")
        XCTAssertNoThrow(try loadPipeline(Self.basePipeline), "the base pipeline should load")
        XCTAssertNoThrow(try ModelLoader.parse(text: Self.baseModel, file: baseModelFile), "the base model should load")

        for change in mutated {
            let name = change.key.split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
            let errors = results[change.file] ?? ["not validated"]
            XCTAssertTrue(
                errors.contains { $0.contains("'\(name)' was unexpected") },
                "the schema should refuse the unknown key '\(name)': \(errors)")
            if change.isPipeline {
                XCTAssertThrowsError(try loadPipeline(change.text), "PipelineLoader should refuse '\(name)'") { error in
                    XCTAssertTrue("\(error)".contains("'\(name)': unknown key"), "\(error)")
                }
            } else {
                XCTAssertThrowsError(
                    try ModelLoader.parse(text: change.text, file: change.file), "ModelLoader should refuse '\(name)'"
                ) { error in
                    XCTAssertTrue("\(error)".contains("'\(name)': unknown key"), "\(error)")
                }
            }
        }
    }

    // MARK: (c) the examples in docs/

    /// Every ```yaml block of docs/*.md is a pipeline or a model file, whole or in part:
    /// - a block starting with `# yaml-language-server: $schema=…/pipeline.schema.json` (or model),
    ///   or whose top-level keys include `sources:` (a pipeline) or `entities:` (a model), is a whole file;
    /// - `# part of a pipeline file` marks top-level keys of a pipeline: `model:`/`sources:` are added if missing;
    /// - `# part of a model file: attributes of an entity` marks attributes: they are put in an entity;
    /// - `# Kubernetes` or `# Prometheus` starts a file of another tool, which is not checked here.
    /// Each is validated against its schema and loaded with PipelineLoader (plus the model and
    /// the run's configuration checks, as `importer validate` starts) or ModelLoader, as if it
    /// were a file in Pipelines/ (so `../SampleData/…` paths name the sample data; input files
    /// need not exist, the model must).
    func testDocumentationExamplesValidateAndLoad() throws {
        let documents = try files(in: "docs", suffixes: [".md"])
        XCTAssertFalse(documents.isEmpty, "docs/ holds no Markdown files")
        var examples: [(origin: String, text: String, isPipeline: Bool, file: String)] = []
        for document in documents {
            let blocks = try yamlBlocks(in: document)
            for (line, block) in blocks where !block.hasPrefix("# Kubernetes") && !block.hasPrefix("# Prometheus") {
                let origin = "\(relative(document)):\(line)"
                guard let (text, isPipeline) = completed(block) else {
                    XCTFail(
                        "\(origin): a yaml block that is neither a pipeline nor a model file; start it with a schema modeline, or '# part of a pipeline file', or '# part of a model file: attributes of an entity'"
                    )
                    continue
                }
                let file = try write(text, as: "example-\(examples.count).yaml")
                examples.append((origin, text, isPipeline, file))
            }
        }
        XCTAssertGreaterThanOrEqual(examples.filter(\.isPipeline).count, 5, "docs should show pipeline examples")
        XCTAssertGreaterThanOrEqual(examples.filter { !$0.isPipeline }.count, 3, "docs should show model examples")

        let results = Dictionary(
            try validate(examples.map { ($0.isPipeline ? Self.pipelineSchema : Self.modelSchema, $0.file) }),
            uniquingKeysWith: { a, _ in a })
        for example in examples {
            XCTAssertEqual(
                results[example.file], [],
                "\(example.origin): the example does not validate against its schema:\n\(example.text)")
            do {
                if example.isPipeline {
                    try loadAndCheck(example.text, requireInputs: false)
                } else {
                    _ = try ModelLoader.parse(text: example.text, file: example.file)
                }
            } catch {
                XCTFail("\(example.origin): the example does not load: \(error)\n\(example.text)")
            }
        }
    }

    /// The modeline shown in the docs names the schemas that exist.
    func testDocsShowTheSchemaModeline() throws {
        var modelines: [String] = []
        for document in try files(in: "docs", suffixes: [".md"]) {
            let text = try String(contentsOfFile: document, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("# yaml-language-server: $schema=") {
                modelines.append(String(line))
            }
        }
        XCTAssertTrue(
            modelines.contains { $0.hasSuffix("pipeline.schema.json") }, "docs should show the pipeline schema modeline"
        )
        XCTAssertTrue(
            modelines.contains { $0.hasSuffix("model.schema.json") }, "docs should show the model schema modeline")
        for line in modelines {
            let name = (line.components(separatedBy: "$schema=").last ?? "") as NSString
            XCTAssertTrue(
                ["pipeline.schema.json", "model.schema.json"].contains(name.lastPathComponent),
                "unknown schema in: \(line)")
        }
    }

    // MARK: Defaults stated in docs/pipeline.md are the code's

    func testDocumentedPipelineDefaultsAreTheLoadersDefaults() throws {
        let config = try loadPipeline(
            "model: ../SampleData/Locations/Model\nsources:\n  - { entity: Location, path: ../SampleData/Locations/locations.csv }\n"
        )
        let write = config.write
        let expected: [(key: String, value: String)] = [
            ("mode", write.mode.rawValue), ("versions", write.versions.rawValue),
            ("mergePolicy", write.mergePolicy.rawValue),
            ("transactional", "\(write.transactional)"), ("concurrency", "\(write.concurrency)"),
            ("atomic", "\(write.atomic)"),
            ("maxDeletes", write.maxDeletes == .percent(10) ? "10%" : "\(write.maxDeletes)"),
            ("maxAttempts", "\(config.retry.maxAttempts)"), ("baseDelay", number(config.retry.baseDelay)),
            ("maxDelay", number(config.retry.maxDelay)),
            ("maxErrors", "\(config.errors.maxErrors)"), ("maxErrorRatio", number(config.errors.maxErrorRatio)),
            ("minRecords", "\(config.errors.minRecords)"),
            ("type", config.destination.kind.rawValue), ("createTables", "\(config.destination.createTables)"),
            ("dateEncoding", config.destination.dateEncoding), ("tablePrefix", config.destination.tablePrefix),
        ]
        let reference = try String(
            contentsOfFile: Self.root.appendingPathComponent("docs/pipeline.md").path, encoding: .utf8)
        let rows = reference.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for (key, value) in expected {
            guard let row = rows.first(where: { $0.hasPrefix("| `\(key)` ") || $0.hasPrefix("| `\(key)`|") }) else {
                XCTFail("docs/pipeline.md has no table row for `\(key)`")
                continue
            }
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            XCTAssertGreaterThanOrEqual(cells.count, 4, String(row))
            let shown = value.isEmpty ? "none" : "`\(value)`"
            XCTAssertTrue(
                cells.count >= 4 && cells[3].contains(shown),
                "docs/pipeline.md: the default of `\(key)` should be \(shown): \(row)")
        }
        let ratioSample = try String(
            contentsOfFile: Self.root.appendingPathComponent("docs/reports.md").path, encoding: .utf8)
        XCTAssertTrue(
            ratioSample.contains("`maxErrors: \(config.errors.maxErrors)`"),
            "docs/reports.md should state the maxErrors default")
        XCTAssertTrue(
            ratioSample.contains("`maxErrorRatio: \(number(config.errors.maxErrorRatio))`"),
            "docs/reports.md should state the maxErrorRatio default")
    }

    // MARK: Links

    /// README and docs link only to files of the repository (or to web pages), and every docs page is linked.
    func testReadmeAndDocsLinkInsideTheRepository() throws {
        let readme = Self.root.appendingPathComponent("README.md").path
        let documents = [readme] + (try files(in: "docs", suffixes: [".md"]))
        let rootPath = Self.root.standardizedFileURL.path
        var linkedFromIndex = Set<String>()
        var readmeLinksDocs = false
        for document in documents {
            let text = try String(contentsOfFile: document, encoding: .utf8)
            XCTAssertFalse(
                text.contains("../shared") || text.contains("SPEC.md"),
                "\(relative(document)) refers to a document outside the repository")
            for target in links(in: text) {
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
                    continue
                }
                let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if path.isEmpty { continue }  // an anchor in the same page
                let resolved = URL(fileURLWithPath: (document as NSString).deletingLastPathComponent)
                    .appendingPathComponent(path).standardizedFileURL.path
                XCTAssertTrue(
                    resolved == rootPath || resolved.hasPrefix(rootPath + "/"),
                    "\(relative(document)) links outside the repository: \(target)")
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: resolved),
                    "\(relative(document)) links to a missing file: \(target)")
                if document == readme && relative(resolved).hasPrefix("docs") { readmeLinksDocs = true }
                if relative(document) == "docs/README.md" { linkedFromIndex.insert(relative(resolved)) }
            }
        }
        XCTAssertTrue(readmeLinksDocs, "README.md should link into docs/")
        for document in try files(in: "docs", suffixes: [".md"]) where relative(document) != "docs/README.md" {
            XCTAssertTrue(
                linkedFromIndex.contains(relative(document)), "docs/README.md should link \(relative(document))")
        }
    }

    // MARK: Helpers

    /// Regular files under `folder` of the repository with one of `suffixes`, sorted.
    func files(in folder: String, suffixes: [String]) throws -> [String] {
        let base = Self.root.appendingPathComponent(folder).path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [String] = []
        for case let name as String in enumerator where suffixes.contains(where: { name.hasSuffix($0) }) {
            found.append((base as NSString).appendingPathComponent(name))
        }
        return found.sorted()
    }

    func relative(_ path: String) -> String {
        let rootPath = Self.root.standardizedFileURL.path + "/"
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized.hasPrefix(rootPath) ? String(standardized.dropFirst(rootPath.count)) : path
    }

    func write(_ text: String, as name: String) throws -> String {
        let file = (directory as NSString).appendingPathComponent(name)
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func inserting(_ line: String, after anchor: String, in text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        let index = try XCTUnwrap(lines.firstIndex(of: anchor), "no line '\(anchor)' in the base file")
        lines.insert(line, at: index + 1)
        return lines.joined(separator: "\n")
    }

    /// A pipeline text loaded as if it were a file in Pipelines/, with no environment. Input files
    /// need not exist unless `requireInputs` (doc examples may name dumps of their own).
    func loadPipeline(_ text: String, requireInputs: Bool = true) throws -> PipelineConfig {
        var loader = PipelineLoader(environment: [:])
        loader.requireInputs = requireInputs
        return try loader.parse(text: text, file: Self.pipelineDirectory + "/documentation-example.yaml")
    }

    /// Loads a pipeline, its model and the run's configuration checks, as `importer validate` starts.
    func loadAndCheck(_ text: String, requireInputs: Bool) throws {
        let config = try loadPipeline(text, requireInputs: requireInputs)
        let versions = try ModelLoader.load(path: config.modelPath)
        var pinned: Model? = versions.newest
        if let version = config.modelVersion { pinned = versions.version(version) }
        guard let model = pinned else {
            throw ConfigurationError(
                file: config.file, key: "modelVersion",
                "version \(config.modelVersion ?? 0) is not in \(config.modelPath)")
        }
        try PipelineRun.checkConfiguration(config, model: model, versions: versions)
    }

    func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Markdown link targets: `[text](target)`.
    func links(in text: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = after[..<close].split(separator: " ").first.map(String.init) ?? ""
            targets.append(target.trimmingCharacters(in: CharacterSet(charactersIn: "<>")))
            rest = after[close...]
        }
        return targets
    }

    /// The ```yaml blocks of a Markdown file, with the line of their opening fence.
    func yamlBlocks(in document: String) throws -> [(line: Int, text: String)] {
        let lines = try String(contentsOfFile: document, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [(Int, String)] = []
        var current: [String]?
        var start = 0
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```yaml" || trimmed == "```yml" {
                    current = []
                    start = index + 1
                }
            } else if trimmed == "```" {
                blocks.append((start, current!.joined(separator: "\n") + "\n"))
                current = nil
            } else {
                current!.append(line)
            }
        }
        XCTAssertNil(current, "\(relative(document)): a ```yaml block is not closed")
        return blocks
    }

    /// A doc block as a whole file, and whether it is a pipeline; nil when it is neither kind.
    func completed(_ block: String) -> (String, Bool)? {
        let first = block.split(separator: "\n").first.map(String.init) ?? ""
        let keys = Set(
            block.split(separator: "\n").compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), let head = line.first, head.isLetter || head == "_" else {
                    return nil
                }
                return String(line[..<colon])
            })
        if first.hasPrefix("# yaml-language-server: $schema=") {
            if first.hasSuffix("pipeline.schema.json") { return (block, true) }
            if first.hasSuffix("model.schema.json") { return (block, false) }
            return nil
        }
        if first.hasPrefix("# part of a pipeline file") {
            var text = block
            if !keys.contains("sources") {
                text += "sources:\n  - { entity: Location, path: ../SampleData/Locations/locations.csv }\n"
            }
            if !keys.contains("model") {
                text += "model: ../SampleData/Locations/Model\n"
                if !keys.contains("modelVersion") { text += "modelVersion: 1\n" }
            }
            return (text, true)
        }
        if first.hasPrefix("# part of a model file: attributes of an entity") {
            let indented = block.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "      " + $0
            }
            let text = """
                model: DocumentationExample
                version: 2
                entities:
                  Example:
                    hashKey: _id
                    versionAttribute: _version
                    attributes:
                      _id: { type: string }
                      _version: { type: int64 }

                """ + indented.joined(separator: "\n")
            return (text, false)
        }
        if keys.contains("sources") { return (block, true) }
        if keys.contains("entities") { return (block, false) }
        return nil
    }

    /// Validates each (schema, YAML file) with Python's jsonschema; returns each file's errors.
    func validate(_ jobs: [(schema: String, file: String)]) throws -> [(String, [String])] {
        let script = """
            import json, sys
            try:
                import yaml, jsonschema
            except ImportError as error:
                sys.exit("missing Python package: %s; run scripts/setup (it installs pyyaml and jsonschema)" % error)
            class Loader(yaml.SafeLoader):
                pass
            # Dates stay text, as the loaders read them.
            Loader.yaml_implicit_resolvers = {key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
                                              for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
            results = []
            for schema_path, path in json.load(sys.stdin):
                schema = json.load(open(schema_path, encoding="utf-8"))
                validator = jsonschema.validators.validator_for(schema)
                validator.check_schema(schema)
                try:
                    data = json.loads(json.dumps(yaml.load(open(path, encoding="utf-8"), Loader=Loader)))
                    errors = ["%s: %s" % ("/".join(map(str, error.absolute_path)) or "(top level)", error.message)
                              for error in validator(schema).iter_errors(data)]
                except yaml.YAMLError as error:
                    errors = ["not valid YAML: %s" % error]
                results.append([path, errors])
            json.dump(results, sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let request = try JSONSerialization.data(withJSONObject: jobs.map { [$0.schema, $0.file] })
        input.fileHandleForWriting.write(request)
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail(
                "python3 schema validation failed (\(process.terminationStatus)): \(String(decoding: err, as: UTF8.self))"
            )
            return []
        }
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: out) as? [[Any]])
        return decoded.map { ($0[0] as? String ?? "", $0[1] as? [String] ?? ["unreadable result"]) }
    }
}

import Foundation

/// A Core Data model on disk (docs/coredata.md): an `.xcdatamodeld` folder of `.xcdatamodel`
/// versions, the current one named by `.xccurrentversion`, or one `.xcdatamodel` package (a
/// folder holding the `contents` XML). `Locations 2.xcdatamodel` is version 2; a name
/// without a trailing number is version 1.
package enum CoreDataPackage {
    static let versionedExtension = ".xcdatamodeld"
    static let versionExtension = ".xcdatamodel"
    static let currentVersionFile = ".xccurrentversion"

    /// Whether `path` names a Core Data model rather than YAML.
    package static func isCoreData(_ path: String) -> Bool {
        let trimmed = trimmed(path)
        return trimmed.hasSuffix(versionedExtension) || trimmed.hasSuffix(versionExtension)
            || (FilePaths.lastComponent(trimmed) == "contents"
                && FilePaths.directory(of: trimmed).hasSuffix(versionExtension))
    }

    /// Every version of the model at `path`, and what the importer does not use of them.
    static func load(path: String) throws -> VersionedModel {
        var package = trimmed(path)
        if FilePaths.lastComponent(package) == "contents" { package = FilePaths.directory(of: package) }
        if package.hasSuffix(versionedExtension) { return try loadVersioned(package) }
        let parent = FilePaths.directory(of: package)
        let name = parent.hasSuffix(versionedExtension) ? modelName(of: parent) : numbered(package).name
        let (model, warnings) = try loadVersion(package, modelName: name)
        return VersionedModel(versions: [model], warnings: warnings)
    }

    private static func loadVersioned(_ folder: String) throws -> VersionedModel {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw ConfigurationError(file: folder, "cannot read the model folder; check the path")
        }
        let packages = names.filter { $0.hasSuffix(versionExtension) }.sorted()
        guard !packages.isEmpty else { throw ConfigurationError(file: folder, "holds no .xcdatamodel versions") }
        let name = modelName(of: folder)
        var numbers: [Int: String] = [:]
        for package in packages {
            let number = numbered(package).version
            if let other = numbers.updateValue(package, forKey: number) {
                throw ConfigurationError(
                    file: FilePaths.join(folder, package),
                    "is version \(number), as is \(other); rename one (the trailing number is the version)")
            }
        }
        var current = numbers.keys.max()!
        var warnings: [ModelWarning] = []
        if let currentName = try currentVersion(of: folder) {
            guard packages.contains(currentName) else {
                throw ConfigurationError(
                    file: FilePaths.join(folder, currentVersionFile),
                    "names the current version '\(currentName)', which is not in the model folder")
            }
            current = numbered(currentName).version
        }
        var versions: [Model] = []
        for (number, package) in numbers.sorted(by: { $0.key > $1.key }) {
            guard number <= current else {
                warnings.append(
                    ModelWarning(
                        file: FilePaths.join(folder, package), line: nil,
                        message:
                            "version \(number) is newer than the current version \(current) (\(currentVersionFile)) and is not read"
                    ))
                continue
            }
            let (model, found) = try loadVersion(FilePaths.join(folder, package), modelName: name)
            versions.append(model)
            // What every version declares is said once, for the newest.
            warnings += found.filter { warning in !warnings.contains { $0.message == warning.message } }
        }
        return VersionedModel(versions: versions, warnings: warnings)
    }

    private static func loadVersion(_ package: String, modelName: String) throws -> (Model, [ModelWarning]) {
        let contents = FilePaths.join(package, "contents")
        guard FileManager.default.fileExists(atPath: contents) else {
            throw ConfigurationError(
                file: package,
                "has no 'contents' file; a model saved by Xcode 4 or later has one (open and save it in Xcode)")
        }
        try ModelChecks.checkName(modelName, at: FilePlace(file: package, line: nil, key: "model name"))
        var reader = CoreDataModelReader(file: contents)
        let model = try reader.read(name: modelName, version: numbered(package).version)
        return (model, reader.warnings)
    }

    /// The name in `.xccurrentversion` (`_XCCurrentVersionName`), or nil without the file.
    private static func currentVersion(of folder: String) throws -> String? {
        let file = FilePaths.join(folder, currentVersionFile)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let root = try XMLElementNode.parse(
            Array(try YAMLNode.readText(file, what: "current version file").utf8), file: file)
        let entries = root.children(named: "dict").first?.children ?? []
        for (key, value) in zip(entries, entries.dropFirst())
        where key.name == "key" && key.text == "_XCCurrentVersionName" {
            return value.text
        }
        throw ConfigurationError(
            file: file, line: root.line, "has no _XCCurrentVersionName; it should name the current .xcdatamodel")
    }

    /// `Locations.xcdatamodeld` → `Locations`.
    static func modelName(of folder: String) -> String {
        String(FilePaths.lastComponent(trimmed(folder)).dropLast(versionedExtension.count))
    }

    /// `Locations 2.xcdatamodel` → (`Locations`, 2); `Locations.xcdatamodel` → (`Locations`, 1).
    static func numbered(_ package: String) -> (name: String, version: Int) {
        var base = FilePaths.lastComponent(trimmed(package))
        if base.hasSuffix(versionExtension) { base.removeLast(versionExtension.count) }
        let digits = base.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < base.count, let number = Int(String(digits.reversed())), number >= 1
        else {
            return (base, 1)
        }
        return (String(base.dropLast(digits.count)).trimmingCharacters(in: .whitespaces), number)
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

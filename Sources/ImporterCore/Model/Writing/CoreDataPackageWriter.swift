import Foundation

/// Writes a model's versions as an `.xcdatamodeld` folder the way Xcode lays it out
/// (docs/coredata.md): `Name.xcdatamodel/contents` for version 1, `Name N.xcdatamodel/contents` for version
/// N, and `.xccurrentversion` naming the newest.
package enum CoreDataPackageWriter {
    /// Writes `versions` into `folder` (created if needed; files of the same names replaced).
    package static func write(_ versions: VersionedModel, to folder: String) throws {
        let name = CoreDataPackage.modelName(of: folder)
        guard name == versions.newest.name else {
            throw ConfigurationError(
                file: folder,
                "a Core Data model is named after its folder; write it to \(versions.newest.name)\(CoreDataPackage.versionedExtension)"
            )
        }
        for model in versions.versions {
            let package = FilePaths.join(folder, packageName(model))
            try create(package)
            try TextFile.write(CoreDataModelWriter.contents(of: model), to: FilePaths.join(package, "contents"))
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(XMLText.escaped(packageName(versions.newest)))</string>
            </dict>
            </plist>

            """
        try TextFile.write(current, to: FilePaths.join(folder, CoreDataPackage.currentVersionFile))
    }

    /// `Locations.xcdatamodel`, `Locations 2.xcdatamodel`.
    static func packageName(_ model: Model) -> String {
        (model.version == 1 ? model.name : "\(model.name) \(model.version)") + CoreDataPackage.versionExtension
    }

    private static func create(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError(file: directory, "cannot create the folder: \(error.localizedDescription)")
        }
    }
}

/// The container and compression of a backup archive, chosen by its file name (docs/archives.md).
package enum ArchiveKind: String, Sendable, CaseIterable {
    case tar, tarGzip, tarZstd, tarXz, zip

    /// The kind a file name asks for, or nil for a name without a known suffix.
    package init?(fileName: String) {
        let name = fileName.lowercased()
        guard let kind = Self.suffixes.first(where: { name.hasSuffix($0.suffix) })?.kind else { return nil }
        self = kind
    }

    /// Whether an archive of this kind is written in one pass, as it can be uploaded (`.tar`,
    /// `.tar.gz`, `.tar.zst`); `.tar.xz` and `.zip` are written from two passes over the data.
    package var isStreamable: Bool { FrameCodec(self) != nil }

    /// The suffixes `init(fileName:)` knows, for messages.
    package static let knownSuffixes = suffixes.map(\.suffix).joined(separator: ", ")

    private static let suffixes: [(suffix: String, kind: ArchiveKind)] = [
        (".tar.gz", .tarGzip), (".tgz", .tarGzip), (".tar.zst", .tarZstd), (".tzst", .tarZstd),
        (".tar.xz", .tarXz), (".txz", .tarXz), (".zip", .zip), (".tar", .tar),
    ]
}

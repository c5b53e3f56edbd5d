/// A one-pass archive cut into parts for an uploader (docs/archives.md: an S3 multipart upload, no
/// local copy). A part goes up as soon as it is full and holds no placeholder still to be
/// filled; parts with one stay in memory until it is (the manifest's part until the end, an
/// entry's header part until the entry ends), so memory holds a few parts, whatever the size
/// of the archive. Parts grow by 8 MiB every 1000 parts: S3's 10,000 parts then hold 430 GiB.
final class PartedOutput: ArchiveOutput {
    /// S3's smallest part but the last.
    static let minimumPartSize = 5 << 20
    static let firstPartSize = 8 << 20

    private struct Part {
        let number: Int
        let start: Int64
        let capacity: Int
        var bytes: [UInt8]
        var end: Int64 { start + Int64(bytes.count) }
        var isFull: Bool { bytes.count == capacity }
    }

    private let uploader: any ArchivePartUploader
    private let firstPartSize: Int
    /// The parts not uploaded yet, in order; the last is the one being filled.
    private var held: [Part] = []
    /// Placeholders not filled yet: offset → length.
    private var placeholders: [Int64: Int] = [:]
    private var offset: Int64 = 0
    private var partsStarted = 0

    init(uploader: any ArchivePartUploader, firstPartSize: Int = PartedOutput.firstPartSize) {
        precondition(firstPartSize >= Self.minimumPartSize)
        self.uploader = uploader
        self.firstPartSize = firstPartSize
    }

    /// The bytes appended so far: the archive's size once finished.
    var size: Int64 { offset }

    func append(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            if held.last?.isFull ?? true { startPart() }
            let last = held.count - 1
            let taken = rest.prefix(held[last].capacity - held[last].bytes.count)
            held[last].bytes.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            offset += Int64(taken.count)
            if held[last].isFull { try uploadReadyParts() }
        }
    }

    func reserve(_ bytes: [UInt8]) throws -> Int64 {
        let start = offset
        placeholders[start] = bytes.count
        try append(bytes)
        return start
    }

    func fill(_ bytes: [UInt8], at position: Int64) throws {
        precondition(placeholders.removeValue(forKey: position) == bytes.count, "no placeholder of this length here")
        for index in held.indices where held[index].start < position + Int64(bytes.count) && position < held[index].end
        {
            let from = max(position, held[index].start)
            let to = min(position + Int64(bytes.count), held[index].end)
            held[index].bytes.replaceSubrange(
                Int(from - held[index].start)..<Int(to - held[index].start),
                with: bytes[Int(from - position)..<Int(to - position)])
        }
        try uploadReadyParts()
    }

    func finish() throws {
        precondition(placeholders.isEmpty, "a placeholder was never filled")
        for part in held { try uploader.upload(part.bytes, number: part.number) }
        held = []
        try uploader.complete()
    }

    func abandon() {
        held = []
        uploader.abort()
    }

    private func startPart() {
        partsStarted += 1
        let capacity = firstPartSize * (1 + (partsStarted - 1) / 1000)
        held.append(Part(number: partsStarted, start: offset, capacity: capacity, bytes: []))
        held[held.count - 1].bytes.reserveCapacity(capacity)
    }

    /// Uploads the full parts that hold no unfilled placeholder.
    private func uploadReadyParts() throws {
        var index = 0
        while index < held.count {
            let part = held[index]
            let waiting = placeholders.contains {
                $0.key < part.start + Int64(part.capacity) && part.start < $0.key + Int64($0.value)
            }
            if part.isFull && !waiting {
                held.remove(at: index)
                try uploader.upload(part.bytes, number: part.number)
            } else {
                index += 1
            }
        }
    }
}

import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What this process writes to stderr (file descriptor 2) while `body` runs: to check that a
/// library call prints nothing. Not for tests that run in parallel in one process.
public enum StandardErrorCapture {
    public static func capture<T>(_ body: () throws -> T) throws -> (result: T, stderr: String) {
        let path = NSTemporaryDirectory() + "stderr-" + UUID().uuidString
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        fflush(nil)  // every stdio stream, stderr among them
        let saved = dup(2)
        dup2(file, 2)
        close(file)
        let result: Result<T, any Error> = Result { try body() }
        fflush(nil)  // every stdio stream, stderr among them
        dup2(saved, 2)
        close(saved)
        return (try result.get(), try String(contentsOfFile: path, encoding: .utf8))
    }
}

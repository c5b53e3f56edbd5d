import Foundation

extension Process {
    /// Runs the process, calls `whileRunning` (to read its pipes), and waits until it has ended.
    /// The wait wakes as the process ends, where `waitUntilExit` looks only every 50 ms: a test
    /// that runs many processes would pay that each time.
    public func runToEnd<T>(whileRunning: () throws -> T) throws -> T {
        let ended = DispatchSemaphore(value: 0)
        terminationHandler = { _ in ended.signal() }
        try run()
        defer { ended.wait() }
        return try whileRunning()
    }
}

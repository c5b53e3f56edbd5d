import Foundation

extension ImporterProcess {
    /// Starts `importer ARGUMENTS` (its standard error discarded) and kills it (SIGKILL) at the
    /// first moment `condition` holds for its process identifier. The process runs in slices of
    /// `slice` microseconds and is stopped (SIGSTOP) while `condition` is checked, so what the
    /// condition saw is exactly what the killed process leaves: a fast run cannot get past the
    /// moment between the check and the kill. Returns whether it was killed; false if it ended,
    /// or `timeout` passed, first.
    public static func kill(
        _ arguments: [String], when condition: (_ pid: Int32) throws -> Bool, slice: useconds_t = 5_000,
        timeout: TimeInterval = 120
    ) throws -> Bool {
        let process = start(arguments)
        process.standardError = FileHandle.nullDevice
        return try process.runToEnd {
            let pid = process.processIdentifier
            defer { Foundation.kill(pid, SIGKILL) }
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                usleep(slice)
                Foundation.kill(pid, SIGSTOP)
                guard waitUntilStopped(pid) else { return false }
                if try condition(pid) { return true }
                Foundation.kill(pid, SIGCONT)
            }
            return false
        }
    }

    /// Waits until every thread of process `pid` is stopped; false if the process has ended.
    private static func waitUntilStopped(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        while true {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
                return false
            }
            var running = false
            for thread in threads {
                // "pid (comm) S …": the state follows the last ')', as comm may hold one.
                guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
                if state == "Z" || state == "X" { return false }
                if state != "T" && state != "t" { running = true }
            }
            if !running { return true }
            usleep(100)
        }
    }
}

import Foundation

extension ImporterProcess {
    /// Starts `importer ARGUMENTS` (its standard error discarded) and kills it (SIGKILL) at the
    /// first moment `condition` holds for its process identifier (see `signal`). Returns whether
    /// it was killed; false if it ended, or `timeout` passed, first.
    public static func kill(
        _ arguments: [String], when condition: (_ pid: Int32) throws -> Bool, slice: useconds_t = 5_000,
        timeout: TimeInterval = 120
    ) throws -> Bool {
        try signal(arguments, SIGKILL, when: condition, slice: slice, timeout: timeout).sent
    }

    /// Starts `importer ARGUMENTS` (its standard error discarded; `environment` added to this
    /// process's) and sends it `signal` at the first moment `condition` holds for its process
    /// identifier, then lets it run to its end.
    /// The process runs in slices of `slice` microseconds and is stopped (SIGSTOP) while
    /// `condition` is checked, so what the condition saw is exactly where the signal lands: a
    /// fast run cannot get past the moment between the check and the signal. Returns whether
    /// the signal was sent (false if the process ended first; after `timeout` it is killed) and
    /// the process's exit status.
    public static func signal(
        _ arguments: [String], _ signal: Int32, environment: [String: String] = [:],
        when condition: (_ pid: Int32) throws -> Bool, slice: useconds_t = 5_000, timeout: TimeInterval = 120
    ) throws -> (sent: Bool, status: Int32) {
        let process = start(arguments, environment: environment)
        process.standardError = FileHandle.nullDevice
        let sent = try process.runToEnd {
            let pid = process.processIdentifier
            var sent = false
            defer {
                if !sent { Foundation.kill(pid, SIGKILL) }
                Foundation.kill(pid, SIGCONT)
            }
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                usleep(slice)
                Foundation.kill(pid, SIGSTOP)
                guard waitUntilStopped(pid) else { return false }
                if try condition(pid) {
                    Foundation.kill(pid, signal)
                    sent = true
                    return true
                }
                Foundation.kill(pid, SIGCONT)
            }
            return false
        }
        return (sent, process.terminationStatus)
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

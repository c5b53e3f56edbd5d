import Foundation

/// The threads of a process by the names the system knows them by (`/proc/<pid>/task/*/comm`),
/// with how many bear each: the run's stages name theirs.
public enum ThreadNames {
    /// Name → number of threads of process `pid` (this process by default) with that name.
    public static func of(_ pid: Int32? = nil) -> [String: Int] {
        let tasks = "/proc/\(pid.map(String.init) ?? "self")/task"
        var names: [String: Int] = [:]
        for id in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8) else { continue }
            names[name.trimmingCharacters(in: .newlines), default: 0] += 1
        }
        return names
    }
}

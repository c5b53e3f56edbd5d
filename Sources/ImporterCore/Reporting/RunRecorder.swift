import Foundation

/// The run's counts, rejections and abort state, shared by the reading and the writing thread.
final class RunRecorder: @unchecked Sendable {
    struct Input {
        let source: String
        let entity: String
        let format: String
        var bytes: Int64 = 0
        var started: Date?
        var finished: Date?
        var counts = Counts()
    }

    private struct GroupKey: Hashable {
        let entity: String
        let stage: Stage
        let reason: RejectReason
    }

    private static let examplesPerGroup = 10

    private let lock = NSLock()
    private let limits: ErrorLimits
    private let rejectsFile: RejectsFile
    /// Read `inputs` only once both threads are done (or under `lock`).
    private(set) var inputs: [Input]
    private var groups: [GroupKey: RunReport.ErrorGroup] = [:]
    private var groupOrder: [GroupKey] = []
    private var totalRead = 0
    private var totalRejected = 0
    private var abortReason: String?

    /// Below this many records read, `maxErrorRatio` is not applied yet: one early bad record
    /// must not abort a large run.
    static let ratioSample = 1000

    init(inputs: [Input], limits: ErrorLimits, rejectsFile: RejectsFile) {
        self.inputs = inputs
        self.limits = limits
        self.rejectsFile = rejectsFile
    }

    var isAborted: Bool {
        lock.lock(); defer { lock.unlock() }
        return abortReason != nil
    }

    var abortMessage: String? {
        lock.lock(); defer { lock.unlock() }
        return abortReason
    }

    /// Stops the run; the first reason given is the one reported.
    func abort(_ reason: String) {
        lock.lock(); defer { lock.unlock() }
        if abortReason == nil { abortReason = reason }
    }

    func started(input: Int) {
        lock.lock(); defer { lock.unlock() }
        inputs[input].started = Date()
    }

    func finished(input: Int, bytes: Int64) {
        lock.lock(); defer { lock.unlock() }
        inputs[input].finished = Date()
        inputs[input].bytes = bytes
    }

    /// Counts records read by the reading thread.
    func read(input: Int, count: Int) {
        lock.lock(); defer { lock.unlock() }
        inputs[input].counts.read += count
        totalRead += count
        checkRatio()
    }

    /// The records of `input` counted as read so far.
    func recordsRead(input: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        return inputs[input].counts.read
    }

    /// Applies a change to an input's counts.
    func update(input: Int, _ change: (inout Counts) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&inputs[input].counts)
    }

    func reject(input: Int, line: Int, offset: Int64, key: Value?, raw: ArraySlice<UInt8>, _ rejection: Rejection) {
        lock.lock()
        let source = inputs[input].source, entity = inputs[input].entity
        lock.unlock()
        let keyText = key.flatMap { $0.isNull ? nil : $0.description }
        rejectsFile.append(source: source, line: line, offset: offset, entity: entity, key: keyText, rejection: rejection, raw: raw)
        lock.lock(); defer { lock.unlock() }
        inputs[input].counts.rejected += 1
        if rejection.reason == .conflict { inputs[input].counts.conflicts += 1 }
        totalRejected += 1
        let groupKey = GroupKey(entity: entity, stage: rejection.stage, reason: rejection.reason)
        if groups[groupKey] == nil {
            groups[groupKey] = RunReport.ErrorGroup(entity: entity, stage: rejection.stage, reason: rejection.reason, count: 0, examples: [])
            groupOrder.append(groupKey)
        }
        groups[groupKey]!.count += 1
        if groups[groupKey]!.examples.count < Self.examplesPerGroup {
            groups[groupKey]!.examples.append(.init(source: source, line: line, key: keyText, message: rejection.message))
        }
        if totalRejected > limits.maxErrors, abortReason == nil {
            abortReason = "\(totalRejected) records rejected, more than errors.maxErrors (\(limits.maxErrors))"
        }
        checkRatio()
    }

    /// Applies `maxErrorRatio` to the whole run, however few records were read.
    func checkFinalRatio() {
        lock.lock(); defer { lock.unlock() }
        checkRatio(final: true)
    }

    /// Applies `maxErrorRatio` once enough records were read, or at the end. Call with the lock held.
    private func checkRatio(final: Bool = false) {
        guard abortReason == nil, totalRead > 0, final || totalRead >= Self.ratioSample else { return }
        let ratio = Double(totalRejected) / Double(totalRead)
        if ratio > limits.maxErrorRatio {
            abortReason = String(format: "%d of %d records rejected (%.1f%%), more than errors.maxErrorRatio (%.1f%%)",
                                 totalRejected, totalRead, ratio * 100, limits.maxErrorRatio * 100)
        }
    }

    var errorGroups: [RunReport.ErrorGroup] {
        lock.lock(); defer { lock.unlock() }
        return groupOrder.map { groups[$0]! }
    }
}

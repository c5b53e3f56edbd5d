import Foundation
import Synchronization

/// The run's counts, rejections and abort state: what every stage reports to, from its own
/// thread, under one lock.
final class RunRecorder: Sendable {
    struct Input: Sendable {
        let source: String
        let entity: String
        let format: String
        /// What of it the error limits count.
        var errorUnit: ErrorUnit = .record
        var bytes: Int64 = 0
        var started: Date?
        var finished: Date?
        var counts = Counts()
    }

    /// What the error limits count of an input (docs/reports.md#error-limits): its records, or
    /// for a document source its documents (its root's records) and, under `documents: partial`,
    /// its rejected elements (each a line of rejects.ndjson); a document's other records are not
    /// counted apart.
    enum ErrorUnit: Sendable {
        case record
        case document
        /// A child of a `documents: partial` source: each listed rejection is one error.
        case partialElement
        /// A child of a `documents: whole` source: its document counts for it.
        case withDocument
    }

    private struct GroupKey: Hashable {
        let entity: String
        let stage: Stage
        let reason: RejectReason
        let field: String?
        let target: String?
    }

    private struct State: ~Copyable {
        var inputs: [Input]
        var groups: [GroupKey: RunReport.ErrorGroup] = [:]
        var groupOrder: [GroupKey] = []
        /// Per group, the documents its examples of records rejected with their document come from.
        var exampleDocuments: [GroupKey: Set<Int64>] = [:]
        /// What the error limits count (`ErrorUnit`): read, and rejected.
        var unitsRead = 0
        var unitsRejected = 0
        var abortReason: AbortReason?
        /// The run stopped because it was asked to (`RunInterruption`), not by its own failure.
        var interrupted = false
        /// Every record was written and what is left is done whole: a request to stop comes too late.
        var workDone = false
        /// The error limit the run passed (it aborts only if more input follows).
        var errorLimit: PassedLimit?
        /// Entity → relationship → missing references nullified or kept.
        var references: [String: [String: RunReport.MissingReferences]] = [:]
        var partWritten: [RunReport.DocumentCounts.PartWritten] = []
    }

    static let examplesPerGroup = 10
    static let examplesPerReference = 5

    /// An error limit the run passed.
    private enum PassedLimit { case maxErrors, maxErrorRatio }

    private let limits: ErrorLimits
    private let state: Mutex<State>
    /// What the limits count, for their messages: "records", "documents", or both.
    private let units: String
    /// Whether a document source is among the inputs: its records are then said apart.
    private let countsDocuments: Bool

    init(inputs: [Input], limits: ErrorLimits) {
        self.limits = limits
        state = Mutex(State(inputs: inputs))
        countsDocuments = inputs.contains { $0.errorUnit == .document }
        let records = inputs.contains { $0.errorUnit == .record }
        units = countsDocuments ? (records ? "records and documents" : "documents") : "records"
    }

    /// Every input's figures so far.
    var inputs: [Input] { state.withLock { $0.inputs } }

    /// Records read, written (inserted, updated or unchanged) and rejected so far, and the
    /// store's retries, over all inputs.
    struct Totals: Equatable, Sendable {
        var read = 0
        var written = 0
        var rejected = 0
        var retries = 0
    }

    var totals: Totals {
        state.withLock { state in
            var totals = Totals()
            for input in state.inputs {
                totals.read += input.counts.read
                totals.written += input.counts.inserted + input.counts.updated + input.counts.unchanged
                totals.rejected += input.counts.rejected
                totals.retries += input.counts.retries
            }
            return totals
        }
    }

    var isAborted: Bool { state.withLock { $0.abortReason != nil } }

    /// Whether the run aborted, and whether it passed an error limit, under one lock.
    var standing: (aborted: Bool, pastLimit: Bool) {
        state.withLock { ($0.abortReason != nil, $0.errorLimit != nil) }
    }

    /// Why the run stopped; an error limit's message with the counts as they are now, the
    /// report's.
    var abortReason: AbortReason? {
        state.withLock { state in
            guard let reason = state.abortReason, reason.cause == .errorLimit, let limit = state.errorLimit else {
                return state.abortReason
            }
            return AbortReason(.errorLimit, message(limit, state))
        }
    }

    /// The error limit the run passed, if it did: which limit, with the counts as they are now.
    var errorLimit: String? { state.withLock { state in state.errorLimit.map { message($0, state) } } }

    /// More input follows a passed error limit: the run aborts with the limit as its reason.
    /// Returns whether it did.
    func abortIfPastErrorLimit() -> Bool {
        state.withLock { state in
            guard let limit = state.errorLimit else { return false }
            if state.abortReason == nil { state.abortReason = AbortReason(.errorLimit, message(limit, state)) }
            return true
        }
    }

    /// A passed limit's message, from the counters the report's totals come from.
    private func message(_ limit: PassedLimit, _ state: borrowing State) -> String {
        switch limit {
        case .maxErrors:
            var records = 0
            for input in state.inputs { records += input.counts.rejected }
            let detail = countsDocuments && records != state.unitsRejected ? " (\(records) records)" : ""
            return "\(state.unitsRejected) \(units) rejected\(detail), more than errors.maxErrors (\(limits.maxErrors))"
        case .maxErrorRatio:
            return String(
                format: "%d of %d \(units) rejected (%.1f%%), more than errors.maxErrorRatio (%.1f%%)",
                state.unitsRejected, state.unitsRead, Double(state.unitsRejected) / Double(state.unitsRead) * 100,
                limits.maxErrorRatio * 100)
        }
    }

    /// Stops the run; the first reason given is the one reported.
    func abort(_ reason: AbortReason) {
        state.withLock { state in
            if state.abortReason == nil { state.abortReason = reason }
        }
    }

    /// Stops the run because it was asked to: it reports `interrupted`, unless it had
    /// already aborted for a reason of its own.
    func interrupt(_ reason: String) {
        state.withLock { state in
            guard state.abortReason == nil, !state.workDone else { return }
            state.abortReason = AbortReason(.interrupted, reason)
            state.interrupted = true
        }
    }

    /// Every record is written, and the run was not stopped: what is left (a delete phase, which
    /// runs whole, the last commit, the reports) is done whole, so a request to stop from now on
    /// stops nothing and the run keeps its status.
    func finishesWhole() {
        state.withLock { state in
            if state.abortReason == nil { state.workDone = true }
        }
    }

    /// Whether the run stopped because it was asked to.
    var wasInterrupted: Bool { state.withLock { $0.interrupted } }

    func started(input: Int) {
        state.withLock { $0.inputs[input].started = Date() }
    }

    func finished(input: Int, bytes: Int64) {
        state.withLock { state in
            state.inputs[input].finished = Date()
            state.inputs[input].bytes = bytes
        }
    }

    /// Notes a document left part-written, whose root is `root` (of `input`).
    func partWritten(input: Int, line: Int, key: Value, written: Int, notWritten: Int) {
        state.withLock { state in
            state.partWritten.append(
                .init(
                    source: state.inputs[input].source, line: line, entity: state.inputs[input].entity,
                    key: ReportedKey(key), written: written, notWritten: notWritten))
        }
    }

    /// The documents left part-written, in the order they were written.
    var partWrittenDocuments: [RunReport.DocumentCounts.PartWritten] { state.withLock { $0.partWritten } }

    /// Counts records read.
    func read(input: Int, count: Int) {
        state.withLock { state in
            state.inputs[input].counts.read += count
            switch state.inputs[input].errorUnit {
            case .record, .document: state.unitsRead += count
            case .partialElement, .withDocument: return
            }
            checkRatio(&state)
        }
    }

    /// The records of `input` counted as read so far.
    func recordsRead(input: Int) -> Int {
        state.withLock { $0.inputs[input].counts.read }
    }

    /// Applies a change to an input's counts.
    func update(input: Int, _ change: (inout Counts) -> Void) {
        state.withLock { change(&$0.inputs[input].counts) }
    }

    /// Counts a rejected record of `input` (rejects.ndjson is written by the write stage), which
    /// rejects.ndjson lists unless it was rejected with its document or the element holding it.
    func reject(input: Int, line: Int, key: Value?, _ rejection: Rejection, listed: Bool = true) {
        let keyText = key.flatMap(ReportedKey.init)
        state.withLock { state in
            let source = state.inputs[input].source, entity = state.inputs[input].entity
            state.inputs[input].counts.rejected += 1
            if rejection.reason == .conflict { state.inputs[input].counts.conflicts += 1 }
            switch state.inputs[input].errorUnit {
            case .record, .document: state.unitsRejected += 1
            case .partialElement: if listed { state.unitsRejected += 1 }
            case .withDocument: break
            }
            let groupKey = GroupKey(
                entity: entity, stage: rejection.stage, reason: rejection.reason,
                field: rejection.field, target: rejection.target)
            if state.groups[groupKey] == nil {
                state.groups[groupKey] = RunReport.ErrorGroup(
                    entity: entity, stage: rejection.stage, reason: rejection.reason,
                    field: rejection.field, target: rejection.target, count: 0, examples: [])
                state.groupOrder.append(groupKey)
            }
            state.groups[groupKey]!.count += 1
            // A record rejected with its document is an example of the first of its document only.
            if state.groups[groupKey]!.examples.count < Self.examplesPerGroup,
                rejection.documentOffset.map({ state.exampleDocuments[groupKey, default: []].insert($0).inserted })
                    ?? true
            {
                state.groups[groupKey]!.examples.append(
                    .init(source: source, line: line, key: keyText, message: rejection.message))
            }
            if state.unitsRejected > limits.maxErrors, state.errorLimit == nil { state.errorLimit = .maxErrors }
            checkRatio(&state)
        }
    }

    /// Counts a reference that named no item and was nullified or kept (`action`).
    func missingReference(
        input: Int, relationship: String, target: String, action: ReferencePolicy, line: Int, key: Value,
        _ message: @autoclosure () -> String
    ) {
        state.withLock { state in
            let source = state.inputs[input].source, entity = state.inputs[input].entity
            // Counted in place; the key's text and the message are made only for an example.
            Self.count(
                &state.references[entity, default: [:]][
                    relationship, default: .init(target: target, action: action.rawValue, missing: 0, examples: [])],
                example: .init(source: source, line: line, key: ReportedKey(key), message: message()))
        }
    }

    private static func count(
        _ counted: inout RunReport.MissingReferences, example: @autoclosure () -> RunReport.RejectExample
    ) {
        counted.missing += 1
        if counted.examples.count < examplesPerReference { counted.examples.append(example()) }
    }

    /// Entity → relationship → the missing references it stored anyway.
    var missingReferences: [String: [String: RunReport.MissingReferences]] { state.withLock { $0.references } }

    /// Applies `maxErrorRatio` once `minRecords` records (or documents) were read.
    private func checkRatio(_ state: inout State) {
        guard state.errorLimit == nil, state.unitsRead > 0, state.unitsRead >= limits.minRecords else { return }
        if Double(state.unitsRejected) / Double(state.unitsRead) > limits.maxErrorRatio {
            state.errorLimit = .maxErrorRatio
        }
    }

    /// The groups of rejections, largest first (in the order they first occurred when equal).
    var errorGroups: [RunReport.ErrorGroup] {
        let groups = state.withLock { state in state.groupOrder.map { state.groups[$0]! } }
        return groups.enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(
            \.element)
    }
}

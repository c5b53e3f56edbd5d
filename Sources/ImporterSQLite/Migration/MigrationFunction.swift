import CSQLite
import ImporterCore

/// `importer_migrate(slot, rowid, inputs…)`: the SQL function a store migration's UPDATE calls
/// for each migrated column of each row. It runs the same code as migrate-on-read
/// (`RecordMigrator.migrate`), so a migrated store and a migrated dump agree value for value.
/// A value that cannot be migrated becomes NULL and its row is recorded in `failures`.
final class MigrationFunction {
    /// One migrated column: the attribute's mapping and what it needs to decode its inputs.
    /// A class: each row's call then takes one reference, not a copy of every field.
    final class Slot {
        let mapping: AttributeMapping
        let index: Int
        let validator: RecordValidator
        let version: Int
        /// Old attribute positions and types of the function's inputs, in argument order.
        let inputs: [(position: Int, type: AttributeType)]
        let oldCount: Int

        init(
            mapping: AttributeMapping, index: Int, validator: RecordValidator, version: Int,
            inputs: [(position: Int, type: AttributeType)], oldCount: Int
        ) {
            self.mapping = mapping
            self.index = index
            self.validator = validator
            self.version = version
            self.inputs = inputs
            self.oldCount = oldCount
        }
    }

    struct Failure {
        let rowid: Int64
        let rejection: Rejection
    }

    private(set) var slots: [Slot] = []
    var failures: [Failure] = []
    /// Per slot with one input, outcomes by input value: a conversion is a pure function of
    /// its inputs, and enumerations, flags and codes repeat, so most rows are a lookup.
    private var memos: [[Value: Result<Value, Rejection>]] = []
    private static let memoLimit = 4096

    static let name = "importer_migrate"

    func add(_ slot: Slot) -> Int {
        slots.append(slot)
        memos.append([:])
        return slots.count - 1
    }

    func reset() {
        slots = []
        memos = []
        failures = []
    }

    /// Registers the function on `database` for as long as this object lives.
    func register(on database: Database) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = sqlite3_create_function_v2(
            database.handle, Self.name, -1, SQLITE_UTF8, context,
            { context, count, arguments in
                let function = Unmanaged<MigrationFunction>.fromOpaque(sqlite3_user_data(context)!)
                    .takeUnretainedValue()
                function.call(context!, Int(count), arguments!)
            }, nil, nil, nil)
        try database.check(code, sql: nil)
    }

    /// Removes the function from `database`, before this object goes away: SQLite holds an
    /// unretained pointer to it.
    func unregister(from database: Database) {
        // Deleting a function SQLite registered a moment ago cannot fail but for misuse.
        let code = sqlite3_create_function_v2(database.handle, Self.name, -1, SQLITE_UTF8, nil, nil, nil, nil, nil)
        assert(code == SQLITE_OK, "cannot unregister \(Self.name): \(code)")
    }

    private func call(_ context: OpaquePointer, _ count: Int, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        let index = Int(sqlite3_value_int64(arguments[0]))
        let slot = slots[index]
        let outcome: Result<Value, Rejection>
        if slot.inputs.count == 1 {
            outcome = self.outcome(slot: index, input: Self.value(arguments[2]!, as: slot.inputs[0].type))
        } else {
            outcome = migrate(
                slot, slot.inputs.indices.map { Self.value(arguments[2 + $0]!, as: slot.inputs[$0].type) })
        }
        switch outcome {
        case .success(let value):
            Self.result(value, context)
        case .failure(let rejection):
            failures.append(Failure(rowid: sqlite3_value_int64(arguments[1]), rejection: rejection))
            sqlite3_result_null(context)
        }
    }

    /// The value a one-input slot gives for `input` (memoized like a row's).
    func outcome(slot index: Int, input: Value) -> Result<Value, Rejection> {
        if let known = memos[index][input] { return known }
        let outcome = migrate(slots[index], [input])
        if memos[index].count < Self.memoLimit { memos[index][input] = outcome }
        return outcome
    }

    private func migrate(_ slot: Slot, _ inputs: [Value]) -> Result<Value, Rejection> {
        var old = [Value](repeating: .null, count: slot.oldCount)
        for (input, value) in zip(slot.inputs, inputs) { old[input.position] = value }
        return RecordMigrator.migrate(
            slot.mapping, at: slot.index, from: old, validator: slot.validator, version: slot.version)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A column value as `ValueColumns.read` types it.
    private static func value(_ value: OpaquePointer, as type: AttributeType) -> Value {
        if sqlite3_value_type(value) == SQLITE_NULL { return .null }
        func text() -> String {
            guard let pointer = sqlite3_value_text(value) else { return "" }
            return String(
                decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
        }
        switch type {
        case .string, .uuid, .uri: return .string(text())
        case .binary:
            guard let pointer = sqlite3_value_blob(value) else { return .binary([]) }
            return .binary(Array(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))))
        case .decimal: return .decimal(text())
        case .int16, .int32, .int64: return .integer(sqlite3_value_int64(value))
        case .double, .float: return .double(sqlite3_value_double(value))
        case .boolean: return .boolean(sqlite3_value_int64(value) != 0)
        case .date:
            let stored = text()
            if case .success(let millis) = ISO8601.parse(stored) { return .date(millis) }
            return .string(stored)
        }
    }

    /// The function's result, stored as `Statement.bind(_:at:)` stores values.
    private static func result(_ value: Value, _ context: OpaquePointer) {
        switch value {
        case .null: sqlite3_result_null(context)
        case .string(let text), .decimal(let text): resultText(text, context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .double(let number): sqlite3_result_double(context, number)
        case .date(let millis): resultText(ISO8601.format(millis: millis), context)
        case .boolean(let flag): sqlite3_result_int64(context, flag ? 1 : 0)
        case .pair: resultText(value.description, context)
        case .binary(let bytes) where bytes.isEmpty: sqlite3_result_zeroblob(context, 0)
        case .binary(let bytes):
            bytes.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), transient) }
        }
    }

    private static func resultText(_ text: String, _ context: OpaquePointer) {
        var text = text
        text.withUTF8 { bytes in
            sqlite3_result_text(
                context, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                transient)
        }
    }
}

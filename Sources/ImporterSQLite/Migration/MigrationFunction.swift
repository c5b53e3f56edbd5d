import CSQLite
import ImporterCore

/// `importer_migrate(slot, key, inputs…)`: the SQL function a store migration's UPDATE calls
/// for each migrated column of each row. It runs the same code as migrate-on-read
/// (`RecordMigrator.migrate`), so a migrated store and a migrated dump agree value for value.
/// A value that cannot be migrated becomes NULL and its item is recorded in `failures`.
final class MigrationFunction {
    /// One migrated column: the attribute's mapping and what it needs to decode its inputs.
    struct Slot {
        let mapping: AttributeMapping
        let index: Int
        let validator: RecordValidator
        let version: Int
        let keyType: AttributeType
        /// Old attribute positions and types of the function's inputs, in argument order.
        let inputs: [(position: Int, type: AttributeType)]
        let oldCount: Int
    }

    struct Failure {
        let key: Value
        let rejection: Rejection
    }

    private(set) var slots: [Slot] = []
    var failures: [Failure] = []

    static let name = "importer_migrate"

    func add(_ slot: Slot) -> Int {
        slots.append(slot)
        return slots.count - 1
    }

    func reset() {
        slots = []
        failures = []
    }

    /// Registers the function on `database` for as long as this object lives.
    func register(on database: Database) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = sqlite3_create_function_v2(database.handle, Self.name, -1, SQLITE_UTF8, context, { context, count, arguments in
            let function = Unmanaged<MigrationFunction>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
            function.call(context!, Int(count), arguments!)
        }, nil, nil, nil)
        guard code == SQLITE_OK else { throw database.error(code, sql: nil) }
    }

    private func call(_ context: OpaquePointer, _ count: Int, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        let slot = slots[Int(sqlite3_value_int64(arguments[0]))]
        var old = [Value](repeating: .null, count: slot.oldCount)
        for (offset, input) in slot.inputs.enumerated() {
            old[input.position] = Self.value(arguments[2 + offset]!, as: input.type)
        }
        switch RecordMigrator.migrate(slot.mapping, at: slot.index, from: old, validator: slot.validator, version: slot.version) {
        case .success(let value):
            Self.result(value, context)
        case .failure(let rejection):
            failures.append(Failure(key: Self.value(arguments[1]!, as: slot.keyType), rejection: rejection))
            sqlite3_result_null(context)
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A column value as `ValueColumns.read` types it.
    private static func value(_ value: OpaquePointer, as type: AttributeType) -> Value {
        if sqlite3_value_type(value) == SQLITE_NULL { return .null }
        func text() -> String {
            guard let pointer = sqlite3_value_text(value) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
        }
        switch type {
        case .string: return .string(text())
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

    /// The function's result, stored as `ValueColumns.bind` stores values.
    private static func result(_ value: Value, _ context: OpaquePointer) {
        switch value {
        case .null: sqlite3_result_null(context)
        case .string(let text), .decimal(let text): resultText(text, context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .double(let number): sqlite3_result_double(context, number)
        case .date(let millis): resultText(ISO8601.format(millis: millis), context)
        case .boolean(let flag): sqlite3_result_int64(context, flag ? 1 : 0)
        }
    }

    private static func resultText(_ text: String, _ context: OpaquePointer) {
        var text = text
        text.withUTF8 { bytes in
            sqlite3_result_text(context, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
        }
    }
}

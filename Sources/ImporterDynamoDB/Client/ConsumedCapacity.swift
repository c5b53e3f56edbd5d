import Foundation
import Synchronization

extension DynamoDB {
    /// What a response says it consumed (`ReturnConsumedCapacity: TOTAL`): one
    /// `ConsumedCapacity` object for a single-item operation, a list (one per table) for
    /// batches and transactions; `units` is their sum.
    package struct ConsumedCapacity: Decodable, Sendable, Equatable {
        package var units: Double

        package init(units: Double) { self.units = units }

        private struct Entry: Decodable {
            let capacityUnits: Double?
            enum CodingKeys: String, CodingKey { case capacityUnits = "CapacityUnits" }
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let entries = try? container.decode([Entry].self) {
                units = entries.reduce(0) { $0 + ($1.capacityUnits ?? 0) }
            } else {
                units = try container.decode(Entry.self).capacityUnits ?? 0
            }
        }
    }

    /// A response that may carry `ConsumedCapacity`.
    package protocol ReportsCapacity {
        var consumedCapacity: ConsumedCapacity? { get }
    }

    /// The response of a single-item write or a transaction: only its consumed capacity is read.
    package struct WriteResponse: Decodable, Sendable, ReportsCapacity {
        package var consumedCapacity: ConsumedCapacity?
        enum CodingKeys: String, CodingKey { case consumedCapacity = "ConsumedCapacity" }
    }
}

/// Capacity units consumed, per entity and kind, across tasks, for the report (docs/dynamodb.md).
package final class CapacityCounter: Sendable {
    /// Units consumed by writes and by reads.
    package struct Units: Sendable, Equatable {
        package var write = 0.0
        package var read = 0.0
    }

    private let units = Mutex<[String: Units]>([:])

    package init() {}

    package func add(_ consumed: Double, write: Bool, for entity: String) {
        units.withLock { units in
            if write {
                units[entity, default: Units()].write += consumed
            } else {
                units[entity, default: Units()].read += consumed
            }
        }
    }

    /// The units counted for `entity` since the last call (nil when none was), and resets them.
    package func take(for entity: String) -> Units? {
        units.withLock { $0.removeValue(forKey: entity) }
    }
}

extension DynamoDB.Operation {
    package static var writes: Bool { false }
}

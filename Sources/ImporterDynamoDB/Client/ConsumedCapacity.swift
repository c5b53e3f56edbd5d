import Foundation
import Synchronization

extension DynamoDB {
    /// What a response says it consumed (`ReturnConsumedCapacity: TOTAL`): one
    /// `ConsumedCapacity` object for a single-item operation, a list (one per table) for
    /// batches and transactions; `units` is their sum.
    public struct ConsumedCapacity: Decodable, Sendable, Equatable {
        public var units: Double

        public init(units: Double) { self.units = units }

        private struct Entry: Decodable {
            let capacityUnits: Double?
            enum CodingKeys: String, CodingKey { case capacityUnits = "CapacityUnits" }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let entries = try? container.decode([Entry].self) {
                units = entries.reduce(0) { $0 + ($1.capacityUnits ?? 0) }
            } else {
                units = try container.decode(Entry.self).capacityUnits ?? 0
            }
        }
    }

    /// A response that may carry `ConsumedCapacity`.
    public protocol ReportsCapacity {
        var consumedCapacity: ConsumedCapacity? { get }
    }

    /// The response of a single-item write or a transaction: only its consumed capacity is read.
    public struct WriteResponse: Decodable, Sendable, ReportsCapacity {
        public var consumedCapacity: ConsumedCapacity?
        enum CodingKeys: String, CodingKey { case consumedCapacity = "ConsumedCapacity" }
    }
}

/// Capacity units consumed, per entity and kind, across tasks, for the report (docs/dynamodb.md).
public final class CapacityCounter: Sendable {
    /// Units consumed by writes and by reads.
    public struct Units: Sendable, Equatable {
        public var write = 0.0
        public var read = 0.0
    }

    private let units = Mutex<[String: Units]>([:])

    public init() {}

    public func add(_ consumed: Double, write: Bool, for entity: String) {
        units.withLock { units in
            if write { units[entity, default: Units()].write += consumed } else { units[entity, default: Units()].read += consumed }
        }
    }

    /// The units counted for `entity` since the last call (nil when none was), and resets them.
    public func take(for entity: String) -> Units? {
        units.withLock { $0.removeValue(forKey: entity) }
    }
}

extension DynamoDB.Operation {
    public static var writes: Bool { false }
}

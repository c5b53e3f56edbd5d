/// What a store migration did, or (dry run, or items that fail) would do.
public struct MigrationOutcome: Sendable {
    public struct Step: Sendable {
        public let from: Int
        public let to: Int
        /// Items of the migrated entities after the step.
        public let items: Int
        public let failures: [MigrationFailure]

        public init(from: Int, to: Int, items: Int, failures: [MigrationFailure]) {
            self.from = from
            self.to = to
            self.items = items
            self.failures = failures
        }
    }

    public var steps: [Step] = []
    public var failures: [MigrationFailure] { steps.flatMap(\.failures) }

    public init(steps: [Step] = []) { self.steps = steps }
}

/// An item that a step cannot migrate; it is named as in the plan's start version.
public struct MigrationFailure: Sendable {
    public let entity: String
    public let key: Value
    public let rejection: Rejection
    public let toVersion: Int
    /// The item as stored before the migration, when the store read it anyway (DynamoDB).
    public let item: [Value]?

    public init(entity: String, key: Value, rejection: Rejection, toVersion: Int, item: [Value]? = nil) {
        self.entity = entity
        self.key = key
        self.rejection = rejection
        self.toVersion = toVersion
        self.item = item
    }
}

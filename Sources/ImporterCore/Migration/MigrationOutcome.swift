/// What a store migration did, or (dry run, or items that fail) would do.
package struct MigrationOutcome: Sendable {
    package struct Step: Sendable {
        package let from: Int
        package let to: Int
        /// Items of the migrated entities after the step.
        package let items: Int
        package let failures: [MigrationFailure]

        package init(from: Int, to: Int, items: Int, failures: [MigrationFailure]) {
            self.from = from
            self.to = to
            self.items = items
            self.failures = failures
        }
    }

    package var steps: [Step] = []
    package var failures: [MigrationFailure] { steps.flatMap(\.failures) }

    package init(steps: [Step] = []) { self.steps = steps }
}

/// An item that a step cannot migrate; it is named as in the plan's start version.
package struct MigrationFailure: Sendable {
    package let entity: String
    package let key: Value
    package let rejection: Rejection
    package let toVersion: Int
    /// The item as stored before the migration, when the store read it anyway (DynamoDB).
    package let item: [Value]?

    package init(entity: String, key: Value, rejection: Rejection, toVersion: Int, item: [Value]? = nil) {
        self.entity = entity
        self.key = key
        self.rejection = rejection
        self.toVersion = toVersion
        self.item = item
    }
}

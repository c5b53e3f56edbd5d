extension AttributeMapping {
    /// The attribute's value in the new version, from the item's values in the old one
    /// (before the new attribute's default and checks).
    package func value(from old: [Value]) -> Result<Value, CoercionProblem> {
        switch origin {
        case .carried(let index, let widenedFrom):
            return widenedFrom == nil ? .success(old[index]) : Widening.convert(old[index], to: attribute.type)
        case .added:
            return .success(attribute.defaultValue ?? .null)
        case .converted(let conversion, let inputs):
            return conversion.apply(inputs.map { old[$0] }, to: attribute.type)
        }
    }
}

/// Migrates the records of one entity, read against an older model version, through every
/// step of a plan (migrate-on-read), with the same rules as a store migration. Immutable, so
/// threads may share one (its validators' NSRegularExpressions are safe to share).
package final class RecordMigrator: Sendable {
    private let steps: [(mapping: EntityMapping, validator: RecordValidator, version: Int)]

    /// The migrator of `entity` (named as in the plan's start version); nil if a step removes it.
    package init?(plan: MigrationPlan, entity: String) {
        var name = entity
        var steps: [(EntityMapping, RecordValidator, Int)] = []
        for step in plan.steps {
            guard let mapping = step.mapping(forOld: name) else { return nil }
            steps.append((mapping, RecordValidator(entity: mapping.entity, dateFormat: .iso8601), step.to.version))
            name = mapping.entity.name
        }
        self.steps = steps
    }

    /// Why a record cannot be migrated, and the step (its index in the plan) that refused it.
    package struct Failure: Error, Sendable {
        package let step: Int
        package let rejection: Rejection
    }

    /// The record's values in the plan's end version, or why it cannot be migrated.
    package func migrate(_ values: [Value]) -> Result<[Value], Rejection> {
        migrateNamingStep(values).mapError(\.rejection)
    }

    /// The record's values in the plan's end version, or the step that refused it and why.
    package func migrateNamingStep(_ values: [Value]) -> Result<[Value], Failure> {
        var values = values
        for (stepIndex, (mapping, validator, version)) in steps.enumerated() {
            var next: [Value] = []
            next.reserveCapacity(mapping.attributes.count)
            for (index, attribute) in mapping.attributes.enumerated() {
                switch Self.migrate(attribute, at: index, from: values, validator: validator, version: version) {
                case .success(let value): next.append(value)
                case .failure(let rejection): return .failure(Failure(step: stepIndex, rejection: rejection))
                }
            }
            values = next
        }
        return .success(values)
    }

    /// One attribute's value in a step: converted, defaulted and checked.
    package static func migrate(
        _ mapping: AttributeMapping, at index: Int, from old: [Value], validator: RecordValidator,
        version: Int
    ) -> Result<Value, Rejection> {
        let name = mapping.attribute.name
        switch mapping.value(from: old) {
        case .failure(let problem):
            let reason: RejectReason = if case .converted = mapping.origin { .conversion } else { problem.reason }
            return .failure(
                Rejection(
                    stage: .migrate, reason: reason, field: name,
                    "\(name) (migrating to version \(version)): \(problem.message)"))
        case .success(let value):
            guard mapping.needsCheck else { return .success(value) }
            return validator.checked(value, at: index).mapError { rejection in
                Rejection(
                    stage: .migrate, reason: rejection.reason, field: name,
                    "\(rejection.message) (migrating to version \(version))")
            }
        }
    }
}

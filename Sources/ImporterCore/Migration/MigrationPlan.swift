/// The steps that take items from one model version to a later one (1→2→3), each inferred
/// from a pair of consecutive versions.
package struct MigrationPlan: Sendable {
    package let steps: [MigrationStep]
    package let from: Model
    package let to: Model

    /// The plan from version `from` to version `to` of `versions`; throws the first refusal
    /// (nothing is migrated with a plan that refuses anything).
    package init(_ versions: VersionedModel, from: Int, to: Int) throws {
        guard let start = versions.version(from) else {
            throw ConfigurationError(
                file: versions.newest.file, key: "version",
                "model version \(from) is not in the model directory; it has \(versions.numbers)")
        }
        guard let end = versions.version(to) else {
            throw ConfigurationError(
                file: versions.newest.file, key: "version",
                "model version \(to) is not in the model directory; it has \(versions.numbers)")
        }
        guard from <= to else {
            throw ConfigurationError(
                file: end.file, key: "version",
                "migrations go forward only (\(from) → \(to)); to go back, restore a backup taken at version \(to)")
        }
        self.init(steps: versions.steps(from: from, to: to), from: start, to: end)
        if let refusal = refusals.first {
            throw ConfigurationError(
                file: refusal.file, line: refusal.line, key: refusal.key,
                "cannot migrate version \(from) to \(to): \(refusal.message)")
        }
    }

    /// A plan without the refusal check (`model diff` shows them all).
    package init(steps: [MigrationStep], from: Model, to: Model) {
        self.steps = steps
        self.from = from
        self.to = to
    }

    package var refusals: [ConfigurationError] { steps.flatMap(\.refusals) }

    /// The new name of an entity of the start version, or nil if a step removed it.
    package func currentName(ofEntity name: String) -> String? {
        var name = name
        for step in steps {
            guard let mapping = step.mapping(forOld: name) else { return nil }
            name = mapping.entity.name
        }
        return name
    }

    /// The start version's name of an entity of the version the step at `stepIndex` (default:
    /// the end) starts from, or nil if a step added it.
    package func originalName(ofEntity name: String, beforeStep stepIndex: Int? = nil) -> String? {
        var name = name
        for step in steps[..<(stepIndex ?? steps.count)].reversed() {
            guard let source = step.mapping(forNew: name)?.source else { return nil }
            name = source.name
        }
        return name
    }
}

extension VersionedModel {
    /// The steps between consecutive versions from `from` to `to`, refusals included.
    package func steps(from: Int, to: Int) -> [MigrationStep] {
        let chain = versions.filter { $0.version >= from && $0.version <= to }
        return zip(chain, chain.dropFirst()).map { MigrationStep(from: $0, to: $1) }
    }

    /// "1, 2, 3"
    var numbers: String { versions.map { String($0.version) }.joined(separator: ", ") }
}

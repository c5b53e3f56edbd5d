/// The table's scenarios by id, for test classes that run each in a method of its own.
extension ConformanceRunner {
    /// The method each scenario needs in every store's test class: `test` + its id.
    package static var testMethodNames: [String] { scenarios.map { "test" + $0.id } }

    /// The scenario a test method runs: `testInsertCheckError` (or `#function`'s
    /// `testInsertCheckError()`) runs the scenario `InsertCheckError`; nil for no such scenario.
    package static func scenario(forTest method: String) -> ConformanceScenario? {
        let name = method.hasSuffix("()") ? String(method.dropLast(2)) : method
        return scenarios.first { "test" + $0.id == name }
    }
}

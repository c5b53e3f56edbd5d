/// The journal mode (`PRAGMA journal_mode`), which the bulk load's build switches.
extension StoreConnection {
    /// Changes the journal mode, which changes the data version as a commit by another
    /// connection would: a switch that changed it by exactly one is this run's own, and the
    /// unchanged-inputs watch is told so (`UnchangedInputWatch.ownStep`). Returns whether the
    /// mode is `mode` now.
    func switchJournal(to mode: String) throws -> Bool {
        let before = try database.dataVersion()
        guard try database.strings("PRAGMA journal_mode = \(mode)").first == mode else { return false }
        if inputWatch.isWatching, try database.dataVersion() == before + 1 { inputWatch.ownStep() }
        return true
    }
}

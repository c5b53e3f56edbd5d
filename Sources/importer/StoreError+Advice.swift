import ImporterCore

extension StoreError {
    /// A store that refuses the command before it writes anything, for the user to fix (exit
    /// 2): it holds another model or version, is being migrated, lacks the model's tables, or
    /// refuses a setting.
    var isRefusal: Bool {
        switch kind {
        case .modelMismatch, .unfinishedMigration, .missingTable, .tableKeyMismatch, .invalidSetting: return true
        default: return false
        }
    }

    /// The error as the command line shows it: the store's message and what to do, in the
    /// terms of the commands (docs/migration.md).
    var rendered: String {
        guard let advice else { return message }
        return "\(message); \(advice)"
    }

    private var advice: String? {
        switch kind {
        case .modelMismatch(let recorded, let expected):
            if recorded.name != expected.name { return "use another destination" }
            if recorded.version < expected.version {
                return "migrate it first: importer migrate PIPELINE --to \(expected.version)"
            }
            if recorded.version > expected.version {
                return "pin modelVersion: \(recorded.version) in the pipeline to use it (migrations go forward only)"
            }
            return "put the change in a new version file and migrate, or, if the edit does not change stored data, "
                + "accept it with --accept-model-change (SQLite stores; recorded in the store's history)"
        case .unfinishedMigration(let version):
            return "finish it first: importer migrate PIPELINE --to \(version)"
        case .missingTable:
            return "or set destination.createTables: true in the pipeline"
        case .tableKeyMismatch:
            return "point the pipeline's tablePrefix at other tables, or fix the model"
        default:
            return nil
        }
    }
}

// One test method per scenario of the conformance table (ConformanceRunner.scenarios), so
// that each can be run alone: `swift test --filter DynamoDBConformanceTests/testInsertCheckError`.
// `testEveryScenarioHasATestMethod` fails when a scenario has no method here.

extension DynamoDBConformanceTests {
    /// The scenario methods, which `testEveryScenarioHasATestMethod` compares with the table.
    static var scenarioTests: [(String, (DynamoDBConformanceTests) -> () throws -> Void)] {
        [
            ("testInsertCheckError", testInsertCheckError),
            ("testInsertCheckStoreTrump", testInsertCheckStoreTrump),
            ("testInsertCheckObjectTrump", testInsertCheckObjectTrump),
            ("testInsertCheckOverwrite", testInsertCheckOverwrite),
            ("testInsertCheckRollback", testInsertCheckRollback),
            ("testInsertPreserveError", testInsertPreserveError),
            ("testInsertPreserveStoreTrump", testInsertPreserveStoreTrump),
            ("testInsertPreserveObjectTrump", testInsertPreserveObjectTrump),
            ("testInsertPreserveOverwrite", testInsertPreserveOverwrite),
            ("testInsertPreserveRollback", testInsertPreserveRollback),
            ("testInsertIgnoreError", testInsertIgnoreError),
            ("testInsertIgnoreStoreTrump", testInsertIgnoreStoreTrump),
            ("testInsertIgnoreObjectTrump", testInsertIgnoreObjectTrump),
            ("testInsertIgnoreOverwrite", testInsertIgnoreOverwrite),
            ("testInsertIgnoreRollback", testInsertIgnoreRollback),
            ("testUpsertCheckError", testUpsertCheckError),
            ("testUpsertCheckStoreTrump", testUpsertCheckStoreTrump),
            ("testUpsertCheckObjectTrump", testUpsertCheckObjectTrump),
            ("testUpsertCheckOverwrite", testUpsertCheckOverwrite),
            ("testUpsertCheckRollback", testUpsertCheckRollback),
            ("testUpsertPreserveError", testUpsertPreserveError),
            ("testUpsertPreserveStoreTrump", testUpsertPreserveStoreTrump),
            ("testUpsertPreserveObjectTrump", testUpsertPreserveObjectTrump),
            ("testUpsertPreserveOverwrite", testUpsertPreserveOverwrite),
            ("testUpsertPreserveRollback", testUpsertPreserveRollback),
            ("testUpsertIgnoreError", testUpsertIgnoreError),
            ("testUpsertIgnoreStoreTrump", testUpsertIgnoreStoreTrump),
            ("testUpsertIgnoreObjectTrump", testUpsertIgnoreObjectTrump),
            ("testUpsertIgnoreOverwrite", testUpsertIgnoreOverwrite),
            ("testUpsertIgnoreRollback", testUpsertIgnoreRollback),
            ("testReplaceCheckError", testReplaceCheckError),
            ("testReplaceCheckStoreTrump", testReplaceCheckStoreTrump),
            ("testReplaceCheckObjectTrump", testReplaceCheckObjectTrump),
            ("testReplaceCheckOverwrite", testReplaceCheckOverwrite),
            ("testReplaceCheckRollback", testReplaceCheckRollback),
            ("testReplacePreserveError", testReplacePreserveError),
            ("testReplacePreserveStoreTrump", testReplacePreserveStoreTrump),
            ("testReplacePreserveObjectTrump", testReplacePreserveObjectTrump),
            ("testReplacePreserveOverwrite", testReplacePreserveOverwrite),
            ("testReplacePreserveRollback", testReplacePreserveRollback),
            ("testReplaceIgnoreError", testReplaceIgnoreError),
            ("testReplaceIgnoreStoreTrump", testReplaceIgnoreStoreTrump),
            ("testReplaceIgnoreObjectTrump", testReplaceIgnoreObjectTrump),
            ("testReplaceIgnoreOverwrite", testReplaceIgnoreOverwrite),
            ("testReplaceIgnoreRollback", testReplaceIgnoreRollback),
            ("testSyncCheckError", testSyncCheckError),
            ("testSyncCheckStoreTrump", testSyncCheckStoreTrump),
            ("testSyncCheckObjectTrump", testSyncCheckObjectTrump),
            ("testSyncCheckOverwrite", testSyncCheckOverwrite),
            ("testSyncCheckRollback", testSyncCheckRollback),
            ("testSyncPreserveError", testSyncPreserveError),
            ("testSyncPreserveStoreTrump", testSyncPreserveStoreTrump),
            ("testSyncPreserveObjectTrump", testSyncPreserveObjectTrump),
            ("testSyncPreserveOverwrite", testSyncPreserveOverwrite),
            ("testSyncPreserveRollback", testSyncPreserveRollback),
            ("testSyncIgnoreError", testSyncIgnoreError),
            ("testSyncIgnoreStoreTrump", testSyncIgnoreStoreTrump),
            ("testSyncIgnoreObjectTrump", testSyncIgnoreObjectTrump),
            ("testSyncIgnoreOverwrite", testSyncIgnoreOverwrite),
            ("testSyncIgnoreRollback", testSyncIgnoreRollback),
            ("testInsertCheckErrorOnCompositeKey", testInsertCheckErrorOnCompositeKey),
            ("testInsertCheckStoreTrumpOnCompositeKey", testInsertCheckStoreTrumpOnCompositeKey),
            ("testInsertCheckObjectTrumpOnCompositeKey", testInsertCheckObjectTrumpOnCompositeKey),
            ("testInsertCheckOverwriteOnCompositeKey", testInsertCheckOverwriteOnCompositeKey),
            ("testInsertCheckRollbackOnCompositeKey", testInsertCheckRollbackOnCompositeKey),
            ("testInsertPreserveErrorOnCompositeKey", testInsertPreserveErrorOnCompositeKey),
            ("testInsertPreserveStoreTrumpOnCompositeKey", testInsertPreserveStoreTrumpOnCompositeKey),
            ("testInsertPreserveObjectTrumpOnCompositeKey", testInsertPreserveObjectTrumpOnCompositeKey),
            ("testInsertPreserveOverwriteOnCompositeKey", testInsertPreserveOverwriteOnCompositeKey),
            ("testInsertPreserveRollbackOnCompositeKey", testInsertPreserveRollbackOnCompositeKey),
            ("testInsertIgnoreErrorOnCompositeKey", testInsertIgnoreErrorOnCompositeKey),
            ("testInsertIgnoreStoreTrumpOnCompositeKey", testInsertIgnoreStoreTrumpOnCompositeKey),
            ("testInsertIgnoreObjectTrumpOnCompositeKey", testInsertIgnoreObjectTrumpOnCompositeKey),
            ("testInsertIgnoreOverwriteOnCompositeKey", testInsertIgnoreOverwriteOnCompositeKey),
            ("testInsertIgnoreRollbackOnCompositeKey", testInsertIgnoreRollbackOnCompositeKey),
            ("testUpsertCheckErrorOnCompositeKey", testUpsertCheckErrorOnCompositeKey),
            ("testUpsertCheckStoreTrumpOnCompositeKey", testUpsertCheckStoreTrumpOnCompositeKey),
            ("testUpsertCheckObjectTrumpOnCompositeKey", testUpsertCheckObjectTrumpOnCompositeKey),
            ("testUpsertCheckOverwriteOnCompositeKey", testUpsertCheckOverwriteOnCompositeKey),
            ("testUpsertCheckRollbackOnCompositeKey", testUpsertCheckRollbackOnCompositeKey),
            ("testUpsertPreserveErrorOnCompositeKey", testUpsertPreserveErrorOnCompositeKey),
            ("testUpsertPreserveStoreTrumpOnCompositeKey", testUpsertPreserveStoreTrumpOnCompositeKey),
            ("testUpsertPreserveObjectTrumpOnCompositeKey", testUpsertPreserveObjectTrumpOnCompositeKey),
            ("testUpsertPreserveOverwriteOnCompositeKey", testUpsertPreserveOverwriteOnCompositeKey),
            ("testUpsertPreserveRollbackOnCompositeKey", testUpsertPreserveRollbackOnCompositeKey),
            ("testUpsertIgnoreErrorOnCompositeKey", testUpsertIgnoreErrorOnCompositeKey),
            ("testUpsertIgnoreStoreTrumpOnCompositeKey", testUpsertIgnoreStoreTrumpOnCompositeKey),
            ("testUpsertIgnoreObjectTrumpOnCompositeKey", testUpsertIgnoreObjectTrumpOnCompositeKey),
            ("testUpsertIgnoreOverwriteOnCompositeKey", testUpsertIgnoreOverwriteOnCompositeKey),
            ("testUpsertIgnoreRollbackOnCompositeKey", testUpsertIgnoreRollbackOnCompositeKey),
            ("testReplaceCheckErrorOnCompositeKey", testReplaceCheckErrorOnCompositeKey),
            ("testReplaceCheckStoreTrumpOnCompositeKey", testReplaceCheckStoreTrumpOnCompositeKey),
            ("testReplaceCheckObjectTrumpOnCompositeKey", testReplaceCheckObjectTrumpOnCompositeKey),
            ("testReplaceCheckOverwriteOnCompositeKey", testReplaceCheckOverwriteOnCompositeKey),
            ("testReplaceCheckRollbackOnCompositeKey", testReplaceCheckRollbackOnCompositeKey),
            ("testReplacePreserveErrorOnCompositeKey", testReplacePreserveErrorOnCompositeKey),
            ("testReplacePreserveStoreTrumpOnCompositeKey", testReplacePreserveStoreTrumpOnCompositeKey),
            ("testReplacePreserveObjectTrumpOnCompositeKey", testReplacePreserveObjectTrumpOnCompositeKey),
            ("testReplacePreserveOverwriteOnCompositeKey", testReplacePreserveOverwriteOnCompositeKey),
            ("testReplacePreserveRollbackOnCompositeKey", testReplacePreserveRollbackOnCompositeKey),
            ("testReplaceIgnoreErrorOnCompositeKey", testReplaceIgnoreErrorOnCompositeKey),
            ("testReplaceIgnoreStoreTrumpOnCompositeKey", testReplaceIgnoreStoreTrumpOnCompositeKey),
            ("testReplaceIgnoreObjectTrumpOnCompositeKey", testReplaceIgnoreObjectTrumpOnCompositeKey),
            ("testReplaceIgnoreOverwriteOnCompositeKey", testReplaceIgnoreOverwriteOnCompositeKey),
            ("testReplaceIgnoreRollbackOnCompositeKey", testReplaceIgnoreRollbackOnCompositeKey),
            ("testSyncCheckErrorOnCompositeKey", testSyncCheckErrorOnCompositeKey),
            ("testSyncCheckStoreTrumpOnCompositeKey", testSyncCheckStoreTrumpOnCompositeKey),
            ("testSyncCheckObjectTrumpOnCompositeKey", testSyncCheckObjectTrumpOnCompositeKey),
            ("testSyncCheckOverwriteOnCompositeKey", testSyncCheckOverwriteOnCompositeKey),
            ("testSyncCheckRollbackOnCompositeKey", testSyncCheckRollbackOnCompositeKey),
            ("testSyncPreserveErrorOnCompositeKey", testSyncPreserveErrorOnCompositeKey),
            ("testSyncPreserveStoreTrumpOnCompositeKey", testSyncPreserveStoreTrumpOnCompositeKey),
            ("testSyncPreserveObjectTrumpOnCompositeKey", testSyncPreserveObjectTrumpOnCompositeKey),
            ("testSyncPreserveOverwriteOnCompositeKey", testSyncPreserveOverwriteOnCompositeKey),
            ("testSyncPreserveRollbackOnCompositeKey", testSyncPreserveRollbackOnCompositeKey),
            ("testSyncIgnoreErrorOnCompositeKey", testSyncIgnoreErrorOnCompositeKey),
            ("testSyncIgnoreStoreTrumpOnCompositeKey", testSyncIgnoreStoreTrumpOnCompositeKey),
            ("testSyncIgnoreObjectTrumpOnCompositeKey", testSyncIgnoreObjectTrumpOnCompositeKey),
            ("testSyncIgnoreOverwriteOnCompositeKey", testSyncIgnoreOverwriteOnCompositeKey),
            ("testSyncIgnoreRollbackOnCompositeKey", testSyncIgnoreRollbackOnCompositeKey),
            ("testSyncDeletesMissingItems", testSyncDeletesMissingItems),
            ("testCascadeDeletesDependants", testCascadeDeletesDependants),
            ("testNullifyClearsDependantsKeys", testNullifyClearsDependantsKeys),
            ("testDenyKeepsAnItemWithDependants", testDenyKeepsAnItemWithDependants),
            ("testNullifyOfARequiredKeyIsDenied", testNullifyOfARequiredKeyIsDenied),
            ("testCascadeSparesDependantsInTheInput", testCascadeSparesDependantsInTheInput),
            ("testMaxDeletesCountRefuses", testMaxDeletesCountRefuses),
            ("testMaxDeletesPercentCountsCascades", testMaxDeletesPercentCountsCascades),
            ("testMaxDeletesPercentAllowsUpToTheLimit", testMaxDeletesPercentAllowsUpToTheLimit),
        ]
    }

    // The version rules: mode × versions × mergePolicy.
    func testInsertCheckError() throws { try check() }
    func testInsertCheckStoreTrump() throws { try check() }
    func testInsertCheckObjectTrump() throws { try check() }
    func testInsertCheckOverwrite() throws { try check() }
    func testInsertCheckRollback() throws { try check() }
    func testInsertPreserveError() throws { try check() }
    func testInsertPreserveStoreTrump() throws { try check() }
    func testInsertPreserveObjectTrump() throws { try check() }
    func testInsertPreserveOverwrite() throws { try check() }
    func testInsertPreserveRollback() throws { try check() }
    func testInsertIgnoreError() throws { try check() }
    func testInsertIgnoreStoreTrump() throws { try check() }
    func testInsertIgnoreObjectTrump() throws { try check() }
    func testInsertIgnoreOverwrite() throws { try check() }
    func testInsertIgnoreRollback() throws { try check() }
    func testUpsertCheckError() throws { try check() }
    func testUpsertCheckStoreTrump() throws { try check() }
    func testUpsertCheckObjectTrump() throws { try check() }
    func testUpsertCheckOverwrite() throws { try check() }
    func testUpsertCheckRollback() throws { try check() }
    func testUpsertPreserveError() throws { try check() }
    func testUpsertPreserveStoreTrump() throws { try check() }
    func testUpsertPreserveObjectTrump() throws { try check() }
    func testUpsertPreserveOverwrite() throws { try check() }
    func testUpsertPreserveRollback() throws { try check() }
    func testUpsertIgnoreError() throws { try check() }
    func testUpsertIgnoreStoreTrump() throws { try check() }
    func testUpsertIgnoreObjectTrump() throws { try check() }
    func testUpsertIgnoreOverwrite() throws { try check() }
    func testUpsertIgnoreRollback() throws { try check() }
    func testReplaceCheckError() throws { try check() }
    func testReplaceCheckStoreTrump() throws { try check() }
    func testReplaceCheckObjectTrump() throws { try check() }
    func testReplaceCheckOverwrite() throws { try check() }
    func testReplaceCheckRollback() throws { try check() }
    func testReplacePreserveError() throws { try check() }
    func testReplacePreserveStoreTrump() throws { try check() }
    func testReplacePreserveObjectTrump() throws { try check() }
    func testReplacePreserveOverwrite() throws { try check() }
    func testReplacePreserveRollback() throws { try check() }
    func testReplaceIgnoreError() throws { try check() }
    func testReplaceIgnoreStoreTrump() throws { try check() }
    func testReplaceIgnoreObjectTrump() throws { try check() }
    func testReplaceIgnoreOverwrite() throws { try check() }
    func testReplaceIgnoreRollback() throws { try check() }
    func testSyncCheckError() throws { try check() }
    func testSyncCheckStoreTrump() throws { try check() }
    func testSyncCheckObjectTrump() throws { try check() }
    func testSyncCheckOverwrite() throws { try check() }
    func testSyncCheckRollback() throws { try check() }
    func testSyncPreserveError() throws { try check() }
    func testSyncPreserveStoreTrump() throws { try check() }
    func testSyncPreserveObjectTrump() throws { try check() }
    func testSyncPreserveOverwrite() throws { try check() }
    func testSyncPreserveRollback() throws { try check() }
    func testSyncIgnoreError() throws { try check() }
    func testSyncIgnoreStoreTrump() throws { try check() }
    func testSyncIgnoreObjectTrump() throws { try check() }
    func testSyncIgnoreOverwrite() throws { try check() }
    func testSyncIgnoreRollback() throws { try check() }

    // The same on an entity keyed by (hash, range).
    func testInsertCheckErrorOnCompositeKey() throws { try check() }
    func testInsertCheckStoreTrumpOnCompositeKey() throws { try check() }
    func testInsertCheckObjectTrumpOnCompositeKey() throws { try check() }
    func testInsertCheckOverwriteOnCompositeKey() throws { try check() }
    func testInsertCheckRollbackOnCompositeKey() throws { try check() }
    func testInsertPreserveErrorOnCompositeKey() throws { try check() }
    func testInsertPreserveStoreTrumpOnCompositeKey() throws { try check() }
    func testInsertPreserveObjectTrumpOnCompositeKey() throws { try check() }
    func testInsertPreserveOverwriteOnCompositeKey() throws { try check() }
    func testInsertPreserveRollbackOnCompositeKey() throws { try check() }
    func testInsertIgnoreErrorOnCompositeKey() throws { try check() }
    func testInsertIgnoreStoreTrumpOnCompositeKey() throws { try check() }
    func testInsertIgnoreObjectTrumpOnCompositeKey() throws { try check() }
    func testInsertIgnoreOverwriteOnCompositeKey() throws { try check() }
    func testInsertIgnoreRollbackOnCompositeKey() throws { try check() }
    func testUpsertCheckErrorOnCompositeKey() throws { try check() }
    func testUpsertCheckStoreTrumpOnCompositeKey() throws { try check() }
    func testUpsertCheckObjectTrumpOnCompositeKey() throws { try check() }
    func testUpsertCheckOverwriteOnCompositeKey() throws { try check() }
    func testUpsertCheckRollbackOnCompositeKey() throws { try check() }
    func testUpsertPreserveErrorOnCompositeKey() throws { try check() }
    func testUpsertPreserveStoreTrumpOnCompositeKey() throws { try check() }
    func testUpsertPreserveObjectTrumpOnCompositeKey() throws { try check() }
    func testUpsertPreserveOverwriteOnCompositeKey() throws { try check() }
    func testUpsertPreserveRollbackOnCompositeKey() throws { try check() }
    func testUpsertIgnoreErrorOnCompositeKey() throws { try check() }
    func testUpsertIgnoreStoreTrumpOnCompositeKey() throws { try check() }
    func testUpsertIgnoreObjectTrumpOnCompositeKey() throws { try check() }
    func testUpsertIgnoreOverwriteOnCompositeKey() throws { try check() }
    func testUpsertIgnoreRollbackOnCompositeKey() throws { try check() }
    func testReplaceCheckErrorOnCompositeKey() throws { try check() }
    func testReplaceCheckStoreTrumpOnCompositeKey() throws { try check() }
    func testReplaceCheckObjectTrumpOnCompositeKey() throws { try check() }
    func testReplaceCheckOverwriteOnCompositeKey() throws { try check() }
    func testReplaceCheckRollbackOnCompositeKey() throws { try check() }
    func testReplacePreserveErrorOnCompositeKey() throws { try check() }
    func testReplacePreserveStoreTrumpOnCompositeKey() throws { try check() }
    func testReplacePreserveObjectTrumpOnCompositeKey() throws { try check() }
    func testReplacePreserveOverwriteOnCompositeKey() throws { try check() }
    func testReplacePreserveRollbackOnCompositeKey() throws { try check() }
    func testReplaceIgnoreErrorOnCompositeKey() throws { try check() }
    func testReplaceIgnoreStoreTrumpOnCompositeKey() throws { try check() }
    func testReplaceIgnoreObjectTrumpOnCompositeKey() throws { try check() }
    func testReplaceIgnoreOverwriteOnCompositeKey() throws { try check() }
    func testReplaceIgnoreRollbackOnCompositeKey() throws { try check() }
    func testSyncCheckErrorOnCompositeKey() throws { try check() }
    func testSyncCheckStoreTrumpOnCompositeKey() throws { try check() }
    func testSyncCheckObjectTrumpOnCompositeKey() throws { try check() }
    func testSyncCheckOverwriteOnCompositeKey() throws { try check() }
    func testSyncCheckRollbackOnCompositeKey() throws { try check() }
    func testSyncPreserveErrorOnCompositeKey() throws { try check() }
    func testSyncPreserveStoreTrumpOnCompositeKey() throws { try check() }
    func testSyncPreserveObjectTrumpOnCompositeKey() throws { try check() }
    func testSyncPreserveOverwriteOnCompositeKey() throws { try check() }
    func testSyncPreserveRollbackOnCompositeKey() throws { try check() }
    func testSyncIgnoreErrorOnCompositeKey() throws { try check() }
    func testSyncIgnoreStoreTrumpOnCompositeKey() throws { try check() }
    func testSyncIgnoreObjectTrumpOnCompositeKey() throws { try check() }
    func testSyncIgnoreOverwriteOnCompositeKey() throws { try check() }
    func testSyncIgnoreRollbackOnCompositeKey() throws { try check() }

    // Sync deletes: delete rules and maxDeletes.
    func testSyncDeletesMissingItems() throws { try check() }
    func testCascadeDeletesDependants() throws { try check() }
    func testNullifyClearsDependantsKeys() throws { try check() }
    func testDenyKeepsAnItemWithDependants() throws { try check() }
    func testNullifyOfARequiredKeyIsDenied() throws { try check() }
    func testCascadeSparesDependantsInTheInput() throws { try check() }
    func testMaxDeletesCountRefuses() throws { try check() }
    func testMaxDeletesPercentCountsCascades() throws { try check() }
    func testMaxDeletesPercentAllowsUpToTheLimit() throws { try check() }
}

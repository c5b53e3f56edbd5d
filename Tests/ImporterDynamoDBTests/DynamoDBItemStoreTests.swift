import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The library API (`ItemStore`) on DynamoDB: each call one TransactWriteItems, conditional on
/// what the call read, so it is applied whole or not at all, and many writers on the same
/// tables lose no update.
final class DynamoDBItemStoreTests: MotoTestCase {
    private func store(_ prefix: String) throws -> DynamoDBStore {
        var options = DynamoDBStore.Options()
        options.tablePrefix = prefix
        options.createTables = true
        return try DynamoDBStore(client: try client(), options: options)
    }

    func testTheTypedItemsScenarioConforms() throws {
        XCTAssertEqual(try TypedItemsScenario.run(on: store("typed-")), [])
    }

    func testAnItemChangedBeforeTheCommitCancelsTheWholeCall() async throws {
        let model = try ConformanceModel.load()
        let mine = try store("atomic-"), theirs = try store("atomic-")
        let items = try await ItemStore.open(store: mine, model: model)
        let others = try await ItemStore.open(store: theirs, model: model)
        try await items.items("Item").insert(Item(["id": .string("a"), "name": .string("first")]))
        let entity = try XCTUnwrap(model.entity(named: "Item"))

        // The library's transaction (what each call makes), with another writer's change before its commit.
        try await mine.beginItemTransaction()
        _ = try await mine.writeItems(
            [record(entity, ["id": .string("a"), "name": .string("mine")]), record(entity, ["id": .string("b")])],
            of: entity, rules: VersionRules(entity: entity, write: WriteConfig()))
        let read = try await mine.item(.string("a"), of: entity)
        XCTAssertEqual(read?[1], .string("mine"), "the transaction reads its own writes")
        let counted = try await mine.itemCount(of: entity)
        XCTAssertEqual(counted, 2)
        try await others.items("Item").upsert(Item(["id": .string("a"), "name": .string("theirs")]))
        do {
            try await mine.endItemTransaction(commit: true)
            XCTFail("the commit went through another writer's change")
        } catch {
            XCTAssertEqual(error as? ItemError, .conflict(entity: "Item", key: .string("a"), stored: 2, incoming: 1))
        }
        let stored = try await items.items("Item").fetch(.string("a"))
        XCTAssertEqual(stored?["name"], .string("theirs"))
        let added = try await items.items("Item").fetch(.string("b"))
        XCTAssertNil(added, "nothing of the cancelled call is stored")
    }

    func testAParentDeletedBeforeTheCommitCancelsItsChild() async throws {
        let model = try ConformanceModel.load()
        let mine = try store("parent-"), theirs = try store("parent-")
        let items = try await ItemStore.open(store: mine, model: model)
        let others = try await ItemStore.open(store: theirs, model: model)
        try await items.items("Owner").insert(Item(["id": .string("o")]))
        let pet = try XCTUnwrap(model.entity(named: "Pet")), owner = try XCTUnwrap(model.entity(named: "Owner"))

        // What `insert` does: the reference's parent read, then the child written.
        try await mine.beginItemTransaction()
        let parent = try await mine.item(.string("o"), of: owner)
        XCTAssertNotNil(parent)
        _ = try await mine.writeItems(
            [record(pet, ["id": .string("p"), "ownerId": .string("o")])], of: pet,
            rules: VersionRules(entity: pet, write: WriteConfig()))
        try await others.items("Owner").delete(.string("o"))
        do {
            try await mine.endItemTransaction(commit: true)
            XCTFail("the commit went through the parent's delete")
        } catch {
            XCTAssertEqual(error as? ItemError, .conflict(entity: "Owner", key: .string("o"), stored: 0, incoming: 1))
        }
        let pets = try await items.items("Pet").count()
        XCTAssertEqual(pets, 0, "no pet names the deleted owner")
    }

    func testACallOfMoreThanATransactionHoldsIsRefusedWhole() throws {
        let model = try ConformanceModel.load()
        let store = try store("large-")
        let items = try ItemStore(store: store, model: model)
        let entity = try XCTUnwrap(model.entity(named: "Item"))
        // 101 items written as `importer run` writes them, in batches.
        _ = try store.write(
            (0...100).map { record(entity, ["id": .string("i\($0)")]) }, of: entity,
            rules: VersionRules(entity: entity, write: WriteConfig()))
        try store.commit()

        XCTAssertThrowsError(try items.items("Item").deleteAll()) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .transactionTooLarge(limit: 100), "\(error)")
            XCTAssertTrue("\(error)".contains("at most 100"), "\(error)")
        }
        XCTAssertEqual(try items.items("Item").count(), 101, "nothing was deleted")
    }

    /// An item over DynamoDB's 400 KB is a store failure of its own kind, and nothing is written.
    func testAnItemTooLargeForDynamoDBSaysSo() throws {
        let items = try ItemStore(store: store("huge-"), model: ConformanceModel.load()).items("Item")
        XCTAssertThrowsError(
            try items.insert(Item(["id": .string("big"), "name": .string(String(repeating: "x", count: 500_000))]))
        ) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .itemTooLarge, "\(error)")
        }
        XCTAssertEqual(try items.count(), 0)
    }

    struct Counter: Codable {
        var id: String
        var name: String?
        var qty: Int32?
        var version: Int64?
    }

    /// Two readers of version 1 write the same new values: the second is a conflict.
    func testTheSecondOfTwoIdenticalUpdatesOfOneVersionIsAConflict() throws {
        let model = try ConformanceModel.load()
        let counters = try ItemStore(store: store("same-"), model: model).items(Counter.self, entity: "Item")
        try counters.insert(Counter(id: "c", name: "start", qty: 5, version: nil))
        var first = try XCTUnwrap(try counters.fetch(.string("c")))
        var second = first
        first.qty! += 1
        second.qty! += 1
        XCTAssertEqual(try counters.update(first).version, 2)
        XCTAssertThrowsError(try counters.update(second)) { error in
            guard case ItemError.conflict(_, _, let stored, let incoming) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(stored, 2)
            XCTAssertEqual(incoming, 1)
        }
        XCTAssertEqual(try counters.fetch(.string("c"))?.qty, 6)
    }

    /// Two stores (two clients) on the same tables, as two processes would be: every update
    /// is conditional on the version it read, so a lost update is a conflict, retried.
    func testManyTasksOnTwoStoresLoseNoUpdateAndKeepVersionsExact() async throws {
        let model = try ConformanceModel.load()
        let stores = [
            try await ItemStore.open(store: store("shared-"), model: model),
            try await ItemStore.open(store: store("shared-"), model: model),
        ]
        let counters = try stores.map { try $0.items(Counter.self, entity: "Item") }
        let keys = ["c0", "c1"]
        try await counters[0].insert(keys.map { Counter(id: $0, name: "start", qty: 0, version: nil) })

        let tasks = 4, incrementsPerTask = 10
        let started = Date()
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let counter = counters[task % counters.count]
                    var conflicts = 0
                    for increment in 0..<incrementsPerTask {
                        let key = Value.string(keys[(task + increment) % keys.count])
                        while true {
                            // Two tasks that read the same version write the same values:
                            // the second is a conflict all the same, never taken for a replay.
                            var item = try await counter.fetch(key)!
                            item.qty! += 1
                            do {
                                try await counter.update(item)
                                break
                            } catch ItemError.conflict {
                                conflicts += 1
                            }
                        }
                    }
                    return conflicts
                }
            }
            return try await group.reduce(0, +)
        }

        let stored = try await counters[1].fetchAll()
        XCTAssertEqual(
            stored.compactMap(\.qty).reduce(0, +), Int32(tasks * incrementsPerTask), "every increment is stored once")
        for item in stored {
            XCTAssertEqual(item.version, 1 + Int64(item.qty ?? 0), "\(item.id): one version per update")
        }
        print(
            "DynamoDB concurrent updates: \(tasks * incrementsPerTask) by \(tasks) tasks on 2 stores, "
                + "conflicts retried: \(conflicts), \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    }

    private func record(_ entity: Entity, _ values: [String: Value]) -> PreparedRecord {
        PreparedRecord(
            inputIndex: 0, line: 0, byteOffset: 0, raw: [],
            values: entity.attributes.map { values[$0.name] ?? .null })
    }
}

extension DynamoDBItemStoreTests {
    func testTheTransactionScenarioConforms() throws {
        XCTAssertEqual(try TransactionScenario.run(on: store("tx-")), [])
    }

    func testTheAwaitedTransactionScenarioConforms() async throws {
        let problems = try await TransactionScenario.runAsync(on: store("atx-"))
        XCTAssertEqual(problems, [])
    }

    /// An async read awaits DynamoDB's requests and waits its turn suspended: while a
    /// transaction (on a thread of its own) holds the store, more reads than the cooperative
    /// pool has threads wait, other tasks still run, and the reads then see the whole commit.
    func testAsyncCallsWaitTheirTurnWithoutHoldingAThread() async throws {
        let items = try await ItemStore.open(store: store("turns-"), model: try ConformanceModel.load())
        try await items.items("Item").insert(Item(["id": .string("a"), "name": .string("first")]))
        let release = DispatchSemaphore(value: 0)
        let (started, starting) = AsyncStream<Void>.makeStream()
        let committed = Task {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                DispatchQueue.global().async {
                    done.resume(
                        with: Result {
                            try items.transaction { tx in
                                starting.finish()
                                release.wait()
                                try tx.items("Item").insert(Item(["id": .string("b"), "name": .string("second")]))
                            }
                        })
                }
            }
        }
        for await _ in started {}
        // More calls than the pool has threads: each waits its turn suspended, reads and writes alike.
        let reads = (0..<16).map { _ in Task { try await items.items("Item").count() } }
        let writes = (0..<16).map { index in
            Task { try await items.items("Item").insert(Item(["id": .string("w\(index)")])) }
        }
        let other = await Task { 42 }.value
        XCTAssertEqual(other, 42, "other tasks run while the calls wait")
        release.signal()
        try await committed.value
        for read in reads {
            let count = try await read.value
            XCTAssertGreaterThanOrEqual(count, 2, "a read waits for the transaction and sees all of it")
        }
        for write in writes {
            let stored = try await write.value
            XCTAssertEqual(stored["version"], .integer(1))
        }
        let total = try await items.items("Item").count()
        XCTAssertEqual(total, 18, "the transaction's item and every awaited insert are stored")
    }
}

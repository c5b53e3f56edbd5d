// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "importer",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .executable(name: "importer", targets: ["importer"]),
        // The library (docs/library.md): models, items, typed items, queries and transactions
        // on a store; the pipeline, readers, archives and S3 inputs are the package's own.
        .library(name: "ImporterCore", targets: ["ImporterCore"]),
        .library(name: "ImporterSQLite", targets: ["ImporterSQLite"]),
        .library(name: "ImporterAWS", targets: ["ImporterAWS"]),
        .library(name: "ImporterDynamoDB", targets: ["ImporterDynamoDB"]),
        // For the fuzzing package in Fuzz/ only (another package: it sees public API alone).
        .library(name: "ImporterFuzzing", targets: ["ImporterFuzzing"]),
    ],
    traits: [
        // The AWS clients — the DynamoDB destination, S3 sources — and their HTTP stack
        // (AsyncHTTPClient, swift-nio, nio-ssl's BoringSSL): most of a fresh build.
        // `scripts/run-sample` builds without it.
        .trait(
            name: "DynamoDB",
            description: "The AWS clients: the DynamoDB destination, S3 sources (AsyncHTTPClient, SigV4)"),
        .default(enabledTraits: ["DynamoDB"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Warnings and notices go through a `Logger`; the library never prints (docs/library.md#warnings-and-progress).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // A run's counters and timers (docs/reports.md#metrics): swift-metrics in the library,
        // written as Prometheus text by the CLI (`report: { metrics: prometheus }`).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation` (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries (module.modulemap + pkg-config).
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CMalloc"),
        // SHA-256 and HMAC (model checksums, input fingerprints, archives, SigV4).
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),

        // SQLite 3.54.1, built in (docs/writes.md#the-sqlite-library): the amalgamation from sqlite.org
        // (public domain), with the options below in place of a distribution's.
        // sqlite3.c includes the amalgamation's parts (scripts/split-sqlite), which are not built alone.
        .target(
            name: "CSQLite", exclude: ["amalgamation"], cSettings: sqliteSettings,
            linkerSettings: [.linkedLibrary("m")]),
        // A cache prefetch hint, which Swift cannot express (the key stage's hash table probes).
        .target(name: "CPrefetch"),
        // Where synchronous code waits for async code (`runBlocking`), and the threads async code
        // that blocks runs on: the one crossing between the two models (docs/library.md#threads-and-tasks).
        .target(name: "BlockingBridge"),
        // Model, values, pipeline, mapping, validation, reporting. No store; nettle for SHA-256.
        .target(
            name: "ImporterCore",
            dependencies: [
                "BlockingBridge", .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"), "CNettle",
                "CPrefetch", .product(name: "Metrics", package: "swift-metrics"),
            ]),
        // Readers: CSV/TSV and NDJSON/JSON (bytes, a strict parser of our own), gzip input (libarchive).
        .target(name: "ImporterFormats", dependencies: ["ImporterCore", "CArchive"]),
        // The local store over the sqlite3 C API.
        .target(
            name: "ImporterSQLite",
            dependencies: [
                "ImporterCore", "BlockingBridge", "CSQLite", .product(name: "Logging", package: "swift-log"),
            ]),
        // The store conformance table (the rules of docs/writes.md), run by every store's tests.
        .target(name: "ImporterConformance", dependencies: ["ImporterCore"]),
        // What every AWS client shares: credentials, region and endpoints, SigV4, HTTP (AsyncHTTPClient), retries.
        // Nothing of the pipeline: the CLI and the S3 inputs map the pipeline's settings onto it.
        .target(
            name: "ImporterAWS",
            dependencies: [
                "CNettle",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The remote store: DynamoDB's JSON protocol, conditional writes, tables, scans, migration.
        .target(name: "ImporterDynamoDB", dependencies: ["ImporterCore", "ImporterAWS", "BlockingBridge"]),
        // Object storage: S3's REST API (listing, ranged reads), S3 objects as inputs of the readers.
        .target(
            name: "ImporterS3", dependencies: ["ImporterCore", "ImporterFormats", "ImporterAWS", "BlockingBridge"]),
        // Export and restore: backup archives (libarchive) with a manifest of counts and SHA-256.
        .target(
            name: "ImporterArchive",
            dependencies: [
                "ImporterCore", "ImporterFormats", "CArchive", "CZlib", "CZstd",
            ]),
        // The executable: commands only, wiring the modules together.
        .executableTarget(
            name: "importer",
            dependencies: [
                "ImporterCore", "ImporterFormats", "ImporterSQLite", "ImporterArchive", "CMalloc",
                .target(name: "ImporterAWS", condition: .when(traits: ["DynamoDB"])),
                .target(name: "ImporterDynamoDB", condition: .when(traits: ["DynamoDB"])),
                .target(name: "ImporterS3", condition: .when(traits: ["DynamoDB"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),

        // What the fuzz targets (Fuzz/, scripts/fuzz) do with an input; FuzzCorpusTests replays their corpus.
        .target(name: "ImporterFuzzing", dependencies: ["ImporterCore", "ImporterFormats", "ImporterArchive"]),

        // The README's library example, built with everything else so it cannot rot.
        .executableTarget(
            name: "LibraryExample", dependencies: ["ImporterCore", "ImporterSQLite"], path: "Examples/LibraryExample"),

        .testTarget(name: "ImporterCoreTests", dependencies: ["ImporterCore"]),
        .testTarget(name: "ImporterFormatsTests", dependencies: ["ImporterFormats", "TestSupport"]),
        .testTarget(
            name: "ImporterSQLiteTests",
            dependencies: [
                "ImporterSQLite", "ImporterFormats", "ImporterConformance", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The pipeline's stages in process: records fed in, what comes out asserted.
        .testTarget(
            name: "PipelineStageTests",
            dependencies: [
                "ImporterCore", "ImporterFormats", "ImporterSQLite", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "ImporterArchiveTests", dependencies: ["ImporterArchive"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["ImporterFuzzing", "ImporterCore"]),
        // What the test targets share: running the built binary and the tools that check its output.
        .target(
            name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"),
        .testTarget(name: "EndToEndTests", dependencies: ["ImporterCore", "TestSupport"]),
        // The DynamoDB store and S3 against moto servers the tests start, and the binary against them.
        .testTarget(
            name: "ImporterDynamoDBTests",
            dependencies: [
                "ImporterAWS", "ImporterDynamoDB", "ImporterS3", "ImporterConformance", "TestSupport", "BlockingBridge",
            ]),
        // The AWS clients' parts that need no server: SigV4 (AWS's vectors), credentials and
        // endpoints, redaction, retry rates, DynamoDB item coding, request bodies, table names.
        .testTarget(
            name: "ImporterAWSTests",
            dependencies: ["ImporterCore", "ImporterAWS", "ImporterDynamoDB", "ImporterS3", "TestSupport"]),
    ]
)

/// SQLite's compile-time options (https://sqlite.org/compile.html), as its docs recommend for an
/// application that embeds it: no memory statistics (a global mutex taken by every allocation),
/// no features the store does not use. Distributions' builds differ (Debian's has no lookaside
/// allocator and overwrites deleted content): these make the store the same everywhere.
var sqliteSettings: [CSetting] {
    [
        .define("SQLITE_DEFAULT_MEMSTATUS", to: "0"),
        .define("SQLITE_DQS", to: "0"),
        .define("SQLITE_LIKE_DOESNT_MATCH_BLOBS"),
        .define("SQLITE_MAX_VARIABLE_NUMBER", to: "250000"),
        .define("SQLITE_OMIT_DEPRECATED"),
        .define("SQLITE_OMIT_LOAD_EXTENSION"),
        .define("SQLITE_OMIT_PROGRESS_CALLBACK"),
        .define("SQLITE_OMIT_SHARED_CACHE"),
        .define("SQLITE_THREADSAFE", to: "1"),
        .define("HAVE_FDATASYNC", to: "1", .when(platforms: [.linux])),
        .define("HAVE_MALLOC_H", to: "1", .when(platforms: [.linux])),
        .define("HAVE_MALLOC_USABLE_SIZE", to: "1", .when(platforms: [.linux])),
        .define("HAVE_GMTIME_R", to: "1"),
        .define("HAVE_LOCALTIME_R", to: "1"),
        .define("HAVE_ISNAN", to: "1"),
    ]
}

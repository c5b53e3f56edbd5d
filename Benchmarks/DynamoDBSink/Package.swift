// swift-tools-version:6.1
import PackageDescription

// A DynamoDB write sink for scripts/bench-dynamodb (its --sink): answers writes after a fixed
// latency without storing them, so the benchmark measures the client. Not part of the
// importer's build or test suite: the bench builds it on demand.
let package = Package(
    name: "dynamodb-sink",
    dependencies: [.package(url: "https://github.com/apple/swift-nio", from: "2.101.2")],
    targets: [
        .executableTarget(
            name: "dynamodb-sink",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ])
    ]
)

// swift-tools-version:6.1
import PackageDescription

// The libFuzzer executable (Fuzz/README.md): `scripts/fuzz` builds it with
// `-sanitize=fuzzer,address` and runs one target (FUZZ_TARGET) at a time. `importer` is a
// symlink to the repository, so this package uses the code under test as it is.
let package = Package(
    name: "importer-fuzz",
    dependencies: [.package(path: "importer", traits: [])],
    targets: [
        .executableTarget(name: "importer-fuzz", dependencies: [.product(name: "ImporterFuzzing", package: "importer")]),
    ]
)

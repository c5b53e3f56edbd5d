import Foundation
import ImporterFuzzing

/// The target named by FUZZ_TARGET (csv, ndjson, json-array, dynamodb-json, dynamodb-export-manifest, model, coredata-model, pipeline, restore, decoding).
nonisolated(unsafe) private var target = FuzzTarget.csv

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The executable's entry point as SwiftPM links it (`main` is defined as `<module>_main`):
/// it chooses the target, then hands over to libFuzzer's driver.
@_cdecl("importer_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        fatalError(
            "set FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
    }
    target = chosen
    var count = argc, arguments = argv
    return runDriver(&count, &arguments, testOneInput)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try target.run(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("\(target.rawValue): \(error)")  // a broken invariant: libFuzzer keeps the input
    }
    return 0
}

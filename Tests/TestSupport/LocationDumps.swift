import Foundation

/// Large dumps of the sample's Locations and Checkins, and a pipeline that loads them, for the
/// tests that stop, resume or share a run: 100 Locations, and Checkins naming them in turn.
public enum LocationDumps {
    /// The sample model, version 1.
    public static var modelPath: String {
        ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
    }

    /// Writes locations.csv (`loc-0` … `loc-99`) and checkins.csv (`rows` Checkins) into
    /// `directory`: row i's key is `c-<key(i)>`, its rating `rating(i)`.
    public static func write(
        in directory: String, rows: Int, key: (Int) -> Int = { $0 },
        rating: (Int) -> String = { String($0 % 5 + 1) }
    ) throws {
        var locations = "locationId,name,latitude,longitude,createdAt\n"
        for index in 0..<100 { locations += "loc-\(index),\"Place \(index), town\",1.5,2.5,2024-03-01T10:15:30Z\n" }
        try locations.write(toFile: directory + "/locations.csv", atomically: false, encoding: .utf8)
        var checkins = "checkinId,locationId,checkinTime,comment,rating\n"
        checkins.reserveCapacity(rows * 80)
        for index in 0..<rows {
            checkins +=
                "c-\(key(index)),loc-\(index % 100),2024-05-01T08:00:00.\(String(format: "%03d", index % 1000))Z,"
                + "\"comment \(index), with a comma\",\(rating(index))\n"
        }
        try checkins.write(toFile: directory + "/checkins.csv", atomically: false, encoding: .utf8)
    }

    /// pipeline.yaml in `directory`, loading both files into store.sqlite with the pipeline's
    /// `write` and `errors` sections as given; reports in reports/.
    public static func pipeline(in directory: String, write: String, errors: String = "{}") throws -> String {
        let pipeline = directory + "/pipeline.yaml"
        try """
        model: \(modelPath)
        sources:
          - { entity: Location, path: locations.csv }
          - { entity: Checkin, path: checkins.csv }
        destination: { path: store.sqlite }
        write: \(write)
        errors: \(errors)
        report: { directory: reports }
        """.write(toFile: pipeline, atomically: false, encoding: .utf8)
        return pipeline
    }
}

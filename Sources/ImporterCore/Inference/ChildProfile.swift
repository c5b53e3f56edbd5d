/// An array of objects found in the documents of a JSON or NDJSON file (docs/infer.md#documents):
/// its elements' profile, as one more file's, and the arrays found in them.
package struct ChildProfile {
    /// Where the array is in its parent's objects (`lines`, `shipment.parcels`).
    package let arrayPath: [String]
    /// The elements' fields, nested objects read as dotted names (`geo.lat`).
    package var profile: FileProfile

    package init(arrayPath: [String], profile: FileProfile) {
        self.arrayPath = arrayPath
        self.profile = profile
    }
}

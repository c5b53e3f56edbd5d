/// How a map fills an entity's attributes from the fields of one header
/// (`RecordMapper.layout(for:)`): what `RecordMapper.map` does to every record of a CSV part,
/// worked out once.
package struct MapLayout {
    /// Per attribute, the place in the names of the field that fills it (-1: none).
    package let places: [Int]
    /// The computed attributes (they win over a field of their name), each with the place in
    /// the names of each field its template names (nil: not there, so the value is null).
    package let computed: [(index: Int, template: FieldTemplate, sources: [Int?])]
    /// Per attribute, the pipeline's default: what a null or missing field becomes.
    package let defaults: [FieldValue?]
}

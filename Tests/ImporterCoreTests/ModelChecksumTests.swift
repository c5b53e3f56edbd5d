import XCTest
@testable import ImporterCore

/// The exact text a model's checksum is taken of (`ModelDescription`), and the checksum.
///
/// A store records the checksum of the model version it holds and refuses a model whose
/// checksum differs (docs/model.md#the-checksum). A change here makes every existing store
/// refuse its model: change it only with a migration story for those stores
/// (docs/migration.md#edited-model-files), never to make this test pass.
final class ModelChecksumTests: XCTestCase {
    /// Every part of the canonical text: tables, hash and range keys, version attributes,
    /// renames, each attribute type and constraint, defaults, each kind of conversion, to-one
    /// (one and two keys) and to-many relationships, inverses and delete rules.
    static let model = """
        model: Golden
        version: 2
        entities:
          Station:
            table: weather.stations
            renamedFrom: Site
            hashKey: stationId
            versionAttribute: version
            attributes:
              stationId: { type: string, pattern: "^[A-Z]{2}[0-9]+$" }
              name:      { type: string, required: true, maxLength: 80, renamedFrom: title }
              kind:      { type: string, values: [land, sea], default: land }
              elevation: { type: double, min: -500, max: 9000.5 }
              opened:    { type: date, default: "2024-01-01" }
              active:    { type: boolean, default: true }
              code:      { type: int32, convert: { copy: legacyCode } }
              serial:    { type: uuid }
              homepage:  { type: uri, maxLength: 200 }
              photo:     { type: binary }
              version:   { type: int64 }
            relationships:
              readings: { destination: Reading, toMany: true, inverse: station, deleteRule: cascade }
          Reading:
            hashKey: stationId
            rangeKey: hour
            versionAttribute: revision
            attributes:
              stationId:   { type: string }
              hour:        { type: date }
              temperature: { type: float }
              pressure:    { type: decimal, min: 0, default: "1013.25" }
              samples:     { type: int16, min: 0, max: 60, default: 0 }
              total:       { type: int64 }
              quality:     { type: string, convert: { from: grade, map: { "2": good, "1": bad }, otherwise: unknown } }
              label:       { type: string, convert: { join: [stationId, sensor], separator: "/" } }
              sensor:      { type: string, convert: { from: device, split: ":", index: 1 } }
              measured:    { type: date, convert: { from: day, datePattern: "dd/MM/yyyy" } }
              origin:      { type: string, convert: { constant: legacy } }
              revision:    { type: int64, renamedFrom: rev }
            relationships:
              station: { destination: Station, key: stationId, inverse: readings }
          Alert:
            hashKey: alertId
            versionAttribute: version
            attributes:
              alertId:   { type: string }
              stationId: { type: string }
              hour:      { type: date }
              note:      { type: string, convert: { constant: null } }
              version:   { type: int64 }
            relationships:
              reading: { destination: Reading, key: [stationId, hour], deleteRule: deny }
        """

    static let canonicalText = """
        model Golden 2
        entity Station table=weather.stations key=stationId version=version renamedFrom=Site
          attribute stationId string required=false min= max= maxLength= pattern=^[A-Z]{2}[0-9]+$ values= default= renamedFrom=
          attribute name string required=true min= max= maxLength=80 pattern= values= default= renamedFrom=title
          attribute kind string required=false min= max= maxLength= pattern= values=land|sea default=land renamedFrom=
          attribute elevation double required=false min=-500.0 max=9000.5 maxLength= pattern= values= default= renamedFrom=
          attribute opened date required=false min= max= maxLength= pattern= values= default=2024-01-01T00:00:00.000Z renamedFrom=
          attribute active boolean required=false min= max= maxLength= pattern= values= default=true renamedFrom=
          attribute code int32 required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=copy legacyCode
          attribute serial uuid required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute homepage uri required=false min= max= maxLength=200 pattern= values= default= renamedFrom=
          attribute photo binary required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute version int64 required=false min= max= maxLength= pattern= values= default= renamedFrom=
          relationship readings -> Reading toMany=true inverse=station key= deleteRule=cascade
        entity Reading table=Reading key=stationId range=hour version=revision renamedFrom=
          attribute stationId string required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute hour date required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute temperature float required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute pressure decimal required=false min=0.0 max= maxLength= pattern= values= default=1013.25 renamedFrom=
          attribute samples int16 required=false min=0.0 max=60.0 maxLength= pattern= values= default=0 renamedFrom=
          attribute total int64 required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute quality string required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=map grade {1→bad, 2→good} otherwise unknown
          attribute label string required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=join stationId, sensor with '/'
          attribute sensor string required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=part 1 of device split at ':'
          attribute measured date required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=parse day as a date 'dd/MM/yyyy'
          attribute origin string required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=constant legacy
          attribute revision int64 required=false min= max= maxLength= pattern= values= default= renamedFrom=rev
          relationship station -> Station toMany=false inverse=readings key=stationId deleteRule=nullify
        entity Alert table=Alert key=alertId version=version renamedFrom=
          attribute alertId string required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute stationId string required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute hour date required=false min= max= maxLength= pattern= values= default= renamedFrom=
          attribute note string required=false min= max= maxLength= pattern= values= default= renamedFrom= convert=constant null
          attribute version int64 required=false min= max= maxLength= pattern= values= default= renamedFrom=
          relationship reading -> Reading toMany=false inverse= key=stationId,hour deleteRule=deny

        """

    /// SHA-256 of `canonicalText`'s UTF-8 bytes (`printf %s TEXT | sha256sum` gives the same).
    static let checksum = "f25b717cb0f007f12dbf7b1960e77f18424dbe6e79770f7473b444ab5b534323"

    func testTheCanonicalTextOfAModelIsExactlyThis() throws {
        let model = try ModelLoader.parse(text: Self.model, file: "golden.yaml")
        let text = ModelDescription.canonical(model.name, model.version, model.entities)
        XCTAssertEqual(text, Self.canonicalText)
        // Line by line too, so that a failure names the line that changed.
        for (got, expected) in zip(text.components(separatedBy: "\n"), Self.canonicalText.components(separatedBy: "\n"))
        {
            XCTAssertEqual(got, expected)
        }
    }

    func testTheChecksumOfAModelIsExactlyThis() throws {
        let model = try ModelLoader.parse(text: Self.model, file: "golden.yaml")
        XCTAssertEqual(model.checksum, Self.checksum)
        XCTAssertEqual(SHA256.hex(of: Array(Self.canonicalText.utf8)), Self.checksum)
    }
}

import ImporterCore
import XCTest
@testable import ImporterFormats

/// `importer model infer`'s decisions on small files (docs/infer.md): types, nulls, dates, keys,
/// relationships, names. Each model is loaded by ModelLoader and each pipeline by PipelineLoader.
final class ModelInferenceTests: XCTestCase {
    let fixture = InferenceFixture()

    func testLeadingZerosStayStringsAndZeroIsAnInteger() throws {
        let inferred = try fixture.infer(
            "codes.csv", "zip,code,count,ratio,odd\n0123,007X,0,0.5,00.5\n4567,12,-3,1.25,1\n0001,A1,12,3,2\n")
        XCTAssertEqual(
            inferred.types(),
            ["zip: string!", "code: string!", "count: int16!", "ratio: double!", "odd: string!", "version: int64"])
    }

    func testIntegerWidthsAndNumbersTooLargeForInt64() throws {
        let inferred = try fixture.infer("n.csv", "a,b,c,d\n1,40000,3000000000,12345678901234567890\n2,-5,1,1\n")
        XCTAssertEqual(inferred.types(), ["a: int16!", "b: int32!", "c: int64!", "d: string!", "version: int64"])
    }

    func testUUIDsBooleansAndTheirNotes() throws {
        let inferred = try fixture.infer(
            "flags.csv",
            """
            id,active,flag,paid
            0f8fad5b-d9cb-469f-a165-70867728950e,true,1,yes
            7C9E6679-7425-40DE-944B-E07FC1F90AE7,FALSE,0,No
            1b4e28ba2fa111d2883f0016d3cca427,false,1,YES

            """)
        XCTAssertEqual(
            inferred.types(), ["id: uuid!", "active: boolean!", "flag: boolean!", "paid: boolean!", "version: int64"])
        XCTAssertEqual(inferred.entity().hashKey, "id")
        XCTAssertTrue(
            inferred.modelYAML.contains("flag:    { type: boolean, required: true }   # only 0 and 1 seen"),
            inferred.modelYAML)
    }

    func testUUIDsThatDifferOnlyInCaseAreNoKey() throws {
        let inferred = try fixture.infer(
            "u.csv", "id,n\n0f8fad5b-d9cb-469f-a165-70867728950e,1\n0F8FAD5B-D9CB-469F-A165-70867728950E,2\n")
        XCTAssertEqual(inferred.entity().hashKey, "n")
    }

    func testISODatesAndDateTimesNeedNoDateFormat() throws {
        let inferred = try fixture.infer(
            "d.csv", "id,day,at\nx,2024-06-01,2024-06-01T10:00:00Z\ny,2024-12-31,2024-06-01 11:30:15.250+02:00\n")
        XCTAssertEqual(inferred.types(), ["id: string!", "day: date!", "at: date!", "version: int64"])
        XCTAssertEqual(inferred.source().map.dateFormat, .iso8601)
    }

    func testAPatternDateSetsTheSourcesDateFormat() throws {
        let inferred = try fixture.infer(
            "p.csv", "id,born,died,seen\n1,25/12/1990,01/01/2020,2024-01-01\n2,01/02/2000,,2024-01-02\n")
        XCTAssertEqual(
            inferred.types(), ["id: int16!", "born: date!", "died: date", "seen: string!", "version: int64"])
        XCTAssertEqual(inferred.source().map.dateFormat, .pattern("dd/MM/yyyy"))
        XCTAssertTrue(
            inferred.modelYAML.contains(
                "{ type: string, required: true }   # dates written as iso8601, but the source's one dateFormat reads another column's"
            ), inferred.modelYAML)
        XCTAssertTrue(
            inferred.modelYAML.contains("{ type: date, required: true }   # written as dd/MM/yyyy (map.dateFormat)"),
            inferred.modelYAML)
    }

    func testDayAndMonthThatCannotBeToldApartStayStrings() throws {
        let inferred = try fixture.infer("a.csv", "id,day\n1,01/02/2024\n2,03/04/2024\n")
        XCTAssertEqual(inferred.types(), ["id: int16!", "day: string!", "version: int64"])
        XCTAssertTrue(inferred.modelYAML.contains("dates read as dd/MM/yyyy or MM/dd/yyyy alike"), inferred.modelYAML)
    }

    func testNAIsNullInANumberColumnAndTextInATextOnlyFile() throws {
        let numbers = try fixture.infer("m.csv", "id,temp,note\n1,NA,x\n2,21.5,NA\n3,,NULL\n")
        XCTAssertEqual(numbers.types(), ["id: int16!", "temp: double", "note: string", "version: int64"])
        XCTAssertEqual(numbers.source().csv.nullValues, ["", "NA", "NULL"])

        let countries = try fixture.infer("c.csv", "code,name\nNA,Namibia\nNL,Netherlands\n")
        XCTAssertEqual(countries.types(), ["code: string!", "name: string!", "version: int64"])
        XCTAssertEqual(countries.source().csv.nullValues, [""])
    }

    func testAQuotedMarkerIsAValue() throws {
        let inferred = try fixture.infer("q.csv", "id,n,label\n1,NA,\"NA\"\n2,5,x\n")
        XCTAssertEqual(inferred.types(), ["id: int16!", "n: int16", "label: string!", "version: int64"])
    }

    func testATwoColumnKey() throws {
        let inferred = try fixture.infer(
            "readings.csv",
            """
            stationId,hour,temperature
            ST1,2024-06-01T10:00:00Z,18.5
            ST1,2024-06-01T11:00:00Z,19
            ST2,2024-06-01T10:00:00Z,NA
            ST2,2024-06-01T11:00:00Z,21

            """)
        let entity = inferred.entity()
        XCTAssertEqual(entity.name, "Reading")
        XCTAssertEqual([entity.hashKey, entity.rangeKey], ["stationId", "hour"])
        XCTAssertTrue(
            inferred.modelYAML.contains(
                "# key: stationId + hour, unique together and never null in all 4 records; no single column is"))
    }

    func testOrderLinesAreKeyedByOrderThenLine() throws {
        let inferred = try fixture.infer(
            "order_lines.csv", "line,orderNo,sku\n1,100,A\n2,100,A\n1,101,A\n1,102,C\n2,102,C\n")
        XCTAssertEqual(inferred.entity().name, "OrderLine")
        XCTAssertEqual([inferred.entity().hashKey, inferred.entity().rangeKey], ["orderNo", "line"])
    }

    func testAFileWithoutAKeyGetsAComputedRowKey() throws {
        let inferred = try fixture.infer("events.csv", "kind,level,note\nclick,1,\nclick,1,x\nview,2,\nclick,1,\n")
        let entity = inferred.entity()
        XCTAssertEqual(entity.hashKey, "rowKey")
        XCTAssertNil(entity.rangeKey)
        XCTAssertEqual(inferred.source().map.compute["rowKey"]?.fields, ["kind", "level"])
        XCTAssertTrue(
            inferred.modelYAML.contains(
                "# 2 record(s) repeat an earlier record's rowKey: importer run rejects them as duplicate"),
            inferred.modelYAML)
        XCTAssertTrue(
            inferred.pipelineYAML.contains("# 2 record(s) are expected to be rejected"), inferred.pipelineYAML)
    }

    func testARowKeyKeepsOnlyTheFieldsItNeeds() throws {
        let inferred = try fixture.infer(
            "moves.csv",
            "from,to,at,weight\nA,B,2024-01-01,1.5\nA,C,2024-01-01,1.5\nB,C,2024-01-01,2.5\nA,B,2024-01-02,1.5\nB,C,2024-01-02,2.5\n"
        )
        XCTAssertEqual(inferred.entity().hashKey, "rowKey")
        XCTAssertEqual(inferred.source().map.compute["rowKey"]?.fields, ["from", "to", "at"])
    }

    func testAReferenceToAnotherFilesKeysWithItsShare() throws {
        fixture.write("stations.csv", "stationId,name\nST1,Harbour\nST2,Airport\nST3,Hill\n")
        fixture.write("stores.csv", "storeId,city,stationId\nS1,Porto,ST1\nS2,Lisbon,ST2\nS3,Faro,ST7\nS4,Braga,ST1\n")
        let inferred = try fixture.infer(["stations.csv", "stores.csv"])
        let store = inferred.entity("Store")
        XCTAssertEqual(
            store.relationships.map { "\($0.name)→\($0.destination) \($0.keys)" }, ["station→Station [\"stationId\"]"])
        XCTAssertEqual(inferred.source("Store").references.policy(for: "station"), .keep)
        XCTAssertTrue(
            inferred.modelYAML.contains("3 of 4 values of stationId (75%) are Station keys"), inferred.modelYAML)
        XCTAssertTrue(inferred.entity("Station").relationships.isEmpty)
    }

    func testSmallIntegersNeedTheDestinationsNameToBeAReference() throws {
        fixture.write("customers.csv", "id,name\n1,Ann\n2,Bob\n3,Cy\n")
        fixture.write("orders.csv", "id,customerId,rating\n10,1,1\n11,2,3\n12,1,2\n")
        let inferred = try fixture.infer(["customers.csv", "orders.csv"])
        let order = inferred.entity("Order")
        XCTAssertEqual(order.relationships.map(\.name), ["customer"])
        XCTAssertEqual(order.relationships[0].keys, ["customerId"])
        XCTAssertEqual(inferred.source("Order").references.policy(for: "customer"), .reject)
    }

    func testHeadersThatAreNoNamesAreRenamed() throws {
        let inferred = try fixture.infer("prices.csv", "Item No.,Unit Price,1st\nA,1.5,x\nB,2,y\n")
        XCTAssertEqual(
            inferred.types(), ["Item_No: string!", "Unit_Price: double!", "_1st: string!", "version: int64"])
        XCTAssertEqual(
            inferred.source().map.rename, ["Item No.": "Item_No", "Unit Price": "Unit_Price", "1st": "_1st"])
        XCTAssertEqual(inferred.entity().name, "Price")
    }

    func testAColumnCalledVersionKeepsItsNameAndTheVersionAttributeGetsAnother() throws {
        let inferred = try fixture.infer("docs.csv", "id,version\na,3\nb,4\n")
        XCTAssertEqual(inferred.entity().versionAttribute, "_version")
        XCTAssertEqual(inferred.types(), ["id: string!", "version: int16!", "_version: int64"])
    }
}

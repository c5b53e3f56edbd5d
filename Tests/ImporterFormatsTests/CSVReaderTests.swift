import ImporterCore
import XCTest
@testable import ImporterFormats

final class CSVReaderTests: XCTestCase {
    let files = TempDirectory()

    func read(_ text: String, options: CSVOptions = CSVOptions()) throws -> [SourceRecord] {
        try readAll(CSVReader(path: files.write("input.csv", text), options: options))
    }

    func testQuotedFieldsKeepDelimitersQuotesAndLineBreaks() throws {
        let records = try read(
            "id,name\n1,\"a, b\"\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n4,\"crlf\r\ninside\"\n5,plain\n")
        XCTAssertEqual(
            records.map { $0.fields["name"]! }, ["a, b", "say \"hi\"", "two\nlines", "crlf\r\ninside", "plain"])
        XCTAssertEqual(records.map(\.line), [2, 3, 4, 6, 8])
        XCTAssertTrue(records.allSatisfy { $0.failure == nil })
    }

    func testCRLFLineEndsBOMAndNoFinalNewline() throws {
        let text = "\u{FEFF}id,name\r\n1,a\r\n2,b"
        let records = try read(text)
        XCTAssertEqual(records.map { $0.fields["id"]! }, ["1", "2"])
        XCTAssertEqual(records.map { $0.fields["name"]! }, ["a", "b"])
        XCTAssertEqual(records[0].rawText, "1,a")
        XCTAssertEqual(records[1].byteOffset, Int64("\u{FEFF}id,name\r\n1,a\r\n".utf8.count))
    }

    func testUnquotedNullValuesAreNullButQuotedEmptyIsText() throws {
        var options = CSVOptions()
        options.nullValues = ["", "NULL"]
        let records = try read("a,b,c\n,\"\",NULL\n", options: options)
        XCTAssertEqual(records[0].fields["a"]!, nil)
        XCTAssertEqual(records[0].fields["b"]!, "")
        XCTAssertEqual(records[0].fields["c"]!, nil)
    }

    /// Markers of any length are nulls, and cells of a marker's length that are not one stay
    /// text (markers are told apart first by their lengths; 63 bytes and over share one).
    func testNullMarkersOfEveryLengthAndOnlyThemAreNull() throws {
        var options = CSVOptions()
        let long = String(repeating: "n", count: 70), nearlyLong = String(repeating: "n", count: 69) + "x"
        let alsoLong = String(repeating: "n", count: 64)
        options.nullValues = ["NA", "NULL", long]
        let cells = ["NA", "NB", "NULL", "NULX", long, nearlyLong, alsoLong, "N", "", "nan"]
        let header = (0..<cells.count).map { "c\($0)" }
        let records = try read(
            header.joined(separator: ",") + "\n" + cells.joined(separator: ",") + "\n", options: options)
        XCTAssertEqual(
            header.map { records[0].fields[$0]! }, [nil, "NB", nil, "NULX", nil, nearlyLong, alsoLong, "N", "", "nan"])
    }

    func testCustomDelimiterQuoteAndColumnsWithoutHeader() throws {
        var options = CSVOptions()
        options.delimiter = UInt8(ascii: ";")
        options.quote = UInt8(ascii: "'")
        options.header = false
        options.columns = ["id", "name"]
        let records = try read("1;'x;y'\n2;'it''s'\n", options: options)
        XCTAssertEqual(records.map { $0.fields["name"]! }, ["x;y", "it's"])
    }

    func testTabSeparated() throws {
        var options = CSVOptions()
        options.delimiter = UInt8(ascii: "\t")
        let records = try read("id\tname\n1\ta,b\n", options: options)
        XCTAssertEqual(records[0].fields["name"]!, "a,b")
    }

    func testWrongFieldCountIsRejectedWithItsLineAndReadingContinues() throws {
        let records = try read("id,name\n1,a\n2,b,extra\n3\n4,d\n")
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(records[1].failure?.reason, .malformed)
        XCTAssertEqual(records[1].line, 3)
        XCTAssertEqual(records[1].rawText, "2,b,extra")
        XCTAssertTrue(records[1].failure!.message.contains("3 fields"))
        XCTAssertEqual(records[2].failure?.reason, .malformed)
        XCTAssertEqual(records[2].line, 4)
        XCTAssertEqual(records[3].fields["id"]!, "4")
    }

    func testTextAfterClosingQuoteIsRejected() throws {
        let records = try read("id,name\n1,\"abc\"x\n2,ok\n")
        XCTAssertEqual(records[0].failure?.reason, .malformed)
        XCTAssertEqual(records[0].line, 2)
        XCTAssertEqual(records[0].rawText, "1,\"abc\"x")
        XCTAssertEqual(records[1].fields["name"]!, "ok")
        XCTAssertEqual(records[1].line, 3)
    }

    func testUnterminatedQuoteRejectsItsLineAndResumesOnTheNext() throws {
        let records = try read("id,name\n1,ok\n2,\"never closed\n3,after\n4,last\n")
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(records[1].failure?.reason, .malformed)
        XCTAssertEqual(records[1].line, 3)
        XCTAssertEqual(records[1].rawText, "2,\"never closed")
        XCTAssertEqual(records[2].fields["name"]!, "after")
        XCTAssertEqual(records[2].line, 4)
        XCTAssertEqual(records[3].line, 5)
    }

    func testInvalidUTF8IsAnEncodingRejection() throws {
        let bytes = Array("id,name\n1,".utf8) + [0xFF, 0xFE] + Array("\n2,ok\n".utf8)
        let records = try readAll(CSVReader(path: files.write("bad.csv", bytes), options: CSVOptions()))
        XCTAssertEqual(records[0].failure?.reason, .encoding)
        XCTAssertEqual(Array(records[0].raw), Array("1,".utf8) + [0xFF, 0xFE])
        XCTAssertEqual(records[1].fields["name"]!, "ok")
    }

    /// A column named twice is one rejection for the file, nothing of it is read, and
    /// `columnNames` refuses it (the run's check before it starts); fields without a name are not a column.
    func testAHeaderNamingAColumnTwiceIsOneRejectionForTheFile() throws {
        let path = try files.write("twice.csv", "id,name, id\n1,a,2\n3,b,4\n")
        let records = try readAll(CSVReader(path: path, options: CSVOptions()))
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records[0].failure?.reason, .malformed)
        XCTAssertEqual(records[0].failure?.field, "id")
        XCTAssertEqual(records[0].rawText, "id,name, id")
        XCTAssertThrowsError(try CSVReader(path: path, options: CSVOptions()).columnNames()) { error in
            XCTAssertEqual(
                "\(error)",
                "\(path):1: 'id': the header names this column twice (fields 1 and 3), and a record holds one value per name; rename one of them, or name every field with csv.columns"
            )
        }
        var columns = CSVOptions()
        columns.columns = ["a", "b", "c"]
        XCTAssertEqual(
            try read("id,name,id\n1,a,2\n", options: columns).map { $0.fields["c"]! }, ["2"],
            "csv.columns name them instead")
        XCTAssertEqual(try read("id,,name,,\n1,,a,,\n").map { $0.fields["name"]! }, ["a"])
    }

    /// UTF-16, with or without a byte order mark, is one `encoding` rejection for the file.
    func testUTF16IsOneEncodingRejectionForTheFile() throws {
        let units = Array("id,name\n1,a\n2,b\n".utf16)
        let littleEndian: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian: [UInt8] = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for (name, bytes) in [("le", littleEndian), ("be", bigEndian)] {
            let reader = CSVReader(source: BytesSource(bytes), name: name, options: CSVOptions())
            let records = try readAll(reader)
            XCTAssertEqual(records.count, 1, name)
            XCTAssertEqual(records[0].failure?.reason, .encoding, name)
            XCTAssertEqual(reader.bytesRead, Int64(bytes.count), name)
        }
    }

    func testBlankLinesAreSkipped() throws {
        let records = try read("id,name\n1,a\n\n2,b\n\n")
        XCTAssertEqual(records.map { $0.fields["id"]! }, ["1", "2"])
        XCTAssertEqual(records[1].line, 4)
    }

    /// Records crossing the reader's 1 MiB chunks, including a quoted field with a line break.
    func testRecordsAcrossChunkBoundariesKeepLinesAndOffsets() throws {
        var text = "id,comment\n"
        var expected: [(Int, String, Int64)] = []
        var line = 2
        for index in 0..<40_000 {
            let comment = index % 7 == 0 ? "\"multi\nline, \"\"\(index)\"\"\"" : "comment number \(index) padded"
            expected.append((line, "\(index)", Int64(text.utf8.count)))
            text += "\(index),\(comment)\n"
            line += index % 7 == 0 ? 2 : 1
        }
        XCTAssertGreaterThan(text.utf8.count, 1 << 20)
        let records = try read(text)
        XCTAssertEqual(records.count, expected.count)
        for (record, (line, id, offset)) in zip(records, expected) {
            XCTAssertEqual(record.line, line)
            XCTAssertEqual(record.fields["id"]!, id)
            XCTAssertEqual(record.byteOffset, offset)
        }
        XCTAssertEqual(records[7].fields["comment"]!, "multi\nline, \"7\"")
    }

    /// Fields of every length, so that delimiters and line ends fall at every place of the
    /// 8-byte words the scanner skips through, with LF, CR and CRLF line ends.
    func testDelimitersAndLineEndsAnywhereInLongFields() throws {
        let ends = ["\n", "\r", "\r\n"]
        var text = "a,b,c\n"
        var expected: [[String]] = []
        for row in 0..<60 {
            let fields = (0..<3).map { column in String(repeating: "x", count: (row * 3 + column) % 23) + "\(row)" }
            let quoted = "\"" + String(repeating: "q", count: row % 19) + "\nline\"\"\(row)\""
            text += fields[0] + "," + quoted + "," + fields[2] + ends[row % 3]
            expected.append([fields[0], String(repeating: "q", count: row % 19) + "\nline\"\(row)", fields[2]])
        }
        let records = try read(text)
        XCTAssertEqual(records.map { [$0.fields["a"]!!, $0.fields["b"]!!, $0.fields["c"]!!] }, expected)
        XCTAssertEqual(records.last?.line, 2 + 59 * 2)
    }

    /// Parts cut by `nextPart` and read on their own give exactly the records `next()` gives:
    /// lines, offsets, raw text, values and rejections, whatever the part size, across refills.
    func testPartsReadOnTheirOwnGiveTheSameRecordsAsOneReader() throws {
        var long = "id,comment\n"
        for index in 0..<25_000 {  // more than one refill of the reader's window
            long +=
                index % 7 == 0 ? "\(index),\"multi\nline, \"\"\(index)\"\"\"\r\n" : "\(index),comment number \(index)\n"
        }
        let inputs: [(String, [UInt8])] = [
            ("quotes", Array("\u{FEFF}id,name\r\n1,\"a, b\"\r\n2,\"two\nlines\"\n\n3,c\r4,d\n5,\"x\"\"y\"".utf8)),
            (
                "malformed",
                Array("id,name\n1,\"abc\"x\n2,b,extra\n3\n4,ok\n5,\"never closed\n6,after\n7,\"a\nb\",\"c\n8,last".utf8)
            ),
            ("encoding", Array("id,name\n1,".utf8) + [0xFF, 0xFE] + Array("\n2,ok\n".utf8)),
            ("bad header", Array("id,\"name\"x\n1,a\n".utf8)),
            // Lines without quotes, cut a word at a time, beside carriage returns of every kind.
            ("plain lines", Array("id,name\r\n1,a\r\n2,b\n3,c\r\r\n4,\"q\"\n5,e\rf\n\n6,g,h\n7,long line\r\n8,g".utf8)),
            ("long", Array(long.utf8)),
        ]
        for (name, bytes) in inputs {
            let path = files.write("\(name).csv", bytes)
            let whole = try readAll(CSVReader(path: path, options: CSVOptions())).map(signature)
            XCTAssertGreaterThan(whole.count, 1, name)
            for maximum in name == "long" ? [3, 8192] : [1, 2, 3, 8192] {
                let splitter = try CSVReader(path: path, options: CSVOptions())
                var parts: [String] = []
                var partCount = 0
                while let part = try splitter.nextPart(maximumRecords: maximum) {
                    parts += try readAll(part).map(signature)
                    partCount += 1
                }
                XCTAssertEqual(parts, whole, "\(name), parts of \(maximum)")
                XCTAssertEqual(splitter.bytesRead, Int64(bytes.count), name)
                // a bad header shares one
                if maximum == 1 { XCTAssertGreaterThanOrEqual(partCount, whole.count - 1, name) }
            }
            // Parts bounded by bytes: a part ends after the record that reaches the bound.
            for maximumBytes in [1, 12] {
                let splitter = try CSVReader(path: path, options: CSVOptions())
                var parts: [String] = []
                var partCount = 0
                while let part = try splitter.nextPart(maximumRecords: 8192, maximumBytes: maximumBytes) {
                    parts += try readAll(part).map(signature)
                    partCount += 1
                }
                XCTAssertEqual(parts, whole, "\(name), parts of \(maximumBytes) bytes")
                if maximumBytes == 1 { XCTAssertGreaterThanOrEqual(partCount, whole.count - 1, name) }
            }
        }
    }

    private func signature(_ record: SourceRecord) -> String {
        "\(record.line) \(record.byteOffset) \(Array(record.raw)) \(record.names) \(record.values) "
            + "\(record.failure.map { "\($0.reason) \($0.message)" } ?? "ok")"
    }

    func testGzipInputIsDecompressed() throws {
        let plain = files.write("data.csv", "id,name\n1,a\n2,\"b, c\"\n")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        let records = try readAll(CSVReader(path: plain + ".gz", options: CSVOptions()))
        XCTAssertEqual(records.map { $0.fields["name"]! }, ["a", "b, c"])
    }
}

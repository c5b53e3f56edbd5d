import XCTest
@testable import ImporterCore

/// Core Data model files that are wrong or hostile: each is refused with the file, the XML
/// line and what to do, and nothing outside the file is ever read.
final class CoreDataModelErrorTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = NSTemporaryDirectory() + "coredata-errors-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// A one-version model whose entity `Item` has `body` inside it.
    private func load(
        entity body: String,
        userInfo: String = #"<entry key="hashKey" value="itemId"/><entry key="versionAttribute" value="version"/>"#,
        more: String = ""
    ) throws -> VersionedModel {
        try load(
            contents: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Item" syncable="YES">
                        <attribute name="itemId" attributeType="String"/>
                        <attribute name="version" optional="YES" attributeType="Integer 64"/>
                        \(body)
                        <userInfo>\(userInfo)</userInfo>
                    </entity>
                    \(more)
                </model>
                """)
    }

    private func load(contents: String) throws -> VersionedModel {
        let package = directory + "/Things.xcdatamodel"
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        try contents.write(toFile: package + "/contents", atomically: false, encoding: .utf8)
        return try ModelLoader.load(path: package)
    }

    private func assertRefused(
        line: Int?, _ message: String, _ body: () throws -> VersionedModel,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: sourceLine) { error in
            guard let error = error as? ConfigurationError else {
                return XCTFail("\(error)", file: file, line: sourceLine)
            }
            XCTAssertTrue(error.file.hasSuffix("Things.xcdatamodel/contents"), error.file, file: file, line: sourceLine)
            if let line { XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine) }
            XCTAssertTrue(error.description.contains(message), "\(error)", file: file, line: sourceLine)
        }
    }

    func testAMinimalModelLoads() throws {
        let model = try load(entity: "").newest
        XCTAssertEqual(model.name, "Things")
        XCTAssertEqual(model.entity(named: "Item")?.hashKey, "itemId")
    }

    func testMissingDeclarationsSayWhichUserInfoEntryToAdd() {
        assertRefused(line: 3, "needs the userInfo entry hashKey = ATTRIBUTE") {
            try load(entity: "", userInfo: #"<entry key="versionAttribute" value="version"/>"#)
        }
        assertRefused(line: 3, "needs the userInfo entry versionAttribute = ATTRIBUTE") {
            try load(entity: "", userInfo: #"<entry key="hashKey" value="itemId"/>"#)
        }
        assertRefused(line: 6, "needs the userInfo entry key = ATTRIBUTE") {
            try load(
                entity:
                    #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>"#
            )
        }
    }

    func testWhatCannotBeStoredIsRefusedWithTheReason() {
        assertRefused(line: 6, "'No Action' leaves references to deleted items") {
            try load(
                entity:
                    #"<attribute name="ownerId" optional="YES" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Item"/>"#
            )
        }
        assertRefused(line: 6, "attribute type 'Integer 128' is unknown") {
            try load(entity: #"<attribute name="big" attributeType="Integer 128"/>"#)
        }
        assertRefused(line: 6, "'2x' is not a valid name") {
            try load(entity: #"<attribute name="2x" attributeType="String"/>"#)
        }
        assertRefused(line: 6, "regularExpressionString '[' is not a valid regular expression") {
            try load(entity: #"<attribute name="code" attributeType="String" regularExpressionString="["/>"#)
        }
        assertRefused(line: 6, "renaming identifier 'old name' must be the name in the previous version") {
            try load(entity: #"<attribute name="renamed" attributeType="String" elementID="old name"/>"#)
        }
        assertRefused(line: 6, "default 'many' is not a valid int16") {
            try load(entity: #"<attribute name="count" attributeType="Integer 16" defaultValueString="many"/>"#)
        }
        for bound in ["inf", "-inf", "nan"] {
            assertRefused(line: 6, "maxValueString '\(bound)' is not a number") {
                try load(entity: #"<attribute name="speed" attributeType="Double" maxValueString="\#(bound)"/>"#)
            }
        }
        for seconds in ["2.9e11", "-2.9e11"] {
            assertRefused(line: 6, "'\(seconds)' is a moment outside the years 0000 to 9999") {
                try load(entity: #"<attribute name="due" attributeType="Date" defaultDateTimeInterval="\#(seconds)"/>"#)
            }
        }
    }

    /// A bound of -0 is the bound 0: written as `0`, it reads back as the same model.
    func testANegativeZeroBoundIsZeroAndSurvivesConversion() throws {
        let model = try load(entity: #"<attribute name="level" attributeType="Double" minValueString="-0"/>"#).newest
        let bound = try XCTUnwrap(model.entity(named: "Item")?.attributes.first { $0.name == "level" }?.minimum)
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(bound.sign, .plus)
        XCTAssertNil(ModelRoundTrip.mismatch(model))
        let yaml = try ModelLoader.parse(
            text: "model: M\nversion: 1\nentities:\n  Item:\n    hashKey: itemId\n    versionAttribute: version\n"
                + "    attributes:\n      itemId: { type: string }\n      version: { type: int64 }\n"
                + "      level: { type: double, max: -0 }\n",
            file: "m.yaml")
        XCTAssertEqual(yaml.entity(named: "Item")?.attributes.last?.maximum?.sign, .plus)
        XCTAssertNil(ModelRoundTrip.mismatch(yaml))
    }

    func testMalformedXMLNamesTheLine() {
        assertRefused(line: 8, "</entity> found where </attribute> closes <attribute>") {
            try load(entity: #"<attribute name="a" attributeType="String">"#)
        }
        assertRefused(line: 6, "attribute 'name' appears twice") {
            try load(entity: #"<attribute name="a" name="b" attributeType="String"/>"#)
        }
        assertRefused(line: nil, "not a Core Data model: the root element is <plist>") {
            try load(contents: "<plist version=\"1.0\"><dict/></plist>")
        }
    }

    func testEntityDeclarationsAndExternalEntitiesAreRefusedUnread() throws {
        let secret = directory + "-secret.txt"
        try "hashKey".write(toFile: secret, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        assertRefused(line: 2, "a DOCTYPE with declarations ('[…]') is refused") {
            try load(
                contents: """
                    <?xml version="1.0"?>
                    <!DOCTYPE model [ <!ENTITY lol "lol"> <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"> ]>
                    <model><entity name="&lol2;"/></model>
                    """)
        }
        assertRefused(line: 2, "a DOCTYPE with declarations") {
            try load(
                contents: """
                    <?xml version="1.0"?>
                    <!DOCTYPE model [ <!ENTITY key SYSTEM "file://\(secret)"> ]>
                    <model><entity name="Item"><userInfo><entry key="&key;" value="itemId"/></userInfo></entity></model>
                    """)
        }
        assertRefused(line: 1, "unknown entity '&key;'") {
            try load(
                contents:
                    #"<model><entity name="Item"><userInfo><entry key="&key;" value="itemId"/></userInfo></entity></model>"#
            )
        }
    }

    func testXMLReaderDetails() throws {
        var reader = try XMLEventReader(
            bytes: Array("<?xml version='1.0'?><!-- c --><a x='1 &amp; &#x41;&#10;'>t&lt;<![CDATA[<b>]]><b/></a>".utf8))
        var events: [XMLEvent] = []
        while let event = try reader.next() { events.append(event) }
        XCTAssertEqual(
            events,
            [
                .start(name: "a", attributes: ["x": "1 & A\n"], line: 1), .text("t<", line: 1), .text("<b>", line: 1),
                .start(name: "b", attributes: [:], line: 1), .end(name: "b", line: 1), .end(name: "a", line: 1),
            ])
        for (text, message) in [
            ("<a>", "ends inside <a>"), ("<a/><b/>", "a second root element"), ("", "no root element"),
            ("<a x=1/>", "must be in quotes"), ("<a>&#0;</a>", "not a character XML allows"),
            ("<a><!-- a -- b --></a>", "'--' inside a comment"), ("<a>x</a>y", "text outside the root"),
        ] {
            var reader = try XMLEventReader(bytes: Array(text.utf8))
            XCTAssertThrowsError(try { while try reader.next() != nil {} }(), text) { error in
                XCTAssertTrue((error as? XMLSyntaxError)?.message.contains(message) == true, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try XMLEventReader(bytes: [0x3C, 0x61, 0xFF, 0x3E]))
        XCTAssertThrowsError(try XMLEventReader(bytes: Array("<a>\n<b c=\"n\u{1}me\"/></a>".utf8))) { error in
            XCTAssertEqual(
                error as? XMLSyntaxError,
                XMLSyntaxError(line: 2, message: "control character 0x1 is not allowed in XML"))
        }
        let deep = String(repeating: "<a>", count: XMLEventReader.maximumDepth + 1)
        var deepReader = try XMLEventReader(bytes: Array(deep.utf8))
        XCTAssertThrowsError(try { while try deepReader.next() != nil {} }())
    }
}

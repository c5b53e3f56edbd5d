import ImporterCore
import XCTest

/// uuid, uri and binary values from text (docs/model.md).
final class MoreTypesCoercionTests: XCTestCase {
    private func coerce(_ text: String, _ type: AttributeType) -> Result<Value, CoercionProblem> {
        ValueCoercion.coerce(.text(text), to: type, dateFormat: .iso8601)
    }

    func testUUIDsBecomeCanonicalLowerCaseText() throws {
        for text in [
            "0E8A3C5E-1F2B-4C3D-8E9F-A0B1C2D3E4F5", "0e8a3c5e1f2b4c3d8e9fa0b1c2d3e4f5",
            " 0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5 ",
        ] {
            XCTAssertEqual(try coerce(text, .uuid).get(), .string("0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"), text)
        }
        for text in [
            "0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f", "0e8a3c5e_1f2b_4c3d_8e9f_a0b1c2d3e4f5",
            "g0000000-0000-0000-0000-000000000000", "",
        ] {
            guard case .failure(let problem) = coerce(text, .uuid) else { return XCTFail("'\(text)' is no UUID") }
            XCTAssertEqual(problem.reason, .type)
            XCTAssertTrue(problem.message.contains("is not a UUID"), problem.message)
        }
    }

    func testURIsMustBeAbsolute() throws {
        for text in ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c", "s3://bucket/key"] {
            XCTAssertEqual(try coerce(text, .uri).get(), .string(text))
        }
        for text in ["example.com/a", "/relative/path", "https://exa mple.com", "1http://x", ":nothing", "https:"] {
            guard case .failure(let problem) = coerce(text, .uri) else {
                return XCTFail("'\(text)' is no absolute URI")
            }
            XCTAssertTrue(problem.message.contains("is not an absolute URI"), problem.message)
        }
    }

    func testBinaryIsPaddedStandardBase64() throws {
        XCTAssertEqual(try coerce("AAEC+v8=", .binary).get(), .binary([0, 1, 2, 250, 255]))
        XCTAssertEqual(try coerce("", .binary).get(), .binary([]))
        for text in ["AAEC+v8", "AAEC-_8=", "not base64!", "AA==AA=="] {
            guard case .failure(let problem) = coerce(text, .binary) else {
                return XCTFail("'\(text)' is no padded base64")
            }
            XCTAssertTrue(problem.message.contains("is not base64"), problem.message)
        }
        XCTAssertEqual(Value.binary([0, 1, 2, 250, 255]).description, "AAEC+v8=")
        guard case .failure = ValueCoercion.coerce(.number("12"), to: .binary, dateFormat: .iso8601) else {
            return XCTFail("a JSON number is no binary value")
        }
    }
}

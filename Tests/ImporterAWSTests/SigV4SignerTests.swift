import Foundation
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The signer against AWS's SigV4 test suite (aws-sig-v4-test-suite, 2015-08-30 edition).
///
/// Where the expected values come from (nothing below is computed by this code or made up):
/// - the `.creq` / `.sts` / `.authz` files of every case, as vendored in
///   vkill/swift-aws-sigv4-official-test-suite, Tests/AwsSigv4OfficialTestSuiteTests/AwsSigv4OfficialTestSuiteContent.swift
///   (a generated copy of aws-sig-v4-test-suite/<case>/<case>.{req,creq,sts,authz,sreq});
/// - the signatures cross-checked against awslabs/aws-c-auth,
///   tests/aws-signing-test-suite/v4/<case>/header-signed-request.txt, where the case exists there
///   (named <case>-normalized for the path cases).
/// Each test names its case; "<case>" stands for those paths.
final class SigV4SignerTests: XCTestCase {
    // The suite's fixed inputs (every case's .req and .authz use them).
    static let credentials = AWSCredentials(
        accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let sessionToken =
        "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="
    /// 20150830T123600Z.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)
    static let host = (name: "Host", value: "example.amazonaws.com")
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    static func signer(sessionToken: String? = nil) -> SigV4Signer {
        var credentials = credentials
        credentials.sessionToken = sessionToken
        return SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
    }

    /// Signs one case and compares every intermediate the vector gives.
    func assertVector(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [SigV4SignerTests.host],
        body: String = "", sessionToken: String? = nil,
        canonicalRequest: String? = nil, stringToSignHash: String, signedHeaders: String = "host;x-amz-date",
        signature: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let url = try XCTUnwrap(URL(string: url), file: file, line: line)
        let result = Self.signer(sessionToken: sessionToken)
            .signature(method: method, url: url, headers: headers, body: Array(body.utf8), date: Self.date)
        if let canonicalRequest {
            XCTAssertEqual(result.canonicalRequest, canonicalRequest, "canonical request", file: file, line: line)
        }
        XCTAssertEqual(
            result.stringToSign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n\(stringToSignHash)",
            "string to sign", file: file, line: line)
        XCTAssertEqual(
            result.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(signedHeaders), Signature=\(signature)",
            "authorization", file: file, line: line)
    }

    // MARK: - The cases the brief names

    func testGetVanilla() throws {
        // get-vanilla
        try assertVector(
            url: "https://example.amazonaws.com/",
            canonicalRequest: """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    func testQueryParametersAreSortedByName() throws {
        // get-vanilla-query-order-key-case
        try assertVector(
            url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
            canonicalRequest: """
                GET
                /
                Param1=value1&Param2=value2
                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500")
    }

    func testHeaderValuesAreTrimmedAndInnerSpacesCollapsed() throws {
        // get-header-value-trim
        try assertVector(
            url: "https://example.amazonaws.com/",
            headers: [Self.host, ("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            canonicalRequest: """
                GET
                /

                host:example.amazonaws.com
                my-header1:value1
                my-header2:"a b c"
                x-amz-date:20150830T123600Z

                host;my-header1;my-header2;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
            signedHeaders: "host;my-header1;my-header2;x-amz-date",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736")
    }

    func testUTF8PathIsPercentEncoded() throws {
        // get-utf8: the request line is "GET /ሴ"; a URL carries it percent-encoded.
        try assertVector(
            url: "https://example.amazonaws.com/%E1%88%B4",
            canonicalRequest: """
                GET
                /%E1%88%B4

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85")
    }

    func testSpaceInPathIsEncodedAsPercent20() throws {
        // get-space (aws-c-auth: get-space-normalized)
        try assertVector(
            url: "https://example.amazonaws.com/example%20space/",
            canonicalRequest: """
                GET
                /example%20space/

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "63ee75631ed7234ae61b5f736dfc7754cdccfedbff4b5128a915706ee9390d86",
            signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741")
    }

    func testFormBodyIsHashedIntoTheCanonicalRequest() throws {
        // post-x-www-form-urlencoded: the body is "Param1=value1" (its SHA-256 is the creq's last line).
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), Self.host],
            body: "Param1=value1",
            canonicalRequest: """
                POST
                /

                content-type:application/x-www-form-urlencoded
                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                content-type;host;x-amz-date
                9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e
                """,
            stringToSignHash: "42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281",
            signedHeaders: "content-type;host;x-amz-date",
            signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a")
    }

    func testSessionTokenIsSentAndSigned() throws {
        // post-sts-header-before (also awslabs/aws-c-auth tests/aws-signing-test-suite/v4/post-sts-header-before/header-signed-request.txt)
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/", sessionToken: Self.sessionToken,
            canonicalRequest: """
                POST
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z
                x-amz-security-token:\(Self.sessionToken)

                host;x-amz-date;x-amz-security-token
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "c237e1b440d4c63c32ca95b5b99481081cb7b13c7e40434868e71567c1a882f6",
            signedHeaders: "host;x-amz-date;x-amz-security-token",
            signature: "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead")

        let headers = Self.signer(sessionToken: Self.sessionToken).sign(
            method: "POST", url: URL(string: "https://example.amazonaws.com/")!, headers: [Self.host], body: [],
            date: Self.date)
        XCTAssertEqual(headers.first { $0.name.lowercased() == "x-amz-security-token" }?.value, Self.sessionToken)
    }

    func testRelativeSegmentsAreResolved() throws {
        // get-relative-relative (aws-c-auth: get-relative-relative-normalized)
        try assertVector(
            url: "https://example.amazonaws.com/example1/example2/../..",
            canonicalRequest: """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    func testRepeatedSlashesAreCollapsed() throws {
        // get-slashes (aws-c-auth: get-slashes-normalized)
        try assertVector(
            url: "https://example.amazonaws.com//example//",
            canonicalRequest: """
                GET
                /example/

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """,
            stringToSignHash: "cb96b4ac96d501f7c5c15bc6d67b3035061cfced4af6585ad927f7e6c985c015",
            signature: "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84")
    }

    // MARK: - More of the suite (string to sign and signature; the creq is hashed into the former)

    func testMorePathCases() throws {
        let root = "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
        let rootSignature = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        // get-relative, get-slash, get-slash-dot-slash: all canonicalize to "/".
        for path in ["/example/..", "//", "/./"] {
            try assertVector(
                url: "https://example.amazonaws.com" + path, stringToSignHash: root, signature: rootSignature)
        }
        // get-slash-pointless-dot
        try assertVector(
            url: "https://example.amazonaws.com/./example",
            stringToSignHash: "214d50c111a8edc4819da6a636336472c916b5240f51e9a51b5c3305180cf702",
            signature: "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5")
        // get-unreserved
        try assertVector(
            url: "https://example.amazonaws.com/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            stringToSignHash: "6a968768eefaa713e2a6b16b589a8ea192661f098f37349f4e2c0082757446f9",
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f")
    }

    func testMoreQueryCases() throws {
        // get-vanilla-query-order-value: same name, sorted by value.
        try assertVector(
            url: "https://example.amazonaws.com/?Param1=value2&Param1=value1",
            stringToSignHash: "c968629d70850097a2d8781c9bf7edcb988b04cac14cca9be4acc3595f884606",
            signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694")
        // get-vanilla-query-order-key: byte order, so "Value1" before "value2".
        try assertVector(
            url: "https://example.amazonaws.com/?Param1=value2&Param1=Value1",
            stringToSignHash: "704b4cef673542d84cdff252633f065e8daeba5f168b77116f8b1bcaf3d38f89",
            signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1")
        // get-vanilla-utf8-query: "/?ሴ=bar", percent-encoded in the URL.
        try assertVector(
            url: "https://example.amazonaws.com/?%E1%88%B4=bar",
            stringToSignHash: "eb30c5bed55734080471a834cc727ae56beb50e5f39d1bff6d0d38cb192a7073",
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04")
        // get-vanilla-query-unreserved
        let unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        try assertVector(
            url: "https://example.amazonaws.com/?\(unreserved)=\(unreserved)",
            stringToSignHash: "c30d4703d9f799439be92736156d47ccfb2d879ddf56f5befa6d1d6aab979177",
            signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197")
        // post-vanilla-query
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/?Param1=value1",
            stringToSignHash: "9d659678c1756bb3113e2ce898845a0a79dbbc57b740555917687f1b3340fbbd",
            signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11")
    }

    func testMoreHeaderCases() throws {
        let signed = "host;my-header1;x-amz-date"
        // get-header-key-duplicate: values of one name joined in the order given.
        try assertVector(
            url: "https://example.amazonaws.com/",
            headers: [Self.host, ("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
            stringToSignHash: "dc7f04a3abfde8d472b0ab1a418b741b7c67174dad1551b4117b15527fbe966c",
            signedHeaders: signed,
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea")
        // get-header-value-order
        try assertVector(
            url: "https://example.amazonaws.com/",
            headers: [Self.host] + ["value4", "value1", "value3", "value2"].map { ("My-Header1", $0) },
            stringToSignHash: "31ce73cd3f3d9f66977ad3dd957dc47af14df92fcd8509f59b349e9137c58b86",
            signedHeaders: signed,
            signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01")
        // post-header-key-sort
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/", headers: [Self.host, ("My-Header1", "value1")],
            stringToSignHash: "9368318c2967cf6de74404b30c65a91e8f6253e0a8659d6d5319f1a812f87d65",
            signedHeaders: signed,
            signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c")
        // post-header-value-case: values keep their case.
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/", headers: [Self.host, ("My-Header1", "VALUE1")],
            stringToSignHash: "d51ced243e649e3de6ef63afbbdcbca03131a21a7103a1583706a64618606a93",
            signedHeaders: signed,
            signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d")
        // post-vanilla
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/",
            stringToSignHash: "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b")
        // post-x-www-form-urlencoded-parameters
        try assertVector(
            method: "POST", url: "https://example.amazonaws.com/",
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf8"), Self.host],
            body: "Param1=value1",
            stringToSignHash: "2e1cf7ed91881a30569e46552437e4156c823447bf1781b921b5d486c568dd1c",
            signedHeaders: "content-type;host;x-amz-date",
            signature: "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe")
    }

    // MARK: - The public API around the vectors

    func testSignReturnsTheGivenHeadersPlusDateAndAuthorization() {
        let headers = Self.signer().sign(
            method: "GET", url: URL(string: "https://example.amazonaws.com/")!, headers: [Self.host], body: [],
            date: Self.date)
        XCTAssertEqual(headers.map(\.name), ["Host", "X-Amz-Date", "Authorization"])
        XCTAssertEqual(
            headers.map(\.value),
            [
                "example.amazonaws.com", "20150830T123600Z",
                // get-vanilla
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                    + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
            ])
    }

    func testHostIsTakenFromTheURLWhenNotGiven() {
        // Without a Host header, the URL's host is signed and sent: get-vanilla's signature again.
        let headers = Self.signer().sign(
            method: "GET", url: URL(string: "https://example.amazonaws.com/")!, headers: [], body: [], date: Self.date)
        XCTAssertEqual(headers.first?.name, "Host")
        XCTAssertEqual(headers.first?.value, "example.amazonaws.com")
        XCTAssertTrue(
            headers.last!.value.hasSuffix("Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"))
    }

    func testHostCarriesOnlyANonDefaultPort() {
        func host(_ url: String) -> String? { SigV4Signer.hostHeaderValue(for: URL(string: url)!) }
        XCTAssertEqual(host("http://localhost:8000/"), "localhost:8000")  // DynamoDB Local
        XCTAssertEqual(host("https://dynamodb.eu-west-1.amazonaws.com:443/"), "dynamodb.eu-west-1.amazonaws.com")
        XCTAssertEqual(host("http://example.com:80/"), "example.com")
        XCTAssertEqual(host("https://example.com:80/"), "example.com:80")
        XCTAssertEqual(host("https://example.com/"), "example.com")
    }

    func testSignerOwnedHeadersFromTheCallerAreReplaced() {
        // The suite's requests carry X-Amz-Date themselves; the signer must not sign it twice.
        let headers = Self.signer().sign(
            method: "GET", url: URL(string: "https://example.amazonaws.com/")!,
            headers: [Self.host, ("X-Amz-Date", "19990101T000000Z"), ("Authorization", "stale")], body: [],
            date: Self.date)
        XCTAssertEqual(headers.filter { $0.name.lowercased() == "x-amz-date" }.map(\.value), ["20150830T123600Z"])
        XCTAssertEqual(headers.filter { $0.name.lowercased() == "authorization" }.count, 1)
        XCTAssertTrue(
            headers.last!.value.hasSuffix("Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"))
    }

    func testS3PathsAreNotNormalized() {
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "//example//", normalize: false), "//example//")
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "/a/./b/../c", normalize: false), "/a/./b/../c")
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "/a/./b/../c", normalize: true), "/a/c")
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "", normalize: true), "/")
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "", normalize: false), "/")
        // An encoded slash stays inside its segment.
        XCTAssertEqual(SigV4Signer.canonicalURI(percentEncodedPath: "/a%2Fb", normalize: true), "/a%2Fb")
    }

    func testTimestampsAreUTCDigits() {
        XCTAssertEqual(SigV4Timestamp(Self.date).dateTime, "20150830T123600Z")
        XCTAssertEqual(SigV4Timestamp(Self.date).day, "20150830")
        // 2024-02-29T23:59:59.9Z: a leap day, and fractions of a second are dropped.
        XCTAssertEqual(SigV4Timestamp(Date(timeIntervalSince1970: 1_709_251_199.9)).dateTime, "20240229T235959Z")
        XCTAssertEqual(SigV4Timestamp(Date(timeIntervalSince1970: -1)).dateTime, "19691231T235959Z")
        XCTAssertEqual(SigV4Timestamp(Date(timeIntervalSince1970: 0)).dateTime, "19700101T000000Z")
    }

    // MARK: - Credentials never print their secrets

    func testCredentialsDescriptionHidesSecretAndToken() {
        let credentials = AWSCredentials(
            accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            sessionToken: Self.sessionToken)
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(describing: credentials), String(reflecting: credentials), dumped] {
            XCTAssertFalse(text.contains("wJalrXUtnFEMI"), text)
            XCTAssertFalse(text.contains("EXAMPLEKEY"), text)
            XCTAssertFalse(text.contains("AQoDYXdz"), text)
            XCTAssertTrue(text.contains("AKID…"), text)
        }
        XCTAssertEqual(credentials.description, "AWSCredentials(AKID…, secret hidden, session token hidden)")
        XCTAssertEqual(Self.credentials.description, "AWSCredentials(AKID…, secret hidden)")
    }

    // MARK: - HMAC-SHA256, RFC 4231

    func testHMACSHA256MatchesRFC4231() {
        func hmac(_ key: [UInt8], _ message: String) -> String {
            SigV4Signer.hex(HMACSHA256.authenticationCode(for: message, key: key))
        }
        // Test case 1: a 20-byte key.
        XCTAssertEqual(
            hmac([UInt8](repeating: 0x0b, count: 20), "Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: a key shorter than the hash.
        XCTAssertEqual(
            hmac(Array("Jefe".utf8), "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a 131-byte key, longer than the block, so it is hashed first.
        XCTAssertEqual(
            hmac([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}

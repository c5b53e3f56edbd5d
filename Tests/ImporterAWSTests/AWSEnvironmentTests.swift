import Foundation
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Every precedence rule of the configuration (docs/dynamodb.md), with an injected environment and a temp home directory.
final class AWSEnvironmentTests: XCTestCase {
    /// Recognisable values that must never appear in an error message.
    static let envSecret = "ENV-SECRET-wJalrXUtnFEMI/K7MDENG"
    static let envToken = "ENV-TOKEN-AQoDYXdzEPT"
    static let fileSecret = "FILE-SECRET-je7MtGbClwBF/2Zp9Utk"
    static let fileToken = "FILE-TOKEN-FwoGZXIvYXdzEBYaD"

    private var home = ""

    override func setUpWithError() throws {
        home =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("aws-env-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: home)
    }

    private func environment(_ variables: [String: String]) -> AWSEnvironment {
        AWSEnvironment(variables: variables, homeDirectory: home)
    }

    /// Writes `<home>/<relativePath>` (directories created) and returns its full path.
    @discardableResult
    private func write(_ text: String, to relativePath: String = ".aws/credentials") throws -> String {
        let path = (home as NSString).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func expectError(
        _ expected: AWSConfigurationError, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws(AWSConfigurationError) -> Void
    ) {
        do {
            try body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }

    static let twoProfiles = """
        # a comment
        ; another comment
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = \(fileSecret)

          [ work ]
        AWS_Access_Key_Id=AKIDWORK
          aws_secret_access_key   =   \(fileSecret)-work
        aws_session_token = \(fileToken)
        """

    // MARK: - Credentials

    func testEnvironmentCredentialsWinOverTheProfile() throws {
        try write(Self.twoProfiles)
        let credentials = try environment([
            "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": Self.envSecret,
            "AWS_SESSION_TOKEN": Self.envToken, "AWS_PROFILE": "work",
        ]).credentials()
        XCTAssertEqual(
            credentials,
            AWSCredentials(
                accessKeyId: "AKIDENV", secretAccessKey: Self.envSecret, sessionToken: Self.envToken))
    }

    func testEnvironmentCredentialsWithoutTokenOrWithBlankToken() throws {
        for token in [nil, "", "  "] as [String?] {
            var variables = ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": Self.envSecret]
            variables["AWS_SESSION_TOKEN"] = token
            XCTAssertNil(try environment(variables).credentials().sessionToken)
        }
    }

    func testDefaultProfileWhenNoVariables() throws {
        try write(Self.twoProfiles)
        XCTAssertEqual(
            try environment([:]).credentials(),
            AWSCredentials(accessKeyId: "AKIDDEFAULT", secretAccessKey: Self.fileSecret))
    }

    func testNamedProfileTrimsAndLowercasesKeysAndReadsToken() throws {
        try write(Self.twoProfiles)
        XCTAssertEqual(
            try environment(["AWS_PROFILE": "work"]).credentials(),
            AWSCredentials(
                accessKeyId: "AKIDWORK", secretAccessKey: Self.fileSecret + "-work", sessionToken: Self.fileToken))
    }

    func testBlankKeyVariablesFallBackToTheProfile() throws {
        try write(Self.twoProfiles)
        let credentials = try environment(["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": " "]).credentials()
        XCTAssertEqual(credentials.accessKeyId, "AKIDDEFAULT")
    }

    func testSharedCredentialsFileVariableOverridesThePath() throws {
        try write(Self.twoProfiles)  // the default path: must be ignored
        let other = try write(
            "[default]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = s\n", to: "elsewhere/creds")
        XCTAssertEqual(try environment(["AWS_SHARED_CREDENTIALS_FILE": other]).credentials().accessKeyId, "AKIDOTHER")
        XCTAssertEqual(
            try environment(["AWS_SHARED_CREDENTIALS_FILE": "~/elsewhere/creds"]).credentials().accessKeyId, "AKIDOTHER"
        )
    }

    func testCRLFLinesByteOrderMarkColonsAndRepeatedSections() throws {
        try write(
            "\u{FEFF}[default]\r\naws_access_key_id: AKIDFIRST\r\naws_secret_access_key = a=b\r\n"
                + "[default]\r\naws_access_key_id = AKIDLATER\r\n")
        let credentials = try environment([:]).credentials()
        XCTAssertEqual(credentials.accessKeyId, "AKIDLATER")
        XCTAssertEqual(credentials.secretAccessKey, "a=b")  // split at the first delimiter only
    }

    func testNoCredentialsAnywhere() {
        let path = home + "/.aws/credentials"
        expectError(.noCredentials(profile: "default", file: path)) { () throws(AWSConfigurationError) in
            _ = try environment([:]).credentials()
        }
        XCTAssertEqual(
            AWSConfigurationError.noCredentials(profile: "default", file: path).description,
            "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a profile "
                + "in ~/.aws/credentials (looked for profile [default] in \(path))")
    }

    func testErrors() throws {
        let path = home + "/.aws/credentials"
        for (variables, expected) in [
            (
                ["AWS_ACCESS_KEY_ID": "AKIDENV"],
                .incompleteEnvironmentCredentials(missing: "AWS_SECRET_ACCESS_KEY", present: "AWS_ACCESS_KEY_ID")
            ),
            (
                ["AWS_SECRET_ACCESS_KEY": Self.envSecret],
                .incompleteEnvironmentCredentials(missing: "AWS_ACCESS_KEY_ID", present: "AWS_SECRET_ACCESS_KEY")
            ),
            (["AWS_PROFILE": "work"], .profileNotFound(profile: "work", file: path, fileExists: false)),
        ] as [([String: String], AWSConfigurationError)] {
            expectError(expected) { () throws(AWSConfigurationError) in _ = try environment(variables).credentials() }
        }

        try write("[default]\naws_access_key_id = AKIDDEFAULT\n[keyonly]\naws_secret_access_key = \(Self.fileSecret)\n")
        expectError(.profileNotFound(profile: "missing", file: path, fileExists: true)) {
            () throws(AWSConfigurationError) in
            _ = try environment(["AWS_PROFILE": "missing"]).credentials()
        }
        expectError(.incompleteProfile(profile: "default", file: path, missing: "aws_secret_access_key")) {
            () throws(AWSConfigurationError) in _ = try environment([:]).credentials()
        }
        expectError(.incompleteProfile(profile: "keyonly", file: path, missing: "aws_access_key_id")) {
            () throws(AWSConfigurationError) in _ = try environment(["AWS_PROFILE": "keyonly"]).credentials()
        }

        let directory = home + "/a-directory"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        expectError(.unreadableCredentialsFile(file: directory)) { () throws(AWSConfigurationError) in
            _ = try environment(["AWS_SHARED_CREDENTIALS_FILE": directory]).credentials()
        }
    }

    func testMalformedFilesNameTheLineButNotItsText() throws {
        let cases: [(text: String, line: Int)] = [
            ("[default]\naws_access_key_id = AKID\n\(Self.fileSecret)\n", 3),
            ("aws_secret_access_key = \(Self.fileSecret)\n", 1),
            ("# c\n[default\naws_secret_access_key = \(Self.fileSecret)\n", 2),
            ("[]\n", 1),
            ("[default]\n = \(Self.fileSecret)\n", 2),
        ]
        for (text, line) in cases {
            try write(text)
            do {
                _ = try environment([:]).credentials()
                XCTFail("expected a malformed-file error for \(line)")
            } catch {
                guard case let .malformedCredentialsFile(_, errorLine, _) = error else {
                    XCTFail("unexpected \(error)")
                    continue
                }
                XCTAssertEqual(errorLine, line)
                XCTAssertFalse(error.description.contains(Self.fileSecret), error.description)
            }
        }
    }

    /// Every error path, with secrets and tokens in the environment and the file: none may leak into a message.
    func testNoErrorMessageContainsASecretOrToken() throws {
        let secrets = [Self.envSecret, Self.envToken, Self.fileSecret, Self.fileToken]
        let tokenOnly = ["AWS_SESSION_TOKEN": Self.envToken]
        var messages: [String] = []
        func collect(_ variables: [String: String], region: String? = nil, endpoint: String? = nil) {
            do {
                _ = try environment(variables.merging(tokenOnly) { a, _ in a })
                    .resolve(pipelineRegion: region, pipelineEndpoint: endpoint)
                XCTFail("expected an error for \(variables.keys.sorted())")
            } catch {
                messages.append(error.description)
                messages.append(String(describing: error))
                messages.append(String(reflecting: error))
                messages.append(error.localizedDescription)
            }
        }
        let withRegion = ["AWS_REGION": "us-east-1"]
        collect(withRegion)  // no credentials
        collect(withRegion.merging(["AWS_SECRET_ACCESS_KEY": Self.envSecret]) { a, _ in a })
        collect(withRegion.merging(["AWS_ACCESS_KEY_ID": "AKID"]) { a, _ in a })
        collect(withRegion.merging(["AWS_PROFILE": "nope"]) { a, _ in a })
        collect(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": Self.envSecret])  // no region
        collect(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": Self.envSecret], region: "us/east")
        collect(
            ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": Self.envSecret], region: "us-east-1",
            endpoint: "localhost:8000")

        try write(
            "[other]\naws_access_key_id = AKID\naws_secret_access_key = \(Self.fileSecret)\n"
                + "aws_session_token = \(Self.fileToken)\n[tokenonly]\naws_session_token = \(Self.fileToken)\n")
        collect(withRegion)  // default profile missing from an existing file
        collect(withRegion.merging(["AWS_PROFILE": "nope"]) { a, _ in a })
        collect(withRegion.merging(["AWS_PROFILE": "tokenonly"]) { a, _ in a })
        try write("[other]\naws_access_key_id = AKID\naws_secret_access_key: \(Self.fileSecret)\n\(Self.fileToken)\n")
        collect(withRegion.merging(["AWS_PROFILE": "other"]) { a, _ in a })
        try write("\(Self.fileSecret) = x\n")
        collect(withRegion)
        try FileManager.default.removeItem(atPath: home + "/.aws/credentials")
        try FileManager.default.createDirectory(atPath: home + "/.aws/credentials", withIntermediateDirectories: true)
        collect(withRegion)

        XCTAssertEqual(messages.count, 13 * 4)
        for message in messages {
            for secret in secrets {
                XCTAssertFalse(message.contains(secret), "secret leaked: \(message)")
            }
            // Not even a fragment: the distinctive middle of each value.
            XCTAssertFalse(message.contains("SECRET-") || message.contains("TOKEN-"), message)
        }
    }

    // MARK: - Region

    func testRegionPrecedence() throws {
        let all = ["AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "ap-south-1"]
        XCTAssertEqual(try environment(all).region(pipelineRegion: "us-west-2"), "us-west-2")
        XCTAssertEqual(try environment(all).region(pipelineRegion: " "), "eu-west-1")
        XCTAssertEqual(try environment(all).region(), "eu-west-1")
        XCTAssertEqual(try environment(["AWS_DEFAULT_REGION": "ap-south-1"]).region(), "ap-south-1")
        XCTAssertEqual(try environment(["AWS_REGION": "", "AWS_DEFAULT_REGION": "ap-south-1"]).region(), "ap-south-1")
        expectError(.noRegion) { () throws(AWSConfigurationError) in _ = try environment([:]).region() }
    }

    // MARK: - Endpoint

    func testEndpointPrecedence() throws {
        let all = ["AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001", "AWS_ENDPOINT_URL": "http://127.0.0.1:8002"]
        func endpoint(_ variables: [String: String], pipeline: String? = nil) throws -> String {
            try environment(variables).endpoint(pipelineEndpoint: pipeline, region: "eu-west-1").absoluteString
        }
        XCTAssertEqual(try endpoint(all, pipeline: "https://ddb.example.test"), "https://ddb.example.test")
        XCTAssertEqual(try endpoint(all), "http://127.0.0.1:8001")
        XCTAssertEqual(try endpoint(["AWS_ENDPOINT_URL": "http://127.0.0.1:8002"]), "http://127.0.0.1:8002")
        XCTAssertEqual(try endpoint(["AWS_ENDPOINT_URL_DYNAMODB": "", "AWS_ENDPOINT_URL": "http://h:1"]), "http://h:1")
        XCTAssertEqual(try endpoint([:]), "https://dynamodb.eu-west-1.amazonaws.com")
        XCTAssertEqual(
            try environment([:]).endpoint(region: "cn-north-1").absoluteString,
            "https://dynamodb.cn-north-1.amazonaws.com.cn")
    }

    func testInvalidEndpointsAndRegions() {
        for (variables, pipeline, expected) in [
            ([:], "localhost:8000", .invalidEndpoint(source: "the pipeline's endpoint", value: "localhost:8000")),
            (
                ["AWS_ENDPOINT_URL_DYNAMODB": "ftp://h"], nil,
                .invalidEndpoint(source: "AWS_ENDPOINT_URL_DYNAMODB", value: "ftp://h")
            ),
            (["AWS_ENDPOINT_URL": "http://"], nil, .invalidEndpoint(source: "AWS_ENDPOINT_URL", value: "http://")),
        ] as [([String: String], String?, AWSConfigurationError)] {
            expectError(expected) { () throws(AWSConfigurationError) in
                _ = try environment(variables).endpoint(pipelineEndpoint: pipeline, region: "us-east-1")
            }
        }
        expectError(.invalidRegion("us/east")) { () throws(AWSConfigurationError) in
            _ = try environment([:]).endpoint(region: "us/east")
        }
    }

    // MARK: - Together

    func testResolveCombinesAllThree() throws {
        try write(Self.twoProfiles)
        let resolved = try environment(["AWS_PROFILE": "work", "AWS_DEFAULT_REGION": "eu-central-1"]).resolve()
        XCTAssertEqual(resolved.credentials.accessKeyId, "AKIDWORK")
        XCTAssertEqual(resolved.region, "eu-central-1")
        XCTAssertEqual(resolved.endpoint.absoluteString, "https://dynamodb.eu-central-1.amazonaws.com")
    }
}

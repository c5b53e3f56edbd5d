import Foundation

/// Signs HTTP requests with AWS Signature Version 4 (the `Authorization` header form), as the
/// DynamoDB store will send them. It follows the published SigV4 steps: canonical request,
/// string to sign, derived signing key, signature; the test suite checks each step against AWS's vectors.
package struct SigV4Signer: Sendable {
    package let credentials: AWSCredentials
    package let region: String
    package let service: String

    package init(credentials: AWSCredentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// Signs a request: returns the headers to send (the given ones plus x-amz-date, x-amz-security-token when there is a session token, and authorization).
    /// A `host` header is added from the URL when the caller passed none, since it is always signed.
    /// Any `x-amz-date`, `x-amz-security-token` or `authorization` the caller passed is replaced by the signer's own.
    package func sign(
        method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8], date: Date
    ) -> [(name: String, value: String)] {
        signature(method: method, url: url, headers: headers, body: body, date: date).headers
    }

    /// Every intermediate step of one signature, so tests can compare each with AWS's vectors.
    struct Signature {
        var canonicalRequest: String
        var stringToSign: String
        /// Lowercase hex of the final HMAC.
        var signature: String
        var authorization: String
        /// The headers to send, `authorization` last.
        var headers: [(name: String, value: String)]
    }

    static let algorithm = "AWS4-HMAC-SHA256"
    /// Headers the signer writes itself; the caller's copies are dropped so nothing is signed twice.
    static let signerOwnedHeaders: Set<String> = ["x-amz-date", "x-amz-security-token", "authorization"]

    /// The whole computation behind `sign`, with its intermediates (internal: for tests).
    func signature(
        method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8], date: Date
    ) -> Signature {
        let timestamp = SigV4Timestamp(date)
        var sent = headers.filter { !Self.signerOwnedHeaders.contains($0.name.lowercased()) }
        if !sent.contains(where: { $0.name.lowercased() == "host" }), let host = Self.hostHeaderValue(for: url) {
            sent.append((name: "Host", value: host))
        }
        sent.append((name: "X-Amz-Date", value: timestamp.dateTime))
        if let token = credentials.sessionToken {
            sent.append((name: "X-Amz-Security-Token", value: token))
        }

        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(sent)
        let canonicalRequest = [
            method,
            Self.canonicalURI(percentEncodedPath: components?.percentEncodedPath ?? "", normalize: service != "s3"),
            Self.canonicalQuery(percentEncodedQuery: components?.percentEncodedQuery),
            canonicalHeaders,
            signedHeaders,
            // S3 signs the payload hash it is sent (`UNSIGNED-PAYLOAD` for a streamed body).
            sent.first { $0.name.lowercased() == "x-amz-content-sha256" }?.value ?? PayloadHash.hex(of: body),
        ].joined(separator: "\n")

        let scope = "\(timestamp.day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            Self.algorithm, timestamp.dateTime, scope, PayloadHash.hex(of: Array(canonicalRequest.utf8)),
        ].joined(separator: "\n")

        let signature = Self.hex(HMACSHA256.authenticationCode(for: stringToSign, key: signingKey(day: timestamp.day)))
        let authorization =
            "\(Self.algorithm) Credential=\(credentials.accessKeyId)/\(scope), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        sent.append((name: "Authorization", value: authorization))
        return Signature(
            canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature,
            authorization: authorization, headers: sent)
    }

    /// The key chain: HMAC of the day, then region, service and the `aws4_request` terminator.
    func signingKey(day: String) -> [UInt8] {
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(for: part, key: key)
        }
        return key
    }

    // MARK: - Canonical parts

    /// The path, each segment URI-encoded once (RFC 3986, only unreserved characters kept, `/` kept).
    /// Percent escapes in the URL are decoded first, so `/a%20b` and `/a b` give the same result.
    /// Except for S3 the path is normalized first: no `.` or empty segments, `..` resolved. Empty gives `/`.
    static func canonicalURI(percentEncodedPath path: String, normalize: Bool) -> String {
        let rawSegments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var segments: [String] = []
        var trailingSlash = path.hasSuffix("/")
        if normalize {
            for segment in rawSegments {
                switch segment {
                case "", ".": continue
                case "..": _ = segments.popLast()
                default: segments.append(segment)
                }
            }
            // "/a/." and "/a/b/.." name a directory, like "/a/" (RFC 3986 §5.2.4).
            trailingSlash = trailingSlash || rawSegments.last == "." || rawSegments.last == ".."
        } else {
            segments = Array(rawSegments.dropFirst(path.hasPrefix("/") ? 1 : 0))
            if trailingSlash { segments.removeLast() }
        }
        if segments.isEmpty { return "/" }
        let encoded = segments.map { uriEncode($0.removingPercentEncoding ?? $0) }
        return "/" + encoded.joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    /// The query: every name and value URI-encoded (space as `%20`), pairs sorted by name, then by value.
    /// A name without `=` gets an empty value (`Param1=`).
    static func canonicalQuery(percentEncodedQuery query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&").map { piece -> (name: String, value: String) in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            func encoded(_ text: String) -> String { uriEncode(text.removingPercentEncoding ?? text) }
            return (encoded(parts[0]), parts.count > 1 ? encoded(parts[1]) : "")
        }
        return
            pairs
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }  // encoded text is ASCII: byte order
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "&")
    }

    /// The canonical header block (`name:value\n` per header) and the signed header list (`a;b;c`).
    /// Names are lowercased and sorted; the values of one name are joined with `,` in the order given.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (block: String, signed: String) {
        var valuesByName: [String: [String]] = [:]
        for header in headers {
            valuesByName[header.name.lowercased(), default: []].append(trimmedHeaderValue(header.value))
        }
        let names = valuesByName.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let block = names.map { "\($0):\(valuesByName[$0]!.joined(separator: ","))\n" }.joined()
        return (block, names.joined(separator: ";"))
    }

    /// A header value without leading or trailing blanks, each inner run of blanks made one space.
    static func trimmedHeaderValue(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `host[:port]` as a client sends it: the port only when the URL names a non-default one.
    package static func hostHeaderValue(for url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            var host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }  // IPv6 literal
        let defaultPort = ["http": 80, "https": 443][components.scheme?.lowercased() ?? ""]
        if let port = components.port, port != defaultPort { host += ":\(port)" }
        return host
    }

    /// RFC 3986 percent-encoding of the UTF-8 bytes: letters, digits and `-._~` kept, the rest `%XX` (uppercase).
    package static func uriEncode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(upperHexDigits[Int(byte >> 4)]) + String(upperHexDigits[Int(byte & 15)])
            }
        }
        return encoded
    }

    private static let upperHexDigits = Array("0123456789ABCDEF")
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)

    /// Lowercase hex, as SigV4 writes signatures and hashes.
    static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(lowerHexDigits[Int(byte >> 4)])
            text.append(lowerHexDigits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A request time in SigV4's two forms, computed in UTC without a DateFormatter (so no locale or calendar can leak in).
struct SigV4Timestamp: Equatable {
    /// `yyyyMMdd'T'HHmmss'Z'`, the `x-amz-date` value.
    let dateTime: String
    /// `yyyyMMdd`, the first part of the credential scope.
    let day: String

    init(_ date: Date) {
        // UTC, whole seconds: 2015-08-30 12:36:00 → "20150830T123600Z".
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var utc = tm()
        gmtime_r(&seconds, &utc)
        // Digits written by hand: `String(format:)` took a fifth of a request's signing.
        var text: [UInt8] = []
        text.reserveCapacity(16)
        func append(_ number: Int32, digits: Int) {
            var divisor: Int32 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8((number / divisor) % 10))
                divisor /= 10
            }
        }
        append(utc.tm_year + 1900, digits: 4)
        append(utc.tm_mon + 1, digits: 2)
        append(utc.tm_mday, digits: 2)
        day = String(decoding: text, as: UTF8.self)
        text.append(UInt8(ascii: "T"))
        append(utc.tm_hour, digits: 2)
        append(utc.tm_min, digits: 2)
        append(utc.tm_sec, digits: 2)
        text.append(UInt8(ascii: "Z"))
        dateTime = String(decoding: text, as: UTF8.self)
    }
}

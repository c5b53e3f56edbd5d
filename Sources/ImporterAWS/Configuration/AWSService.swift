/// An AWS service the importer talks to: its signing name, its endpoint variable and host.
public enum AWSService: String, Sendable {
    case dynamodb
    case s3

    /// `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL_S3`.
    public var endpointVariable: String { "AWS_ENDPOINT_URL_\(rawValue.uppercased())" }

    /// The name SigV4 signs with, and the first label of the public endpoint's host.
    public var signingName: String { rawValue }
}

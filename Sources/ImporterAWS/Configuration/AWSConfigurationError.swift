import Foundation

/// Why the AWS configuration could not be resolved. Messages say what to set and name variables,
/// profiles, files and line numbers, but never a value read from a credential variable or file.
public enum AWSConfigurationError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// No credential variables, and the profile (the default one, not named by `AWS_PROFILE`) is not in the file.
    case noCredentials(profile: String, file: String)
    /// One of `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` is set without the other.
    case incompleteEnvironmentCredentials(missing: String, present: String)
    /// `AWS_PROFILE` names a profile the credentials file does not have (or the file does not exist).
    case profileNotFound(profile: String, file: String, fileExists: Bool)
    /// The profile exists but lacks a key (`aws_access_key_id` or `aws_secret_access_key`).
    case incompleteProfile(profile: String, file: String, missing: String)
    /// The credentials file exists but is a directory, unreadable or not UTF-8.
    case unreadableCredentialsFile(file: String)
    /// A line of the credentials file is neither a `[section]`, a `key = value`, a comment nor blank.
    /// Only the line number is kept: the line itself may hold a secret.
    case malformedCredentialsFile(file: String, line: Int, problem: String)
    /// Neither the pipeline nor `AWS_REGION` / `AWS_DEFAULT_REGION` gives a region.
    case noRegion
    /// A region that cannot form DynamoDB's endpoint host name (only a-z, 0-9 and `-` can).
    case invalidRegion(String)
    /// An explicit endpoint that is not an http(s) URL with a host; `value` is shown without
    /// its user, password and query (`SecretRedactor.display`).
    case invalidEndpoint(source: String, value: String)

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .noCredentials(profile, file):
            return "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a profile "
                + "in ~/.aws/credentials (looked for profile [\(profile)] in \(file))"
        case let .incompleteEnvironmentCredentials(missing, present):
            return "incomplete AWS credentials: \(present) is set but \(missing) is not; set both, "
                + "or unset both to use AWS_PROFILE and ~/.aws/credentials"
        case let .profileNotFound(profile, file, fileExists):
            let where_ = fileExists ? "there is no [\(profile)] section in \(file)" : "\(file) does not exist"
            return "AWS profile '\(profile)' not found: \(where_); add the profile to the file "
                + "(or set AWS_SHARED_CREDENTIALS_FILE), or set AWS_PROFILE to an existing profile"
        case let .incompleteProfile(profile, file, missing):
            return "AWS profile [\(profile)] in \(file) has no \(missing): add `\(missing) = …` to that section"
        case let .unreadableCredentialsFile(file):
            return "cannot read the AWS credentials file \(file) (a directory, unreadable, or not UTF-8 text): "
                + "fix it, or set AWS_SHARED_CREDENTIALS_FILE to another file"
        case let .malformedCredentialsFile(file, line, problem):
            return "malformed AWS credentials file \(file), line \(line): \(problem); "
                + "expected `[profile]` sections with `key = value` lines (comments start with # or ;)"
        case .noRegion:
            return "no AWS region: set the pipeline's region, or AWS_REGION (or AWS_DEFAULT_REGION)"
        case let .invalidRegion(region):
            return "invalid AWS region '\(region)': use a region name such as us-east-1"
        case let .invalidEndpoint(source, value):
            return "invalid endpoint '\(value)' from \(source): use an http or https URL with a host, "
                + "such as http://127.0.0.1:8000"
        }
    }
}

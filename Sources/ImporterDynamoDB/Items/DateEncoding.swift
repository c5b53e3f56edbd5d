/// How a date attribute is stored in DynamoDB (docs/values.md `dateEncoding`).
public enum DateEncoding: String, Sendable {
    /// `S` holding `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC), the same text as the local store.
    case iso8601
    /// `N` holding seconds since the Unix epoch with a millisecond fraction (`1709288130.25`).
    case epochSeconds
}

import ImporterAWS
import ImporterCore

extension RetryPolicy {
    /// The pipeline's `retry:` settings (docs/pipeline.md); the CLI's DynamoDB client takes them too.
    package init(_ config: RetryConfig) {
        self.init(maxAttempts: config.maxAttempts, baseDelay: config.baseDelay, maxDelay: config.maxDelay)
    }
}

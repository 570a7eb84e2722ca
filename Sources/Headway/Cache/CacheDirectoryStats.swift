/// What a disk cache directory holds (`headway cache stats DIR`).
public struct CacheDirectoryStats: Sendable, Equatable, Codable {
    /// Entry files: one per stored response (a `Vary` variant, or a redirect's start, is one more).
    public var entries = 0
    /// Their size on disk in bytes, metadata included.
    public var bytes = 0
    /// Entries still within their lifetime: a run serves them without asking the server.
    public var fresh = 0
    /// Entries past their lifetime: a run revalidates them with their `ETag` or `Last-Modified`.
    public var stale = 0
    /// Entry files that are cut short or do not parse; a run deletes each one it comes across.
    public var corrupt = 0
    /// Temporary files of writes in progress, or left by a process killed while writing.
    public var temporary = 0

    /// All counts 0.
    public init() {}
}

import CWebKit

func cast<T, U>(_ pointer: UnsafeMutablePointer<T>, to: U.Type = U.self) -> UnsafeMutablePointer<U> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: U.self)
}

// Carries a C pointer through a continuation. Only the engine thread dereferences it.
struct EnginePointer: @unchecked Sendable {
    let raw: OpaquePointer
}

import CWebKit

func cast<T, U>(_ pointer: UnsafeMutablePointer<T>, to: U.Type = U.self) -> UnsafeMutablePointer<U> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: U.self)
}

// Carries an owned GObject through a wait, whose answer must be Sendable. Only the engine thread
// uses it; dropped anywhere, it is released on the engine thread.
struct EngineObject: @unchecked Sendable {
    let object: OpaqueGObjectRef
    init(_ object: OpaqueGObjectRef) { self.object = object }
}

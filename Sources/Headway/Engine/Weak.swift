// The one weak box: C callbacks' user data and registries that must not keep their object alive.
@EngineActor
final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}

import CWebKit

// WebKit features Headway turns on that are off by default.
enum EngineFeatures {
    // Event Timing (`PerformanceObserver` type "event"), a testable feature in WebKitGTK 2.50,
    // so that pages and snippets can measure how long input took to handle. Does nothing on an
    // engine without it.
    static func enableEventTiming(in settings: UnsafeMutablePointer<WebKitSettings>) {
        guard let features = webkit_settings_get_all_features() else { return }
        defer { webkit_feature_list_unref(features) }
        for index in 0..<webkit_feature_list_get_length(features) {
            guard let feature = webkit_feature_list_get(features, index),
                  let identifier = webkit_feature_get_identifier(feature),
                  String(cString: identifier) == "EventTiming" else { continue }
            webkit_settings_set_feature_enabled(settings, feature, 1)
        }
    }
}

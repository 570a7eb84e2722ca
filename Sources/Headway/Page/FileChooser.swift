import CWebKit
public import Foundation

/// A file picker the page asked for (an `<input type=file>` clicked with trusted input).
/// Headway shows none: it answers the request as cancelled, as a user closing the picker would,
/// and tells `NavigationDelegate.page(_:didOpenFileChooser:)`.
public struct FileChooser: Sendable, Equatable {
    /// Whether the input takes several files (`multiple`).
    public var allowsMultiple: Bool
    /// The MIME types its `accept` names (empty: any).
    public var mimeTypes: [String]
}

typealias RunFileChooser = @convention(c) (
    UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?
) -> gboolean

// `run-file-chooser`: cancelled at once (no GTK dialog opens), then reported.
func onRunFileChooser(_ view: UnsafeMutablePointer<WebKitWebView>?, _ request: OpaquePointer?,
                      _ data: gpointer?) -> gboolean {
    guard let request else { return 0 }
    let chooser = UnsafeMutablePointer<WebKitFileChooserRequest>(request)
    var types: [String] = []
    if var list = webkit_file_chooser_request_get_mime_types(chooser) {
        while let type = list.pointee, types.count < 100 {
            types.append(String(cString: type))
            list += 1
        }
    }
    let found = FileChooser(allowsMultiple: webkit_file_chooser_request_get_select_multiple(chooser) != 0,
                            mimeTypes: types)
    webkit_file_chooser_request_cancel(chooser)
    let target = targetPage(data)
    EngineActor.assumeIsolated {
        guard let page = target.page else { return }
        page.chain.page(page, didOpenFileChooser: found)
    }
    return 1
}

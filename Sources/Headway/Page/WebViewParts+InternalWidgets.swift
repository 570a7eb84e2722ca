import CWebKit

extension WebViewParts {
    // Frees the widgets a web view keeps for itself, for a view that gets no more input (it is
    // about to be destroyed). WebKitGTK's GTK 3 view parents a hidden GtkTextView, the one its
    // key-binding translator reads bindings from, and never unparents it: GTK 3 destroys only a
    // container's ordinary children, and the view's dispose drops only its own reference. Each
    // closed view left that widget behind (with its buffer, input method context and style
    // nodes: about 16 KB) for the life of the process. Removing it through the container runs
    // the view's own remove handler, which unparents it and drops its reference.
    static func releaseInternalWidgets(of view: UnsafeMutablePointer<WebKitWebView>) {
        let container = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkContainer.self)
        var hidden: [UnsafeMutablePointer<GtkWidget>] = []
        withUnsafeMutablePointer(to: &hidden) { list in
            // `forall` lists the internal children too, `foreach` only the ordinary ones.
            gtk_container_forall(container, { child, data in
                guard let child, let data else { return }
                let instance = UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self)
                guard g_type_check_instance_is_a(instance, gtk_text_view_get_type()) != 0 else { return }
                data.assumingMemoryBound(to: [UnsafeMutablePointer<GtkWidget>].self).pointee.append(child)
            }, list)
        }
        for widget in hidden { gtk_container_remove(container, widget) }
    }
}

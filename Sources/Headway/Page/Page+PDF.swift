import CHeadwayShims
import CWebKit
public import Foundation

extension Page {
    /// Prints the page to PDF with `options` (WebDriver's Print command) and returns the PDF
    /// file's bytes. WebKit prints through GTK's "Print to File" printer into a private temporary
    /// file, which is read and deleted.
    ///
    /// Throws `.invalidArgument` for options out of range or page ranges beyond the document's
    /// last page (see `PDFOptions`), `.timeout` when printing has not finished within `timeout`,
    /// `.engine` when WebKit or GTK fails to print (no "Print to File" printer, for one),
    /// `.closed` for a closed page. Cancelling the task throws `CancellationError`; the print job
    /// runs on and its file is deleted.
    public func pdf(_ options: PDFOptions = PDFOptions(), timeout: Duration = .seconds(60)) async throws -> Data {
        try options.validate()
        let view = try await readyView()
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("headway-print-\(getpid())-\(UUID().uuidString).pdf")
        let operation = GObjectRef(taking: webkit_print_operation_new(view)!)
        try Self.configure(operation.pointer, options, output: file)
        let settings = webkit_web_view_get_settings(view)
        let backgrounds = webkit_settings_get_print_backgrounds(settings)
        webkit_settings_set_print_backgrounds(settings, options.background ? 1 : 0)
        defer { webkit_settings_set_print_backgrounds(settings, backgrounds) }
        let done = PrintDone(file: file)
        let signals = SignalConnections(UnsafeMutableRawPointer(operation.pointer))
        signals.connect("finished", unsafeBitCast(onPrintFinished as PrintFinished, to: GCallback.self), box: done)
        signals.connect("failed", unsafeBitCast(onPrintFailed as PrintFailed, to: GCallback.self), box: done)
        do {
            try await EngineWait<Void>.run(
                timeout: timeout.clamped,
                onTimeout: { .failure(HeadwayError(.timeout, "the page was not printed within \(timeout.formatted)")) }
            ) { wait in
                done.wait = wait
                webkit_print_operation_print(operation.pointer)
            }
        } catch {
            // The job may still write the file: it is deleted when the job ends.
            done.abandoned = true
            throw error
        }
        signals.disconnectAll()
        return try await Task.detached {
            defer { try? FileManager.default.removeItem(at: file) }
            do { return try Data(contentsOf: file) } catch {
                throw HeadwayError(.engine, "the printed PDF could not be read: \(error.localizedDescription)")
            }
        }.value
    }

    // Sets the print settings and page setup of `operation` from `options`.
    private static func configure(_ operation: UnsafeMutablePointer<WebKitPrintOperation>, _ options: PDFOptions,
                                  output: URL) throws {
        let settings = gtk_print_settings_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        gtk_print_settings_set_printer(settings, "Print to File")
        gtk_print_settings_set(settings, "output-file-format", "pdf")
        gtk_print_settings_set(settings, "output-uri", output.absoluteString)
        gtk_print_settings_set_scale(settings, options.scale * 100)
        let ranges = try options.ranges()
        if !ranges.isEmpty {
            var pageRanges = ranges.map { GtkPageRange(start: $0.start, end: $0.end) }
            gtk_print_settings_set_print_pages(settings, GTK_PRINT_PAGES_RANGES)
            gtk_print_settings_set_page_ranges(settings, &pageRanges, Int32(pageRanges.count))
        }
        let setup = gtk_page_setup_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(setup)) }
        let paper = gtk_paper_size_new_custom("headway", "Headway", options.pageWidth * 10, options.pageHeight * 10,
                                              GTK_UNIT_MM)
        gtk_page_setup_set_paper_size(setup, paper)
        gtk_paper_size_free(paper)
        let orientation = options.orientation == .landscape ? GTK_PAGE_ORIENTATION_LANDSCAPE
            : GTK_PAGE_ORIENTATION_PORTRAIT
        gtk_page_setup_set_orientation(setup, orientation)
        gtk_print_settings_set_orientation(settings, orientation)
        gtk_page_setup_set_top_margin(setup, options.marginTop * 10, GTK_UNIT_MM)
        gtk_page_setup_set_bottom_margin(setup, options.marginBottom * 10, GTK_UNIT_MM)
        gtk_page_setup_set_left_margin(setup, options.marginLeft * 10, GTK_UNIT_MM)
        gtk_page_setup_set_right_margin(setup, options.marginRight * 10, GTK_UNIT_MM)
        webkit_print_operation_set_print_settings(operation, settings)
        webkit_print_operation_set_page_setup(operation, setup)
    }
}

// The end of one print job, for its waiter; a job its waiter gave up on deletes its file.
@EngineActor
private final class PrintDone {
    let file: URL
    var wait: EngineWait<Void>?
    var abandoned = false
    init(file: URL) { self.file = file }

    func end(_ result: Result<Void, Error>) {
        wait?.resume(result)
        wait = nil
        if abandoned { try? FileManager.default.removeItem(at: file) }
    }
}

private typealias PrintFinished = @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void
private typealias PrintFailed =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void

private func onPrintFinished(_ operation: UnsafeMutableRawPointer?, _ data: gpointer?) {
    let done = unbox(data, as: PrintDone.self)
    EngineActor.assumeIsolated { done.end(.success(())) }
}

private func onPrintFailed(
    _ operation: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<GError>?, _ data: gpointer?
) {
    let done = unbox(data, as: PrintDone.self)
    let message = error.map { String(cString: $0.pointee.message) } ?? "no reason given"
    let info = error.map { HeadwayError.GErrorInfo($0) }
    // WebKit's "Invalid page range": the ranges select no page the document has.
    let beyond = error.map {
        $0.pointee.domain == webkit_print_error_quark()
            && Int($0.pointee.code) == Int(WEBKIT_PRINT_ERROR_INVALID_PAGE_RANGE.rawValue)
    } ?? false
    let failure = beyond
        ? HeadwayError(.invalidArgument, "the page ranges select no page of the document (it has fewer pages)",
                       gerror: info)
        : HeadwayError(.engine, "printing the page failed: \(message)", gerror: info)
    EngineActor.assumeIsolated { done.end(.failure(failure)) }
}

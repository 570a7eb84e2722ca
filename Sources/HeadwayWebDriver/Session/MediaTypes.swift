import Foundation

// The media type a file input gives a file, by its name's extension, as browsers guess it from
// the platform's table (WebKitWebDriver's files arrive typed: a form posts `text/plain`, not
// `application/octet-stream`). Unknown extensions are `application/octet-stream`.
enum MediaTypes {
    static func of(_ path: String) -> String {
        types[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let types: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "tsv": "text/tab-separated-values",
        "js": "text/javascript", "mjs": "text/javascript", "json": "application/json", "xml": "application/xml",
        "xhtml": "application/xhtml+xml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "rtf": "application/rtf",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "bmp": "image/bmp", "tif": "image/tiff",
        "tiff": "image/tiff", "avif": "image/avif", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "flac": "audio/flac", "m4a": "audio/mp4", "mp4": "video/mp4", "webm": "video/webm",
        "ogv": "video/ogg", "mov": "video/quicktime", "avi": "video/x-msvideo", "woff": "font/woff",
        "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "wasm": "application/wasm",
    ]
}

import Foundation

// The demo site's shared stylesheet and script.
extension DemoSite {
    // MARK: - Assets

    static func stylesheet() -> String {
        var css = """
            :root { --accent: #3a6ea5; --text: #1f2933; --muted: #52606d; --radius: 6px; }
            * { box-sizing: border-box; }
            html { font-size: 16px; -webkit-text-size-adjust: 100%; }
            body { margin: 0; font-family: Georgia, "Times New Roman", serif; line-height: 1.6; color: var(--text);
              background-color: #eef1f7; background-image: url(../images/bg.bmp); background-repeat: repeat; }
            .site-header { display: flex; justify-content: space-between; align-items: center; padding: 12px 24px;
              background: #ffffff; border-bottom: 3px solid var(--accent); position: sticky; top: 0; }
            .brand { font-weight: bold; font-size: 1.25rem; color: var(--accent); text-decoration: none; }
            .pager a { margin: 0 6px; color: var(--accent); }
            main { max-width: 860px; margin: 24px auto; padding: 24px 32px; background: #ffffff; \
            border-radius: var(--radius);
              box-shadow: 0 2px 12px rgba(31, 41, 51, 0.12); }
            h1 { font-size: 2.4rem; margin: 0 0 16px; }
            h2 { font-size: 1.6rem; margin: 32px 0 12px; border-bottom: 1px solid #d9e2ec; }
            h3 { font-size: 1.2rem; margin: 24px 0 8px; color: var(--muted); }
            p { margin: 0 0 14px; text-align: justify; }
            figure { margin: 24px 0; text-align: center; }
            figure img, .hero { max-width: 100%; height: auto; border-radius: var(--radius); }
            figcaption { font-size: 0.9rem; color: var(--muted); margin-top: 6px; }
            .related { margin-top: 40px; padding: 16px; background: #f5f7fa; border-left: 4px solid var(--accent); }
            .article-list li { margin: 8px 0; }
            .summary { display: block; color: var(--muted); font-size: 0.95rem; }
            table.data { border-collapse: collapse; margin: 24px auto; font-family: monospace; }
            table.data th, table.data td { border: 1px solid #bcccdc; padding: 4px 10px; text-align: right; }
            table.data th { background: #d9e2ec; }
            .site-footer { text-align: center; padding: 24px; color: var(--muted); font-size: 0.9rem; }
            @media (max-width: 640px) { main { padding: 16px; margin: 0; border-radius: 0; } h1 { font-size: 1.8rem; } }

            """
        var rng = SplitMix64(seed: 0xC55)
        let props = ["margin", "padding", "border-radius", "gap", "font-size", "letter-spacing"]
        let components = ["card", "badge", "button", "panel", "tag", "alert", "chip", "tile"]
        var i = 0
        while css.utf8.count < cssBytes {
            let hex = String(rng.next(0x100_0000), radix: 16)
            let color = "#" + String(repeating: "0", count: 6 - hex.count) + hex
            let prop = props[i % props.count]
            css += ".\(components[i % components.count])-\(i) { \(prop): \(2 + rng.next(30))px; "
                + "color: \(color); border: 1px solid rgba(\(rng.next(256)), \(rng.next(256)), \(rng.next(256)), 0.4); "
                    + "}\n"
            i += 1
        }
        return css
    }

    static func script() -> String {
        var js = """
            "use strict";
            (function () {
              var transforms = [];
              function formatNumber(value) { return (Math.round(value * 100) / 100).toFixed(2); }
              function buildTable(rows, columns) {
                var table = document.createElement("table");
                table.className = "data";
                var head = table.createTHead().insertRow();
                head.appendChild(document.createElement("th")).textContent = "#";
                for (var c = 0; c < columns; c++) {
                  head.appendChild(document.createElement("th")).textContent = "f" + c;
                }
                var body = table.createTBody();
                for (var r = 0; r < rows; r++) {
                  var row = body.insertRow();
                  row.insertCell().textContent = String(r + 1);
                  for (var k = 0; k < columns; k++) {
                    row.insertCell().textContent = \
            formatNumber(transforms[(r * columns + k) % transforms.length](r + k));
                  }
                }
                return table;
              }
              function ready() {
                var host = document.getElementById("data-table");
                if (host) { host.appendChild(buildTable(6, 5)); }
                document.body.dataset.ready = "1";
              }

            """
        var rng = SplitMix64(seed: 0x15)
        var i = 0
        while js.utf8.count < jsBytes - 200 {
            let a = 1 + rng.next(97), b = rng.next(1_000), m = 7 + rng.next(500)
            js += """
                  /** Deterministic filler transform \(i). */
                  function transform\(i)(value) {
                    var acc = value * \(a) + \(b);
                    for (var step = 0; step < 3; step++) { acc = (acc * 31 + step) % \(m); }
                    return acc / \(m) * 100;
                  }
                  transforms.push(transform\(i));

                """
            i += 1
        }
        js += """
              if (document.readyState === "loading") {
                document.addEventListener("DOMContentLoaded", ready);
              } else {
                ready();
              }
            })();

            """
        return js
    }
}

// The report's style sheet: system fonts, no web font, no image but the frames.
extension HTMLReport {
    static let style = """
        :root{color-scheme:light;--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--wait:#9ec5fe;--recv:#1f6feb;\
        --pre:#2b8a3e;--preWait:#b2f2bb}
        *{box-sizing:border-box}
        body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);\
        background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:18px 0 4px}
        .meta,footer{color:var(--muted);font-size:12px;margin:2px 0 8px}
        table{border-collapse:collapse}
        th,td{padding:3px 8px;text-align:left;vertical-align:middle;white-space:nowrap}
        thead th{font-weight:600;color:var(--muted);border-bottom:1px solid var(--line);white-space:normal;\
        vertical-align:bottom}
        table.timing th[scope=row]{white-space:normal;min-width:200px;max-width:320px}
        table.timing tbody tr:nth-child(odd){background:#f6f8fa}
        td.num{text-align:right;font-variant-numeric:tabular-nums}
        .none{color:var(--muted);font-style:italic}
        .swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:-1px}
        .scroll{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
        table.film th[scope=row]{position:sticky;left:0;background:#fff;z-index:1;min-width:160px;max-width:240px;\
        white-space:normal;font-weight:600}
        table.film td{padding:4px 3px}
        th.tick{font-size:11px;text-align:center}
        .frame{width:120px;background:#fff center/contain no-repeat;border:2px solid #e1e4e8}
        .frame.changed{border-color:#f59f00}
        svg.curve{width:100%;max-width:860px;height:auto;display:block}
        svg.curve text{font-size:11px;fill:var(--muted)}
        svg.curve line.grid{stroke:#eaeef2}
        svg.curve polyline{fill:none;stroke-width:2}
        ul.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 18px}
        table.requests{width:100%;max-width:1200px;font-size:12px}
        table.requests td.url{max-width:280px;overflow:hidden;text-overflow:ellipsis}
        td.lane{position:relative;width:55%;min-width:240px}
        .bar{position:absolute;top:5px;bottom:5px;background:var(--wait);border-radius:2px;overflow:hidden;\
        min-width:2px}
        .bar .receive{position:absolute;right:0;top:0;bottom:0;background:var(--recv)}
        tr.prefetched .bar{background:var(--preWait)}tr.prefetched .bar .receive{background:var(--pre)}
        tr.prefetched td.url{color:var(--pre)}
        b.p{color:#fff;background:var(--pre);border-radius:3px;padding:0 4px;font-size:10px}
        .marker{position:absolute;top:0;bottom:0;width:0;border-left:1px dashed #c92a2a}
        footer{margin-top:32px}

        """
}

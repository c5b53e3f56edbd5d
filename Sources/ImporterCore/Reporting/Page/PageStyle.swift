/// The page's only style sheet, inline: no font, script or image from anywhere. Status and
/// chart marks carry words and patterns as well as colours; sections break onto their own
/// page when printed (A4).
enum PageStyle {
    static let css = """
        @page { size: A4; margin: 14mm; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d232b; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d5dae0; padding-bottom: 4px; }
        .meta { color: #4a5562; margin: 2px 0; }
        .status { display: inline-block; font-weight: 700; padding: 3px 10px; border-radius: 4px; border: 2px solid; margin: 8px 0; }
        .status.succeeded { color: #155e2b; background: #e3f4e8; border-color: #2e8b4a; }
        .status.partial { color: #7a4b00; background: repeating-linear-gradient(45deg, #fff4dc, #fff4dc 6px, #ffe9b8 6px, #ffe9b8 12px); border-color: #c98a00; }
        .status.aborted, .status.interrupted { color: #8b1a1a; background: repeating-linear-gradient(-45deg, #fde8e8, #fde8e8 4px, #f8cfcf 4px, #f8cfcf 8px); border-color: #b33; border-style: dashed; }
        .reason { margin: 4px 0 0; }
        table { border-collapse: collapse; width: 100%; margin: 6px 0; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e4e8ec; vertical-align: top; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.total td { font-weight: 700; border-top: 2px solid #9aa5b1; }
        .bar { display: inline-block; height: 12px; background: repeating-linear-gradient(90deg, #c2410c, #c2410c 3px, #e8794a 3px, #e8794a 5px); vertical-align: middle; min-width: 2px; }
        td.barcell { width: 40%; }
        code, .raw { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        .raw { white-space: pre-wrap; word-break: break-all; background: #f4f6f8; padding: 2px 6px; display: block; }
        .note { color: #4a5562; font-size: 13px; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font: 11px system-ui, sans-serif; fill: #4a5562; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 16px; }
        figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
        .legend span { margin-right: 14px; white-space: nowrap; }
        .swatch { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
        section { break-inside: avoid-page; }
        @media print { section { break-before: page; } section:first-of-type { break-before: auto; } body { margin: 0; max-width: none; } }
        """
}

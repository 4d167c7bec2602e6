/// The page's style sheet and script, inlined so the report opens from a CI artifact with no
/// network (no font, style sheet or script from elsewhere).
enum HTMLAssets {
  static let style = """
    :root { color-scheme: light; }
    body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0;
      color: #1b1b1b; background: #ffffff; line-height: 1.45; }
    header, main { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
    header { border-bottom: 1px solid #cccccc; padding-bottom: 0.5rem; }
    h1 { font-size: 1.6rem; margin: 1rem 0 0.25rem; }
    h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 2px solid #dddddd; }
    h3 { font-size: 1.1rem; margin-top: 1.5rem; }
    h4 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
    code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; }
    pre { background: #f5f5f5; padding: 0.6rem; overflow-x: auto; }
    table { border-collapse: collapse; margin: 0.5rem 0; }
    th, td { border: 1px solid #cccccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
    thead th { background: #eeeeee; }
    caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
    .summary { font-size: 1.05rem; }
    .v-pass { color: #0b6b0b; }
    .v-fail { color: #a40000; font-weight: 700; }
    .v-warn { color: #7a4a00; font-weight: 700; }
    .diagram { overflow: auto; max-height: 44rem; border: 1px solid #dddddd; margin: 0.5rem 0; }
    .diagram:focus { outline: 3px solid #0050b3; }
    .diagram svg { display: block; }
    .trace { border-left: 4px solid #a40000; padding-left: 1rem; margin: 1rem 0 2rem; }
    .stepper { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
    .stepper button { font: inherit; padding: 0.3rem 0.8rem; border: 1px solid #444444; border-radius: 4px;
      background: #f4f4f4; color: #1b1b1b; cursor: pointer; }
    .stepper button:focus { outline: 3px solid #0050b3; }
    .stepper button:disabled { color: #595959; cursor: default; }
    .now { margin: 0; font-weight: 600; }
    ol.calls li { margin: 0.2rem 0; padding: 0.1rem 0.3rem; }
    ol.calls li[aria-current="step"] { background: #dbe8ff; outline: 2px solid #0050b3; }
    ol.calls .detail { color: #444444; font-size: 0.9em; }
    .loop { font-style: italic; color: #444444; list-style: none; }
    svg .current path, svg .current polygon, svg .current ellipse { stroke: #0050b3; stroke-width: 4px; }
    svg g.node.current polygon, svg g.node.current path, svg g.node.current ellipse { fill: #dbe8ff; }
    dl.config { display: grid; grid-template-columns: max-content auto; gap: 0 1rem; margin: 0.25rem 0; }
    dl.config dt { font-family: ui-monospace, Menlo, Consolas, monospace; }
    dl.config dd { margin: 0; }
    """

  /// Steps through each `.trace`: the buttons (or the arrow keys inside the trace) move to the
  /// previous or next call, mark its row `aria-current="step"`, and give its edge and nodes in
  /// the trace's diagram the class `current`. Without the script every call is listed and the
  /// whole path is drawn in red.
  static let script = """
    (function () {
      function mark(svg, id) {
        if (!id) return;
        var el = document.getElementById(id);
        if (el && svg.contains(el)) el.classList.add('current');
      }
      document.querySelectorAll('.trace').forEach(function (trace) {
        var rows = Array.prototype.slice.call(trace.querySelectorAll('ol.calls > li[data-call]'));
        var svg = trace.querySelector('svg');
        var now = trace.querySelector('.now');
        var prev = trace.querySelector('button.prev');
        var next = trace.querySelector('button.next');
        var index = -1;
        function show(i) {
          if (svg) svg.querySelectorAll('.current').forEach(function (el) { el.classList.remove('current'); });
          rows.forEach(function (row, k) {
            if (k === i) row.setAttribute('aria-current', 'step'); else row.removeAttribute('aria-current');
          });
          if (svg && i >= 0) {
            mark(svg, rows[i].dataset.edge);
            mark(svg, rows[i].dataset.from);
            mark(svg, rows[i].dataset.to);
          }
          index = i;
          prev.disabled = i <= 0;
          next.disabled = i >= rows.length - 1;
          now.textContent = i < 0
            ? 'All ' + rows.length + ' calls: the path is drawn in red.'
            : 'Call ' + (i + 1) + ' of ' + rows.length + ': ' + rows[i].dataset.summary;
        }
        prev.addEventListener('click', function () { show(Math.max(0, index - 1)); });
        next.addEventListener('click', function () { show(Math.min(rows.length - 1, index + 1)); });
        trace.addEventListener('keydown', function (event) {
          if (event.key === 'ArrowRight') { next.click(); event.preventDefault(); }
          if (event.key === 'ArrowLeft') { prev.click(); event.preventDefault(); }
        });
        show(-1);
        prev.disabled = true;
        next.disabled = rows.length === 0;
      });
    })();
    """
}

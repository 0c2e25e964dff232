/* konum explorer "alibi": the slopes of every head for any head count (powers of two and
 * not), the causal bias matrix of one head, and what the softmax makes of one query's row
 * (content scores all equal) as the slope grows.
 * Arithmetic ported from konum_pe.pe (alibi_slopes, alibi_bias with causal=True, softmax); the
 * browser tests compare it with the core.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K.alibi) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, fmt = kit.fmt, t = kit.t;

  function powerOfTwo(count) {
    var out = [];
    for (var h = 1; h <= count; h++) out.push(Math.pow(2, -8 * h / count));
    return out;
  }
  /* pe.alibi_slopes(numHeads): the paper's get_slopes, in head order. */
  function slopes(numHeads) {
    var p = 1;
    while (p * 2 <= numHeads) p *= 2;
    if (p === numHeads) return powerOfTwo(p);
    var odd = powerOfTwo(2 * p).filter(function (s, i) { return i % 2 === 0; });
    return powerOfTwo(p).concat(odd.slice(0, numHeads - p));
  }
  /* pe.alibi_bias(n, ...)[h] for the head's slope: -slope (i - j) for j <= i, else -Infinity. */
  function bias(n, slope) {
    var rows = [];
    for (var i = 0; i < n; i++) {
      var row = [];
      for (var j = 0; j < n; j++) row.push(j > i ? -Infinity : -slope * (i - j) + 0);
      rows.push(row);
    }
    return rows;
  }
  /* pe.softmax of one row: the maximum subtracted first; -Infinity gets weight 0. */
  function softmax(row) {
    var top = Math.max.apply(null, row), e = row.map(function (x) { return Math.exp(x - top); });
    var sum = e.reduce(function (s, x) { return s + x; }, 0);
    return e.map(function (x) { return x / sum; });
  }
  function fraction(s) {
    var inv = 1 / s;
    return Math.abs(inv - Math.round(inv)) < 1e-9 ? "1/" + Math.round(inv) : fmt(s, 3);
  }

  function mount(ui) {
    var v = ui.v;
    ui.slider("num_heads", t("alibi_heads"));
    ui.slider("head", t("alibi_head"));
    ui.slider("n", t("alibi_n"));
    ui.slider("query", t("alibi_query"));
    var dots = svg("g", {}, ui.view(320, 200, t("alibi_dots_label")));
    var heat = svg("g", {}, ui.view(320, 200, t("alibi_heat_label")));
    var bars = svg("g", {}, ui.view(320, 200, t("alibi_bars_label")));

    function draw() {
      ui.range("head", 1, v.num_heads);
      ui.range("query", 0, v.n - 1);
      var all = slopes(v.num_heads), m = all[v.head - 1], n = v.n, i = v.query;
      var sx = kit.scale(0.5, v.num_heads + 0.5, 40, 310), sy = kit.scale(-8, 0, 170, 10);
      dots.textContent = "";
      [0, -4, -8].forEach(function (e) {
        svg("path", { d: kit.line([[40, sy(e)], [310, sy(e)]]), "class": "kx-grid" }, dots);
        svg("text", { x: 36, y: sy(e) + 4, "text-anchor": "end" }, dots, e ? "1/" + Math.pow(2, -e) : "1");
      });
      all.forEach(function (s, h) { svg("circle", { cx: sx(h + 1), cy: sy(Math.log2(s)), r: 3, "class": "kx-dot" }, dots); });
      svg("circle", { cx: sx(v.head), cy: sy(Math.log2(m)), r: 6, "class": "kx-mark" }, dots);
      svg("text", { x: 175, y: 192, "text-anchor": "middle" }, dots, t("alibi_axis_heads", { n: v.num_heads }));

      var B = bias(n, m), c = 180 / n, far = m * (n - 1) || 1;
      heat.textContent = "";
      B.forEach(function (row, r) {
        row.forEach(function (x, j) {
          if (isFinite(x)) svg("rect", { x: 70 + j * c, y: 4 + r * c, width: c + 0.15, height: c + 0.15, "class": "kx-neg", "fill-opacity": (1 - 0.85 * -x / far).toFixed(3) }, heat);
        });
      });
      svg("rect", { x: 70, y: 4 + i * c, width: 180, height: c, "class": "kx-mark" }, heat);
      svg("text", { x: 160, y: 198, "text-anchor": "middle" }, heat, t("alibi_axis_key_head", { head: v.head, slope: fraction(m) }));
      svg("text", { x: 62, y: 96, "text-anchor": "end" }, heat, t("alibi_axis_query"));

      var w = softmax(B[i]), bw = 270 / n, half = 0, near = 0;
      while (half < 0.5) half += w[i - near++];
      bars.textContent = "";
      svg("path", { d: kit.line([[40, 170], [310, 170]]), "class": "kx-grid" }, bars);
      w.forEach(function (x, j) { if (j <= i) svg("rect", { x: 40 + j * bw + 1, y: 170 - 160 * x, width: bw - 2, height: 160 * x, "class": "kx-pos" }, bars); });
      svg("text", { x: 40, y: 20 }, bars, t("alibi_self_weight", { weight: fmt(w[i], 3) }));
      svg("text", { x: 175, y: 192, "text-anchor": "middle" }, bars, t("alibi_axis_key_query", { i: i }));

      ui.say(t("alibi_readout", {
        head: v.head, heads: v.num_heads, slope: fraction(m), i: i, percent: fmt(100 * w[i], 3), nearest: t("alibi_nearest", { n: near })
      }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("alibi", { slopes: slopes, bias: bias, softmax: softmax, mount: mount });
})();

/* konum explorer "rope-layouts": one head vector paired the "half" way (k with k + d/2) and
 * the "interleaved" way (2k with 2k + 1), the permutation between them drawn, and the score
 * that agrees once the weights are permuted (and does not when they are not).
 * Arithmetic ported from konum_pe.pe (rope, rope_layout_permutation; base 10000, rotation by
 * +theta); the browser tests compare it with the core.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K["rope-layouts"]) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, fmt = kit.fmt, t = kit.t;

  /* pe.rope_layout_permutation(d) = [0, d/2, 1, d/2 + 1, ...]: x[perm] in the interleaved
   * layout is x in the half layout. */
  function permutation(d) {
    var out = [];
    for (var k = 0; k < d / 2; k++) out.push(k, k + d / 2);
    return out;
  }
  /* pe.rope(x, m, layout=layout) for one vector x of even length d. */
  function rope(x, m, layout) {
    var d = x.length, h = d / 2, out = x.slice();
    for (var k = 0; k < h; k++) {
      var t = m * Math.pow(10000, -2 * k / d), c = Math.cos(t), s = Math.sin(t);
      var i = layout === "half" ? k : 2 * k, j = layout === "half" ? k + h : 2 * k + 1;
      out[i] = x[i] * c - x[j] * s;
      out[j] = x[i] * s + x[j] * c;
    }
    return out;
  }
  function dot(a, b) { return a.reduce(function (s, x, i) { return s + x * b[i]; }, 0); }
  /* The attention score of query q at position m and key k at position n. */
  function score(q, k, m, n, layout) { return dot(rope(q, m, layout), rope(k, n, layout)); }
  function permute(x, perm) { return perm.map(function (i) { return x[i]; }); }
  /* A query and a key to rotate: fixed, so that the scores can be compared. */
  function vectors(d) {
    var q = [], k = [];
    for (var j = 0; j < d; j++) {
      q.push(Math.round(100 * Math.sin(1.3 * j + 0.5)) / 100);
      k.push(Math.round(100 * Math.cos(0.9 * j + 0.2)) / 100);
    }
    return [q, k];
  }

  function mount(ui) {
    var v = ui.v, X0 = 20, PW = 280;
    ui.slider("d", t("layouts_d"));
    ui.slider("pair", t("layouts_pair"));
    ui.slider("m", t("layouts_m"));
    ui.slider("n", t("layouts_n"));
    var map = ui.view(320, 160, t("layouts_map_label"));
    var bars = ui.view(320, 150, t("layouts_bars_label"));
    var g = svg("g", {}, map), b = svg("g", {}, bars);

    function row(y, d, pairOf, label, below) {
      svg("text", { x: X0, y: below ? y + 38 : y - 6, "class": "kx-muted" }, g, label);
      for (var i = 0; i < d; i++) {
        var w = PW / d, on = pairOf(i) === v.pair;
        svg("rect", { x: X0 + i * w + 1, y: y, width: w - 2, height: 22, "class": on ? "kx-pos" : "kx-grid", "fill-opacity": on ? 0.7 : 0 }, g);
        svg("rect", { x: X0 + i * w + 1, y: y, width: w - 2, height: 22, "class": "kx-grid" }, g);
        svg("text", { x: X0 + (i + 0.5) * w, y: y + 15, "text-anchor": "middle" }, g, String(pairOf(i)));
      }
    }
    function draw() {
      var d = v.d, h = d / 2, w = PW / d, perm = permutation(d), qk = vectors(d);
      ui.range("pair", 0, h - 1);
      g.textContent = "";
      row(24, d, function (j) { return j % h; }, t("layouts_half_row"));
      row(112, d, function (i) { return i >> 1; }, t("layouts_interleaved_row"), true);
      perm.forEach(function (j, i) {  // interleaved dimension i holds half dimension perm[i]
        svg("path", { d: kit.line([[X0 + (j + 0.5) * w, 47], [X0 + (i + 0.5) * w, 111]]), "class": j % h === v.pair ? "kx-line2" : "kx-grid" }, g);
      });
      var scores = [
        [t("layouts_half"), score(qk[0], qk[1], v.m, v.n, "half")],
        [t("layouts_permuted"), score(permute(qk[0], perm), permute(qk[1], perm), v.m, v.n, "interleaved")],
        [t("layouts_not_permuted"), score(qk[0], qk[1], v.m, v.n, "interleaved")]
      ];
      var top = Math.max(1, Math.max.apply(null, scores.map(function (s) { return Math.abs(s[1]); })));
      var sx = kit.scale(-top, top, 30, 290);
      b.textContent = "";
      svg("path", { d: kit.line([[160, 8], [160, 140]]), "class": "kx-grid" }, b);
      scores.forEach(function (s, i) {
        var y = 14 + i * 44, x = sx(s[1]);
        svg("text", { x: 30, y: y }, b, s[0] + ": " + fmt(s[1], 4));
        svg("rect", { x: Math.min(160, x), y: y + 6, width: Math.abs(x - 160), height: 16, "class": i < 2 ? "kx-neg" : "kx-pos" }, b);
      });
      var pq = permute(qk[0], perm);
      ui.say(t("layouts_readout", {
        pair: v.pair, partner: v.pair + h, first: 2 * v.pair, second: 2 * v.pair + 1, a: fmt(pq[2 * v.pair], 2),
        b: fmt(pq[2 * v.pair + 1], 2), m: v.m, n: v.n, score: fmt(scores[0][1], 4), unpermuted: fmt(scores[2][1], 4)
      }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("rope-layouts", { permutation: permutation, rope: rope, score: score, permute: permute, vectors: vectors, mount: mount });
})();

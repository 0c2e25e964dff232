/* konum explorer "shift-rotation": one pair of the sinusoidal table at positions p and p + o
 * on the unit circle (moving by the offset o turns it by omega o, whatever p is), and the
 * same pair of a RoPE query at m = p and key at n = p + o, whose score depends on n - m only.
 * Arithmetic ported from konum_pe.pe (sinusoidal, sinusoidal_shift_matrix, rope with pairs
 * (2k, 2k + 1) and rotation by +theta); the browser tests compare it with the core.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K["shift-rotation"]) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, fmt = kit.fmt, t = kit.t, Q = [1, 0.3], KEY = [0.45, 0.8];

  /* omega_k = theta_k = 10000^(-2k/d), radians per position (pe.sinusoidal_frequencies and
   * pe.rope_frequencies agree for even d). */
  function frequency(pair, d) { return Math.pow(10000, -2 * pair / d); }
  /* [PE[p, 2k], PE[p, 2k + 1]] = [sin(omega p), cos(omega p)]. */
  function point(p, pair, d) {
    var a = p * frequency(pair, d);
    return [Math.sin(a), Math.cos(a)];
  }
  /* Block k of pe.sinusoidal_shift_matrix(offset, d): [[c, s], [-s, c]], phi = omega offset. */
  function shiftBlock(offset, pair, d) {
    var phi = offset * frequency(pair, d), c = Math.cos(phi), s = Math.sin(phi);
    return [[c, s], [-s, c]];
  }
  /* (a, b) -> (a cos t - b sin t, a sin t + b cos t), RoPE's rotation by +t. */
  function rotate(x, t) {
    var c = Math.cos(t), s = Math.sin(t);
    return [x[0] * c - x[1] * s, x[0] * s + x[1] * c];
  }
  /* Pair `pair`'s share of the RoPE score: rotate(q, m theta) · rotate(k, n theta). */
  function pairScore(q, k, m, n, pair, d) {
    var t = frequency(pair, d), a = rotate(q, m * t), b = rotate(k, n * t);
    return a[0] * b[0] + a[1] * b[1];
  }

  function circle(ui, label, axes) {
    var view = ui.view(320, 250, label);
    svg("circle", { cx: 160, cy: 120, r: 100, "class": "kx-grid" }, view);
    svg("path", { d: "M50 120H270M160 10V230", "class": "kx-grid" }, view);
    svg("text", { x: 272, y: 116, "text-anchor": "end", "class": "kx-muted" }, view, axes[0]);
    svg("text", { x: 166, y: 20, "class": "kx-muted" }, view, axes[1]);
    return svg("g", {}, view);
  }
  function arrow(g, xy, r, cls, label) {
    var x = 160 + r * xy[0], y = 120 - r * xy[1];
    svg("path", { d: kit.line([[160, 120], [x, y]]), "class": cls }, g);
    svg("circle", { cx: x, cy: y, r: 3.5, "class": "kx-dot" }, g);
    // Centred above or below the point, kept inside the view.
    if (label) svg("text", { x: Math.max(48, Math.min(272, x)), y: y + (xy[1] < 0 ? 18 : -9), "text-anchor": "middle" }, g, label);
  }
  function arc(g, from, sweep, r) {  // counterclockwise by `sweep` radians from angle `from`
    if (Math.abs(sweep) >= 2 * Math.PI) { svg("circle", { cx: 160, cy: 120, r: r, "class": "kx-mark" }, g); return; }
    var to = from + sweep, big = Math.abs(sweep) > Math.PI ? 1 : 0, dir = sweep > 0 ? 0 : 1;
    svg("path", { "class": "kx-mark", d: "M" + (160 + r * Math.cos(from)).toFixed(1) + " " + (120 - r * Math.sin(from)).toFixed(1) +
      "A" + r + " " + r + " 0 " + big + " " + dir + " " + (160 + r * Math.cos(to)).toFixed(1) + " " + (120 - r * Math.sin(to)).toFixed(1) }, g);
  }

  function mount(ui) {
    var v = ui.v;
    ui.slider("d", t("shift_d"));
    ui.slider("pair", t("shift_pair"));
    ui.slider("position", t("shift_position"));
    ui.slider("offset", t("shift_offset"));
    var left = circle(ui, t("shift_left_label"), ["cos", "sin"]);
    var right = circle(ui, t("shift_right_label"), [t("shift_first"), t("shift_second")]);

    function draw() {
      ui.range("pair", 0, v.d / 2 - 1);
      ui.range("offset", -Math.min(50, v.position), 50);  // positions from 0, as in the table
      var p = v.position, o = v.offset, pair = v.pair, w = frequency(pair, v.d);
      var a = point(p, pair, v.d), b = point(p + o, pair, v.d);
      left.textContent = "";
      arc(left, p * w, o * w, 36);
      arrow(left, [a[1], a[0]], 100, "kx-ink", "p = " + p);
      arrow(left, [b[1], b[0]], 100, "kx-line", "p + o = " + (p + o));
      svg("text", { x: 8, y: 244 }, left, t("shift_turned", { angle: fmt(w * o, 3) }));

      var q = rotate(Q, p * w), key = rotate(KEY, (p + o) * w), score = pairScore(Q, KEY, p, p + o, pair, v.d);
      right.textContent = "";
      arrow(right, q, 100, "kx-ink", t("shift_query", { m: p }));
      arrow(right, key, 100, "kx-line", t("shift_key", { n: p + o }));
      svg("text", { x: 8, y: 244 }, right, t("shift_score", { score: fmt(score, 4), o: o }));

      ui.say(t("shift_readout", { pair: pair, d: v.d, w: fmt(w), p: p, q: p + o, angle: fmt(w * o), score: fmt(score, 4), o: o }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("shift-rotation", { frequency: frequency, point: point, shiftBlock: shiftBlock, rotate: rotate, pairScore: pairScore, mount: mount });
})();

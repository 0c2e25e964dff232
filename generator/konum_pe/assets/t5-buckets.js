/* konum explorer "t5-buckets": T5's bucket of every relative position (key - query) as a step
 * curve and a strip, and as a query-by-key matrix; where the exact buckets end and the
 * logarithmic ones begin; the first distance of the last bucket.
 * Arithmetic ported from konum_pe.pe.t5_bucket, in float32 step by step as the core (and the
 * references) compute it: Math.fround after every operation; the browser tests compare it
 * with the core bucket for bucket.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K["t5-buckets"]) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, t = kit.t, f = Math.fround;

  function half(numBuckets, bidirectional) { return bidirectional ? numBuckets >> 1 : numBuckets; }
  /* Distances below this have a bucket each (max_exact). */
  function exactBuckets(numBuckets, bidirectional) { return half(numBuckets, bidirectional) >> 1; }
  /* pe.t5_bucket(rel, bidirectional, num_buckets, max_distance) for one integer rel. */
  function bucket(rel, bidirectional, numBuckets, maxDistance) {
    var b = half(numBuckets, bidirectional), e = b >> 1, out = 0, n;
    if (bidirectional) {
      if (rel > 0) out = b;
      n = Math.abs(rel);
    } else n = Math.max(-rel, 0);
    if (n < e) return out + n;
    var ratio = f(f(n) / f(e));
    var scaled = f(f(f(Math.log(ratio)) / f(Math.log(maxDistance / e))) * f(b - e));
    return out + Math.min(e + Math.trunc(scaled), b - 1);
  }
  /* The first distance n (key n positions before the query) in the last bucket. */
  function lastStart(bidirectional, numBuckets, maxDistance) {
    var last = half(numBuckets, bidirectional) - 1, n = 0;
    while (bucket(-n, bidirectional, numBuckets, maxDistance) < last) n++;
    return n;
  }
  /* The relative positions sharing rel's bucket, as [first, last] (within +-limit). */
  function members(rel, bidirectional, numBuckets, maxDistance, limit) {
    var b = bucket(rel, bidirectional, numBuckets, maxDistance), lo = rel, hi = rel;
    while (lo > -limit && bucket(lo - 1, bidirectional, numBuckets, maxDistance) === b) lo--;
    while (hi < limit && bucket(hi + 1, bidirectional, numBuckets, maxDistance) === b) hi++;
    return [lo, hi];
  }
  /* Keys before the query in the primary colour, after it in the accent, darker when farther. */
  function shade(g, x, y, w, h, b, side) {
    var after = b >= side;
    svg("rect", { x: x, y: y, width: w + 0.15, height: h + 0.15, "class": after ? "kx-pos" : "kx-neg", "fill-opacity": (0.12 + 0.88 * (b - (after ? side : 0)) / (side - 1 || 1)).toFixed(3) }, g);
  }

  function mount(ui) {
    var v = ui.v, X0 = 30, PW = 280;
    ui.slider("num_buckets", t("t5_buckets"));
    ui.slider("max_distance", t("t5_max_distance"));
    ui.select("direction", t("t5_direction"), function (c) { return t("t5_" + c); });
    ui.slider("relative", t("t5_relative"));
    ui.slider("tokens", t("t5_tokens"));
    var curve = svg("g", {}, ui.view(320, 236, t("t5_curve_label")));
    var grid = svg("g", {}, ui.view(320, 230, t("t5_grid_label")));

    function draw() {
      var bi = v.direction === "bidirectional", nb = v.num_buckets, far, e = exactBuckets(nb, bi);
      ui.range("max_distance", e + 1, 1024);
      far = v.max_distance;
      var span = Math.min(1024, Math.max(16, far + (far >> 2)));
      ui.range("relative", -span, span);
      var rel = v.relative, at = function (r) { return bucket(r, bi, nb, far); };
      var sx = kit.scale(-span - 0.5, span + 0.5, X0, X0 + PW), sy = kit.scale(0, nb - 1, 170, 10);
      var pts = [], r, w = PW / (2 * span + 1);
      curve.textContent = "";
      for (r = -span; r <= span; r++) {
        pts.push([sx(r - 0.5), sy(at(r))], [sx(r + 0.5), sy(at(r))]);
        shade(curve, sx(r - 0.5), 182, w, 14, at(r), half(nb, bi));
      }
      svg("path", { d: kit.line(pts), "class": "kx-line" }, curve);
      var start = lastStart(bi, nb, far);
      [e, start].forEach(function (n, i) {
        var xs = bi ? [-n, n] : [-n];
        xs.forEach(function (x) { svg("path", { d: kit.line([[sx(x - 0.5), 8], [sx(x - 0.5), 198]]), "class": "kx-mark", "stroke-dasharray": i ? "2 3" : "5 3" }, curve); });
      });
      svg("circle", { cx: sx(rel), cy: sy(at(rel)), r: 4, "class": "kx-mark" }, curve);
      svg("text", { x: X0, y: 214 }, curve, "−" + span);
      svg("text", { x: X0 + PW, y: 214, "text-anchor": "end" }, curve, "+" + span);
      svg("text", { x: X0 + PW / 2, y: 214, "text-anchor": "middle" }, curve, t("t5_axis_relative"));
      svg("text", { x: X0 - 4, y: 14, "text-anchor": "end" }, curve, String(nb - 1));
      svg("text", { x: X0 - 4, y: 174, "text-anchor": "end" }, curve, "0");
      svg("path", { d: "M" + X0 + " 226h14", "class": "kx-mark", "stroke-dasharray": "5 3" }, curve);
      svg("text", { x: X0 + 18, y: 230 }, curve, t("t5_exact_ends"));
      svg("path", { d: "M" + (X0 + 140) + " 226h14", "class": "kx-mark", "stroke-dasharray": "2 3" }, curve);
      svg("text", { x: X0 + 158, y: 230 }, curve, t("t5_last_begins"));

      var tokens = v.tokens, c = 200 / tokens;
      grid.textContent = "";
      for (var i = 0; i < tokens; i++) for (var j = 0; j < tokens; j++) shade(grid, 60 + j * c, 4 + i * c, c, c, at(j - i), half(nb, bi));
      if (Math.abs(rel) < tokens) {  // the cells with key - query = rel lie on one diagonal
        var i0 = Math.max(0, -rel), len = tokens - Math.abs(rel);
        svg("path", { d: kit.line([[60 + (i0 + rel) * c, 4 + i0 * c], [60 + (i0 + rel + len) * c, 4 + (i0 + len) * c]]), "class": "kx-mark" }, grid);
      }
      svg("text", { x: 160, y: 222, "text-anchor": "middle" }, grid, t("t5_axis_key"));
      svg("text", { x: 50, y: 104, "text-anchor": "end" }, grid, t("t5_axis_query"));

      var b = at(rel), share = members(rel, bi, nb, far, 4096), open = share[0] === -4096 || share[1] === 4096;
      var which = !bi && rel >= 0 ? t("t5_self_and_after")
        : share[0] === share[1] ? t("t5_own")
        : t(open ? "t5_shared_open" : "t5_shared", { first: share[0], last: share[1] });
      var last = bi ? t("t5_last_both", { before: half(nb, bi) - 1, after: nb - 1 }) : half(nb, bi) - 1;
      ui.say(t("t5_readout", { rel: rel, bucket: b, which: which, exact_last: e - 1, exact: e, start: start, last: last }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("t5-buckets", { bucket: bucket, exactBuckets: exactBuckets, lastStart: lastStart, members: members, mount: mount });
})();
